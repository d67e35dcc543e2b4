import { CommonCodes, CommonErrorExamples } from '../platform/errors'
import type { ErrorExample } from '../platform/openapi'

/** Every error code the Queue endpoints answer with (contract §3, Queue error table). Tests import these. */
export const QueueCodes = {
  INVALID_JSON: CommonCodes.INVALID_JSON,
  INVALID_REQUEST: CommonCodes.INVALID_REQUEST,
  REQUEST_TIMESTAMP_OUT_OF_WINDOW: 'REQUEST_TIMESTAMP_OUT_OF_WINDOW',
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  SCOPE_FORBIDDEN: 'SCOPE_FORBIDDEN',
  LOCATION_FORBIDDEN: 'LOCATION_FORBIDDEN',
  SERVICE_FORBIDDEN: 'SERVICE_FORBIDDEN',
  QUEUE_UNIT_INACTIVE: 'QUEUE_UNIT_INACTIVE',
  TICKET_NOT_FOUND: 'TICKET_NOT_FOUND',
  NONCE_REPLAYED: 'NONCE_REPLAYED',
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  QUEUE_UNIT_EDGE_MANAGED: 'QUEUE_UNIT_EDGE_MANAGED',
  /** Contract §18: the service is outside its opening hours (public and kiosk issue). */
  SERVICE_CLOSED: 'SERVICE_CLOSED',
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  VALIDATION_FAILED: CommonCodes.VALIDATION_FAILED,
  RATE_LIMITED: CommonCodes.RATE_LIMITED,
} as const

export type QueueCode = (typeof QueueCodes)[keyof typeof QueueCodes]

/** An example of each code for the OpenAPI document (the messages the routes answer with). */
export const QueueErrorExamples = {
  ...CommonErrorExamples,
  INVALID_REQUEST: {
    message: 'invalid request headers: X-Request-Nonce',
    details: [{ path: 'X-Request-Nonce', message: 'required: 12 to 160 characters' }],
  },
  VALIDATION_FAILED: {
    message: 'request validation failed',
    details: [{ path: '/serviceId', message: 'unknown, inactive or unavailable service at this location' }],
  },
  REQUEST_TIMESTAMP_OUT_OF_WINDOW: {
    message: 'X-Request-Timestamp is more than 5 minutes behind server time; send the current UTC time',
    details: [{ path: 'X-Request-Timestamp', message: 'outside ±5 minutes of server time' }],
  },
  RATE_LIMITED: 'over 60 ticket issues per minute for this key; retry after 12 s',
  AUTHENTICATION_FAILED: 'a valid Queue API key is required (Authorization: Bearer lbq_…)',
  SCOPE_FORBIDDEN: 'this key lacks the tickets:write scope',
  LOCATION_FORBIDDEN: 'this key may not use this location',
  SERVICE_FORBIDDEN: 'this key may not use this service',
  QUEUE_UNIT_INACTIVE: 'the Queue Unit of this key is not active',
  TICKET_NOT_FOUND: 'no such ticket for this key',
  NONCE_REPLAYED: 'X-Request-Nonce was already used by this key; send a new nonce and timestamp with the same Idempotency-Key',
  IDEMPOTENCY_KEY_REUSED: 'this Idempotency-Key was used with a different payload; use a new key for a new ticket',
  QUEUE_UNIT_EDGE_MANAGED: 'an Edge holds authority over this Queue Unit; queue changes go through the Edge',
  SERVICE_CLOSED: {
    message: 'this service is closed now; it opens 2026-11-30 at 08:30 (Europe/London)',
    details: [{ path: '/serviceId', message: 'opens at 2026-11-30T08:30:00.000Z' }],
  },
} as const satisfies Record<keyof typeof QueueCodes, ErrorExample>
