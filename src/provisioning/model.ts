import { Type, type Static } from '@sinclair/typebox'

/** IDs appear in URLs: letters, digits, `_` and `-`, 1 to 160 characters. */
const Id = Type.String({ pattern: '^[A-Za-z0-9_-]{1,160}$' })
const Name = Type.String({ minLength: 1, maxLength: 200 })
const KeyName = Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,80}$' })
const PerMinute = Type.Integer({ minimum: 1, maximum: 1_000_000 })

export const QUEUE_SCOPES = ['services:read', 'tickets:write', 'tickets:read', 'state:read', 'counter:operate', 'reports:read'] as const
export const DEFAULT_QUEUE_SCOPES = ['services:read', 'tickets:write', 'tickets:read', 'state:read']
export const WEBHOOK_EVENTS = [
  'ticket.created', 'ticket.called', 'ticket.recalled', 'ticket.serving', 'ticket.completed',
  'ticket.no_show', 'ticket.cancelled', 'ticket.requeued', 'ticket.transferred',
] as const
export const WIDGET_TYPES = ['ANNOUNCEMENTS', 'TODAYS_SCHEDULE', 'EVENTS', 'TRANSPORT_BOARD'] as const

const closed = { additionalProperties: false } as const

const NamedKey = Type.Object({ name: KeyName }, closed)

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

const Location = Type.Object({
  id: Id,
  name: Name,
  timezone: Type.String({ minLength: 1, maxLength: 64 }),
  active: Type.Optional(Type.Boolean()),
}, closed)

const Service = Type.Object({
  id: Id,
  name: Name,
  prefix: Type.String({ pattern: '^[A-Z]{1,3}$' }),
  active: Type.Optional(Type.Boolean()),
  locations: Type.Array(Id, { minItems: 1, uniqueItems: true }),
  defaultServiceSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
  waitTargetSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
}, closed)

const Counter = Type.Object({
  id: Id,
  name: Name,
  locationId: Id,
  services: Type.Array(Id, { minItems: 1, uniqueItems: true }),
  /** false retires the counter: gone from desks and boards, its history stays. */
  active: Type.Optional(Type.Boolean()),
}, closed)

const QueueKey = Type.Object({
  name: KeyName,
  scopes: Type.Optional(Type.Array(Type.Union(QUEUE_SCOPES.map((s) => Type.Literal(s))), { minItems: 1, uniqueItems: true })),
  locations: Type.Optional(Type.Array(Id, { minItems: 1, uniqueItems: true })),
  services: Type.Optional(Type.Array(Id, { minItems: 1, uniqueItems: true })),
  rateLimits: Type.Optional(Type.Object({
    issuePerMinute: Type.Optional(PerMinute),
    readPerMinute: Type.Optional(PerMinute),
  }, closed)),
}, closed)

const Webhook = Type.Object({
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

/** Contract §16's break reasons: 1–20 of them, each 1–60 characters, not blank, no two alike. */
export const MAX_BREAK_REASONS = 20
export const MAX_BREAK_REASON_LENGTH = 60
const BreakReason = Type.String({ minLength: 1, maxLength: MAX_BREAK_REASON_LENGTH, pattern: '\\S' })

const QueueUnit = Type.Object({
  id: Id,
  name: Name,
  active: Type.Optional(Type.Boolean()),
  priority: Type.Optional(PriorityPolicy),
  /** Contract §9: the kiosk offers a "Priority" choice (default false). */
  kioskPriority: Type.Optional(Type.Boolean()),
  /** Contract §16: `required` keeps a desk's buttons and operator calls waiting for a clerk's sign-in (default `optional`). */
  deskSignIn: Type.Optional(Type.Union([Type.Literal('optional'), Type.Literal('required')])),
  /** Contract §16: what "Close counter" offers (default DEFAULT_BREAK_REASONS); uniqueness is checked with the references. */
  breakReasons: Type.Optional(Type.Array(BreakReason, { minItems: 1, maxItems: MAX_BREAK_REASONS })),
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
}, closed)

/** The provisioning file of contract §1 (JSON or YAML). */
export const ProvisioningFile = Type.Object({ workspaces: Type.Array(Workspace) }, closed)
export type ProvisioningFile = Static<typeof ProvisioningFile>
