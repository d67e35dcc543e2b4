import { Type } from '@sinclair/typebox'
import { routeDetail, websocketDetail } from '../platform/openapi'
import { ManageCodes, ManageErrorExamples } from './errors'
import { CloseCounterRequest, CounterChanged, FloorSnapshot, ManagedUnits } from './model'

/*
 * The OpenAPI details of the live floor's API (src/manage/routes.ts, contract §22): the units a
 * person may watch, a unit's floor, a manager's open and close of a counter, and the websocket.
 */

const FLOOR_EXAMPLE = {
  queueUnitId: 'qu_main',
  name: 'Main branch',
  names: { en: 'Main branch', ar: 'الفرع الرئيسي' },
  revision: 418,
  generatedAt: '2026-11-25T09:42:00.000Z',
  breakReasons: ['Break', 'Lunch', 'Admin work', 'Other'],
  breakReasonNames: { Break: { en: 'Break', ar: 'استراحة' }, Lunch: { en: 'Lunch', ar: 'غداء' }, 'Admin work': { en: 'Admin work', ar: 'عمل إداري' }, Other: { en: 'Other', ar: 'أخرى' } },
  locations: [{
    id: 'loc_hall', name: 'Main hall', names: { en: 'Main hall', ar: 'القاعة الرئيسية' }, businessDay: '2026-11-25', timezone: 'Europe/Berlin',
    services: [{
      id: 'svc_accounts', name: 'Accounts', names: { en: 'Accounts', ar: 'الحسابات' }, waiting: 6,
      longestWait: { ticketNumber: 'A012', waitingSince: '2026-11-25T09:24:30.000Z', seconds: 1050 },
      estimatedWaitSeconds: 840, noCounterOpen: false, peopleAhead: 6, counterFree: false, open: true, opensAt: null, waitTargetSeconds: 900, overTarget: true,
      today: { called: 40, withinTarget: 34, withinTargetShare: 0.85 },
    }],
    counters: [{
      id: 'cnt_1', name: 'Counter 1', names: { en: 'Counter 1' }, serviceIds: ['svc_accounts'], state: 'open', breakReason: null,
      stateSince: '2026-11-25T08:00:05.000Z', clerk: { username: 'samir.k', displayName: 'Samir Khoury' },
      ticket: { id: 'tkt_01JD5TICKET000000000000000', ticketNumber: 'A011', serviceId: 'svc_accounts', status: 'SERVING', since: '2026-11-25T09:39:10.000Z' },
      servedToday: 21,
    }, {
      id: 'cnt_2', name: 'Counter 2', names: { en: 'Counter 2' }, serviceIds: ['svc_accounts'], state: 'break', breakReason: 'Lunch',
      stateSince: '2026-11-25T09:30:00.000Z', clerk: null, ticket: null, servedToday: 12,
    }],
    appointments: [{
      id: 'apt_01JD5APPT0000000000000001', startAt: '2026-11-25T09:15:00.000Z', time: '10:15', serviceId: 'svc_accounts',
      serviceName: 'Accounts', serviceNames: { en: 'Accounts', ar: 'الحسابات' }, customerName: 'Amal Haddad', status: 'CHECKED_IN',
    }, {
      id: 'apt_01JD5APPT0000000000000002', startAt: '2026-11-25T10:00:00.000Z', time: '11:00', serviceId: 'svc_accounts',
      serviceName: 'Accounts', serviceNames: { en: 'Accounts', ar: 'الحسابات' }, customerName: null, status: 'BOOKED',
    }],
    appointmentsToCome: 1,
  }],
}

const unitParam = { queueUnitId: { description: 'a queue unit the signed-in person may watch', example: 'qu_main' } }
const counterParams = { ...unitParam, counterId: { description: 'a counter of that unit', example: 'cnt_2' } }

export const listManagedUnitsDocs = routeDetail({
  operationId: 'listManagedUnits',
  summary: 'The queue units I may watch',
  description: 'A manager\'s own units, or every active unit for an admin. A clerk\'s session: 403 ROLE_FORBIDDEN.',
  tags: ['Live floor'],
  security: 'sessionCookie',
  responses: { 200: { description: 'the units', name: 'ManagedUnits', schema: ManagedUnits, example: { username: 'amira.h', role: 'manager', data: [{ id: 'qu_main', name: 'Main branch', names: { en: 'Main branch' } }] } } },
  errors: { 401: [ManageCodes.AUTHENTICATION_FAILED], 403: [ManageCodes.ROLE_FORBIDDEN] },
  errorExamples: ManageErrorExamples,
})

export const readFloorDocs = routeDetail({
  operationId: 'readFloor',
  summary: 'The live floor of a queue unit',
  description:
    'Contract §22, per location: every active service\'s waiting count, longest current wait (its ticket number and since when), the estimate for a new ticket ' +
    '(contract §19), whether the longest wait has passed `waitTargetSeconds`, and today\'s first calls within target; every counter\'s state (open, closed, or on a ' +
    'break with its reason), the clerk signed in, the ticket it holds and since when, and what it served today. The same body the websocket sends; built once per ' +
    'revision from the live state and today\'s roll-ups, never from the ticket history. A unit that is not the person\'s: 404, as an unknown one.',
  tags: ['Live floor'],
  security: 'sessionCookie',
  params: unitParam,
  responses: { 200: { description: 'the floor now', name: 'FloorSnapshot', schema: FloorSnapshot, example: FLOOR_EXAMPLE } },
  errors: { 401: [ManageCodes.AUTHENTICATION_FAILED], 403: [ManageCodes.ROLE_FORBIDDEN], 404: [ManageCodes.QUEUE_UNIT_NOT_FOUND] },
  errorExamples: ManageErrorExamples,
})

const counterErrors = {
  400: [ManageCodes.INVALID_REQUEST, ManageCodes.INVALID_JSON],
  401: [ManageCodes.AUTHENTICATION_FAILED],
  403: [ManageCodes.ORIGIN_FORBIDDEN, ManageCodes.ROLE_FORBIDDEN, ManageCodes.QUEUE_UNIT_INACTIVE],
  404: [ManageCodes.QUEUE_UNIT_NOT_FOUND, ManageCodes.COUNTER_NOT_FOUND],
  409: [ManageCodes.QUEUE_UNIT_EDGE_MANAGED],
  413: [ManageCodes.PAYLOAD_TOO_LARGE],
  422: [ManageCodes.VALIDATION_FAILED],
} as const

export const openFloorCounterDocs = routeDetail({
  operationId: 'openFloorCounter',
  summary: 'Open a counter (manager)',
  description:
    'The desk\'s "Open counter" from the live floor: the counters service\'s rules (opening an open counter changes nothing; an opening ends the breaks taken there), ' +
    'written with an audit entry `counter.open` by `{type: user, id: <username>}` in the same transaction. Session cookie and this server\'s Origin.',
  tags: ['Live floor'],
  security: 'sessionCookie',
  params: counterParams,
  body: { name: 'OpenFloorCounterRequest', schema: Type.Object({}, { additionalProperties: false }), required: false, examples: { none: { summary: 'no parameters', value: {} } } },
  responses: { 200: { description: 'the counter is open', name: 'FloorCounterChanged', schema: CounterChanged, example: { data: { counterId: 'cnt_2', open: true, busy: false, actor: { type: 'user', id: 'amira.h' } } } } },
  errors: counterErrors,
  errorExamples: ManageErrorExamples,
})

export const closeFloorCounterDocs = routeDetail({
  operationId: 'closeFloorCounter',
  summary: 'Close a counter (manager)',
  description:
    'The desk\'s "Close counter" from the live floor (contract §16): 409 COUNTER_BUSY while it holds a ticket; a `reason` must be one of the unit\'s `breakReasons` ' +
    '(422 on /reason); the clerk signed in there signs out and, with a reason, starts a break. Written with an audit entry `counter.close` by `{type: user, id: <username>}` ' +
    'in the same transaction. Session cookie and this server\'s Origin.',
  tags: ['Live floor'],
  security: 'sessionCookie',
  params: counterParams,
  body: { name: 'CloseFloorCounterRequest', schema: CloseCounterRequest, required: false, examples: { lunch: { summary: 'a lunch break', value: { reason: 'Lunch' } }, none: { summary: 'closed, no break', value: {} } } },
  responses: { 200: { description: 'the counter is closed', name: 'FloorCounterChanged', schema: CounterChanged, example: { data: { counterId: 'cnt_2', open: false, busy: false, actor: { type: 'user', id: 'amira.h' } } } } },
  errors: { ...counterErrors, 409: [ManageCodes.COUNTER_BUSY, ManageCodes.QUEUE_UNIT_EDGE_MANAGED] },
  errorExamples: ManageErrorExamples,
})

const floorChange = (type: 'snapshot' | 'update') => Type.Object({
  type: Type.Literal(type),
  kind: Type.Literal('queue'),
  id: Type.String({ description: 'the queue unit' }),
  revision: Type.Integer(),
  data: Type.Unknown({ description: 'the body of readFloor' }),
})

export const floorLiveDocs = websocketDetail({
  summary: 'The live floor, as it changes (websocket)',
  description:
    'Upgrade GET /api/manage/v1/live with the session cookie of a manager or admin, from a page of this server (Origin): signed out 401, a clerk 403 ROLE_FORBIDDEN, ' +
    'before the upgrade. The display feeds\' protocol and bounds (docs/display.md): `{"type":"subscribe","topics":[{"kind":"queue","id":"<queue unit>"}]}` ' +
    '(a unit not the person\'s: TOPIC_NOT_FOUND), then a `snapshot` and an `update` with the whole floor at every change, within a second of it (changes arriving ' +
    'together make one update); `ping` every 25 s; `{"type":"heartbeat"}` re-checks the session. A session that ended (signed out, idle, disabled) is closed with 4401.',
  tags: ['Live floor'],
  security: 'sessionCookie',
  query: {},
  clientMessages: {
    subscribe: {
      schema: Type.Object({ type: Type.Literal('subscribe'), topics: Type.Array(Type.Object({ kind: Type.Literal('queue'), id: Type.String(), sinceRevision: Type.Optional(Type.Integer({ minimum: 0 })) }), { minItems: 1, maxItems: 50 }) }),
      example: { type: 'subscribe', topics: [{ kind: 'queue', id: 'qu_main' }] },
    },
    heartbeat: { schema: Type.Object({ type: Type.Literal('heartbeat') }), example: { type: 'heartbeat' } },
  },
  serverMessages: {
    snapshot: { schema: floorChange('snapshot'), example: { type: 'snapshot', kind: 'queue', id: 'qu_main', revision: 418, data: FLOOR_EXAMPLE } },
    update: { schema: floorChange('update'), example: { type: 'update', kind: 'queue', id: 'qu_main', revision: 419, data: FLOOR_EXAMPLE } },
    ping: { schema: Type.Object({ type: Type.Literal('ping') }), example: { type: 'ping' } },
    heartbeat: { schema: Type.Object({ type: Type.Literal('heartbeat') }), example: { type: 'heartbeat' } },
    error: {
      schema: Type.Object({ type: Type.Literal('error'), code: Type.Union([Type.Literal('INVALID_MESSAGE'), Type.Literal('TOPIC_NOT_FOUND'), Type.Literal('TOO_MANY_TOPICS'), Type.Literal('RATE_LIMITED')]), message: Type.String() }),
      example: { type: 'error', code: 'TOPIC_NOT_FOUND', message: 'no queue "qu_other" for this display token' },
    },
  },
  closeCodes: {
    1012: 'the server is stopping: reconnect, it is back within seconds',
    1013: 'too many connections, or the page read too slowly: reconnect later',
    4401: 'the session ended: sign in again',
  },
})
