import { Elysia } from 'elysia'
import { admitRate, clientAddressOf, RateBuckets } from '../platform/admission'
import { eq } from 'drizzle-orm'
import type { DeviceDeps } from './deps'
import { ApiError } from '../platform/errors'
import { readJsonBody } from '../platform/body'
import { json } from '../platform/http'
import { assertSchema, compile } from '../platform/validation'
import { queueUnits, locations } from '../structure'
import { widgets } from '../widgets'
import { prayerSources } from '../prayer'
import { DeviceCodes } from './errors'
import { DEVICES_API, deviceCookie } from './cookie'
import { deviceSecretOf, isSecureRequest, type AdmissionPlugin } from '../access'
import { DeviceService, ROLE_HOME, type Device } from './service'
import { devicePage } from './pages'
import { PairRequest } from './model'
import { listDeviceBoardsDocs, pairDeviceDocs, readDeviceDocs } from './docs'

/**
 * Contract §7 as amended by §23: at most 10 tries a minute from one address and 30 overall
 * (every try counts, so wrong codes are bounded by these numbers), then 429. With 30 a minute
 * and a code of at most 3600 s, a guesser tries at most 1,800 of the million codes.
 */
export const PAIR_ATTEMPTS_PER_ADDRESS = 10
export const PAIR_ATTEMPTS_OVERALL = 30
/** A pairing body is a code and a name: 1 KB is plenty. */
const MAX_PAIR_BODY = 1024

const checkPair = compile(PairRequest)

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
export function deviceRoutes(deps: DeviceDeps, { devices: service, access }: { devices: DeviceService; access: AdmissionPlugin }) {

  /** 10 a minute per address, then 30 a minute overall; a refused try is not counted. */
  function admitPairAttempt(address: string, now: number): void {
    const message = (retry: number) => `too many pairing attempts; retry after ${retry} s`
    admitRate(deps.limiter, RateBuckets.pairPerAddress, address, PAIR_ATTEMPTS_PER_ADDRESS, now, message)
    admitRate(deps.limiter, RateBuckets.pairOverall, null, PAIR_ATTEMPTS_OVERALL, now, message)
  }

  return new Elysia({ name: 'lobby.devices' })
    .use(access)
    .get('/pair', ({ query }) => devicePage('pair', query), { detail: { hide: true } })
    .get('/screens', ({ query }) => devicePage('boards', query), { detail: { hide: true } })
    .post(
      `${DEVICES_API}/pair`,
      async ({ request, server }) => {
        const now = deps.clock.now()
        // Contract §23: the body is read only after the address's rate limit (and the overall one).
        const body = await readJsonBody(request, MAX_PAIR_BODY, () => admitPairAttempt(clientAddressOf(deps.clients, request, server), now))
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
        detail: pairDeviceDocs,
      },
    )
    .get(
      `${DEVICES_API}/device`,
      ({ principal: device }) => {
        return json(200, { data: { name: device.name, role: device.role, home: ROLE_HOME[device.role], binding: bindingOf(device) } }, { 'cache-control': 'no-store' })
      },
      {
        admitDevice: { roles: ['desk', 'kiosk', 'display', 'reports'] },
        detail: readDeviceDocs,
      },
    )
    .get(
      `${DEVICES_API}/boards`,
      ({ principal: device }) => {
        return json(200, { data: workspaceBoards(deps, device.workspaceId) }, { 'cache-control': 'no-store' })
      },
      {
        admitDevice: { roles: ['display'] },
        detail: listDeviceBoardsDocs,
      },
    )
}

/** The screens of a workspace a paired display lists: names and paths, nothing else. */
function workspaceBoards(deps: DeviceDeps, workspaceId: string) {
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
