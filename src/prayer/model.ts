import { Type, type Static } from '@sinclair/typebox'

/**
 * The month body of contract §5 and the response shapes, as TypeBox schemas: the same object
 * validates requests (via platform/validation) and documents them in OpenAPI.
 * Every object is closed. Rules that look across fields (time order, one day per date,
 * Fridays, hijri continuity) live in rules.ts; these schemas hold the shapes and bounds.
 */

const closed = { additionalProperties: false } as const

/** Contract §5: times are 24-hour `HH:mm` (00:00 to 23:59). */
export const Time = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: '24-hour local time HH:mm' })

/** `YYYY-MM`; whether it is a real month (year range) is a rule, see rules.ts. */
export const Period = Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'calendar month YYYY-MM' })

/** A short identifier-like label (calculation method, high-latitude rule). */
const Label = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9 _.()/-]{0,63}$', description: 'letters, digits, space, _ . ( ) / -; at most 64' })

export const ASR_SCHOOLS = ['STANDARD', 'HANAFI'] as const

export const Calculation = Type.Object(
  {
    method: Type.Optional(Label),
    asrSchool: Type.Optional(Type.Union(ASR_SCHOOLS.map((s) => Type.Literal(s)))),
    fajrAngle: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 30, description: 'degrees below the horizon' })),
    ishaAngle: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 30, description: 'degrees below the horizon' })),
    ishaIntervalMinutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 300, description: 'isha this many minutes after maghrib' })),
    highLatitudeRule: Type.Optional(Label),
    hijriAdjustmentDays: Type.Optional(Type.Integer({ minimum: -2, maximum: 2 })),
  },
  { ...closed, description: 'how the times were calculated; informational, stored and returned as sent' },
)

export const Iqamah = Type.Object(
  { fajr: Time, dhuhr: Time, asr: Time, maghrib: Time, isha: Time },
  { ...closed, description: 'congregation times; each at or after its adhan, fajr before sunrise' },
)

export const JumuahSession = Type.Object(
  { khutbah: Type.Optional(Time), iqamah: Time },
  { ...closed, description: 'one Friday prayer session; khutbah at or before its iqamah' },
)

/** Hijri bounds: years 1300–1600 AH cover every accepted period (1900–2100) with room to spare. */
export const Hijri = Type.Object(
  {
    year: Type.Integer({ minimum: 1300, maximum: 1600 }),
    month: Type.Integer({ minimum: 1, maximum: 12 }),
    day: Type.Integer({ minimum: 1, maximum: 30 }),
  },
  { ...closed, description: 'within 3 days of the Umm al-Qura date of this day, and continuous from the day before' },
)

export const Day = Type.Object(
  {
    date: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD; the n-th entry is day n of the period' }),
    fajr: Time,
    sunrise: Time,
    dhuhr: Time,
    asr: Time,
    maghrib: Time,
    isha: Time,
    iqamah: Type.Optional(Iqamah),
    jumuah: Type.Optional(Type.Array(JumuahSession, { minItems: 1, maxItems: 3, description: 'Fridays only, in time order' })),
    hijri: Type.Optional(Hijri),
  },
  closed,
)

/** The body of the month push (contract §5). */
export const Month = Type.Object(
  {
    period: Period,
    timezone: Type.String({ minLength: 1, maxLength: 64, description: "IANA time zone; must equal the source's" }),
    calculation: Type.Optional(Calculation),
    days: Type.Array(Day, { minItems: 1, maxItems: 31, description: 'exactly one entry per day of the month, in date order' }),
  },
  closed,
)

export type Month = Static<typeof Month>
export type Day = Static<typeof Day>
export type Hijri = Static<typeof Hijri>

/** The five prayers that have an adhan and an iqamah, in the order of the day. */
export const PRAYERS = ['fajr', 'dhuhr', 'asr', 'maghrib', 'isha'] as const
export type PrayerName = (typeof PRAYERS)[number]

/** The day's six times in the order contract §5 requires. */
export const ADHAN_ORDER = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'] as const

// ---- responses (documentation only: routes build these bodies themselves) ----

const NullableString = Type.Union([Type.String(), Type.Null()])
const NullableNumber = Type.Union([Type.Number(), Type.Null()])

export const LocationSchema = Type.Object(
  {
    name: NullableString,
    city: NullableString,
    country: NullableString,
    latitude: NullableNumber,
    longitude: NullableNumber,
  },
  { description: "the source's configured location; name falls back to the source's name" },
)

export const PushResponse = Type.Object({
  success: Type.Boolean(),
  replay: Type.Boolean({ description: 'true when this push repeats an earlier one and nothing new was stored' }),
  sourceId: Type.String(),
  period: Type.String({ description: 'YYYY-MM' }),
  checksum: Type.String({ description: 'sha256: + hex of the RFC 8785 canonical JSON of the body' }),
  revision: Type.Integer({ description: 'stored changes of this source and period, from 1' }),
  location: LocationSchema,
  dayCount: Type.Integer(),
})

export const StoredMonthResponse = Type.Object({
  data: Type.Object({
    sourceId: Type.String(),
    period: Type.String(),
    revision: Type.Integer(),
    checksum: Type.String(),
    storedAt: Type.String({ format: 'date-time' }),
    dayCount: Type.Integer(),
    location: LocationSchema,
    month: Month,
  }),
})
