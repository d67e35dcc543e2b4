import { routeDetail } from '../platform/openapi'
import { DeviceCodes, DeviceErrorExamples } from './errors'
import { BoardsResponse, DeviceResponse, PairRequest, PairResponse } from './model'

/*
 * The OpenAPI details of the device API (src/devices/routes.ts): pairing, and what a paired
 * device reads, with examples and the error codes of each route by status.
 */

export const pairDeviceDocs = routeDetail({
  operationId: 'pairDevice',
  summary: 'Pair this browser as a device',
  description:
    'Exchanges a pairing code printed by `lobby devices pair` for the device cookie `lobby_device=lbv_…; HttpOnly; SameSite=Strict; Path=/` ' +
    '(`Secure` under TLS). A code works once and until it expires (at most an hour). More than 10 attempts a minute from one address, or 30 overall, is 429. ' +
    'Checks, in order: declared body size (1 KB) → attempt limits → Content-Type → body (read only now; 1 KB) → JSON → schema → code. ' +
    'A request refused before its body is read is answered with `Connection: close`.',
  tags: ['Devices'],
  public: true,
  body: { name: 'PairRequest', schema: PairRequest, examples: { desk: { summary: 'the code printed for Counter 1\'s desk', value: { code: '483921', deviceName: 'desk-counter-1' } } } },
  responses: {
    200: {
      description: 'paired; the cookie is set',
      headers: { 'Set-Cookie': { description: 'lobby_device=lbv_…; HttpOnly; SameSite=Strict; Path=/; Max-Age=34560000 (+ Secure under TLS)', required: true, schema: { type: 'string' } } },
      name: 'PairResponse',
      schema: PairResponse,
      example: { role: 'desk', home: '/desk', name: 'desk-counter-1' },
    },
  },
  errors: {
    400: [DeviceCodes.INVALID_REQUEST, DeviceCodes.INVALID_JSON, DeviceCodes.PAIRING_CODE_INVALID],
    413: [DeviceCodes.PAYLOAD_TOO_LARGE],
    422: [DeviceCodes.VALIDATION_FAILED],
    429: [DeviceCodes.RATE_LIMITED],
  },
  errorExamples: DeviceErrorExamples,
})

export const readDeviceDocs = routeDetail({
  operationId: 'readDevice',
  summary: 'This device',
  description: 'The paired device of the cookie: name, role, home page and binding. 401 once it is revoked (the pages use this to say so).',
  tags: ['Devices'],
  security: 'deviceCookie',
  responses: {
    200: {
      description: 'the device',
      name: 'DeviceResponse',
      schema: DeviceResponse,
      example: { data: { name: 'desk-counter-1', role: 'desk', home: '/desk', binding: { workspaceId: 'ws_demo', queueUnitId: 'qu_main', locationId: 'loc_hall', counterId: 'cnt_1' } } },
    },
  },
  errors: { 401: [DeviceCodes.AUTHENTICATION_FAILED] },
  errorExamples: DeviceErrorExamples,
})

export const listDeviceBoardsDocs = routeDetail({
  operationId: 'listDeviceBoards',
  summary: 'The boards a paired display may open',
  description: 'Every queue unit (and its locations), widget and prayer source of the display\'s workspace, with the path of its screen.',
  tags: ['Devices'],
  security: 'deviceCookie',
  responses: {
    200: {
      description: 'the boards',
      name: 'BoardsResponse',
      schema: BoardsResponse,
      example: {
        data: {
          boards: [
            { kind: 'queue', id: 'qu_main', name: 'Main branch', path: '/screens/queue/qu_main' },
            { kind: 'widget', id: 'wdg_schedule_lobby', name: 'Lobby schedule', path: '/screens/widgets/wdg_schedule_lobby' },
            { kind: 'prayer', id: 'psrc_centralmosque-0001-london', name: 'Central Mosque', path: '/screens/prayer/psrc_centralmosque-0001-london' },
          ],
        },
      },
    },
  },
  errors: { 401: [DeviceCodes.AUTHENTICATION_FAILED] },
  errorExamples: DeviceErrorExamples,
})
