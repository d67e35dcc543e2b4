import { ApiError, type ErrorDetail } from '../platform/errors'
import { readIdempotencyKeyHeader, type IdempotencyKeyPolicy } from '../platform/idempotency'
import { jsonContentTypeProblem } from '../platform/body'
import { codePointLength } from '../platform/validation'
import type { NonceMemory } from '../platform/nonces'
import { QueueCodes } from './errors'
import { parseOffsetDateTime } from '../platform/time'

/** public-api.md Limits: replay protection of ticket issue. */
export const TIMESTAMP_SKEW_MS = 5 * 60_000
export const NONCE_MIN = 12
export const NONCE_MAX = 160
export const IDEMPOTENCY_KEY_MAX = 160

/** The public ticket issue: required, 1–160 characters (counted as code points). */
export const ISSUE_IDEMPOTENCY_KEY: IdempotencyKeyPolicy = {
  required: true, min: 1, max: IDEMPOTENCY_KEY_MAX,
  missing: `required: 1 to ${IDEMPOTENCY_KEY_MAX} characters`,
  invalid: `must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`,
}

export interface IssueHeaders {
  /** `X-Request-Timestamp` as milliseconds since the epoch. */
  timestamp: number
  nonce: string
  idempotencyKey: string
}

/**
 * An RFC 3339 date-time (`2026-11-25T09:30:00Z`, `…00.123Z`, `…00+01:00`) as milliseconds, or
 * null when it is not one or names no real instant (month 13, 31 April, 24:00). Digits past
 * milliseconds are dropped. The spec asks for UTC; an explicit offset names the same instant
 * and is accepted.
 */
export function parseRequestTimestamp(value: string): number | null {
  return parseOffsetDateTime(value, 'rfc3339')
}

/**
 * Contract §3, the "headers" step of ticket issue: content type, timestamp format, nonce
 * (12–160 characters) and Idempotency-Key (1–160 characters), all required. Every bad header
 * is listed in `details` by its name; the answer is 400 INVALID_REQUEST.
 */
export function readIssueHeaders(request: Request): IssueHeaders {
  const details: ErrorDetail[] = []
  const notJson = jsonContentTypeProblem(request)
  if (notJson !== null) details.push(notJson)

  const rawTimestamp = request.headers.get('x-request-timestamp')
  const timestamp = rawTimestamp === null ? null : parseRequestTimestamp(rawTimestamp)
  if (rawTimestamp === null) details.push({ path: 'X-Request-Timestamp', message: 'required: the current UTC time, ISO 8601' })
  else if (timestamp === null) details.push({ path: 'X-Request-Timestamp', message: 'must be an ISO 8601 date-time such as 2026-11-25T09:30:00Z' })

  const nonce = request.headers.get('x-request-nonce')
  if (nonce === null) details.push({ path: 'X-Request-Nonce', message: `required: ${NONCE_MIN} to ${NONCE_MAX} characters, new for every request` })
  else if (!within(nonce, NONCE_MIN, NONCE_MAX)) details.push({ path: 'X-Request-Nonce', message: `must be ${NONCE_MIN} to ${NONCE_MAX} characters` })

  const { key: idempotencyKey, problem } = readIdempotencyKeyHeader(request, ISSUE_IDEMPOTENCY_KEY)
  if (problem !== null) details.push(problem)

  if (details.length > 0) {
    throw new ApiError(400, QueueCodes.INVALID_REQUEST, `invalid request headers: ${details.map((d) => d.path).join(', ')}`, details)
  }
  return { timestamp: timestamp!, nonce: nonce!, idempotencyKey: idempotencyKey! }
}

function within(value: string, min: number, max: number): boolean {
  const n = codePointLength(value)
  return n >= min && n <= max
}

/**
 * public-api.md: `X-Request-Timestamp` within five minutes of service time. The bound is
 * inclusive: exactly 5 minutes early or late is accepted, 5 minutes and 1 ms is 400
 * REQUEST_TIMESTAMP_OUT_OF_WINDOW (contract: "more than 5 minutes … either way").
 */
export function assertTimestampInWindow(timestamp: number, now: number): void {
  if (Math.abs(timestamp - now) <= TIMESTAMP_SKEW_MS) return
  throw new ApiError(
    400,
    QueueCodes.REQUEST_TIMESTAMP_OUT_OF_WINDOW,
    `X-Request-Timestamp is more than 5 minutes ${timestamp < now ? 'behind' : 'ahead of'} server time; send the current UTC time`,
    [{ path: 'X-Request-Timestamp', message: 'outside ±5 minutes of server time' }],
  )
}

/**
 * Contract §3, the steps "timestamp window → nonce". A nonce is consumed by every
 * authenticated ticket-issue request that passes the header checks, whatever its outcome
 * (an out-of-window timestamp included), and remembered ten minutes per credential; a reused
 * one is 409 NONCE_REPLAYED. The window is reported first when both fail, as the order says.
 */
export function assertFreshRequest(nonces: NonceMemory, credential: string, headers: IssueHeaders, now: number): void {
  const fresh = nonces.remember(`ticket:${credential}`, headers.nonce, now)
  assertTimestampInWindow(headers.timestamp, now)
  if (fresh) return
  throw new ApiError(409, QueueCodes.NONCE_REPLAYED, 'X-Request-Nonce was already used by this key; send a new nonce and timestamp with the same Idempotency-Key')
}
