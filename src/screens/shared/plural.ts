import { fill, formatNumber } from './format'

/*
 * Counts in words, by the language's own plural rules (Intl.PluralRules): English has "1 ticket"
 * and "2 tickets", Arabic six forms (zero, one, two, few, many, other), so a count is never a
 * number glued to one fixed word. Each phrase names the forms its language uses; `other` is
 * the one every language has.
 */

export type PluralForm = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other'

/** `{n}` is the count in the page's digits. */
export type PluralPhrase = Partial<Record<PluralForm, string>> & { other: string }

const rules = new Map<string, Intl.PluralRules | null>()

/** The plural form `lang`'s rules choose for `n` (`other` for a tag Intl does not take). */
export function pluralForm(lang: string, n: number): PluralForm {
  let rule = rules.get(lang)
  if (rule === undefined) {
    try {
      rule = new Intl.PluralRules(lang)
    } catch {
      rule = null
    }
    rules.set(lang, rule)
  }
  return rule === null ? 'other' : (rule.select(n) as PluralForm)
}

/** `n` in the phrase form `lang`'s rules choose for it ("3 tickets still waiting"). */
export function plural(lang: string, phrase: PluralPhrase, n: number): string {
  return fill(phrase[pluralForm(lang, n)] ?? phrase.other, { n: formatNumber(lang, n) })
}
