import type { QueueDeps } from './deps'
import { admitRate, RateBuckets } from '../platform/admission'
import { ApiError } from '../platform/errors'
import { presentedSecret, type Credential } from '../platform/credentials'
import { QueueCodes } from './errors'
import { DEFAULT_SCOPES, type Scope } from './model'

/** Contract §3: default rate limits per credential per rolling minute. */
export const DEFAULT_ISSUE_PER_MINUTE = 60
export const DEFAULT_READ_PER_MINUTE = 600

/**
 * Which rolling window a request counts against: ticket issue (public issue and walk-ins,
 * `issuePerMinute`), the public reads (shared by the GET routes, `readPerMinute`), or the
 * operator API's other routes (one window of their own, also bounded by `readPerMinute`).
 */
export type RateBucket = 'issue' | 'read' | 'operate'

const BUCKET_NOUN: Record<RateBucket, string> = { issue: 'ticket issues', read: 'reads', operate: 'operator requests' }

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

/**
 * The first checks every Queue route makes, in the contract's order: credential (401
 * AUTHENTICATION_FAILED) → scope (403 SCOPE_FORBIDDEN) → rate limit (429 RATE_LIMITED with
 * Retry-After). Every request that reaches the rate limit counts, whatever happens after it;
 * a 429 is not counted, nor is a request refused before it (a 401 has no credential to count
 * against, and a 403 scope refusal cannot do anything the window protects).
 * Bearer only: Queue keys are never accepted in `x-service-api-key`.
 */
export function admitQueueCaller(deps: QueueDeps, request: Request, scope: Scope, bucket: RateBucket, now: number): Credential {
  const caller = deps.credentials.authenticate(presentedSecret(request, { allowApiKeyHeader: false }), 'queue', now)
  if (caller === null) {
    throw new ApiError(401, QueueCodes.AUTHENTICATION_FAILED, 'a valid Queue API key is required (Authorization: Bearer lbq_…)', undefined, {
      'www-authenticate': 'Bearer',
    })
  }
  if (!hasScope(caller, scope)) {
    throw new ApiError(403, QueueCodes.SCOPE_FORBIDDEN, `this key lacks the ${scope} scope`)
  }
  const limit = bucket === 'issue'
    ? caller.issuePerMinute ?? DEFAULT_ISSUE_PER_MINUTE
    : caller.readPerMinute ?? DEFAULT_READ_PER_MINUTE
  admitRate(deps.limiter, bucket === 'issue' ? RateBuckets.queueIssue : RateBuckets.queueRead, credentialScope(caller), limit, now,
    (retry) => `over ${limit} ${BUCKET_NOUN[bucket]} per minute for this key; retry after ${retry} s`)
  return caller
}
