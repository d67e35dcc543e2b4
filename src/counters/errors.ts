import { QueueCodes } from '../queue/errors'
import { TicketCodes } from '../tickets/errors'

/**
 * Every error code the operator API answers with (contract §3 "Operator API"): the Queue codes
 * it shares, and its own. Tests import these.
 */
export const CounterCodes = {
  INVALID_JSON: QueueCodes.INVALID_JSON,
  INVALID_REQUEST: QueueCodes.INVALID_REQUEST,
  AUTHENTICATION_FAILED: QueueCodes.AUTHENTICATION_FAILED,
  SCOPE_FORBIDDEN: QueueCodes.SCOPE_FORBIDDEN,
  /** Contract §7: a desk's state-changing request from another origin. */
  ORIGIN_FORBIDDEN: 'ORIGIN_FORBIDDEN',
  LOCATION_FORBIDDEN: QueueCodes.LOCATION_FORBIDDEN,
  SERVICE_FORBIDDEN: QueueCodes.SERVICE_FORBIDDEN,
  QUEUE_UNIT_INACTIVE: QueueCodes.QUEUE_UNIT_INACTIVE,
  TICKET_NOT_FOUND: QueueCodes.TICKET_NOT_FOUND,
  COUNTER_NOT_FOUND: 'COUNTER_NOT_FOUND',
  NO_TICKET_WAITING: 'NO_TICKET_WAITING',
  COUNTER_BUSY: 'COUNTER_BUSY',
  INVALID_TRANSITION: TicketCodes.INVALID_TRANSITION,
  IDEMPOTENCY_KEY_REUSED: QueueCodes.IDEMPOTENCY_KEY_REUSED,
  QUEUE_UNIT_EDGE_MANAGED: QueueCodes.QUEUE_UNIT_EDGE_MANAGED,
  PAYLOAD_TOO_LARGE: QueueCodes.PAYLOAD_TOO_LARGE,
  VALIDATION_FAILED: QueueCodes.VALIDATION_FAILED,
  RATE_LIMITED: QueueCodes.RATE_LIMITED,
} as const

export type CounterCode = (typeof CounterCodes)[keyof typeof CounterCodes]
