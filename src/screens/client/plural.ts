import { formatNumber } from './format'
import { fill } from './i18n'

/*
 * Counts in words, by the language's own plural rules (Intl.PluralRules): English has "1 ticket"
 * and "2 tickets", Arabic six forms (zero, one, two, few, many, other), so a count is never a
 * number glued to one fixed word. Each phrase names the forms its language uses; `other` is
 * the one every language has.
 */

export type PluralForm = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other'

/** `{n}` is the count in the page's digits. */
export type PluralPhrase = Partial<Record<PluralForm, string>> & { other: string }

const rules = new Map<string, Intl.PluralRules>()

/** `n` in the phrase form `lang`'s rules choose for it ("3 tickets still waiting"). */
export function plural(lang: string, phrase: PluralPhrase, n: number): string {
  let rule = rules.get(lang)
  if (rule === undefined) rules.set(lang, (rule = new Intl.PluralRules(lang)))
  const form = rule.select(n) as PluralForm
  return fill(phrase[form] ?? phrase.other, { n: formatNumber(lang, n) })
}
