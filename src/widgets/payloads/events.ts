import { Type } from '@sinclair/typebox'
import {
  closed, DateTime, ImageUrl, ItemId, Items, Locale, OneOf, OptionalText, SchemaVersion, Text, TimeZone,
  assertEndsAfterStart, assertUniqueItemIds, type PayloadDefinition,
} from './common'

/** Contract §4, EVENTS: at most 500 items. */
export const EVENT_ITEM_LIMIT = 500
export const EVENT_STATUSES = ['SCHEDULED', 'CANCELLED', 'POSTPONED', 'RESCHEDULED', 'MOVED_ONLINE'] as const

const Event = Type.Object({
  id: ItemId,
  title: Text(),
  startAt: DateTime(),
  endAt: Type.Optional(DateTime('ISO 8601 date-time with an explicit offset; after `startAt`')),
  allDay: Type.Optional(Type.Boolean()),
  location: OptionalText(),
  organizer: OptionalText(),
  description: OptionalText(1000),
  imageUrl: Type.Optional(ImageUrl),
  status: Type.Optional(OneOf(EVENT_STATUSES, 'SCHEDULED')),
}, closed)

export const EventsPayload = Type.Object({
  schemaVersion: SchemaVersion,
  title: OptionalText(),
  subtitle: OptionalText(),
  locale: Type.Optional(Locale),
  timezone: TimeZone,
  updatedAt: Type.Optional(DateTime()),
  items: Items(Event, EVENT_ITEM_LIMIT),
}, { ...closed, title: 'EventsPayload' })

export const events: PayloadDefinition = {
  widgetType: 'EVENTS',
  itemLimit: EVENT_ITEM_LIMIT,
  schema: EventsPayload,
  itemDefaults: { status: 'SCHEDULED' },
  // The contract states `endAt > startAt` for the schedule; an event ending before it starts
  // is the same data error, so events follow the same rule (docs/widgets.md).
  rules: (data) => [...assertUniqueItemIds(data), ...assertEndsAfterStart(data, 'startAt', 'endAt')],
  warnings: () => [],
}
