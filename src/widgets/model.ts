import { Type, type TObject } from '@sinclair/typebox'
import { MiB } from '../platform/body'
import { announcements } from './payloads/announcements'
import { closed, DateTime, Text, WIDGET_TYPES, type PayloadDefinition, type PushWarning, type WidgetType } from './payloads/common'
import { events } from './payloads/events'
import { todaysSchedule } from './payloads/todays-schedule'
import { transportBoard } from './payloads/transport-board'

export { WIDGET_TYPES, type WidgetType, type PushWarning }

/** public-api.md Limits: body over 1 MiB is 413. */
export const WIDGET_PUSH_MAX_BYTES = MiB
/** public-api.md Limits: `Idempotency-Key` 8 to 180 characters. */
export const IDEMPOTENCY_KEY_MIN = 8
export const IDEMPOTENCY_KEY_MAX = 180
/** public-api.md Limits: default 120 push attempts per widget per rolling minute. */
export { DEFAULT_WIDGET_PUSH_RATE_LIMIT as DEFAULT_PUSH_RATE_LIMIT } from './tables'
export const RATE_WINDOW_MS = 60_000
/** public-api.md Versioning. */
export const PUSH_VERSION = 1
export const SCHEMA_VERSION = 2

/** The four payloads, by `widgetType`. */
export const PAYLOADS: Record<WidgetType, PayloadDefinition> = {
  TODAYS_SCHEDULE: todaysSchedule,
  ANNOUNCEMENTS: announcements,
  EVENTS: events,
  TRANSPORT_BOARD: transportBoard,
}

export function isWidgetType(value: unknown): value is WidgetType {
  return typeof value === 'string' && (WIDGET_TYPES as readonly string[]).includes(value)
}

/** `source`: who produced the snapshot and in which order (public-api.md envelope). */
export const PushSourceSchema = Type.Object({
  eventId: Type.Optional(Text(200, 'Source-system event identity, for audit: written to the log with the accepted revision')),
  sequence: Type.Optional(Type.Integer({
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'Non-negative safe integer, greater than the last accepted one. Absent: accepted with warning SEQUENCE_MISSING',
  })),
  generatedAt: Type.Optional(DateTime('When the source produced this snapshot; ISO 8601 with an explicit offset')),
}, closed)

/** The request envelope for a widget of `definition`'s type, its payload inlined. */
function envelopeFor(definition: PayloadDefinition) {
  return Type.Object({
    pushVersion: Type.Literal(PUSH_VERSION),
    widgetType: Type.Literal(definition.widgetType),
    writeMode: Type.Literal('REPLACE_SNAPSHOT'),
    source: Type.Optional(PushSourceSchema),
    data: definition.schema,
  }, { ...closed, title: `${definition.widgetType} push` })
}

/** A record with one entry per widget type. */
export function byWidgetType<T>(make: (type: WidgetType) => T): Record<WidgetType, T> {
  return {
    TODAYS_SCHEDULE: make('TODAYS_SCHEDULE'),
    ANNOUNCEMENTS: make('ANNOUNCEMENTS'),
    EVENTS: make('EVENTS'),
    TRANSPORT_BOARD: make('TRANSPORT_BOARD'),
  }
}

export const ENVELOPES: Record<WidgetType, TObject> = byWidgetType((type) => envelopeFor(PAYLOADS[type]))

/** A request that passed every schema and rule (the shape `ENVELOPES` checks). */
export interface PushEnvelope {
  pushVersion: typeof PUSH_VERSION
  widgetType: WidgetType
  writeMode: 'REPLACE_SNAPSHOT'
  source?: { eventId?: string; sequence?: number; generatedAt?: string }
  data: { schemaVersion: typeof SCHEMA_VERSION; items: Record<string, unknown>[] } & Record<string, unknown>
}

export const PushWarningSchema = Type.Object({
  code: Type.String({ description: 'SEQUENCE_MISSING or ITEM_OUTSIDE_DATE' }),
  message: Type.String(),
  path: Type.Optional(Type.String({ description: 'JSON Pointer into the request body' })),
}, closed)

/** The 200 body (public-api.md "Widget push success response"). */
export const PushResponseSchema = Type.Object({
  accepted: Type.Boolean(),
  widgetId: Type.String(),
  widgetType: Type.Union(WIDGET_TYPES.map((t) => Type.Literal(t))),
  dataRevision: Type.Integer({ minimum: 1 }),
  schemaVersion: Type.Integer(),
  acceptedAt: Type.String({ description: 'ISO 8601 UTC with milliseconds, e.g. 2026-11-25T09:30:00.000Z' }),
  itemCount: Type.Integer({ minimum: 0 }),
  warnings: Type.Array(PushWarningSchema),
}, { ...closed, title: 'WidgetPushResponse' })

export interface PushResponse {
  accepted: true
  widgetId: string
  widgetType: WidgetType
  dataRevision: number
  schemaVersion: number
  acceptedAt: string
  itemCount: number
  warnings: PushWarning[]
}

/** A widget and its current snapshot, as readers (display feeds) get it. */
export interface WidgetSnapshot {
  widgetId: string
  workspaceId: string
  widgetType: WidgetType
  name: string
  /** 0 while the widget never accepted a push. */
  dataRevision: number
  /** ISO 8601 UTC with milliseconds; null while the widget never accepted a push. */
  acceptedAt: string | null
  itemCount: number
  /** The accepted `data` object (item defaults filled in) as JSON text, ready to embed; null before the first push. */
  dataJson: string | null
}
