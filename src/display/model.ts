import { Type } from '@sinclair/typebox'
import { PAYLOADS, WIDGET_TYPES } from '../widgets'
import { TICKET_STATUSES } from '../tickets'
import { Day, LocationSchema, Month } from '../prayer'

/*
 * The bodies of the display reads (docs/display.md), for the OpenAPI document: the routes
 * send JSON text built by their services, these schemas say what it holds.
 */

const closed = { additionalProperties: false } as const
const DateTime = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' })
/** Contract §18: a name in every language it has; a name provisioned as one string is one entry, in the unit's default language. */
const Names = Type.Record(Type.String(), Type.String(), { description: 'the name per BCP 47 language tag (contract §18); `name` is the default language\'s' })
const OpensAt = Type.Union([DateTime, Type.Null()], { description: 'closed: the next opening; null when open (or no opening within the next year)' })

export const DisplayWidget = Type.Object(
  {
    widgetId: Type.String(),
    widgetType: Type.Union(WIDGET_TYPES.map((t) => Type.Literal(t))),
    name: Type.String(),
    dataRevision: Type.Integer({ minimum: 0, description: '0 until the first accepted push' }),
    acceptedAt: Type.Union([DateTime, Type.Null()]),
    data: Type.Union([...WIDGET_TYPES.map((t) => PAYLOADS[t].schema), Type.Null()], { description: 'the payload of the last accepted push (its widgetType), null before the first' }),
  },
  closed,
)

export const DisplayNowServing = Type.Object(
  {
    number: Type.String(),
    counterName: Type.String(),
    counterNames: Names,
    status: Type.Union([Type.Literal('CALLED'), Type.Literal('SERVING')]),
    calledAt: DateTime,
    priority: Type.Boolean({ description: 'the ticket served is a priority ticket (contract §8)' }),
  },
  closed,
)

export const DisplayQueueState = Type.Object(
  {
    queueUnitId: Type.String(),
    name: Type.String(),
    names: Names,
    defaultLanguage: Type.String({ description: 'the language every `name` is in (contract §18)' }),
    languages: Type.Array(Type.String(), { description: 'the unit\'s languages, the default first' }),
    stateRevision: Type.Integer({ minimum: 0, description: 'the unit\'s revision of its live state; changes with every ticket or counter change and when a service opens or closes' }),
    generatedAt: DateTime,
    locations: Type.Array(Type.Object({
      id: Type.String(),
      name: Type.String(),
      names: Names,
      timezone: Type.String(),
      open: Type.Boolean({ description: 'any of its services takes tickets now' }),
      opensAt: Type.Union([DateTime, Type.Null()], { description: 'closed: the earliest next opening of its services; null when open (or none within the next year)' }),
    }, closed)),
    services: Type.Array(Type.Object({
      id: Type.String(),
      name: Type.String(),
      names: Names,
      prefix: Type.String(),
      locationId: Type.String(),
      waiting: Type.Integer({ minimum: 0 }),
      estimatedWaitSeconds: Type.Integer({ minimum: 0, description: 'contract §19: for a ticket taken now' }),
      noCounterOpen: Type.Boolean({ description: 'contract §19: no open counter serves the service now (the estimate assumed one); the pages say "No counter is open right now"' }),
      peopleAhead: Type.Integer({ minimum: 0, description: 'contract §28: the people ahead of a normal ticket taken now (its line\'s call order; the ticket then shows the same number)' }),
      counterFree: Type.Boolean({ description: 'contract §28: an open counter of the service holds nothing now; with nobody ahead and 0 seconds the pages say "You\'re next" (src/screens/shared/wait-verdict.ts)' }),
      nowServing: Type.Union([DisplayNowServing, Type.Null()]),
      open: Type.Boolean({ description: 'the service takes tickets now (contract §18)' }),
      opensAt: OpensAt,
    }, closed)),
    recentCalls: Type.Array(Type.Object({
      number: Type.String(),
      serviceId: Type.String(),
      locationId: Type.String(),
      counterName: Type.String(),
      counterNames: Names,
      calledAt: DateTime,
      status: Type.Union(TICKET_STATUSES.map((s) => Type.Literal(s)), { description: 'the ticket\'s status now' }),
      priority: Type.Boolean({ description: 'a priority ticket (contract §8)' }),
    }, closed), { description: 'the last 10 calls and recalls, newest first' }),
  },
  closed,
)

export const DisplayPrayerMonth = Type.Object(
  {
    sourceId: Type.String(),
    period: Type.String(),
    revision: Type.Integer({ minimum: 1 }),
    checksum: Type.String(),
    storedAt: DateTime,
    dayCount: Type.Integer(),
    location: LocationSchema,
    timezone: Type.String(),
    month: Month,
  },
  closed,
)

export const NextPrayer = Type.Object(
  {
    prayer: Type.Union(['fajr', 'dhuhr', 'asr', 'maghrib', 'isha'].map((p) => Type.Literal(p))),
    date: Type.String({ description: 'local date of the adhan' }),
    time: Type.String({ description: 'local time of the adhan, HH:mm' }),
    at: DateTime,
    iqamah: Type.Union([Type.String(), Type.Null()]),
  },
  closed,
)

export const DisplayPrayerToday = Type.Object(
  {
    sourceId: Type.String(),
    timezone: Type.String(),
    date: Type.String({ description: 'today in the source\'s time zone' }),
    localTime: Type.String({ description: 'the time now in the source\'s time zone, HH:mm' }),
    period: Type.String(),
    revision: Type.Integer({ minimum: 1 }),
    checksum: Type.String(),
    location: LocationSchema,
    day: Day,
    next: Type.Union([NextPrayer, Type.Null()], { description: 'null after isha when tomorrow\'s month is not stored' }),
  },
  closed,
)
