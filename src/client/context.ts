import { canonicalLang, directionOf, type ScreenOptions } from '../screens/shared/options'
import { labelsFor, type Labels } from './i18n'

/**
 * What every part of a screen shares: its URL options and its language. The language comes
 * from `lang` in the URL, else (widget screens) the payload's `locale`, else the browser's;
 * it sets the words, Intl's formatting and the page's direction.
 */
export class ScreenContext {
  lang = 'en'
  labels: Labels = labelsFor('en')
  private readonly listeners: (() => void)[] = []

  constructor(readonly options: ScreenOptions) {
    this.setLang(options.lang ?? navigator.language ?? 'en')
  }

  /** Uses the data's own locale, unless the URL chose one. True when the language changed. */
  adoptDataLocale(locale: string | undefined): boolean {
    if (this.options.lang !== null || locale === undefined) return false
    return this.setLang(locale)
  }

  onLangChange(listener: () => void): void {
    this.listeners.push(listener)
  }

  private setLang(tag: string): boolean {
    const lang = canonicalLang(tag) ?? 'en'
    if (lang === this.lang && document.documentElement.lang === lang) return false
    this.lang = lang
    this.labels = labelsFor(lang)
    document.documentElement.lang = lang
    document.documentElement.dir = directionOf(lang)
    for (const listener of this.listeners) listener()
    return true
  }
}
