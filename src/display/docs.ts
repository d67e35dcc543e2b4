import { Type } from '@sinclair/typebox'
import { routeDetail, websocketDetail, type RouteDoc } from '../platform/openapi'
import { Day, LocationSchema } from '../prayer'
import { DisplayNowServing, DisplayPrayerMonth, DisplayPrayerToday, DisplayQueueState, DisplayWidget, NextPrayer } from './model'
import { CloseCodes, DisplayCodes, DisplayErrorExamples } from './errors'

/*
 * The OpenAPI details of the display feeds (src/display/routes.ts): what each read answers, with
 * examples and its error codes, and the live websocket's messages and close codes.
 */

const TOKEN = 'lbd_3kq9Xw7TmVb2Rz8LpN4cYf6HdJ1sAe5G'
const tokenQuery = {
  token: { description: 'the display token, for clients that cannot set a header (screens, websockets); else Authorization: Bearer', example: TOKEN },
}
const ifNoneMatch = {
  'If-None-Match': { description: 'the ETag of the body the screen has: 304 when unchanged', example: '"w-17"' },
}
const schemas = { DisplayNowServing, NextPrayer, PrayerDay: Day, PrayerLocation: LocationSchema }

const docs = (doc: { operationId: string; summary: string; params: RouteDoc['params']; query?: RouteDoc['query']; name: string; schema: unknown; example: unknown; etag: string }) => routeDetail({
  operationId: doc.operationId,
  summary: doc.summary,
  tags: ['Display feeds'],
  security: 'display',
  params: doc.params,
  query: { ...tokenQuery, ...doc.query },
  headers: ifNoneMatch,
  responses: {
    200: {
      description: 'the current state; ETag for conditional requests',
      headers: { ETag: { description: `entity tag of this body, e.g. ${doc.etag}`, required: true, schema: { type: 'string' } } },
      name: doc.name,
      schema: doc.schema,
      example: doc.example,
    },
    304: { description: 'unchanged since If-None-Match' },
  },
  errors: { 401: [DisplayCodes.AUTHENTICATION_FAILED], 404: [DisplayCodes.NOT_FOUND] },
  errorExamples: DisplayErrorExamples,
  schemas,
})

const SOURCE_ID = 'psrc_centralmosque-0001-london'
const LOCATION = { name: 'Central Mosque', city: 'London', country: 'GB', latitude: 51.52, longitude: -0.08 }
const DAY = {
  date: '2026-11-25', fajr: '05:52', sunrise: '07:34', dhuhr: '11:54', asr: '13:38', maghrib: '15:57', isha: '17:37',
  iqamah: { fajr: '06:15', dhuhr: '12:30', asr: '14:00', maghrib: '16:02', isha: '18:00' },
}
const WIDGET_EXAMPLE = {
  widgetId: 'wdg_schedule_lobby', widgetType: 'TODAYS_SCHEDULE', name: 'Lobby schedule', dataRevision: 17, acceptedAt: '2026-11-25T08:30:00.412Z',
  data: {
    schemaVersion: 2, title: "Today's schedule", timezone: 'Europe/Berlin', date: '2026-11-25',
    items: [{ id: 'opening', title: 'Branch opens', startAt: '2026-11-25T09:00:00+01:00', status: 'SCHEDULED' }],
  },
}
const QUEUE_EXAMPLE = {
  queueUnitId: 'qu_main', name: 'Main branch', names: { en: 'Main branch', ar: 'الفرع الرئيسي' }, defaultLanguage: 'en', languages: ['en', 'ar'],
  stateRevision: 412, generatedAt: '2026-11-25T09:42:00.000Z',
  locations: [
    { id: 'loc_hall', name: 'Main hall', names: { en: 'Main hall', ar: 'القاعة الرئيسية' }, timezone: 'Europe/Berlin', open: true, opensAt: null },
    { id: 'loc_annex', name: 'Annex', names: { en: 'Annex' }, timezone: 'Europe/Berlin', open: false, opensAt: '2026-11-25T12:00:00.000Z' },
  ],
  services: [{
    id: 'svc_accounts', name: 'Accounts', names: { en: 'Accounts', ar: 'الحسابات' }, prefix: 'A', locationId: 'loc_hall', waiting: 3, estimatedWaitSeconds: 600, noCounterOpen: false, peopleAhead: 3, counterFree: false,
    nowServing: { number: 'A007', counterName: 'Counter 1', counterNames: { en: 'Counter 1', ar: 'الشباك ١' }, status: 'CALLED', calledAt: '2026-11-25T09:41:12.345Z', priority: false },
    open: true, opensAt: null,
  }, {
    id: 'svc_loans', name: 'Loans', names: { en: 'Loans' }, prefix: 'L', locationId: 'loc_annex', waiting: 0, estimatedWaitSeconds: 0, noCounterOpen: false, peopleAhead: 0, counterFree: true,
    nowServing: null, open: false, opensAt: '2026-11-25T12:00:00.000Z',
  }],
  recentCalls: [{
    number: 'A007', serviceId: 'svc_accounts', locationId: 'loc_hall', counterName: 'Counter 1', counterNames: { en: 'Counter 1', ar: 'الشباك ١' },
    calledAt: '2026-11-25T09:41:12.345Z', status: 'CALLED', priority: false,
  }],
}
const TODAY_EXAMPLE = {
  sourceId: SOURCE_ID, timezone: 'Europe/London', date: '2026-11-25', localTime: '09:42', period: '2026-11', revision: 2,
  checksum: 'sha256:9f2c4e1b7a0d5c3e8f6a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e', location: LOCATION, day: DAY,
  next: { prayer: 'dhuhr', date: '2026-11-25', time: '11:54', at: '2026-11-25T11:54:00.000Z', iqamah: '12:30' },
}

const topic = Type.Object({
  kind: Type.Union([Type.Literal('widget'), Type.Literal('queue'), Type.Literal('prayer')]),
  id: Type.String({ description: 'widget ID, queue unit ID or prayer source ID' }),
  sinceRevision: Type.Optional(Type.Integer({ minimum: 0, description: 'the revision the screen has: no snapshot when it is current' })),
})
const change = (type: 'snapshot' | 'update') => Type.Object({
  type: Type.Literal(type),
  kind: Type.Union([Type.Literal('widget'), Type.Literal('queue'), Type.Literal('prayer')]),
  id: Type.String(),
  revision: Type.Integer(),
  data: Type.Unknown({ description: 'the body of the matching read: widget → readDisplayWidget, queue → readDisplayQueueState (all locations), prayer → readDisplayPrayerToday (null when today\'s month is not stored)' }),
})

/** The live websocket, documented under `x-websockets`. */
export const liveDocs = websocketDetail({
  summary: 'Live updates of widgets, queue units and prayer sources (websocket)',
  description:
    'Upgrade GET /api/display/v1/live?token=lbd_… (a bad token is refused before the upgrade: 401 AUTHENTICATION_FAILED in the envelope). ' +
    'Send one `subscribe` message; the server answers a `snapshot` per topic (none when `sinceRevision` is current), then an `update` for every ' +
    'accepted change in order, each carrying the whole body, and a `ping` every 25 seconds. A bad message gets an `error` and the connection stays open. ' +
    'At most 50 topics per message, each once (else INVALID_MESSAGE); re-subscribing to a held topic sends and reads nothing. ' +
    'A page may send `{"type":"heartbeat"}`: its credential is re-checked at once and the heartbeat echoed.',
  tags: ['Display feeds'],
  security: 'display',
  query: { token: { description: 'the display token (browsers cannot set headers on a websocket)', example: TOKEN, required: true } },
  clientMessages: {
    subscribe: {
      schema: Type.Object({ type: Type.Literal('subscribe'), topics: Type.Array(topic, { minItems: 1 }) }),
      example: { type: 'subscribe', topics: [{ kind: 'widget', id: 'wdg_schedule_lobby', sinceRevision: 3 }, { kind: 'queue', id: 'qu_main' }, { kind: 'prayer', id: SOURCE_ID }] },
    },
    heartbeat: {
      schema: Type.Object({ type: Type.Literal('heartbeat') }, { description: 'a page\'s heartbeat: the credential is re-checked now (4401 when revoked) and the heartbeat echoed' }),
      example: { type: 'heartbeat' },
    },
  },
  serverMessages: {
    snapshot: { schema: change('snapshot'), example: { type: 'snapshot', kind: 'queue', id: 'qu_main', revision: 412, data: QUEUE_EXAMPLE } },
    update: { schema: change('update'), example: { type: 'update', kind: 'widget', id: 'wdg_schedule_lobby', revision: 17, data: WIDGET_EXAMPLE } },
    ping: { schema: Type.Object({ type: Type.Literal('ping') }), example: { type: 'ping' } },
    heartbeat: { schema: Type.Object({ type: Type.Literal('heartbeat') }), example: { type: 'heartbeat' } },
    error: {
      schema: Type.Object({
        type: Type.Literal('error'),
        code: Type.Union([Type.Literal('INVALID_MESSAGE'), Type.Literal('TOPIC_NOT_FOUND'), Type.Literal('TOO_MANY_TOPICS'), Type.Literal('RATE_LIMITED')]),
        message: Type.String(),
      }),
      example: { type: 'error', code: 'TOPIC_NOT_FOUND', message: 'no widget "wdg_lobby" for this display token' },
    },
  },
  closeCodes: {
    [CloseCodes.SERVICE_RESTART]: 'the server is stopping (a restart or an upgrade): reconnect, it is back within seconds',
    1013: 'the client read too slowly: reconnect and catch up with sinceRevision',
    [CloseCodes.TOKEN_INVALID]: 'the display token is not, or no longer, valid',
  },
})

export const readDisplayWidgetDocs = docs({
  operationId: 'readDisplayWidget', summary: 'Current snapshot of a widget', params: { widgetId: { description: 'a widget of the token\'s workspace', example: 'wdg_schedule_lobby' } },
  name: 'DisplayWidget', schema: DisplayWidget, example: WIDGET_EXAMPLE, etag: '"w-17"',
})

export const readDisplayQueueStateDocs = docs({
  operationId: 'readDisplayQueueState', summary: 'Live state of a queue unit: now serving, waiting, recent calls (optionally one location)',
  params: { queueUnitId: { description: 'a queue unit of the token\'s workspace', example: 'qu_main' } },
  query: { location: { description: 'only this active location of the unit (404 when it is not one)', example: 'loc_hall' } },
  name: 'DisplayQueueState', schema: DisplayQueueState, example: QUEUE_EXAMPLE, etag: '"q-412-all-1x7kq2c"',
})

export const readDisplayPrayerMonthDocs = docs({
  operationId: 'readDisplayPrayerMonth', summary: 'A stored prayer-schedule month',
  params: { sourceId: { description: 'a prayer source of the token\'s workspace', example: SOURCE_ID }, period: { description: 'YYYY-MM', example: '2026-11' } },
  name: 'DisplayPrayerMonth', schema: DisplayPrayerMonth, etag: '"p-2"',
  example: {
    sourceId: SOURCE_ID, period: '2026-11', revision: 2, checksum: TODAY_EXAMPLE.checksum, storedAt: '2026-10-30T17:00:00.000Z', dayCount: 1,
    location: LOCATION, timezone: 'Europe/London', month: { period: '2026-11', timezone: 'Europe/London', days: [DAY] },
  },
})

export const readDisplayPrayerTodayDocs = docs({
  operationId: 'readDisplayPrayerToday', summary: "Today's prayer times and the next prayer, in the source's time zone",
  params: { sourceId: { description: 'a prayer source of the token\'s workspace', example: SOURCE_ID } },
  name: 'DisplayPrayerToday', schema: DisplayPrayerToday, example: TODAY_EXAMPLE, etag: '"9x3k2m"',
})
