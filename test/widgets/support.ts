import { testContext, request, type TestContext } from '../support/app'
import { provision, exampleDocument } from '../support/fixtures'
import type { ProvisioningFile } from '../../src/provisioning/model'
import type { WidgetType } from '../../src/widgets/model'

/** Helpers for the widget push tests: a provisioned app, request builders and payloads. */

export const WIDGET_BY_TYPE: Record<WidgetType, string> = {
  TODAYS_SCHEDULE: 'wdg_schedule_lobby',
  ANNOUNCEMENTS: 'wdg_announcements',
  EVENTS: 'wdg_events',
  TRANSPORT_BOARD: 'wdg_departures',
}

export const pushPath = (widgetId: string) => `/api/public/v1/widgets/${widgetId}/data/push`

/** The contract example, plus a second workspace and a widget with its own rate limit. */
export function widgetDocument(): ProvisioningFile {
  const document = exampleDocument()
  document.workspaces[0]!.widgets!.push({ id: 'wdg_slow', type: 'ANNOUNCEMENTS', name: 'Slow', pushSource: 'ACTIVE', pushRateLimitPerMinute: 3 })
  document.workspaces.push({
    id: 'ws_other',
    name: 'Other workspace',
    apiKeys: [{ name: 'cms' }],
    widgets: [{ id: 'wdg_other', type: 'TODAYS_SCHEDULE', name: 'Other schedule', pushSource: 'ACTIVE' }],
  })
  return document
}

export interface WidgetTestContext extends TestContext {
  /** Workspace key of ws_demo. */
  key: string
  /** Workspace key of ws_other. */
  otherKey: string
  /** Queue key of qu_main (a valid key of the wrong kind). */
  queueKey: string
  push(widgetId: string, body: unknown, options?: PushOptions): Promise<Response>
}

export interface PushOptions {
  /** Extra or replaced headers; null removes one (e.g. `'content-type': null`). */
  headers?: Record<string, string | null>
  /** Omit the Authorization header. */
  anonymous?: boolean
  idempotencyKey?: string
}

export function widgetContext(base: TestContext = testContext()): WidgetTestContext {
  const provisioned = provision(base, widgetDocument())
  const key = provisioned.secret('workspace', 'ws_demo', 'cms')
  const ctx: WidgetTestContext = {
    ...base,
    key,
    otherKey: provisioned.secret('workspace', 'ws_other', 'cms'),
    queueKey: provisioned.secret('queue', 'qu_main', 'all'),
    push: (widgetId, body, options = {}) => pushTo(base.app, key, widgetId, body, options),
  }
  return ctx
}

/**
 * Sends a push: `body` is JSON-encoded unless it is a string, bytes or a stream, which go
 * as is. Content-Type application/json and the bearer key are added unless overridden.
 */
export function pushTo(app: TestContext['app'], key: string, widgetId: string, body: unknown, options: PushOptions = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (!options.anonymous) headers.authorization = `Bearer ${key}`
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === null) delete headers[name]
    else headers[name] = value
  }
  const raw = typeof body === 'string' || body instanceof Uint8Array || body instanceof ReadableStream ? body : JSON.stringify(body)
  return request(app, 'POST', pushPath(widgetId), { raw: raw as RequestInit['body'], headers })
}

/** The stored snapshot row of a widget, read straight from the table. */
export function snapshotRow(ctx: Pick<TestContext, 'db'>, widgetId: string) {
  return ctx.db.$client
    .query<{ data_revision: number; last_sequence: number | null; item_count: number; data: string; accepted_at: number }, [string]>(
      'SELECT data_revision, last_sequence, item_count, data, accepted_at FROM widget_snapshots WHERE widget_id = ?',
    )
    .get(widgetId)
}

export function envelope(widgetType: string, data: unknown, source?: Record<string, unknown>) {
  return { pushVersion: 1, widgetType, writeMode: 'REPLACE_SNAPSHOT', ...(source ? { source } : {}), data }
}

const range = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i))

export function scheduleData(count = 2) {
  return {
    schemaVersion: 2,
    title: 'Today in the lobby',
    timezone: 'Europe/Berlin',
    date: '2026-11-25',
    items: range(count, (i) => ({
      id: `session-${i}`,
      title: `Session ${i}`,
      startAt: '2026-11-25T10:00:00+01:00',
      endAt: '2026-11-25T11:00:00+01:00',
      location: 'Room 1',
    })),
  }
}

export function announcementsData(count = 2) {
  return {
    schemaVersion: 2,
    title: 'News',
    items: range(count, (i) => ({ id: `news-${i}`, title: `Notice ${i}`, body: 'The branch closes at 16:00 on Friday.' })),
  }
}

export function eventsData(count = 2) {
  return {
    schemaVersion: 2,
    timezone: 'Europe/Berlin',
    items: range(count, (i) => ({ id: `event-${i}`, title: `Event ${i}`, startAt: '2026-12-01T18:00:00+01:00' })),
  }
}

export function transportData(count = 2) {
  return {
    schemaVersion: 2,
    timezone: 'Europe/Berlin',
    stop: { id: 'de:11000:900100001', name: 'Hauptbahnhof' },
    items: range(count, (i) => ({
      id: `trip-${i}`,
      direction: 'DEPARTURE',
      line: { shortName: 'S1', color: '#DA291C', textColor: '#ffffff' },
      scheduledAt: '2026-11-25T10:15:00+01:00',
      status: 'ON_TIME',
      destination: 'Flughafen',
    })),
  }
}

export const DATA_BY_TYPE: Record<WidgetType, (count?: number) => { items: unknown[] }> = {
  TODAYS_SCHEDULE: scheduleData,
  ANNOUNCEMENTS: announcementsData,
  EVENTS: eventsData,
  TRANSPORT_BOARD: transportData,
}

/** A valid push for the schedule widget with the given sequence. */
export function schedulePush(sequence?: number, count = 2) {
  return envelope('TODAYS_SCHEDULE', scheduleData(count), sequence === undefined ? undefined : { eventId: `evt-${sequence}`, sequence })
}
