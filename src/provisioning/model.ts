import { Type, type Static } from '@sinclair/typebox'
import { MAX_LAST_TICKET_MINUTES } from '../structure'
import { NotificationSettings } from '../notifications'

/** IDs appear in URLs: letters, digits, `_` and `-`, 1 to 160 characters. */
const Id = Type.String({ pattern: '^[A-Za-z0-9_-]{1,160}$' })
const Name = Type.String({ minLength: 1, maxLength: 200 })
const KeyName = Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,80}$' })
const PerMinute = Type.Integer({ minimum: 1, maximum: 1_000_000 })
/** Contract §18: one string, or an object of BCP 47 language tags to strings (tags checked with the references). */
const LocalizedName = Type.Union([Name, Type.Record(Type.String({ minLength: 1, maxLength: 35 }), Name, { minProperties: 1, maxProperties: 20 })])
const LanguageTag = Type.String({ minLength: 1, maxLength: 35 })
/** Contract §18 weekly hours: weekdays to `["HH:mm", "HH:mm"]` intervals (times, weekdays and overlaps checked with the references). */
const WeeklyHours = Type.Record(Type.String({ maxLength: 16 }), Type.Array(Type.Array(Type.String({ maxLength: 5 }), { minItems: 2, maxItems: 2 }), { maxItems: 12 }))

export const QUEUE_SCOPES = ['services:read', 'tickets:write', 'tickets:read', 'state:read', 'counter:operate', 'reports:read', 'appointments:write'] as const
export const DEFAULT_QUEUE_SCOPES = ['services:read', 'tickets:write', 'tickets:read', 'state:read']
export const WEBHOOK_EVENTS = [
  'ticket.created', 'ticket.called', 'ticket.recalled', 'ticket.serving', 'ticket.completed',
  'ticket.no_show', 'ticket.cancelled', 'ticket.requeued', 'ticket.transferred',
  // Contract §20: a no-show brought back; a waiting ticket near its turn (once per ticket).
  'ticket.reinstated', 'ticket.approaching',
  // Contract §21: a booking's life.
  'appointment.booked', 'appointment.cancelled', 'appointment.checked_in', 'appointment.missed',
  // Contract §22: a line's longest current wait passed its service's waitTargetSeconds (once per crossing).
  'queue.wait_target_exceeded',
] as const
export const WIDGET_TYPES = ['ANNOUNCEMENTS', 'TODAYS_SCHEDULE', 'EVENTS', 'TRANSPORT_BOARD'] as const

const closed = { additionalProperties: false } as const

export const NamedKey = Type.Object({ name: KeyName }, closed)

const Widget = Type.Object({
  id: Id,
  type: Type.Union(WIDGET_TYPES.map((t) => Type.Literal(t))),
  name: Name,
  pushSource: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]),
  pushRateLimitPerMinute: Type.Optional(PerMinute),
}, closed)

const PrayerSource = Type.Object({
  id: Type.String({ pattern: '^psrc_[A-Za-z0-9-]{20,}$' }),
  name: Name,
  timezone: Type.String({ minLength: 1, maxLength: 64 }),
  location: Type.Optional(Type.Object({
    name: Type.Optional(Name),
    city: Type.Optional(Name),
    country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
    latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
    longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  }, closed)),
  pushRateLimitPerMinute: Type.Optional(PerMinute),
}, closed)

/** Contract §20's and §27's bounds on `remoteJoin`. */
export const MAX_REMOTE_JOIN_WAITING = 10_000
export const MAX_ALLOWED_NETWORKS = 50
export const MAX_JOINS_PER_ADDRESS = 1000

const Networks = (description: string) =>
  Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 49 }), { maxItems: MAX_ALLOWED_NETWORKS, description }))

/**
 * Contract §20, §27 `remoteJoin`: `allowedNetworks` and `guestNetworks` are CIDRs (`10.0.0.0/8`,
 * `fd00::/8`); each is parsed with the references (`checkReferences`), so a bad one is
 * reported at its pointer (rule `cidr`).
 */
const RemoteJoin = Type.Object({
  enabled: Type.Boolean(),
  maxWaiting: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_REMOTE_JOIN_WAITING })),
  allowedNetworks: Networks('only callers inside one of these may join (absent or empty: anyone)'),
  perAddressPer10Min: Type.Optional(Type.Integer({
    minimum: 0, maximum: MAX_JOINS_PER_ADDRESS,
    description: 'tickets one client address may take from phones in 10 minutes (an IPv6 client counts by its /64); 0: no per-address limit; absent: 3',
  })),
  guestNetworks: Networks('networks many customers share one address from (a guest Wi-Fi behind NAT): no per-address limit inside them; one active ticket per browser still holds'),
}, closed)

const Location = Type.Object({
  id: Id,
  name: LocalizedName,
  timezone: Type.String({ minLength: 1, maxLength: 64 }),
  /** Contract §18: absent = always open. */
  openingHours: Type.Optional(WeeklyHours),
  closedDates: Type.Optional(Type.Array(Type.String({ maxLength: 10 }), { maxItems: 1000 })),
  lastTicketMinutesBeforeClose: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_LAST_TICKET_MINUTES })),
  /** Contract §20: `/join/{locationId}` for customers' phones; absent = off. */
  remoteJoin: Type.Optional(RemoteJoin),
  active: Type.Optional(Type.Boolean()),
}, closed)

/** Contract §21's bounds on a service's appointment settings. */
export const APPOINTMENT_LIMITS = { slotMinutes: [5, 240], capacityPerSlot: [1, 100], bookAheadDays: [1, 365], checkInMinutes: [0, 240], retainDays: [1, 3650] } as const
export const DEFAULT_APPOINTMENTS = { slotMinutes: 15, bookAheadDays: 14, checkIn: { earlyMinutes: 15, lateMinutes: 10 }, retainDays: 30 } as const

const bounded = ([minimum, maximum]: readonly [number, number]) => Type.Integer({ minimum, maximum })

/** Contract §21: absent `capacityPerSlot` = the service's active counters at the location. */
const AppointmentSettings = Type.Object({
  enabled: Type.Boolean(),
  slotMinutes: Type.Optional(bounded(APPOINTMENT_LIMITS.slotMinutes)),
  capacityPerSlot: Type.Optional(bounded(APPOINTMENT_LIMITS.capacityPerSlot)),
  bookAheadDays: Type.Optional(bounded(APPOINTMENT_LIMITS.bookAheadDays)),
  checkIn: Type.Optional(Type.Object({
    earlyMinutes: Type.Optional(bounded(APPOINTMENT_LIMITS.checkInMinutes)),
    lateMinutes: Type.Optional(bounded(APPOINTMENT_LIMITS.checkInMinutes)),
  }, closed)),
  retainDays: Type.Optional(bounded(APPOINTMENT_LIMITS.retainDays)),
}, closed)

const Service = Type.Object({
  id: Id,
  name: LocalizedName,
  prefix: Type.String({ pattern: '^[A-Z]{1,3}$' }),
  /** Contract §18: narrows the location's hours; absent = the location's. */
  openingHours: Type.Optional(WeeklyHours),
  active: Type.Optional(Type.Boolean()),
  locations: Type.Array(Id, { minItems: 1, uniqueItems: true }),
  defaultServiceSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
  waitTargetSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
  /** Contract §21: bookable slots inside the service's opening hours; absent = none. */
  appointments: Type.Optional(AppointmentSettings),
}, closed)

const Counter = Type.Object({
  id: Id,
  name: LocalizedName,
  locationId: Id,
  services: Type.Array(Id, { minItems: 1, uniqueItems: true }),
  /** false retires the counter: gone from desks and boards, its history stays. */
  active: Type.Optional(Type.Boolean()),
}, closed)

export const QueueKey = Type.Object({
  name: KeyName,
  scopes: Type.Optional(Type.Array(Type.Union(QUEUE_SCOPES.map((s) => Type.Literal(s))), { minItems: 1, uniqueItems: true })),
  locations: Type.Optional(Type.Array(Id, { minItems: 1, uniqueItems: true })),
  services: Type.Optional(Type.Array(Id, { minItems: 1, uniqueItems: true })),
  rateLimits: Type.Optional(Type.Object({
    issuePerMinute: Type.Optional(PerMinute),
    readPerMinute: Type.Optional(PerMinute),
  }, closed)),
}, closed)

export const Webhook = Type.Object({
  id: Id,
  url: Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2048 }),
  events: Type.Array(Type.Union(WEBHOOK_EVENTS.map((e) => Type.Literal(e))), { minItems: 1, uniqueItems: true }),
  active: Type.Optional(Type.Boolean()),
}, closed)

/** INTERLEAVE's bound on N (normal calls between two priority calls at a counter). */
export const MAX_NORMAL_PER_PRIORITY = 100

/**
 * Contract §8 `priority`: `{"mode": "FIRST"}` (default) or `{"mode": "INTERLEAVE",
 * "normalPerPriority": N}`. One closed object (not a union) so a mistake is reported at its
 * field; `normalPerPriority` is required with INTERLEAVE and refused with FIRST (checked with
 * the references, `checkReferences`).
 */
const PriorityPolicy = Type.Object({
  mode: Type.Union([Type.Literal('FIRST'), Type.Literal('INTERLEAVE')]),
  normalPerPriority: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_NORMAL_PER_PRIORITY })),
}, closed)

/** Contract §20's bounds: a no-show can be brought back within a day at most; approaching within 50 tickets. */
export const MAX_NO_SHOW_GRACE_MINUTES = 1440
export const MAX_APPROACHING_AHEAD = 50

/**
 * Contract §16's break reasons: 1–20 of them, no two with one id. Contract §28: an item is a
 * string (1–60 characters, not blank: its own id and its name in the unit's default language)
 * or `{"id", "name"}` with `name` per language as §18 (`{"id": "prayer", "name": {"en":
 * "Prayer", "ar": "صلاة"}}`); `close {"reason"}` names the id (src/queue/break-reasons.ts).
 */
export const MAX_BREAK_REASONS = 20
export const MAX_BREAK_REASON_LENGTH = 60
const BreakReasonText = Type.String({ minLength: 1, maxLength: MAX_BREAK_REASON_LENGTH, pattern: '\\S' })
const BreakReasonName = Type.String({ minLength: 1, maxLength: MAX_BREAK_REASON_LENGTH, pattern: '\\S' })
const BreakReason = Type.Union([
  BreakReasonText,
  Type.Object({
    id: BreakReasonText,
    name: Type.Union([BreakReasonName, Type.Record(Type.String({ minLength: 1, maxLength: 35 }), BreakReasonName, { minProperties: 1, maxProperties: 20 })]),
  }, closed),
])

const QueueUnit = Type.Object({
  id: Id,
  name: LocalizedName,
  /** Contract §18: the language names fall back to (default `en`). */
  defaultLanguage: Type.Optional(LanguageTag),
  /** Contract §18: the languages the kiosk, phone and join pages offer (default `[defaultLanguage]`). */
  languages: Type.Optional(Type.Array(LanguageTag, { minItems: 1, maxItems: 20, uniqueItems: true })),
  active: Type.Optional(Type.Boolean()),
  priority: Type.Optional(PriorityPolicy),
  /** Contract §9: the kiosk offers a "Priority" choice (default false). */
  kioskPriority: Type.Optional(Type.Boolean()),
  /** Contract §16: `required` keeps a desk's buttons and operator calls waiting for a clerk's sign-in (default `optional`). */
  deskSignIn: Type.Optional(Type.Union([Type.Literal('optional'), Type.Literal('required')])),
  /** Contract §16: what "Close counter" offers (default DEFAULT_BREAK_REASONS); uniqueness is checked with the references. */
  breakReasons: Type.Optional(Type.Array(BreakReason, { minItems: 1, maxItems: MAX_BREAK_REASONS })),
  /** Contract §20: minutes after a no-show during which a desk can bring it back (default 30; 0 = never). */
  noShowGraceMinutes: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_NO_SHOW_GRACE_MINUTES })),
  /** Contract §20: `ticket.approaching` at this many tickets ahead or fewer (default 3). */
  approachingAhead: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_APPROACHING_AHEAD })),
  locations: Type.Optional(Type.Array(Location)),
  services: Type.Optional(Type.Array(Service)),
  counters: Type.Optional(Type.Array(Counter)),
  apiKeys: Type.Optional(Type.Array(QueueKey)),
  webhooks: Type.Optional(Type.Array(Webhook)),
}, closed)

const Workspace = Type.Object({
  id: Id,
  name: Name,
  apiKeys: Type.Optional(Type.Array(NamedKey)),
  displayTokens: Type.Optional(Type.Array(NamedKey)),
  widgets: Type.Optional(Type.Array(Widget)),
  prayerSources: Type.Optional(Type.Array(PrayerSource)),
  queueUnits: Type.Optional(Type.Array(QueueUnit)),
  /** Contract §25: SMS, e-mail and web push for the workspace's customers; absent: left as stored. */
  notifications: Type.Optional(NotificationSettings),
}, closed)

/** The provisioning file of contract §1 (JSON or YAML). */
export const ProvisioningFile = Type.Object({ workspaces: Type.Array(Workspace) }, closed)
export type ProvisioningFile = Static<typeof ProvisioningFile>

/**
 * The configuration entities of a queue unit, as a provisioning file writes them: the admin
 * console's bodies are these (src/admin/model.ts), so a console edit and a file are checked by
 * one schema and one set of reference checks (`applyProvisioning`).
 */
export const ProvisionedEntities = { Workspace, QueueUnit, Location, Service, Counter, LocalizedName, WeeklyHours } as const
export type ProvisionedQueueUnit = Static<typeof QueueUnit>
export type ProvisionedLocation = Static<typeof Location>
export type ProvisionedService = Static<typeof Service>
export type ProvisionedCounter = Static<typeof Counter>
