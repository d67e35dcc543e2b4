import { Type, type TObject, type TSchema } from '@sinclair/typebox'
import { pointer, type ErrorDetail } from '../../platform/errors'
import { Formats, parseWidgetDateTime } from '../formats'

/** Building blocks and shared rules of the four widget payloads (contract §4). */

export const WIDGET_TYPES = ['TODAYS_SCHEDULE', 'ANNOUNCEMENTS', 'EVENTS', 'TRANSPORT_BOARD'] as const
export type WidgetType = (typeof WIDGET_TYPES)[number]

/** A warning on an accepted push (contract §4: `{code, message, path?}`). */
export interface PushWarning {
  code: string
  message: string
  path?: string
}

/** Every object of the envelope and the payloads is closed. */
export const closed = { additionalProperties: false } as const

/** Contract §4: strings are at most 200 characters unless the table says otherwise. */
export const DEFAULT_MAX_LENGTH = 200

/** A required text field: 1 to `maxLength` code points, no HTML. */
export function Text(maxLength = DEFAULT_MAX_LENGTH, description?: string) {
  return Type.String({ minLength: 1, maxLength, format: Formats.plainText.name, ...(description ? { description } : {}) })
}

/**
 * An optional text field: up to `maxLength` code points, no HTML. It may be empty, since only
 * a required string must have a character (contract §2); an empty one reads as "none".
 */
export function OptionalText(maxLength = DEFAULT_MAX_LENGTH, description?: string) {
  return Type.Optional(Type.String({ maxLength, format: Formats.plainText.name, ...(description ? { description } : {}) }))
}

export function DateTime(description = 'ISO 8601 date-time with an explicit offset (`Z` or `±hh:mm`)') {
  return Type.String({ format: Formats.offsetDateTime.name, description })
}

export const CalendarDate = Type.String({ format: Formats.fullDate.name, description: 'Calendar date `YYYY-MM-DD`' })
export const TimeZone = Type.String({ maxLength: 64, format: Formats.ianaTimeZone.name, description: 'IANA time zone name, e.g. `Europe/Berlin`' })
export const Locale = Type.String({ maxLength: 64, format: Formats.bcp47Locale.name, description: 'BCP 47 language tag, e.g. `en-GB`' })
export const ImageUrl = Type.String({ maxLength: 2048, format: Formats.httpsUrl.name, description: 'Absolute `https` URL, at most 2048 characters' })
export const SchemaVersion = Type.Literal(2, { description: 'Structured push payload version; must be 2' })
export const ItemId = Text(DEFAULT_MAX_LENGTH, 'Unique among the items of this snapshot')

/** One of a closed list of string values; `fallback` is what an absent value means. */
export function OneOf<const T extends readonly string[]>(values: T, fallback?: T[number]) {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    fallback === undefined ? {} : { description: `Default ${fallback}` },
  )
}

export function Items<T extends TSchema>(item: T, maxItems: number) {
  return Type.Array(item, { maxItems, description: `At most ${maxItems} items` })
}

/** What each payload module declares; the envelope and the service are built from these. */
export interface PayloadDefinition {
  widgetType: WidgetType
  itemLimit: number
  schema: TObject
  /** Values an absent item field stands for; filled into the stored snapshot. */
  itemDefaults: Record<string, unknown>
  /**
   * Rules across fields that a schema cannot state. Runs on data that may have failed the
   * schema too, so every failing path is listed at once: each rule checks its own inputs.
   */
  rules(data: unknown): ErrorDetail[]
  /** Warnings for a payload that passed every rule. */
  warnings(data: unknown): PushWarning[]
}

export type Fields = Record<string, unknown>

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The object-valued items of `data.items` with their indexes; anything else is the schema's to report. */
export function itemsOf(data: unknown): [number, Fields][] {
  if (!isFields(data) || !Array.isArray(data.items)) return []
  const out: [number, Fields][] = []
  data.items.forEach((item: unknown, index: number) => {
    if (isFields(item)) out.push([index, item])
  })
  return out
}

export function fieldsOf(data: unknown): Fields {
  return isFields(data) ? data : {}
}

export function itemPath(index: number, ...rest: string[]): string {
  return pointer('data', 'items', index, ...rest)
}

/** The instant of a field holding a valid offset date-time, else null (the schema reports it). */
export function instantOf(value: unknown): number | null {
  return typeof value === 'string' ? parseWidgetDateTime(value) : null
}

/** Contract §4: item `id`s are unique within one snapshot. */
export function assertUniqueItemIds(data: unknown): ErrorDetail[] {
  const firstIndex = new Map<string, number>()
  const errors: ErrorDetail[] = []
  for (const [index, item] of itemsOf(data)) {
    if (typeof item.id !== 'string') continue
    const first = firstIndex.get(item.id)
    if (first === undefined) firstIndex.set(item.id, index)
    else errors.push({ path: itemPath(index, 'id'), message: `duplicate item id; first used at ${itemPath(first, 'id')}` })
  }
  return errors
}

/** Contract §4: an item's end (`endKey`) is after its start (`startKey`) when both are given. */
export function assertEndsAfterStart(data: unknown, startKey: string, endKey: string): ErrorDetail[] {
  const errors: ErrorDetail[] = []
  for (const [index, item] of itemsOf(data)) {
    const start = instantOf(item[startKey])
    const end = instantOf(item[endKey])
    if (start !== null && end !== null && end <= start) {
      errors.push({ path: itemPath(index, endKey), message: `must be after ${startKey}` })
    }
  }
  return errors
}
