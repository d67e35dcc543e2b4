import { FormatRegistry } from '@sinclair/typebox'
import { isIanaTimeZone, isRealDate, parseOffsetDateTime } from '../platform/time'

/**
 * The string rules of contract §4, each in one function, and the TypeBox formats that put
 * them into the payload schemas (so the OpenAPI document names them too).
 */

/** Contract §4: a `<` followed by a letter, `/`, `!` or `?` is markup; a lone `<` (`3 < 5`) is text. */
export function containsHtmlTag(text: string): boolean {
  return /<[A-Za-z/!?]/.test(text)
}

/**
 * Contract §4: ISO 8601 with an explicit offset (`Z` or `±hh:mm`), a real calendar date and
 * clock time (no 24:00, no leap second). Seconds and fractions are optional; fractions beyond
 * milliseconds are truncated. Returns the instant in epoch milliseconds, or null.
 */
export function parseWidgetDateTime(value: string): number | null {
  let parsed = parsedDateTimes.get(value)
  if (parsed === undefined) {
    parsed = parseOffsetDateTime(value, 'iso8601')
    if (parsedDateTimes.size >= MAX_PARSED_DATE_TIMES) parsedDateTimes.clear()
    parsedDateTimes.set(value, parsed)
  }
  return parsed
}

/**
 * A push's date-times are read three times (the schema's format check, the rule that an end
 * follows its start, the schedule's date warning): each text is parsed once and remembered, for
 * this push and the next ones (a CMS pushes mostly the same items again). Bounded: 2 × 500 items
 * of the largest payload fit many times over.
 */
const MAX_PARSED_DATE_TIMES = 8192
const parsedDateTimes = new Map<string, number | null>()

/** Contract §4: `date` is a real calendar date written `YYYY-MM-DD`. */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))
}

/** Contract §4: `locale` is a well-formed BCP 47 language tag (as `Intl` understands them). */
export function isBcp47Locale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1
  } catch {
    return false
  }
}

/** Characters RFC 3986 allows in a URI; anything else must be percent-encoded. */
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/

/** `imageUrl`: an absolute `https` URL with a host, written with URI characters only. */
export function isHttpsUrl(value: string): boolean {
  // The authority is checked on the text: WHATWG URL parsing would turn `https:///x` into host `x`.
  if (!URI_CHARACTERS.test(value) || !/^https:\/\/[^/?#]/i.test(value)) return false
  try {
    const url = new URL(value)
    return url.protocol === 'https:' && url.hostname.length > 0
  } catch {
    return false
  }
}

/** The formats the widget schemas use, with the message a failing field gets. */
export const Formats = {
  plainText: { name: 'plain-text', message: 'must not contain HTML markup', check: (v: string) => !containsHtmlTag(v) },
  offsetDateTime: {
    name: 'offset-date-time',
    message: 'must be an ISO 8601 date-time with an explicit offset, e.g. 2026-01-31T18:00:00+01:00',
    check: (v: string) => parseWidgetDateTime(v) !== null,
  },
  fullDate: { name: 'full-date', message: 'must be a real calendar date YYYY-MM-DD', check: isCalendarDate },
  ianaTimeZone: { name: 'iana-time-zone', message: 'must be an IANA time zone name, e.g. Europe/Berlin', check: isIanaTimeZone },
  bcp47Locale: { name: 'bcp47-locale', message: 'must be a BCP 47 language tag, e.g. en-GB', check: isBcp47Locale },
  httpsUrl: { name: 'https-url', message: 'must be an absolute https URL', check: isHttpsUrl },
} as const

const messageByFormat = new Map<string, string>(Object.values(Formats).map((f) => [f.name, f.message]))

/** The message for a field failing `format`, or undefined when it is not one of ours. */
export function formatMessage(format: string): string | undefined {
  return messageByFormat.get(format)
}

// TypeBox formats are process-wide: refuse to silently replace someone else's of the same name.
for (const format of Object.values(Formats)) {
  if (FormatRegistry.Has(format.name) && FormatRegistry.Get(format.name) !== format.check) {
    throw new Error(`TypeBox format '${format.name}' is already registered by another module`)
  }
  FormatRegistry.Set(format.name, format.check)
}
