import { Type } from '@sinclair/typebox'
import type { ErrorDetail } from '../../platform/errors'
import {
  closed, DateTime, ItemId, Items, itemPath, itemsOf, Locale, OneOf, OptionalText, SchemaVersion, Text, TimeZone,
  assertUniqueItemIds, type PayloadDefinition,
} from './common'

/** Contract §4, TRANSPORT_BOARD: at most 1000 items. */
export const TRANSPORT_ITEM_LIMIT = 1000
export const DIRECTIONS = ['DEPARTURE', 'ARRIVAL'] as const
export const TRANSPORT_STATUSES = [
  'ON_TIME', 'EARLY', 'DELAYED', 'CANCELLED', 'BOARDING', 'ARRIVED', 'DEPARTED', 'SKIPPED', 'NO_REPORT',
] as const

const Color = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: 'Colour `#RRGGBB`' })

const Line = Type.Object({
  shortName: Text(),
  color: Type.Optional(Color),
  textColor: Type.Optional(Color),
}, closed)

const Stop = Type.Object({
  id: Type.Optional(Text()),
  name: Text(),
}, closed)

const BoardItem = Type.Object({
  id: ItemId,
  direction: OneOf(DIRECTIONS),
  line: Line,
  scheduledAt: DateTime(),
  status: OneOf(TRANSPORT_STATUSES),
  destination: Type.Optional(Text(undefined, 'Required for DEPARTURE items')),
  origin: Type.Optional(Text(undefined, 'Required for ARRIVAL items')),
  mode: OptionalText(),
  estimatedAt: Type.Optional(DateTime('ISO 8601 date-time with an explicit offset; required when status is DELAYED or EARLY')),
  platform: OptionalText(),
  remarks: OptionalText(140),
}, closed)

export const TransportBoardPayload = Type.Object({
  schemaVersion: SchemaVersion,
  title: OptionalText(),
  locale: Type.Optional(Locale),
  stop: Type.Optional(Stop),
  timezone: TimeZone,
  updatedAt: Type.Optional(DateTime()),
  items: Items(BoardItem, TRANSPORT_ITEM_LIMIT),
}, { ...closed, title: 'TransportBoardPayload' })

/**
 * Contract §4: `destination` is required for departures, `origin` for arrivals, and
 * `estimatedAt` when the status is DELAYED or EARLY.
 */
function assertConditionalFields(data: unknown): ErrorDetail[] {
  const errors: ErrorDetail[] = []
  for (const [index, item] of itemsOf(data)) {
    if (item.direction === 'DEPARTURE' && item.destination === undefined) {
      errors.push({ path: itemPath(index, 'destination'), message: 'required for DEPARTURE items' })
    }
    if (item.direction === 'ARRIVAL' && item.origin === undefined) {
      errors.push({ path: itemPath(index, 'origin'), message: 'required for ARRIVAL items' })
    }
    if ((item.status === 'DELAYED' || item.status === 'EARLY') && item.estimatedAt === undefined) {
      errors.push({ path: itemPath(index, 'estimatedAt'), message: `required when status is ${item.status}` })
    }
  }
  return errors
}

export const transportBoard: PayloadDefinition = {
  widgetType: 'TRANSPORT_BOARD',
  itemLimit: TRANSPORT_ITEM_LIMIT,
  schema: TransportBoardPayload,
  itemDefaults: {},
  rules: (data) => [...assertUniqueItemIds(data), ...assertConditionalFields(data)],
  warnings: () => [],
}
