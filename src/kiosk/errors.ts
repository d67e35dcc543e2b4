import { CommonCodes } from '../platform/errors'
import { QueueCodes, QueueErrorExamples } from '../queue'
import type { ErrorExample } from '../platform/openapi'

/** Every error code the kiosk routes answer with (contract §9, docs/kiosk.md). Tests import these. */
export const KioskCodes = {
  INVALID_JSON: CommonCodes.INVALID_JSON,
  INVALID_REQUEST: CommonCodes.INVALID_REQUEST,
  VALIDATION_FAILED: CommonCodes.VALIDATION_FAILED,
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  RATE_LIMITED: CommonCodes.RATE_LIMITED,
  AUTHENTICATION_FAILED: QueueCodes.AUTHENTICATION_FAILED,
  ORIGIN_FORBIDDEN: 'ORIGIN_FORBIDDEN',
  LOCATION_FORBIDDEN: QueueCodes.LOCATION_FORBIDDEN,
  SERVICE_FORBIDDEN: QueueCodes.SERVICE_FORBIDDEN,
  QUEUE_UNIT_INACTIVE: QueueCodes.QUEUE_UNIT_INACTIVE,
  QUEUE_UNIT_EDGE_MANAGED: QueueCodes.QUEUE_UNIT_EDGE_MANAGED,
  SERVICE_CLOSED: QueueCodes.SERVICE_CLOSED,
  IDEMPOTENCY_KEY_REUSED: QueueCodes.IDEMPOTENCY_KEY_REUSED,
  TICKET_NOT_FOUND: QueueCodes.TICKET_NOT_FOUND,
} as const

/** An example of each code for the OpenAPI document (the messages the routes answer with). */
export const KioskErrorExamples = {
  ...QueueErrorExamples,
  INVALID_REQUEST: {
    message: 'invalid request headers: Idempotency-Key',
    details: [{ path: 'Idempotency-Key', message: 'required: 1 to 160 characters, one per tap' }],
  },
  VALIDATION_FAILED: {
    message: 'request validation failed',
    details: [{ path: '/serviceId', message: 'service is not active' }],
  },
  RATE_LIMITED: 'over 60 tickets per minute at this kiosk; retry after 12 s',
  AUTHENTICATION_FAILED: 'this device is not paired (or no longer): pair it again at /pair',
  ORIGIN_FORBIDDEN: 'a device may change things only from a page of this server (Origin does not match)',
  SERVICE_FORBIDDEN: 'this key may not use this service',
  TICKET_NOT_FOUND: 'the ticket of this Idempotency-Key is gone',
} as const satisfies Record<keyof typeof KioskCodes, ErrorExample>
