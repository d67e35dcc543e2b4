import type { PeopleFeatureDeps } from './deps'
import { ApiError } from '../platform/errors'
import { cookieValue } from '../platform/http'
import { assertSameOrigin, SAFE_METHODS } from '../devices'
import { PeopleCodes } from './errors'
import { SESSION_PATTERN, type PeopleService, type User } from './service'

/** Where the people API lives (sessions, setup). */
export const AUTH_API = '/api/auth/v1'

/** The cookie of a signed-in browser (contract §16). */
export const SESSION_COOKIE = 'lobby_session'

/** The session ID in the request's `lobby_session` cookie, or null. Only a `lbs_` value is taken. */
export function sessionIdOf(request: Request): string | null {
  return cookieValue(request, SESSION_COOKIE, SESSION_PATTERN)
}

/**
 * `Set-Cookie` for a new session: a session cookie (no Max-Age: it ends with the browser, and
 * the server ends it after 30 minutes idle or 12 hours); `Secure` under TLS, as the device cookie.
 */
export function sessionCookie(sessionId: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${sessionId}; HttpOnly; SameSite=Strict; Path=/${secure ? '; Secure' : ''}`
}

/** `Set-Cookie` that removes the session cookie (signed out). */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0${secure ? '; Secure' : ''}`
}

/** Contract §7's rule for the session cookie: a state-changing request must come from this server's origin. */
export function assertSessionOrigin(request: Request, publicOrigin: string | null | undefined): void {
  assertSameOrigin(request, publicOrigin, 'a signed-in browser may change things only from a page of this server (Origin does not match)')
}

export function notSignedIn(): ApiError {
  return new ApiError(401, PeopleCodes.AUTHENTICATION_FAILED, 'not signed in (or the session ended): sign in at /login')
}

/**
 * The signed-in user of the request's session cookie, 401 otherwise; a state-changing request
 * must also carry this server's Origin (403 ORIGIN_FORBIDDEN), checked right after the session.
 */
export async function requireSession(deps: PeopleFeatureDeps, people: PeopleService, request: Request): Promise<{ user: User; sessionId: string; startedAt: number }> {
  const sessionId = sessionIdOf(request)
  const found = await people.authenticate(sessionId, deps.clock.now())
  if (found === null || sessionId === null) throw notSignedIn()
  if (!SAFE_METHODS.has(request.method)) assertSessionOrigin(request, deps.publicOrigin)
  return { ...found, sessionId }
}
