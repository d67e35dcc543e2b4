import type { DeviceDeps } from './deps'
import { admitRate, RateBuckets } from '../platform/admission'
import { ApiError } from '../platform/errors'
import { cookieValue } from '../platform/http'
import type { Credential } from '../platform/credentials'
import { admitQueueCaller, DEFAULT_ISSUE_PER_MINUTE, DEFAULT_READ_PER_MINUTE, type RateBucket } from '../queue'
import { QueueCodes } from '../queue'
import type { Scope } from '../queue'
import { DeskCodes, DeviceCodes } from './errors'
import type { Device, DeviceRole, DeviceService } from './service'

/** Where the device API lives (pairing, the device, the desk's and the kiosk's routes). */
export const DEVICES_API = '/api/devices/v1'

/** The cookie a paired browser carries (contract §7). */
export const DEVICE_COOKIE = 'lobby_device'

/** Long enough that a paired counter PC or TV survives restarts: 400 days, the most browsers keep a cookie. */
const COOKIE_MAX_AGE_SECONDS = 400 * 86_400

/**
 * The device secret in the request's `lobby_device` cookie, or null. Only a `lbv_` value is
 * taken: a bearer key (`lbq_`, `lbd_`, …) is never read from a cookie.
 */
export function deviceSecretOf(request: Request): string | null {
  return cookieValue(request, DEVICE_COOKIE, /^lbv_[a-z2-7]{16,128}$/)
}

/** `Set-Cookie` for a newly paired device; `Secure` when the page is served over TLS. */
export function deviceCookie(secret: string, secure: boolean): string {
  return `${DEVICE_COOKIE}=${secret}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${COOKIE_MAX_AGE_SECONDS}${secure ? '; Secure' : ''}`
}

/**
 * The server's own origin as the browser sees it: `--public-origin` when a proxy rewrites
 * scheme or host, else the request's scheme (https under TLS) and its `Host`.
 */
export function serverOrigin(request: Request, publicOrigin: string | null | undefined): string {
  if (publicOrigin) return publicOrigin
  try {
    return new URL(request.url).origin
  } catch {
    return ''
  }
}

/** Whether the browser reached the server over TLS (directly, or as `--public-origin` says). */
export function isSecureRequest(request: Request, publicOrigin: string | null | undefined): boolean {
  return serverOrigin(request, publicOrigin).startsWith('https:')
}

/**
 * Contract §7: a request authenticated by the device cookie that changes state must carry an
 * `Origin` equal to the server's own origin, else 403 ORIGIN_FORBIDDEN. SameSite=Strict
 * already keeps the cookie off other sites' requests; this also refuses a sibling site on the
 * same registrable domain and a browser that ignores SameSite.
 */
export function assertSameOrigin(
  request: Request,
  publicOrigin: string | null | undefined,
  message = 'a device may change things only from a page of this server (Origin does not match)',
): void {
  const origin = request.headers.get('origin')
  if (origin === null || origin !== serverOrigin(request, publicOrigin)) {
    throw new ApiError(403, DeviceCodes.ORIGIN_FORBIDDEN, message)
  }
}

/** Methods that change nothing: the Origin rule leaves them alone (the session cookie's too). */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS'])

export function deviceNotPaired(): ApiError {
  return new ApiError(401, DeviceCodes.AUTHENTICATION_FAILED, 'this device is not paired (or no longer): pair it again at /pair')
}

/**
 * The device of the request's cookie, of one of `roles`; 401 otherwise. A state-changing
 * request must also come from this server's origin (403 ORIGIN_FORBIDDEN).
 */
export function requireDevice(deps: DeviceDeps, service: DeviceService, request: Request, roles: readonly DeviceRole[]): Device {
  const device = service.authenticate(deps.credentials, deviceSecretOf(request), deps.clock.now())
  if (device === null || !roles.includes(device.role)) throw deviceNotPaired()
  if (!SAFE_METHODS.has(request.method)) assertSameOrigin(request, deps.publicOrigin)
  return device
}

/**
 * A desk as the operator API's caller: its counter's queue unit, location and services (as
 * provisioned now), bound to that one counter. `name` carries a `/`, which no key name may,
 * so a desk never shares a rate window or an Idempotency-Key scope with a queue key.
 */
export function deskCredential(device: Device, serviceIds: string[], clerk: Credential['clerk'] = null): Credential {
  return {
    id: device.credentialId,
    kind: 'device',
    ownerId: device.queueUnitId!,
    name: `device/${device.name}`,
    scopes: ['counter:operate', 'services:read', 'tickets:read', 'tickets:write', 'state:read'],
    locations: [device.locationId!],
    services: serviceIds,
    counters: [device.counterId!],
    issuePerMinute: DEFAULT_ISSUE_PER_MINUTE,
    readPerMinute: DEFAULT_READ_PER_MINUTE,
    clerk,
  }
}

/**
 * The operator API's caller (contract §3, §7): a Queue key in `Authorization: Bearer`, else a
 * paired desk by its cookie. With an Authorization header the cookie is not looked at. A desk
 * passes the same checks as a key, in the same order, with the Origin check right after the
 * credential: credential (401) → Origin (403, state-changing only) → scope → rate limit. A
 * desk's credential carries the clerk signed in at its counter (contract §16); with the unit's
 * `deskSignIn: required` and nobody signed in, its state-changing calls end there with 403
 * CLERK_SIGN_IN_REQUIRED (after the rate limit, so refused calls are bounded too).
 */
export function admitOperatorCaller(deps: DeviceDeps, service: DeviceService, request: Request, scope: Scope, bucket: RateBucket, now: number): Credential {
  const secret = request.headers.has('authorization') ? null : deviceSecretOf(request)
  if (secret === null) return admitQueueCaller(deps, request, scope, bucket, now)
  const device = service.authenticate(deps.credentials, secret, now)
  if (device === null || device.role !== 'desk') {
    throw new ApiError(401, QueueCodes.AUTHENTICATION_FAILED, 'this device is not a paired desk (or no longer): pair it again at /pair')
  }
  if (!SAFE_METHODS.has(request.method)) assertSameOrigin(request, deps.publicOrigin)
  // One prepared statement on every desk request (deps.staff, src/people/staff.ts).
  const { required, clerk } = deps.staff.deskClerk(device.queueUnitId!, device.counterId!)
  const caller = deskCredential(device, service.counterServiceIds(device.counterId!), clerk)
  const limit = bucket === 'issue' ? DEFAULT_ISSUE_PER_MINUTE : DEFAULT_READ_PER_MINUTE
  admitRate(deps.limiter, bucket === 'issue' ? RateBuckets.queueIssue : RateBuckets.queueRead, `${caller.ownerId}/${caller.name}`, limit, now,
    (retry) => `over ${limit} requests per minute for this desk; retry after ${retry} s`)
  if (required && clerk === null && !SAFE_METHODS.has(request.method)) {
    throw new ApiError(403, DeskCodes.CLERK_SIGN_IN_REQUIRED, 'this queue unit requires a clerk signed in at the desk: sign in first')
  }
  return caller
}
