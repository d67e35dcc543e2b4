import { Elysia } from 'elysia'
import { admitRate, clientAddressOf, RateBuckets } from '../platform/admission'
import { Type, type TSchema } from '@sinclair/typebox'
import { eq } from 'drizzle-orm'
import type { AppDeps } from '../root/deps'
import { ApiError } from '../platform/errors'
import { isJsonContentType, parseJsonBytes, readBodyAfterChecks } from '../platform/body'
import { json } from '../platform/http'
import { routeDetail } from '../platform/openapi'
import { assertSchema, compile } from '../platform/validation'
import { queueUnits, locations } from '../queue/tables'
import { widgets } from '../widgets/tables'
import { prayerSources } from '../prayer/tables'
import { DeviceCodes, DeviceErrorExamples } from './errors'
import { DEVICES_API, deviceCookie, deviceSecretOf, isSecureRequest, requireDevice } from './access'
import { DeviceService, ROLE_HOME, type Device } from './service'
import { devicePage } from './pages'

/**
 * Contract §7 as amended by §23: at most 10 tries a minute from one address and 30 overall
 * (every try counts, so wrong codes are bounded by these numbers), then 429. With 30 a minute
 * and a code of at most 3600 s, a guesser tries at most 1,800 of the million codes.
 */
export const PAIR_ATTEMPTS_PER_ADDRESS = 10
export const PAIR_ATTEMPTS_OVERALL = 30
/** A pairing body is a code and a name: 1 KB is plenty. */
const MAX_PAIR_BODY = 1024

const closed = { additionalProperties: false } as const

export const PairRequest = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: 32, description: 'the six-digit code `lobby devices pair` printed', examples: ['483921'] }),
    deviceName: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'a name for this device (A-Z a-z 0-9 _ . : -), when the code has none' })),
  },
  closed,
)
const checkPair = compile(PairRequest)

const Binding = Type.Object(
  {
    workspaceId: Type.String(),
    queueUnitId: Type.Optional(Type.String()),
    locationId: Type.Optional(Type.String()),
    counterId: Type.Optional(Type.String()),
    services: Type.Optional(Type.Array(Type.String())),
  },
  closed,
)
const Role = Type.Union([Type.Literal('desk'), Type.Literal('kiosk'), Type.Literal('display'), Type.Literal('reports')])
export const PairResponse = Type.Object({ role: Role, home: Type.String({ examples: ['/desk'] }), name: Type.String() }, closed)
/** `GET boards`: the screens of the display's workspace. */
export const BoardsResponse = Type.Object({
  data: Type.Object({
    boards: Type.Array(Type.Object({
      kind: Type.Union([Type.Literal('queue'), Type.Literal('widget'), Type.Literal('prayer')]),
      id: Type.String(),
      name: Type.String(),
      path: Type.String({ description: 'the screen page, relative to this server' }),
    }, closed)),
  }, closed),
}, closed)
export const DeviceResponse = Type.Object({ data: Type.Object({ name: Type.String(), role: Role, home: Type.String(), binding: Binding }, closed) }, closed)

function bindingOf(device: Device) {
  return {
    workspaceId: device.workspaceId,
    ...(device.queueUnitId !== null ? { queueUnitId: device.queueUnitId } : {}),
    ...(device.locationId !== null ? { locationId: device.locationId } : {}),
    ...(device.counterId !== null ? { counterId: device.counterId } : {}),
    ...(device.services !== null ? { services: device.services } : {}),
  }
}


/**
 * Pairing (contract §7): the `/pair` page, `POST /api/devices/v1/pair` (a code becomes the
 * `lobby_device` cookie), `GET /api/devices/v1/device` (who am I: the pages use it to notice a
 * revocation), and for a paired display the `/screens` list of its workspace's boards.
 */
export function deviceRoutes(deps: AppDeps, { devices: service }: { devices: DeviceService }) {

  /** 10 a minute per address, then 30 a minute overall; a refused try is not counted. */
  function admitPairAttempt(address: string, now: number): void {
    const message = (retry: number) => `too many pairing attempts; retry after ${retry} s`
    admitRate(deps.limiter, RateBuckets.pairPerAddress, address, PAIR_ATTEMPTS_PER_ADDRESS, now, message)
    admitRate(deps.limiter, RateBuckets.pairOverall, null, PAIR_ATTEMPTS_OVERALL, now, message)
  }

  return new Elysia({ name: 'lobby.devices' })
    .get('/pair', ({ query }) => devicePage('pair', query), { detail: { hide: true } })
    .get('/screens', ({ query }) => devicePage('boards', query), { detail: { hide: true } })
    .post(
      `${DEVICES_API}/pair`,
      async ({ request, server }) => {
        const now = deps.clock.now()
        // Contract §23: the body is read only after the address's rate limit (and the overall one).
        const { raw } = await readBodyAfterChecks(request, MAX_PAIR_BODY, () => {
          admitPairAttempt(clientAddressOf(deps.clients, request, server), now)
          if (!isJsonContentType(request)) {
            throw new ApiError(400, DeviceCodes.INVALID_REQUEST, 'Content-Type must be application/json', [{ path: 'Content-Type', message: 'must be application/json' }])
          }
        })
        const body = parseJsonBytes(raw)
        assertSchema(checkPair, body, DeviceCodes.VALIDATION_FAILED)
        const code = body.code.trim()
        const previous = service.authenticate(deps.credentials, deviceSecretOf(request), now)
        const paired = /^\d{6}$/.test(code) ? service.pair(code, body.deviceName ?? null, now, previous?.credentialId ?? null) : null
        // Pairing writes keys in its own transaction, not through deps.writes: say so to the key cache.
        if (paired !== null) deps.changes.noteWrite()
        if (paired === null) throw new ApiError(400, DeviceCodes.PAIRING_CODE_INVALID, 'this pairing code is wrong, expired or already used')
        const home = ROLE_HOME[paired.device.role]
        deps.log({ level: 'info', msg: 'device paired', device: paired.device.name, role: paired.device.role })
        return json(200, { role: paired.device.role, home, name: paired.device.name }, {
          'set-cookie': deviceCookie(paired.secret, isSecureRequest(request, deps.publicOrigin)),
          'cache-control': 'no-store',
        })
      },
      {
        parse: 'none',
        detail: routeDetail({
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
        }),
      },
    )
    .get(
      `${DEVICES_API}/device`,
      ({ request }) => {
        const device = requireDevice(deps, service, request, ['desk', 'kiosk', 'display', 'reports'])
        return json(200, { data: { name: device.name, role: device.role, home: ROLE_HOME[device.role], binding: bindingOf(device) } }, { 'cache-control': 'no-store' })
      },
      {
        detail: routeDetail({
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
        }),
      },
    )
    .get(
      `${DEVICES_API}/boards`,
      ({ request }) => {
        const device = requireDevice(deps, service, request, ['display'])
        return json(200, { data: workspaceBoards(deps, device.workspaceId) }, { 'cache-control': 'no-store' })
      },
      {
        detail: routeDetail({
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
        }),
      },
    )
}

/** The screens of a workspace a paired display lists: names and paths, nothing else. */
function workspaceBoards(deps: AppDeps, workspaceId: string) {
  const db = deps.db
  const units = db.select({ id: queueUnits.id, name: queueUnits.name, active: queueUnits.active }).from(queueUnits).where(eq(queueUnits.workspaceId, workspaceId)).all()
  const boards: { kind: 'queue' | 'widget' | 'prayer'; id: string; name: string; path: string }[] = []
  for (const unit of units.filter((u) => u.active).sort((a, b) => a.id.localeCompare(b.id))) {
    boards.push({ kind: 'queue', id: unit.id, name: unit.name, path: `/screens/queue/${encodeURIComponent(unit.id)}` })
    const unitLocations = db.select({ id: locations.id, name: locations.name, active: locations.active }).from(locations).where(eq(locations.queueUnitId, unit.id)).all()
    if (unitLocations.length > 1) {
      for (const location of unitLocations.filter((l) => l.active)) {
        boards.push({ kind: 'queue', id: unit.id, name: `${unit.name} · ${location.name}`, path: `/screens/queue/${encodeURIComponent(unit.id)}?location=${encodeURIComponent(location.id)}` })
      }
    }
  }
  for (const widget of db.select({ id: widgets.id, name: widgets.name }).from(widgets).where(eq(widgets.workspaceId, workspaceId)).all().sort((a, b) => a.id.localeCompare(b.id))) {
    boards.push({ kind: 'widget', id: widget.id, name: widget.name, path: `/screens/widgets/${encodeURIComponent(widget.id)}` })
  }
  for (const source of db.select({ id: prayerSources.id, name: prayerSources.name }).from(prayerSources).where(eq(prayerSources.workspaceId, workspaceId)).all().sort((a, b) => a.id.localeCompare(b.id))) {
    boards.push({ kind: 'prayer', id: source.id, name: source.name, path: `/screens/prayer/${encodeURIComponent(source.id)}` })
  }
  return { boards }
}
