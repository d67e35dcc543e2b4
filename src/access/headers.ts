/*
 * The credentials a request carries in its headers (contract §7, §16): the device and session
 * cookies, the display token, and the Origin rule for what a cookie may change. Reading them
 * costs no body: admission reads these, and only these, before a route reads its body (§23).
 */
import { ApiError } from '../platform/errors'
import { cookieValue } from '../platform/http'
import { presentedSecret } from '../platform/credentials'
import { AccessCodes } from './codes'

/** The cookie a paired browser carries (contract §7). */
export const DEVICE_COOKIE = 'lobby_device'

/** The cookie of a signed-in browser (contract §16). */
export const SESSION_COOKIE = 'lobby_session'

export const SESSION_PREFIX = 'lbs_'
export const SESSION_PATTERN = /^lbs_[a-z2-7]{52}$/

/**
 * The device secret in the request's `lobby_device` cookie, or null. Only a `lbv_` value is
 * taken: a bearer key (`lbq_`, `lbd_`, …) is never read from a cookie.
 */
export function deviceSecretOf(request: Request): string | null {
  return cookieValue(request, DEVICE_COOKIE, /^lbv_[a-z2-7]{16,128}$/)
}

/** The session ID in the request's `lobby_session` cookie, or null. Only a `lbs_` value is taken. */
export function sessionIdOf(request: Request): string | null {
  return cookieValue(request, SESSION_COOKIE, SESSION_PATTERN)
}

/** The display token of the request: `Authorization: Bearer lbd_…` or `?token=lbd_…`. */
export function displayTokenOf(request: Request, query: Record<string, string | undefined>): string | null {
  return presentedSecret(request, { allowApiKeyHeader: false }) ?? query.token ?? null
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
    throw new ApiError(403, AccessCodes.ORIGIN_FORBIDDEN, message)
  }
}

/** Contract §7's rule for the session cookie: a state-changing request must come from this server's origin. */
export function assertSessionOrigin(request: Request, publicOrigin: string | null | undefined): void {
  assertSameOrigin(request, publicOrigin, 'a signed-in browser may change things only from a page of this server (Origin does not match)')
}

/** Methods that change nothing: the Origin rule leaves them alone (the session cookie's too). */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS'])
