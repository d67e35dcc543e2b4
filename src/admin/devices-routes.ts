import { Elysia } from 'elysia'
import type { AdmissionPlugin } from '../access'
import type { AdminDeps } from './deps'
import { ApiError } from '../platform/errors'
import { ruled } from '../platform/detail-rules'
import { compile } from '../platform/validation'
import type { PairingRequest } from '../devices'
import { ADMIN_API } from './branch-routes'
import { assertUnitAccess, mayTouchUnit } from './console-caller'
import { absoluteUrl, auditedWrite, jsonAfterAdmission, ok, qrOf } from './section-kit'
import { AdminCodes as C } from './errors'
import { type AdminDevices, DeviceNotFoundError, devicePairEntry, deviceRevokeEntry, PairingRefused } from './devices-service'
import { listDevicesDocs, pairDeviceDocs, PairDeviceRequest, revokeDeviceDocs } from './devices-model'

/** The QR code's title (an SVG `<title>`) per role, in words: "Pair this reports screen", never "Pair this reports". */
const PAIR_TITLES: Record<PairingRequest['role'], string> = { desk: 'Pair this desk', kiosk: 'Pair this kiosk', reports: 'Pair this reports screen', display: 'Pair this display' }

/** A pairing request is a handful of IDs: 8 KB is plenty (a kiosk's service list included). */
const MAX_BODY = 8192
const checkPair = compile(PairDeviceRequest)

/**
 * The console's devices section (contract §17): pair (the code, its link and a QR code), list,
 * revoke. Administrators act on every device; a manager on those of its queue units. The
 * pairing code is in the answer only: the log line and the audit entry say what was paired.
 */
export function adminDeviceRoutes(deps: AdminDeps, { access, adminDevices: service }: { access: AdmissionPlugin; adminDevices: AdminDevices }) {

  return new Elysia({ name: 'lobby.admin.devices' })
    .use(access)
    .post(
      `${ADMIN_API}/devices/pairings`,
      async ({ request, principal }) => {
        const body = await jsonAfterAdmission(request, MAX_BODY, checkPair)
        const caller = principal
        const { user } = caller
        const pairing = body as PairingRequest
        const unit = service.unitOfPairing(pairing)
        // An unknown counter has no unit (undefined): the pairing below says it does not exist.
        if (unit !== undefined) assertUnitAccess(caller, unit, unit === null ? 'a display shows the boards of a whole workspace: an administrator pairs it' : undefined)
        const now = deps.clock.now()
        let code
        try {
          code = await auditedWrite(deps, user, () => {
            const made = service.pair(pairing, now)
            return { result: made, audit: devicePairEntry(pairing, made) }
          })
        } catch (error) {
          if (error instanceof PairingRefused) throw new ApiError(422, C.VALIDATION_FAILED, error.message, [ruled(`/${error.field}`, error.message, error.rule, error.params)])
          throw error
        }
        deps.log({ level: 'info', msg: 'pairing code made', by: user.username, role: pairing.role, expiresAt: code.expiresAt })
        const pairUrl = absoluteUrl(deps, request, code.pairPath)
        return ok(201, { data: { code: code.code, pairPath: code.pairPath, pairUrl, qrSvg: qrOf(pairUrl, PAIR_TITLES[code.role]), role: code.role, expiresAt: code.expiresAt } })
      },
      { admitConsole: { who: 'console', body: MAX_BODY }, parse: 'none', detail: pairDeviceDocs },
    )
    .get(
      `${ADMIN_API}/devices`,
      async ({ request, principal }) => {
        const caller = principal
        return ok(200, { data: service.list(caller.units) })
      },
      { admitConsole: { who: 'console' }, detail: listDevicesDocs },
    )
    .post(
      `${ADMIN_API}/devices/:name/revoke`,
      async ({ request, params, principal }) => {
        const caller = principal
        const { user } = caller
        const name = params.name
        const units = name.length <= 80 ? service.unitsOf(name) : []
        if (units.length === 0) throw new ApiError(404, C.DEVICE_NOT_FOUND, 'no device of that name')
        const foreign = units.find((unit) => !mayTouchUnit(caller, unit))
        if (foreign !== undefined) assertUnitAccess(caller, foreign, foreign === null ? 'a display belongs to a whole workspace: an administrator revokes it' : undefined)
        const now = deps.clock.now()
        const result = await auditedWrite(deps, user, () => {
          const revoked = service.revoke(name, now)
          return { result: revoked, audit: deviceRevokeEntry(name, revoked) }
        }).catch((error) => {
          if (error instanceof DeviceNotFoundError) throw new ApiError(404, C.DEVICE_NOT_FOUND, 'no device of that name')
          throw error
        })
        deps.log({ level: 'info', msg: 'device revoked', by: user.username, device: name, revoked: result.revoked })
        return ok(200, { data: result })
      },
      { admitConsole: { who: 'console' }, detail: revokeDeviceDocs },
    )
}
