/*
 * Contract §28 "Digits follow one rule per language on every page": the digits each language's
 * pages write numbers, times, dates, durations and counts in. Every page — the customer's
 * (kiosk, print, phone, join, booking), the boards and the staff's (desk, floor, console,
 * reports) — hands its locale to `withPageDigits` before Intl formats anything, so a reader's
 * `ar-SA` or `ar-EG` (whose Intl default is Arabic-Indic digits) and a bare `ar` (Latin in
 * today's CLDR) read the same digits, as do the numbers pages write without Intl (ticket
 * numbers `A001`, booking codes, `String(n)` in a sentence).
 *
 * The rule: Latin digits (0–9) in every language. Ticket numbers and booking codes are Latin
 * letters and digits, and a page that wrote "A001" beside "٣ أشخاص" and "١٢:٣٠" would mix two
 * systems on one screen. Pure and DOM-free: the server's pages and the browser bundles import it.
 */

/** The numbering system (a Unicode `nu` value) of each language's pages; a language not listed takes `DEFAULT_DIGITS`. */
export const PAGE_DIGITS: Readonly<Record<string, string>> = { en: 'latn', ar: 'latn' }

/** The digits of a language not in `PAGE_DIGITS`. */
export const DEFAULT_DIGITS = 'latn'

const cache = new Map<string, string>()

/**
 * `locale` with its language's page digits (`ar-SA` → `ar-SA-u-nu-latn`), for every Intl
 * formatter a page makes. A tag Intl cannot read is returned as given (Intl then refuses or
 * falls back as it would have).
 */
export function withPageDigits(locale: string): string {
  let out = cache.get(locale)
  if (out === undefined) {
    try {
      const parsed = new Intl.Locale(locale)
      out = new Intl.Locale(locale, { numberingSystem: PAGE_DIGITS[parsed.language] ?? DEFAULT_DIGITS }).toString()
    } catch {
      out = locale
    }
    if (cache.size < 500) cache.set(locale, out)
  }
  return out
}
