import { Type } from '@sinclair/typebox'
import { routeDetail } from '../platform/openapi'
import { DEVICE_ROLES, MAX_PAIRING_TTL_SECONDS } from '../devices'
import { AdminCodes as C, AdminSectionErrorExamples } from './errors'

/* The console's devices section (contract §17, §7): schemas and OpenAPI details. */

const Id = Type.String({ minLength: 1, maxLength: 160 })

export const PairDeviceRequest = Type.Object({
  role: Type.Union(DEVICE_ROLES.map((r) => Type.Literal(r)), { description: 'desk (needs counterId), kiosk (queueUnitId, locationId, services?), display (workspaceId; administrators only), reports (queueUnitId)' }),
  counterId: Type.Optional(Id),
  queueUnitId: Type.Optional(Id),
  locationId: Type.Optional(Id),
  services: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 500, uniqueItems: true })),
  workspaceId: Type.Optional(Id),
  name: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,80}$', description: 'the device\'s name in the list (else the browser\'s, else role and binding)' })),
  ttlSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAIRING_TTL_SECONDS, description: 'how long the code works (default 600)' })),
}, { additionalProperties: false })

const Binding = Type.Object({
  queueUnitId: Type.Optional(Type.String()),
  locationId: Type.Optional(Type.String()),
  counterId: Type.Optional(Type.String()),
  workspaceId: Type.Optional(Type.String()),
  services: Type.Optional(Type.Array(Type.String())),
}, { additionalProperties: false })

export const PairingCodeResponse = Type.Object({
  data: Type.Object({
    code: Type.String({ pattern: '^\\d{6}$', description: 'six digits, single use; shown here once and never logged' }),
    pairPath: Type.String(),
    pairUrl: Type.String({ description: 'the absolute URL the QR code holds' }),
    qrSvg: Type.String({ description: 'an SVG QR code of pairUrl, made on the box' }),
    role: Type.Union(DEVICE_ROLES.map((r) => Type.Literal(r))),
    expiresAt: Type.String({ format: 'date-time' }),
  }, { additionalProperties: false }),
}, { additionalProperties: false })

export const DeviceListResponse = Type.Object({
  data: Type.Array(Type.Object({
    name: Type.String(),
    role: Type.Union(DEVICE_ROLES.map((r) => Type.Literal(r))),
    binding: Binding,
    pairedAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'last seen (to the minute)' }),
    state: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
  }, { additionalProperties: false })),
}, { additionalProperties: false })

export const RevokeDeviceResponse = Type.Object({
  data: Type.Object({ name: Type.String(), revoked: Type.Integer({ minimum: 0, description: 'how many paired devices of that name stopped working now' }) }, { additionalProperties: false }),
}, { additionalProperties: false })

const auth = { 401: [C.AUTHENTICATION_FAILED] } as const
const tags = ['Admin']

export const pairDeviceDocs = routeDetail({
  operationId: 'adminPairDevice',
  summary: 'Pair a new device (code and QR code)',
  description:
    'A six-digit pairing code for a desk, kiosk, display or reports device (contract §7), valid `ttlSeconds` (default 600), with the absolute `/pair?code=…` URL and an SVG QR code of it. ' +
    'Administrators pair any device; a manager pairs desks, kiosks and reports devices of its own queue units (a display sees the boards of a whole workspace: an administrator pairs it). ' +
    'The code is in this answer only: never logged, never in the audit log (`device.pair` records role, binding and expiry). Session cookie only; Origin must be this server\'s.',
  tags,
  security: 'sessionCookie',
  body: {
    name: 'AdminPairDeviceRequest',
    schema: PairDeviceRequest,
    examples: {
      desk: { summary: 'a counter PC', value: { role: 'desk', counterId: 'cnt_1', name: 'desk-1' } },
      kiosk: { summary: 'a kiosk offering two services', value: { role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_hall', services: ['svc_accounts', 'svc_loans'] } },
    },
  },
  responses: {
    201: {
      description: 'the code, its link and QR code',
      name: 'AdminPairingCodeResponse',
      schema: PairingCodeResponse,
      example: { data: { code: '483921', pairPath: '/pair?code=483921', pairUrl: 'https://lobby.branch.example/pair?code=483921', qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" …</svg>', role: 'desk', expiresAt: '2026-11-25T09:40:00.000Z' } },
    },
  },
  errors: { 400: [C.INVALID_REQUEST, C.INVALID_JSON], ...auth, 403: [C.ORIGIN_FORBIDDEN, C.ROLE_FORBIDDEN, C.UNIT_FORBIDDEN], 413: [C.PAYLOAD_TOO_LARGE], 422: [C.VALIDATION_FAILED] },
  errorExamples: AdminSectionErrorExamples,
})

export const listDevicesDocs = routeDetail({
  operationId: 'adminListDevices',
  summary: 'List paired devices',
  description: 'Every paired device (an administrator) or those of the manager\'s queue units: role, binding, paired, last seen, state. Never a secret.',
  tags,
  security: 'sessionCookie',
  responses: {
    200: {
      description: 'the devices, paired first to last',
      name: 'AdminDeviceListResponse',
      schema: DeviceListResponse,
      example: { data: [{ name: 'desk-1', role: 'desk', binding: { queueUnitId: 'qu_main', locationId: 'loc_hall', counterId: 'cnt_1' }, pairedAt: '2026-11-25T09:31:00.000Z', lastUsedAt: '2026-11-25T11:02:00.000Z', state: 'active' }] },
    },
  },
  errors: { ...auth, 403: [C.ROLE_FORBIDDEN] },
  errorExamples: AdminSectionErrorExamples,
})

export const revokeDeviceDocs = routeDetail({
  operationId: 'adminRevokeDevice',
  summary: 'Revoke a device',
  description: 'The device stops working at once: its next request is 401, its websocket closes, its open pages say it is no longer paired. A manager revokes devices of its own units only.',
  tags,
  security: 'sessionCookie',
  params: { name: { description: 'the device\'s name', example: 'desk-1' } },
  responses: {
    200: { description: 'revoked', name: 'AdminRevokeDeviceResponse', schema: RevokeDeviceResponse, example: { data: { name: 'desk-1', revoked: 1 } } },
  },
  errors: { ...auth, 403: [C.ORIGIN_FORBIDDEN, C.ROLE_FORBIDDEN, C.UNIT_FORBIDDEN], 404: [C.DEVICE_NOT_FOUND] },
  errorExamples: AdminSectionErrorExamples,
})
