import { CommonCodes } from '../platform/errors'
import { QueueCodes } from '../queue'
import { DeviceCodes } from '../devices'
import { TicketCodes } from '../tickets'
import type { ErrorExample } from '../platform/openapi'

/** Every error code the phone routes answer with (contract §10, §20). */
export const PhoneCodes = {
  TICKET_NOT_FOUND: QueueCodes.TICKET_NOT_FOUND,
  RATE_LIMITED: CommonCodes.RATE_LIMITED,
  NOT_FOUND: CommonCodes.NOT_FOUND,
  ORIGIN_FORBIDDEN: DeviceCodes.ORIGIN_FORBIDDEN,
  INVALID_JSON: CommonCodes.INVALID_JSON,
  VALIDATION_FAILED: CommonCodes.VALIDATION_FAILED,
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  /** Leave the queue: the ticket is no longer WAITING (the transition's own refusal). */
  INVALID_TRANSITION: TicketCodes.INVALID_TRANSITION,
  TICKET_NOT_WAITING: TicketCodes.TICKET_NOT_WAITING,
  MORE_TIME_LIMIT_REACHED: TicketCodes.MORE_TIME_LIMIT_REACHED,
  /** Feedback: the ticket was not completed (a visit that did not happen is not rated). */
  TICKET_NOT_COMPLETED: 'TICKET_NOT_COMPLETED',
  FEEDBACK_ALREADY_GIVEN: 'FEEDBACK_ALREADY_GIVEN',
  FEEDBACK_WINDOW_CLOSED: 'FEEDBACK_WINDOW_CLOSED',
} as const

/** An example of each code for the OpenAPI document. */
export const PhoneErrorExamples = {
  TICKET_NOT_FOUND: 'no ticket has this code',
  RATE_LIMITED: 'too many requests; retry after 12 s',
  NOT_FOUND: 'no such asset',
  ORIGIN_FORBIDDEN: 'the phone page changes a ticket only from a page of this server (Origin does not match)',
  INVALID_JSON: 'request body is not valid JSON',
  VALIDATION_FAILED: { message: 'invalid feedback', details: [{ path: '/rating', message: 'must be an integer from 1 to 5' }] },
  PAYLOAD_TOO_LARGE: 'request body over 4096 bytes',
  INVALID_TRANSITION: 'cannot cancel a CALLED ticket: CALLED → CANCELLED is not a transition (cancel needs WAITING)',
  TICKET_NOT_WAITING: 'only a waiting ticket can ask for more time; this one is CALLED',
  MORE_TIME_LIMIT_REACHED: 'a ticket can ask for more time at most 2 times',
  TICKET_NOT_COMPLETED: 'only a completed visit can be rated; this ticket is CANCELLED',
  FEEDBACK_ALREADY_GIVEN: 'this visit was rated already',
  FEEDBACK_WINDOW_CLOSED: 'a visit can be rated within 24 hours of its end',
} as const satisfies Record<keyof typeof PhoneCodes, ErrorExample>
