import { SESSION_COOKIE } from '../access'

/** Where the people API lives (sessions, setup). */
export const AUTH_API = '/api/auth/v1'

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
