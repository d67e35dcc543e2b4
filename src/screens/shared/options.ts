/**
 * What a screen's URL may say, read the same way by the server (to write the page's first
 * `lang`, `dir` and theme, so nothing flashes) and by the browser. No DOM and no Bun here:
 * this file belongs to both the server program and the browser bundle.
 */

export type Theme = 'dark' | 'light'

export interface ScreenOptions {
  /** The display token (`lbd_…`), or null when the URL has none. */
  token: string | null
  /** `lang` (or its synonym `locale`): a BCP 47 tag for labels, dates, numbers and direction; null = not given. */
  lang: string | null
  theme: Theme
  /** Queue screens: only this location's services and calls. */
  location: string | null
  /** Queue screens: a two-tone chime on each new call. */
  chime: boolean
  /** Queue screens: each call spoken after the chime (contract §11); implies the chime. */
  voice: boolean
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on'])

/** A usable BCP 47 tag, canonicalised, or null for a missing or malformed one. */
export function canonicalLang(tag: string | null | undefined): string | null {
  if (tag === null || tag === undefined || tag.trim() === '') return null
  try {
    return Intl.getCanonicalLocales(tag.trim())[0] ?? null
  } catch {
    return null
  }
}

export function readOptions(query: URLSearchParams): ScreenOptions {
  const token = query.get('token')
  return {
    token: token !== null && token.trim() !== '' ? token.trim() : null,
    lang: canonicalLang(query.get('lang') ?? query.get('locale')),
    theme: query.get('theme') === 'light' ? 'light' : 'dark',
    location: query.get('location')?.trim() || null,
    chime: TRUE_WORDS.has((query.get('chime') ?? '').toLowerCase()),
    voice: TRUE_WORDS.has((query.get('voice') ?? '').toLowerCase()),
  }
}

/** Languages written right to left (used when the engine's Intl has no `textInfo`). */
const RTL_LANGUAGES = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'iw', 'ks', 'ku-Arab', 'ps', 'sd', 'ug', 'ur', 'yi'])
const RTL_SCRIPTS = new Set(['Arab', 'Hebr', 'Thaa', 'Syrc', 'Nkoo', 'Adlm', 'Rohg'])

/** `rtl` for a right-to-left language or script, else `ltr`. */
export function directionOf(lang: string): 'ltr' | 'rtl' {
  try {
    const locale = new Intl.Locale(lang) as Intl.Locale & {
      getTextInfo?: () => { direction?: string }
      textInfo?: { direction?: string }
    }
    const info = locale.getTextInfo?.() ?? locale.textInfo
    if (info?.direction === 'rtl' || info?.direction === 'ltr') return info.direction
    if (locale.script !== undefined) return RTL_SCRIPTS.has(locale.script) ? 'rtl' : 'ltr'
    return RTL_LANGUAGES.has(locale.language) ? 'rtl' : 'ltr'
  } catch {
    return 'ltr'
  }
}
