import { Type } from '@sinclair/typebox'
import { localDate } from '../../platform/time'
import { WidgetWarnings } from '../errors'
import {
  CalendarDate, closed, DateTime, fieldsOf, instantOf, ItemId, Items, itemPath, itemsOf, Locale, OneOf,
  OptionalText, SchemaVersion, Text, TimeZone, assertEndsAfterStart, assertUniqueItemIds,
  type PayloadDefinition, type PushWarning,
} from './common'

/** Contract §4, TODAYS_SCHEDULE: at most 500 items. */
export const SCHEDULE_ITEM_LIMIT = 500
export const SCHEDULE_STATUSES = ['SCHEDULED', 'IN_PROGRESS', 'DELAYED', 'RESCHEDULED', 'CANCELLED', 'COMPLETED'] as const

const ScheduleItem = Type.Object({
  id: ItemId,
  title: Text(),
  startAt: DateTime(),
  endAt: Type.Optional(DateTime('ISO 8601 date-time with an explicit offset; after `startAt`')),
  location: OptionalText(),
  host: OptionalText(),
  status: Type.Optional(OneOf(SCHEDULE_STATUSES, 'SCHEDULED')),
}, closed)

export const TodaysSchedulePayload = Type.Object({
  schemaVersion: SchemaVersion,
  title: OptionalText(),
  subtitle: OptionalText(300),
  locale: Type.Optional(Locale),
  timezone: TimeZone,
  date: CalendarDate,
  updatedAt: Type.Optional(DateTime()),
  items: Items(ScheduleItem, SCHEDULE_ITEM_LIMIT),
}, { ...closed, title: 'TodaysSchedulePayload' })

/** Contract §4: an item whose start, in the schedule's time zone, is not on `date` is accepted with a warning. */
function warnItemsOutsideDate(data: unknown): PushWarning[] {
  const { timezone, date } = fieldsOf(data) as { timezone: string; date: string }
  const warnings: PushWarning[] = []
  for (const [index, item] of itemsOf(data)) {
    const start = instantOf(item.startAt)
    if (start === null) continue
    const startDate = localDate(start, timezone)
    if (startDate !== date) {
      warnings.push({
        code: WidgetWarnings.ITEM_OUTSIDE_DATE,
        message: `item starts on ${startDate} in ${timezone}, not on the schedule's date ${date}`,
        path: itemPath(index, 'startAt'),
      })
    }
  }
  return warnings
}

export const todaysSchedule: PayloadDefinition = {
  widgetType: 'TODAYS_SCHEDULE',
  itemLimit: SCHEDULE_ITEM_LIMIT,
  schema: TodaysSchedulePayload,
  itemDefaults: { status: 'SCHEDULED' },
  rules: (data) => [...assertUniqueItemIds(data), ...assertEndsAfterStart(data, 'startAt', 'endAt')],
  warnings: warnItemsOutsideDate,
}
