/**
 * The admission kit: what every route asks before it does work, in one place each.
 * - `admitRate`: a named rate-limit bucket, a key within it and a limit; over the limit it throws
 *   the standard 429 envelope (`RATE_LIMITED`, `Retry-After`).
 * - `clientAddressOf`: the caller's address as contract §23 attributes it (trusted proxies).
 * - `readIdempotencyKeyHeader` (src/platform/idempotency.ts): the Idempotency-Key header by each API's policy.
 */
import { ApiError, CommonCodes } from './errors'
import type { RateLimiter } from './rate-limit'
import { rateKeyOf, type ClientAddresses, type PeerSource } from './client-address'

/**
 * A named window. Two routes that share a bucket share its counts (a Queue key's reads are one
 * window whether they come from the public or the operator API). `perAddress` buckets are keyed
 * by a caller's address, a key space strangers choose: they live in the bounded store; every
 * other bucket (credentials, widgets, sources, overall limits) is never evicted.
 */
export interface RateBucket {
  readonly name: string
  readonly perAddress?: boolean
  readonly windowMs?: number
}

export const RateBuckets = {
  /** Queue keys, paired desks and reports devices: ticket issues (and operator writes). */
  queueIssue: { name: 'queue:issue' },
  /** Queue keys, paired desks and reports devices: reads. */
  queueRead: { name: 'queue:read' },
  kioskIssue: { name: 'kiosk:issue' },
  kioskRead: { name: 'kiosk:read' },
  widgetPush: { name: 'widget-push' },
  prayerPush: { name: 'prayer-push' },
  pairPerAddress: { name: 'pair:address', perAddress: true },
  pairOverall: { name: 'pair:all' },
  phonePerAddress: { name: 'phone:read', perAddress: true },
  /** The phone page's changes (leave, more time, rating: contract §20), per address. */
  phoneWritePerAddress: { name: 'phone:write', perAddress: true },
  /** Contract §25: signed SMS replies from the branch's gateway, per address (an unsigned flood is refused here before its body is read). */
  smsInboundPerAddress: { name: 'sms-inbound:address', perAddress: true },
  /** Sign-in attempts per address, any outcome (60 a minute; the 20 failures of contract §16 are counted by src/people), before the body is read. */
  signInPerAddress: { name: 'sign-in:address', perAddress: true },
  /** Setup-link uses (each costs two Argon2 hashes), per address. */
  setupPerAddress: { name: 'setup:address', perAddress: true },
  /** Contract §20: tickets taken from a phone (the join page), 3 per address per 10 minutes. */
  joinPerAddress: { name: 'join:address', perAddress: true, windowMs: 10 * 60_000 },
  /** Range reads of reports (summary, daily, counters): contract §23, per credential. */
  reportRange: { name: 'reports:range' },
  /** Reads of the feedback report (contract §20), per credential: its own window, so the /reports page's load stays within the range reads' 30. */
  reportFeedback: { name: 'reports:feedback' },
} as const satisfies Record<string, RateBucket>

/**
 * Counts one attempt in `bucket` for `key` (null: the bucket's one overall window) and throws
 * 429 `RATE_LIMITED` with `Retry-After` when it is over `limit`. A refused attempt is not counted.
 * A `perAddress` bucket counts an IPv6 client by its /64 (`rateKeyOf`, contract §27).
 */
export function admitRate(
  limiter: RateLimiter,
  bucket: RateBucket,
  key: string | null,
  limit: number,
  now: number,
  message: (retryAfterSeconds: number) => string,
): void {
  const keyed = key === null ? null : bucket.perAddress ? rateKeyOf(key) : key
  const decision = limiter.attempt(keyed === null ? bucket.name : `${bucket.name}:${keyed}`, limit, now, bucket.windowMs ?? 60_000, bucket.perAddress ? 'address' : 'fixed')
  if (decision.allowed) return
  throw rateLimited(decision.retryAfterSeconds, message)
}

/** The one 429 `RATE_LIMITED` with `Retry-After`, for a limit counted elsewhere too (sign-in failures are counted in the database). */
export function rateLimited(retryAfterSeconds: number, message: (retryAfterSeconds: number) => string): ApiError {
  return new ApiError(429, CommonCodes.RATE_LIMITED, message(retryAfterSeconds), undefined, { 'retry-after': String(retryAfterSeconds) })
}

/** The caller's address for rate limits and logs ('unknown' when the app was handed the request directly). */
export function clientAddressOf(clients: ClientAddresses, request: Request, server: PeerSource | null | undefined): string {
  return clients.of(request, server).address ?? 'unknown'
}
