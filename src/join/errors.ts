import { CommonCodes } from '../platform/errors'
import { QueueCodes, QueueErrorExamples } from '../queue'
import type { ErrorExample } from '../platform/openapi'

/** Every error code the join routes answer with (contract §20, docs/journey.md). Tests import these. */
export const JoinCodes = {
  INVALID_JSON: CommonCodes.INVALID_JSON,
  INVALID_REQUEST: CommonCodes.INVALID_REQUEST,
  VALIDATION_FAILED: CommonCodes.VALIDATION_FAILED,
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  RATE_LIMITED: CommonCodes.RATE_LIMITED,
  /** The location is unknown, inactive, or does not offer joining from a phone. */
  JOIN_NOT_OFFERED: 'JOIN_NOT_OFFERED',
  ORIGIN_FORBIDDEN: 'ORIGIN_FORBIDDEN',
  /** `remoteJoin.allowedNetworks` does not hold the caller's address. */
  NETWORK_FORBIDDEN: 'NETWORK_FORBIDDEN',
  /** This browser holds an active ticket of this location already (its cookie). */
  ACTIVE_TICKET: 'ACTIVE_TICKET',
  /** The service's waiting count has reached `remoteJoin.maxWaiting`. */
  QUEUE_FULL: 'QUEUE_FULL',
  QUEUE_UNIT_INACTIVE: QueueCodes.QUEUE_UNIT_INACTIVE,
  QUEUE_UNIT_EDGE_MANAGED: QueueCodes.QUEUE_UNIT_EDGE_MANAGED,
  SERVICE_CLOSED: QueueCodes.SERVICE_CLOSED,
  IDEMPOTENCY_KEY_REUSED: QueueCodes.IDEMPOTENCY_KEY_REUSED,
} as const
export type JoinCode = (typeof JoinCodes)[keyof typeof JoinCodes]

/** An example of each code for the OpenAPI document (the messages the routes answer with). */
export const JoinErrorExamples = {
  INVALID_JSON: QueueErrorExamples.INVALID_JSON,
  INVALID_REQUEST: 'send the form (application/x-www-form-urlencoded) or JSON (application/json)',
  VALIDATION_FAILED: { message: 'request validation failed', details: [{ path: '/serviceId', message: 'service is not offered at this location' }] },
  PAYLOAD_TOO_LARGE: 'request body exceeds 1024 bytes',
  RATE_LIMITED: 'over 3 tickets per 10 minutes from this address; retry after 412 s',
  JOIN_NOT_OFFERED: 'joining from a phone is not offered at this location',
  ORIGIN_FORBIDDEN: 'a ticket is taken only from a page of this server (Origin does not match)',
  NETWORK_FORBIDDEN: 'joining from a phone is open only on the branch\'s own network',
  ACTIVE_TICKET: { message: 'this browser already has a ticket here', details: [{ path: 'Cookie', message: '/t/k3v9q2m7x4c8h6b5n2r7t3w4' }] },
  QUEUE_FULL: 'this service\'s line is full for joining from a phone (50 waiting); take a ticket at the kiosk',
  QUEUE_UNIT_INACTIVE: QueueErrorExamples.QUEUE_UNIT_INACTIVE,
  QUEUE_UNIT_EDGE_MANAGED: QueueErrorExamples.QUEUE_UNIT_EDGE_MANAGED,
  SERVICE_CLOSED: QueueErrorExamples.SERVICE_CLOSED,
  IDEMPOTENCY_KEY_REUSED: QueueErrorExamples.IDEMPOTENCY_KEY_REUSED,
} as const satisfies Record<keyof typeof JoinCodes, ErrorExample>
