// A small integrator program written against the types openapi-typescript generates from
// /swagger/json (./api.ts beside it once copied to a temp dir). The test type-checks it with
// tsc --strict, then runs it against the app. Every error code is handled by its enum: a
// `case` for a code the document does not list, or a code the document lists that has no
// `case`, is a compile error.
import type { components, operations } from './api'

type Schemas = components['schemas']
type Body<O extends keyof operations> = operations[O] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never
type Send = (request: Request) => Promise<Response>

export interface Keys {
  queue: string
  workspace: string
}

type IssueHeaders = operations['issueTicket']['parameters']['header']
type Ticket = operations['issueTicket']['responses'][201]['content']['application/json']
type LiveState = operations['readLiveState']['responses'][200]['content']['application/json']
type WidgetAccepted = operations['pushWidgetData']['responses'][200]['content']['application/json']
type MonthStored = operations['pushPrayerMonth']['responses'][201]['content']['application/json']

// The three ticket headers are required: leaving one out does not compile.
// @ts-expect-error X-Request-Nonce and Idempotency-Key are missing
const incomplete: IssueHeaders = { 'X-Request-Timestamp': '2026-11-25T09:30:00Z' }
void incomplete

/** What a kiosk does with each refusal of a ticket issue. */
export function onIssueError(error: Schemas['IssueTicketError']): 'retry-later' | 'retry-new-nonce' | 'fix-request' | 'ask-staff' {
  const code = error.error.code
  switch (code) {
    case 'RATE_LIMITED':
    case 'SERVER_BUSY':
    case 'INTERNAL_ERROR':
    case 'SERVICE_CLOSED':
      return 'retry-later'
    case 'NONCE_REPLAYED':
    case 'REQUEST_TIMESTAMP_OUT_OF_WINDOW':
      return 'retry-new-nonce'
    case 'INVALID_REQUEST':
    case 'INVALID_JSON':
    case 'VALIDATION_FAILED':
    case 'PAYLOAD_TOO_LARGE':
    case 'IDEMPOTENCY_KEY_REUSED':
      return 'fix-request'
    case 'AUTHENTICATION_FAILED':
    case 'SCOPE_FORBIDDEN':
    case 'LOCATION_FORBIDDEN':
    case 'SERVICE_FORBIDDEN':
    case 'QUEUE_UNIT_INACTIVE':
    case 'QUEUE_UNIT_EDGE_MANAGED':
      return 'ask-staff'
    default: {
      const unhandled: never = code
      return unhandled
    }
  }
}

export function onStateError(error: Schemas['ReadLiveStateError']): string {
  const code = error.error.code
  switch (code) {
    case 'AUTHENTICATION_FAILED': return 'check the key'
    case 'SCOPE_FORBIDDEN': return 'the key needs state:read'
    case 'QUEUE_UNIT_INACTIVE': return 'the branch is closed'
    case 'RATE_LIMITED': return 'slow down'
    case 'INTERNAL_ERROR': return 'retry later'
    default: {
      const unhandled: never = code
      return unhandled
    }
  }
}

export function onWidgetError(error: Schemas['PushWidgetDataError']): string {
  const code = error.error.code
  switch (code) {
    case 'INVALID_JSON':
    case 'INVALID_IDEMPOTENCY_KEY':
    case 'MULTIPLE_CREDENTIALS':
    case 'UNSUPPORTED_CONTENT_TYPE':
    case 'PAYLOAD_TOO_LARGE':
      return 'fix the request'
    case 'SCHEMA_VALIDATION_FAILED':
    case 'UNSUPPORTED_WIDGET_TYPE':
    case 'WIDGET_TYPE_MISMATCH':
      return 'fix the data'
    case 'AUTHENTICATION_REQUIRED':
    case 'WIDGET_NOT_FOUND_OR_FORBIDDEN':
      return 'check the key and widget'
    case 'IDEMPOTENCY_KEY_REUSED':
    case 'STALE_SOURCE_SEQUENCE':
      return 'resync'
    case 'RATE_LIMITED':
    case 'SERVER_BUSY':
    case 'INTERNAL_ERROR':
      return 'retry later'
    default: {
      const unhandled: never = code
      return unhandled
    }
  }
}

export function onPrayerError(error: Schemas['PushPrayerMonthError']): string {
  const code = error.error.code
  switch (code) {
    case 'INVALID_JSON':
    case 'INVALID_IDEMPOTENCY_KEY':
    case 'MULTIPLE_CREDENTIALS':
    case 'INVALID_REQUEST':
    case 'PAYLOAD_TOO_LARGE':
    case 'SCHEMA_VALIDATION_FAILED':
      return 'fix the request'
    case 'AUTHENTICATION_REQUIRED':
    case 'SOURCE_NOT_FOUND_OR_FORBIDDEN':
      return 'check the key and source'
    case 'IDEMPOTENCY_KEY_REUSED':
      return 'use a new key for new content'
    case 'RATE_LIMITED':
    case 'SERVER_BUSY':
    case 'INTERNAL_ERROR':
      return 'retry later'
    default: {
      const unhandled: never = code
      return unhandled
    }
  }
}

let counter = 0
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1).toString().padStart(6, '0')}`

async function call<T, E>(send: Send, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; ok: T } | { status: number; error: E }> {
  const response = await send(new Request(`http://lobby.local${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }))
  const json = await response.json()
  return response.ok ? { status: response.status, ok: json as T } : { status: response.status, error: json as E }
}

export async function issueTicket(send: Send, keys: Keys, now: Date, body: Body<'issueTicket'>, nonce = unique('nonce')) {
  const headers: IssueHeaders = {
    'X-Request-Timestamp': now.toISOString(),
    'X-Request-Nonce': nonce,
    'Idempotency-Key': unique('ticket'),
  }
  return call<Ticket, Schemas['IssueTicketError']>(send, 'POST', '/api/public/v1/queue/tickets', { ...headers, authorization: `Bearer ${keys.queue}` }, body)
}

export async function readLiveState(send: Send, keys: Keys) {
  return call<LiveState, Schemas['ReadLiveStateError']>(send, 'GET', '/api/public/v1/queue/state', { authorization: `Bearer ${keys.queue}` })
}

export async function pushWidget(send: Send, keys: Keys, widgetId: string, push: Schemas['WidgetPushRequest']) {
  return call<WidgetAccepted, Schemas['PushWidgetDataError']>(send, 'POST', `/api/public/v1/widgets/${widgetId}/data/push`, {
    'x-service-api-key': keys.workspace,
    'Idempotency-Key': unique('widget'),
  }, push)
}

export async function pushPrayerMonth(send: Send, keys: Keys, sourceId: string, month: Schemas['PrayerMonth']) {
  return call<MonthStored, Schemas['PushPrayerMonthError']>(send, 'POST', `/api/public/v1/prayer-schedules/sources/${sourceId}/months`, {
    authorization: `Bearer ${keys.workspace}`,
    'Idempotency-Key': unique('prayer-month'),
  }, month)
}

const at = (date: string, time: string) => `${date}T${time}:00+01:00`

/** One push of each widget type, typed by the document's discriminated union. */
export function widgetPushes(date: string): Record<string, Schemas['WidgetPushRequest']> {
  const envelope = { pushVersion: 1, writeMode: 'REPLACE_SNAPSHOT', source: { sequence: 1 } } as const
  return {
    wdg_schedule_lobby: {
      ...envelope,
      widgetType: 'TODAYS_SCHEDULE',
      data: { schemaVersion: 2, timezone: 'Europe/Berlin', date, items: [{ id: 'opening', title: 'Branch opens', startAt: at(date, '09:00'), status: 'SCHEDULED' }] },
    },
    wdg_announcements: {
      ...envelope,
      widgetType: 'ANNOUNCEMENTS',
      data: { schemaVersion: 2, items: [{ id: 'closure', title: 'Closed on 24 December', body: 'Cash machines stay open.', priority: 'HIGH' }] },
    },
    wdg_events: {
      ...envelope,
      widgetType: 'EVENTS',
      data: { schemaVersion: 2, timezone: 'Europe/Berlin', items: [{ id: 'workshop', title: 'Online banking workshop', startAt: at(date, '14:00') }] },
    },
    wdg_departures: {
      ...envelope,
      widgetType: 'TRANSPORT_BOARD',
      data: {
        schemaVersion: 2,
        timezone: 'Europe/Berlin',
        items: [{ id: 'u6', direction: 'DEPARTURE', line: { shortName: 'U6' }, destination: 'Alt-Mariendorf', scheduledAt: at(date, '09:35'), status: 'ON_TIME' }],
      },
    },
  }
}

/** A whole month for a source, one entry per day. */
export function prayerMonth(period: string, timezone: string): Schemas['PrayerMonth'] {
  const [year, month] = period.split('-').map(Number) as [number, number]
  const length = new Date(Date.UTC(year, month, 0)).getUTCDate()
  const days: Schemas['PrayerDay'][] = Array.from({ length }, (_, i) => ({
    date: `${period}-${String(i + 1).padStart(2, '0')}`,
    fajr: '05:40', sunrise: '07:20', dhuhr: '12:05', asr: '14:10', maghrib: '16:15', isha: '17:50',
    iqamah: { fajr: '06:00', dhuhr: '12:30', asr: '14:30', maghrib: '16:20', isha: '18:15' },
  }))
  return { period, timezone, days }
}
