import { CommonCodes } from '../platform/errors'
import { QueueCodes, QueueErrorExamples } from '../queue'
import type { ErrorExample } from '../platform/openapi'

/** Every error code the appointment routes answer with (contract §21, docs/appointments.md). Tests import these. */
export const AppointmentCodes = {
  INVALID_JSON: CommonCodes.INVALID_JSON,
  INVALID_REQUEST: CommonCodes.INVALID_REQUEST,
  VALIDATION_FAILED: CommonCodes.VALIDATION_FAILED,
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  RATE_LIMITED: CommonCodes.RATE_LIMITED,
  AUTHENTICATION_FAILED: QueueCodes.AUTHENTICATION_FAILED,
  SCOPE_FORBIDDEN: QueueCodes.SCOPE_FORBIDDEN,
  ROLE_FORBIDDEN: 'ROLE_FORBIDDEN',
  ORIGIN_FORBIDDEN: 'ORIGIN_FORBIDDEN',
  CLERK_SIGN_IN_REQUIRED: 'CLERK_SIGN_IN_REQUIRED',
  LOCATION_FORBIDDEN: QueueCodes.LOCATION_FORBIDDEN,
  SERVICE_FORBIDDEN: QueueCodes.SERVICE_FORBIDDEN,
  QUEUE_UNIT_INACTIVE: QueueCodes.QUEUE_UNIT_INACTIVE,
  QUEUE_UNIT_EDGE_MANAGED: QueueCodes.QUEUE_UNIT_EDGE_MANAGED,
  IDEMPOTENCY_KEY_REUSED: QueueCodes.IDEMPOTENCY_KEY_REUSED,
  APPOINTMENT_NOT_FOUND: 'APPOINTMENT_NOT_FOUND',
  /** The slot's seats are all taken (the race for the last seat is decided in one transaction). */
  SLOT_FULL: 'SLOT_FULL',
  /** 422: not a slot of the service (outside its hours, not on the slot grid), in the past, beyond the booking window, or appointments are off. */
  SLOT_UNAVAILABLE: 'SLOT_UNAVAILABLE',
  /** 409: the booking is not BOOKED any more (cancelled, checked in, missed). */
  APPOINTMENT_NOT_BOOKED: 'APPOINTMENT_NOT_BOOKED',
  CHECK_IN_TOO_EARLY: 'CHECK_IN_TOO_EARLY',
  /** 409: after the check-in window; a kiosk offers a normal ticket instead. */
  CHECK_IN_TOO_LATE: 'CHECK_IN_TOO_LATE',
} as const
export type AppointmentCode = (typeof AppointmentCodes)[keyof typeof AppointmentCodes]

/** An example of each code for the OpenAPI document (the messages the routes answer with). */
export const AppointmentErrorExamples: Record<string, ErrorExample> = {
  ...QueueErrorExamples,
  ROLE_FORBIDDEN: 'a clerk may not manage appointments from a session: use a paired desk, or sign in as a manager or an administrator',
  ORIGIN_FORBIDDEN: 'a signed-in browser may change things only from a page of this server (Origin does not match)',
  CLERK_SIGN_IN_REQUIRED: 'this queue unit requires a clerk signed in at the desk: sign in first',
  INVALID_REQUEST: { message: 'invalid request headers: Idempotency-Key', details: [{ path: 'Idempotency-Key', message: 'required: 1 to 160 characters' }] },
  VALIDATION_FAILED: { message: 'request validation failed', details: [{ path: '/startAt', message: 'must be an ISO 8601 date-time with offset' }] },
  APPOINTMENT_NOT_FOUND: 'no such appointment for this caller',
  SLOT_FULL: 'every seat of this slot is taken: choose another slot',
  SLOT_UNAVAILABLE: { message: 'this time cannot be booked: outside the service\'s opening hours', details: [{ path: '/startAt', message: 'OUTSIDE_HOURS' }] },
  APPOINTMENT_NOT_BOOKED: 'this appointment is CANCELLED, not BOOKED',
  CHECK_IN_TOO_EARLY: { message: 'check-in opens 15 minutes before the appointment', details: [{ path: '/startAt', message: 'check-in opens at 2026-11-25T09:15:00.000Z' }] },
  CHECK_IN_TOO_LATE: 'the check-in window closed 10 minutes after the appointment: take a normal ticket',
}
