import { Type } from '@sinclair/typebox'
import { ApiError, type ErrorDetail } from '../platform/errors'
import { KiB, jsonContentTypeProblem } from '../platform/body'
import { json } from '../platform/http'
import { readIdempotencyKeyHeader, type IdempotencyKeyPolicy } from '../platform/idempotency'
import { compile } from '../platform/validation'
import { isRealDate } from '../platform/time'
import { IDEMPOTENCY_KEY_MAX } from '../queue'
import { trackedTicketJson } from '../tickets'
import { AppointmentCodes } from './errors'
import { BookAppointmentRequest, BOOKING_CODE_PATTERN, NoBody } from './model'
import { appointmentJson, type CheckInResult } from './service'

/*
 * What the appointment routes (./routes.ts) read of a request once its caller is admitted: its
 * headers and body, its query's dates and IDs, and the check-in answer's shape.
 */

export const MAX_BODY = 4 * KiB
export const checkBook = compile(BookAppointmentRequest)
export const checkNoBody = compile(NoBody)
export const checkKiosk = compile(Type.Object({ code: Type.String({ minLength: 1, maxLength: 16 }), language: Type.Optional(Type.String({ maxLength: 35 })) }, { additionalProperties: false }))
export const CODE = new RegExp(BOOKING_CODE_PATTERN)

export const BOOK_KEY: IdempotencyKeyPolicy = { required: true, min: 1, max: IDEMPOTENCY_KEY_MAX, missing: `required: 1 to ${IDEMPOTENCY_KEY_MAX} characters`, invalid: `must be 1 to ${IDEMPOTENCY_KEY_MAX} characters` }
export const ACTION_KEY: IdempotencyKeyPolicy = { ...BOOK_KEY, required: false, missing: '' }

/** Content-Type (when a body is sent or required) and the Idempotency-Key: every bad header listed, 400 INVALID_REQUEST. */
export function readHeaders(request: Request, raw: Uint8Array, policy: IdempotencyKeyPolicy, bodyRequired: boolean): string | null {
  const details: ErrorDetail[] = []
  const notJson = bodyRequired || raw.byteLength > 0 ? jsonContentTypeProblem(request) : null
  if (notJson !== null) details.push(notJson)
  const { key, problem } = readIdempotencyKeyHeader(request, policy)
  if (problem !== null) details.push(problem)
  if (details.length > 0) throw new ApiError(400, AppointmentCodes.INVALID_REQUEST, `invalid request headers: ${details.map((d) => d.path).join(', ')}`, details)
  return key
}

export function query(url: URL, name: string): string | undefined {
  const v = url.searchParams.get(name)
  return v === null || v === '' ? undefined : v
}

/** A `YYYY-MM-DD` query parameter (422 VALIDATION_FAILED naming it otherwise). */
export function dateParam(url: URL, name: string, required = true): string | undefined {
  const v = query(url, name)
  if (v === undefined) {
    if (!required) return undefined
    throw new ApiError(422, AppointmentCodes.VALIDATION_FAILED, 'request validation failed', [{ path: `/${name}`, message: 'required: a date YYYY-MM-DD' }])
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || !isRealDate(Number(v.slice(0, 4)), Number(v.slice(5, 7)), Number(v.slice(8, 10)))) {
    throw new ApiError(422, AppointmentCodes.VALIDATION_FAILED, 'request validation failed', [{ path: `/${name}`, message: 'must be a real date YYYY-MM-DD' }])
  }
  return v
}

export function requiredParam(url: URL, name: string): string {
  const v = query(url, name)
  if (v === undefined || v.length > 64) throw new ApiError(422, AppointmentCodes.VALIDATION_FAILED, 'request validation failed', [{ path: `/${name}`, message: 'required: an ID' }])
  return v
}

export const notFound = () => new ApiError(404, AppointmentCodes.APPOINTMENT_NOT_FOUND, 'no such appointment for this caller')

export function checkInJson(result: CheckInResult) {
  return { appointment: appointmentJson(result.appointment), ticket: trackedTicketJson(result.ticket) }
}
