import { CommonCodes } from '../platform/errors'
import { QueueCodes } from '../queue/errors'
import type { ErrorExample } from '../platform/openapi'

/** Every error code the phone routes answer with (contract §10). */
export const PhoneCodes = {
  TICKET_NOT_FOUND: QueueCodes.TICKET_NOT_FOUND,
  RATE_LIMITED: CommonCodes.RATE_LIMITED,
  NOT_FOUND: CommonCodes.NOT_FOUND,
} as const

/** An example of each code for the OpenAPI document. */
export const PhoneErrorExamples = {
  TICKET_NOT_FOUND: 'no ticket has this code',
  RATE_LIMITED: 'too many requests; retry after 12 s',
  NOT_FOUND: 'no such asset',
} as const satisfies Record<keyof typeof PhoneCodes, ErrorExample>
