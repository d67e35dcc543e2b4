import type { ErrorDetail } from './errors'
import { ruled } from './detail-rules'

/*
 * Names in every language the branch speaks (contract §18): a name is one string, or an object
 * of BCP 47 language tags to strings. One resolver for the server (pages, print, speech,
 * reports, the public API's Accept-Language): the asked language, else the unit's default
 * language, else the first name given.
 */

/** A name as provisioned: `"Accounts"` or `{"en": "Accounts", "ar": "الحسابات"}`. */
export type LocalizedName = string | Readonly<Record<string, string>>

/** The longest name, and the most languages one name may carry. */
export const MAX_NAME_LENGTH = 200
export const MAX_NAME_LANGUAGES = 20

/**
 * The canonical spelling of a BCP 47 language tag (`en-gb` → `en-GB`), or null when it is not
 * one. Intl knows the grammar; the length bound keeps a hostile file's tags small.
 */
export function canonicalLanguageTag(tag: string): string | null {
  if (tag.length === 0 || tag.length > 35 || !/^[A-Za-z0-9-]+$/.test(tag)) return null
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null
  } catch {
    return null
  }
}

function primary(tag: string): string {
  return tag.split('-')[0]!.toLowerCase()
}

/**
 * Which of `available` serves a reader of `wanted`: the same tag, else one of the same language
 * (`ar-EG` reads `ar`, `en` reads `en-GB`), else null. Case does not matter.
 */
export function matchLanguage(wanted: string, available: readonly string[]): string | null {
  const lower = wanted.toLowerCase()
  const exact = available.find((tag) => tag.toLowerCase() === lower)
  if (exact !== undefined) return exact
  return available.find((tag) => primary(tag) === primary(wanted)) ?? null
}

/** A name in `language`, else in `defaultLanguage`, else the first one given (contract §18). */
export function resolveName(name: LocalizedName, language: string | null, defaultLanguage: string): string {
  if (typeof name === 'string') return name
  const tags = Object.keys(name)
  const tag = (language === null ? null : matchLanguage(language, tags)) ?? matchLanguage(defaultLanguage, tags) ?? tags[0]
  return tag === undefined ? '' : name[tag]!
}

/** A stored name: the default-language `name` column beside the `names` JSON (null when provisioned as one string). */
export function storedName(name: string, names: string | null): LocalizedName {
  return names === null ? name : (JSON.parse(names) as Record<string, string>)
}

/** The `names` object the operator, display and admin APIs show beside `name`: one entry for a plain name. */
export function namesObject(name: LocalizedName, defaultLanguage: string): Record<string, string> {
  return typeof name === 'string' ? { [defaultLanguage]: name } : { ...name }
}

/** The tags of an `Accept-Language` header, highest weight first (`q=0` and `*` left out; at most 20 read). */
function acceptedTags(header: string | null): string[] {
  if (header === null || header.length > 1000) return []
  const wanted = header.split(',').slice(0, 20).map((part, order) => {
    const [tag = '', ...params] = part.trim().split(';')
    const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)).find((m) => m !== null)
    return { tag: tag.trim(), q: q ? Number(q[1]) : 1, order }
  }).filter((w) => w.tag !== '' && w.tag !== '*' && w.q > 0)
  wanted.sort((a, b) => b.q - a.q || a.order - b.order)
  return wanted.map((w) => w.tag)
}

/**
 * The language an `Accept-Language` header asks for among `available` (RFC 9110 §12.5.4: the
 * highest weight first, `q=0` refused, `*` left out: the caller's default serves it), or null.
 * At most 20 entries are read.
 */
export function acceptedLanguage(header: string | null, available: readonly string[]): string | null {
  for (const tag of acceptedTags(header)) {
    const found = matchLanguage(tag, available)
    if (found !== null) return found
  }
  return null
}

/**
 * The locale an `Accept-Language` header asks for within `language` (`en-GB` for an English page
 * from a British browser), canonical, or null when it names none of that language more exactly
 * than the language itself: a page whose words are English formats its dates and times as the
 * reader's English does.
 */
export function acceptedLocale(header: string | null, language: string): string | null {
  for (const tag of acceptedTags(header)) {
    const locale = localeWithin(tag, language)
    if (locale !== null) return locale
  }
  return null
}

/**
 * `tag`, canonical, when it is a well-formed locale of `language` that says more than the
 * language (`en-us` within `en`: `en-US`), else null. A bare `en` or `ar` says nothing of how
 * dates and times are written, so it leaves the page's own default.
 */
export function localeWithin(tag: string | null | undefined, language: string): string | null {
  if (tag === null || tag === undefined || tag.length > 100 || primary(tag) !== primary(language)) return null
  try {
    const canonical = Intl.getCanonicalLocales(tag)[0]
    return canonical === undefined || !canonical.includes('-') ? null : canonical
  } catch {
    return null
  }
}

/** What is wrong with a provisioned name at `pointer`: an empty string, an empty object, a bad tag or text. */
export function nameErrors(value: unknown, pointer: string): ErrorDetail[] {
  const textProblem = (path: string, text: unknown): ErrorDetail | null =>
    typeof text !== 'string' || text.trim() === '' ? ruled(path, 'must be a non-empty string', 'nameEmpty')
      : [...text].length > MAX_NAME_LENGTH ? ruled(path, `at most ${MAX_NAME_LENGTH} characters`, 'maxLength', { max: MAX_NAME_LENGTH })
        : null
  if (typeof value === 'string') {
    const problem = textProblem(pointer, value)
    return problem === null ? [] : [problem]
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [ruled(pointer, 'must be a string or an object of language tags to strings ({"en": "Accounts", "ar": "الحسابات"})', 'nameForm')]
  }
  const entries = Object.entries(value)
  if (entries.length === 0) return [ruled(pointer, 'must name at least one language', 'nameNoLanguage')]
  if (entries.length > MAX_NAME_LANGUAGES) return [ruled(pointer, `at most ${MAX_NAME_LANGUAGES} languages`, 'nameLanguages', { max: MAX_NAME_LANGUAGES })]
  const errors: ErrorDetail[] = []
  const seen = new Map<string, string>()
  for (const [tag, text] of entries) {
    const path = `${pointer}/${tag.replaceAll('~', '~0').replaceAll('/', '~1')}`
    const canonical = canonicalLanguageTag(tag)
    if (canonical === null) {
      errors.push(ruled(path, `"${tag}" is not a BCP 47 language tag (such as en, ar, fr-CA)`, 'languageTag', { tag }))
      continue
    }
    if (seen.has(canonical.toLowerCase())) errors.push(ruled(path, `the same language as "${seen.get(canonical.toLowerCase())}"`, 'languageTwice', { tag, other: seen.get(canonical.toLowerCase())! }))
    seen.set(canonical.toLowerCase(), tag)
    const problem = textProblem(path, text)
    if (problem !== null) errors.push(problem)
  }
  return errors
}

/** A name with its tags in canonical spelling (`en-gb` → `en-GB`); call after `nameErrors` found none. */
export function canonicalName(name: LocalizedName): LocalizedName {
  if (typeof name === 'string') return name
  return Object.fromEntries(Object.entries(name).map(([tag, text]) => [canonicalLanguageTag(tag) ?? tag, text]))
}
