import { CommonCodes } from '../platform/errors'
import { QueueCodes } from '../queue/errors'

/** Every error code the phone routes answer with (contract §10). */
export const PhoneCodes = {
  TICKET_NOT_FOUND: QueueCodes.TICKET_NOT_FOUND,
  RATE_LIMITED: CommonCodes.RATE_LIMITED,
  NOT_FOUND: CommonCodes.NOT_FOUND,
} as const
