import { namesObject, resolveName, type LocalizedName } from '../platform/names'

/*
 * Contract §28 "Break reasons have names per language": a queue unit's `breakReasons` item is a
 * string (as in §16) or `{"id", "name"}` with `name` as §18 (a string or an object of language
 * tags). The column keeps the items as provisioned (so an export gives back the file's form);
 * everything that reads them goes through `breakReasonsOf`. A counter's `close {"reason"}`
 * names the id (a string item's id is the string itself), and that id is what a break stores;
 * pages and reports show the name in their reader's language.
 */

/** A `breakReasons` item as a provisioning file or the console writes it. */
export type BreakReasonItem = string | { id: string; name: LocalizedName }

/** A break reason as readers need it: its id and its names (always an object, §18's `names`). */
export interface BreakReason {
  id: string
  names: Record<string, string>
}

/**
 * The names of the standard reasons (DEFAULT_BREAK_REASONS, contract §16) in Arabic: a plain
 * string item that is one of them reads in Arabic too, as the desk showed them before names
 * per language existed.
 */
const STANDARD_NAMES: Readonly<Record<string, Record<string, string>>> = {
  Break: { en: 'Break', ar: 'استراحة' },
  Lunch: { en: 'Lunch', ar: 'غداء' },
  'Admin work': { en: 'Admin work', ar: 'عمل إداري' },
  Other: { en: 'Other', ar: 'أخرى' },
}

/** The id of an item: the string itself, or its `id`. */
export function breakReasonId(item: BreakReasonItem): string {
  return typeof item === 'string' ? item : item.id
}

/** A unit's stored `break_reasons` (JSON of items) as readers need them; `defaultLanguage` names a plain string's language. */
export function breakReasonsOf(stored: string | readonly BreakReasonItem[], defaultLanguage: string): BreakReason[] {
  const items = typeof stored === 'string' ? (JSON.parse(stored) as BreakReasonItem[]) : stored
  return items.map((item) => typeof item === 'string'
    ? { id: item, names: STANDARD_NAMES[item] !== undefined && defaultLanguage.split('-')[0] === 'en' ? { ...STANDARD_NAMES[item] } : { [defaultLanguage]: item } }
    : { id: item.id, names: namesObject(item.name, defaultLanguage) })
}

/** A reason's name in `language` (else the unit's default language, else the first given); an id no longer provisioned reads as itself. */
export function breakReasonName(reasons: readonly BreakReason[], id: string, language: string | null, defaultLanguage: string): string {
  const reason = reasons.find((r) => r.id === id)
  return reason === undefined ? id : resolveName(reason.names, language, defaultLanguage)
}
