import { QueueCodes, QueueErrorExamples } from '../queue'
import type { ErrorExample } from '../platform/openapi'
import { TicketCodes } from '../tickets'
import { DeskCodes } from '../devices'

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
  /** Contract §27: call-next at a closed counter (open it first). */
  COUNTER_CLOSED: 'COUNTER_CLOSED',
  INVALID_TRANSITION: TicketCodes.INVALID_TRANSITION,
  IDEMPOTENCY_KEY_REUSED: QueueCodes.IDEMPOTENCY_KEY_REUSED,
  QUEUE_UNIT_EDGE_MANAGED: QueueCodes.QUEUE_UNIT_EDGE_MANAGED,
  PAYLOAD_TOO_LARGE: QueueCodes.PAYLOAD_TOO_LARGE,
  VALIDATION_FAILED: QueueCodes.VALIDATION_FAILED,
  RATE_LIMITED: QueueCodes.RATE_LIMITED,
  /** Contract §16: a desk of a unit with `deskSignIn: required` acts only while a clerk is signed in there. */
  CLERK_SIGN_IN_REQUIRED: DeskCodes.CLERK_SIGN_IN_REQUIRED,
  /** Contract §20: a no-show can be brought back only within the unit's `noShowGraceMinutes`. */
  NO_SHOW_GRACE_EXPIRED: 'NO_SHOW_GRACE_EXPIRED',
} as const

export type CounterCode = (typeof CounterCodes)[keyof typeof CounterCodes]

/** An example of each code for the OpenAPI document (the messages the routes answer with). */
export const CounterErrorExamples = {
  ...QueueErrorExamples,
  INVALID_REQUEST: {
    message: 'Content-Type must be application/json',
    details: [{ path: 'Content-Type', message: 'must be application/json' }],
  },
  VALIDATION_FAILED: {
    message: 'request validation failed',
    details: [{ path: '/counterId', message: 'the counter is not at the ticket\'s location or does not serve its service' }],
  },
  SCOPE_FORBIDDEN: 'this key lacks the counter:operate scope',
  ORIGIN_FORBIDDEN: 'a device may change things only from a page of this server (Origin does not match)',
  COUNTER_NOT_FOUND: 'no such counter for this key',
  NO_TICKET_WAITING: 'no ticket is waiting for counter cnt_1',
  COUNTER_BUSY: 'counter cnt_1 holds A007 (CALLED); complete, no-show, requeue or transfer it first',
  COUNTER_CLOSED: 'counter cnt_1 is closed; open it before calling the next ticket',
  CLERK_SIGN_IN_REQUIRED: 'this queue unit requires a clerk signed in at the desk: sign in first',
  NO_SHOW_GRACE_EXPIRED: {
    message: 'ticket A007 was a no-show more than 30 minutes ago (the queue unit\'s noShowGraceMinutes): it can no longer be brought back',
    details: [{ path: '/completedAt', message: 'brought back until 2026-11-25T10:11:12.345Z' }],
  },
  INVALID_TRANSITION: {
    message: 'cannot start a WAITING ticket: WAITING → SERVING is not a transition (start needs CALLED)',
    details: [{ path: '/from', message: 'WAITING' }, { path: '/to', message: 'SERVING' }],
  },
} as const satisfies Record<keyof typeof CounterCodes, ErrorExample>
