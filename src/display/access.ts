import type { DisplayDeps } from './deps'
import { ApiError } from '../platform/errors'
import { presentedSecret, type Credential } from '../platform/credentials'
import type { DeviceService } from '../devices'
import { deviceSecretOf } from '../devices'
import { DisplayCodes } from './errors'

/** The display token of the request: `Authorization: Bearer lbd_…` or `?token=lbd_…`. */
export function tokenOf(request: Request, query: Record<string, string | undefined>): string | null {
  return presentedSecret(request, { allowApiKeyHeader: false }) ?? query.token ?? null
}

export function authenticateDisplay(deps: DisplayDeps, token: string | null, devices?: DeviceService, request?: Request): Credential {
  const credential = deps.credentials.authenticate(token, 'display', deps.clock.now())
  if (credential === null) {
    const viewer = token === null && devices && request ? deviceViewer(deps, devices, request) : null
    if (viewer !== null && viewer.queueUnitId === null) return { ...NO_LISTS, id: viewer.credentialId, kind: 'device', ownerId: viewer.workspaceId, name: viewer.name }
    throw new ApiError(401, DisplayCodes.AUTHENTICATION_FAILED, 'a valid display token (lbd_…) or a paired display is required on display routes')
  }
  return credential
}

const NO_LISTS = { scopes: null, locations: null, services: null, issuePerMinute: null, readPerMinute: null }

/**
 * A paired device reading display feeds by its cookie (contract §7): a display reads what a
 * display token may (its workspace); a desk only its own queue unit's live state, which is how
 * the desk page hears of changes. Null for anything else. No token is ever read from a cookie.
 */
export function deviceViewer(deps: DisplayDeps, devices: DeviceService, request: Request): { credentialId: string; name: string; workspaceId: string; queueUnitId: string | null; secret: string } | null {
  const secret = deviceSecretOf(request)
  const device = devices.authenticate(deps.credentials, secret, deps.clock.now())
  if (device === null || secret === null) return null
  if (device.role === 'display') return { credentialId: device.credentialId, name: device.name, workspaceId: device.workspaceId, queueUnitId: null, secret }
  // A desk and a kiosk read their own unit's queue topic (their pages re-read their view on each change).
  if (device.role === 'desk' || device.role === 'kiosk') return { credentialId: device.credentialId, name: device.name, workspaceId: device.workspaceId, queueUnitId: device.queueUnitId, secret }
  return null
}
