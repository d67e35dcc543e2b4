/*
 * What a Queue key is allowed (contract §1, §3): its operation scopes, its location and service
 * lists, its rate limits, and what "the credential" is for its windows and Idempotency-Keys.
 * The queue feature re-exports the scopes (src/queue/model.ts); admission reads them here.
 */
import type { Credential } from '../platform/credentials'

/** Operation scopes of a Queue key (contract §1); absent on a key means the first four. */
export const Scopes = {
  SERVICES_READ: 'services:read',
  TICKETS_WRITE: 'tickets:write',
  TICKETS_READ: 'tickets:read',
  STATE_READ: 'state:read',
  COUNTER_OPERATE: 'counter:operate',
  REPORTS_READ: 'reports:read',
  /** Contract §21: book, cancel and check in appointments through the operator API. */
  APPOINTMENTS_WRITE: 'appointments:write',
} as const
export type Scope = (typeof Scopes)[keyof typeof Scopes]
export const DEFAULT_SCOPES: readonly Scope[] = [Scopes.SERVICES_READ, Scopes.TICKETS_WRITE, Scopes.TICKETS_READ, Scopes.STATE_READ]

/** Contract §3: default rate limits per credential per rolling minute. */
export const DEFAULT_ISSUE_PER_MINUTE = 60
export const DEFAULT_READ_PER_MINUTE = 600

/**
 * Which rolling window a request counts against: ticket issue (public issue and walk-ins,
 * `issuePerMinute`), the public reads (shared by the GET routes, `readPerMinute`), or the
 * operator API's other routes (one window of their own, also bounded by `readPerMinute`).
 */
export type RateBucket = 'issue' | 'read' | 'operate'

/**
 * What "the credential" is for nonces, idempotency keys and rate windows: the Queue Unit and
 * the key's name. Every version of a rotated key is the same credential, so a rotation in the
 * middle of a client's retry neither resets its window nor forgets its Idempotency-Keys.
 */
export function credentialScope(caller: Credential): string {
  return `${caller.ownerId}/${caller.name}`
}

export function hasScope(caller: Credential, scope: Scope): boolean {
  return (caller.scopes ?? DEFAULT_SCOPES).includes(scope)
}

/** Location and service restrictions of a key; a key without a list may use them all. */
export function mayUseLocation(caller: Credential, locationId: string): boolean {
  return caller.locations === null || caller.locations.includes(locationId)
}
export function mayUseService(caller: Credential, serviceId: string): boolean {
  return caller.services === null || caller.services.includes(serviceId)
}
