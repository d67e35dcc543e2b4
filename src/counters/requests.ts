import type { TSchema } from '@sinclair/typebox'
import { ApiError, type ErrorDetail } from '../platform/errors'
import { assertJsonContentType, jsonContentTypeProblem, parseJsonBytes } from '../platform/body'
import { readIdempotencyKeyHeader, type IdempotencyKeyPolicy } from '../platform/idempotency'
import { assertSchema, type SchemaCheck } from '../platform/validation'
import { IDEMPOTENCY_KEY_MAX } from '../queue'
import { CounterCodes } from './errors'

/*
 * What the operator API reads of a request once its caller is admitted (./routes.ts): the
 * headers of a walk-in and the JSON body of an action, each refused in the contract's order.
 */

/**
 * The JSON body of an operator request, after the caller was admitted: Content-Type (400
 * INVALID_REQUEST) → JSON (400 INVALID_JSON) → schema (422 VALIDATION_FAILED). Actions without
 * parameters (`optional`) also accept no body at all, which reads as `{}`.
 */
export function readBody<T extends TSchema>(request: Request, raw: Uint8Array, check: SchemaCheck<T>, optional: boolean) {
  let value: unknown = {}
  if (raw.byteLength > 0 || !optional) {
    assertJsonContentType(request)
    value = parseJsonBytes(raw)
  }
  assertSchema(check, value, CounterCodes.VALIDATION_FAILED)
  return value
}

/** A walk-in: optional, 1–160 characters. */
const WALK_IN_IDEMPOTENCY_KEY: IdempotencyKeyPolicy = { required: false, min: 1, max: IDEMPOTENCY_KEY_MAX, missing: '', invalid: `must be 1 to ${IDEMPOTENCY_KEY_MAX} characters` }

/**
 * The headers step of a walk-in: Content-Type application/json, and the optional
 * Idempotency-Key (1–160 characters). Every bad header is listed; 400 INVALID_REQUEST.
 */
export function readWalkInHeaders(request: Request): { idempotencyKey: string | null } {
  const details: ErrorDetail[] = []
  const notJson = jsonContentTypeProblem(request)
  if (notJson !== null) details.push(notJson)
  const { key: idempotencyKey, problem } = readIdempotencyKeyHeader(request, WALK_IN_IDEMPOTENCY_KEY)
  if (problem !== null) details.push(problem)
  if (details.length > 0) {
    throw new ApiError(400, CounterCodes.INVALID_REQUEST, `invalid request headers: ${details.map((d) => d.path).join(', ')}`, details)
  }
  return { idempotencyKey }
}
