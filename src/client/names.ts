/*
 * Names in the page's language (contract §18), by the server's rule (src/platform/names.ts):
 * the page's language, else the unit's default language, else the first name given. The
 * wire carries `names` (an object of BCP 47 tags) beside `name` (the default language's).
 */

function primary(tag: string): string {
  return tag.split('-')[0]!.toLowerCase()
}

/** The tag of `available` that serves a reader of `wanted`: the same tag, else the same language, else null. */
export function matchLanguage(wanted: string, available: readonly string[]): string | null {
  const lower = wanted.toLowerCase()
  return available.find((tag) => tag.toLowerCase() === lower) ?? available.find((tag) => primary(tag) === primary(wanted)) ?? null
}

/** A name in `lang`, else in `defaultLanguage`, else the first one; `fallback` (the wire's `name`) when there is no object. */
export function nameIn(names: Readonly<Record<string, string>> | null | undefined, lang: string, defaultLanguage: string, fallback: string): string {
  if (names === null || names === undefined) return fallback
  const tags = Object.keys(names)
  const tag = matchLanguage(lang, tags) ?? matchLanguage(defaultLanguage, tags) ?? tags[0]
  return tag === undefined ? fallback : names[tag]!
}

/** The language of a name as shown (for `lang` on its element, so speech and shaping follow the text). */
export function languageOfName(names: Readonly<Record<string, string>> | null | undefined, lang: string, defaultLanguage: string): string {
  if (names === null || names === undefined) return defaultLanguage
  const tags = Object.keys(names)
  return matchLanguage(lang, tags) ?? matchLanguage(defaultLanguage, tags) ?? tags[0] ?? defaultLanguage
}
