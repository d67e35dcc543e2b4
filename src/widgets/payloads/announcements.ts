import { Type } from '@sinclair/typebox'
import {
  closed, DateTime, ImageUrl, ItemId, Items, Locale, OneOf, OptionalText, SchemaVersion, Text, TimeZone,
  assertEndsAfterStart, assertUniqueItemIds, type PayloadDefinition,
} from './common'

/** Contract §4, ANNOUNCEMENTS: at most 200 items. */
export const ANNOUNCEMENT_ITEM_LIMIT = 200
export const ANNOUNCEMENT_PRIORITIES = ['LOW', 'NORMAL', 'HIGH', 'URGENT'] as const

const Announcement = Type.Object({
  id: ItemId,
  title: Text(),
  body: Text(1000),
  priority: Type.Optional(OneOf(ANNOUNCEMENT_PRIORITIES, 'NORMAL')),
  category: OptionalText(),
  startsAt: Type.Optional(DateTime()),
  endsAt: Type.Optional(DateTime('ISO 8601 date-time with an explicit offset; after `startsAt`')),
  displaySeconds: Type.Optional(Type.Integer({ minimum: 5, maximum: 300 })),
  imageUrl: Type.Optional(ImageUrl),
}, closed)

export const AnnouncementsPayload = Type.Object({
  schemaVersion: SchemaVersion,
  title: OptionalText(),
  locale: Type.Optional(Locale),
  timezone: Type.Optional(TimeZone),
  updatedAt: Type.Optional(DateTime()),
  items: Items(Announcement, ANNOUNCEMENT_ITEM_LIMIT),
}, { ...closed, title: 'AnnouncementsPayload' })

export const announcements: PayloadDefinition = {
  widgetType: 'ANNOUNCEMENTS',
  itemLimit: ANNOUNCEMENT_ITEM_LIMIT,
  schema: AnnouncementsPayload,
  itemDefaults: { priority: 'NORMAL' },
  rules: (data) => [...assertUniqueItemIds(data), ...assertEndsAfterStart(data, 'startsAt', 'endsAt')],
  warnings: () => [],
}
