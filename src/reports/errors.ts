import { QueueCodes } from '../queue/errors'

/** Every error code the report routes answer with (contract §12). Tests import these. */
export const ReportCodes = {
  AUTHENTICATION_FAILED: QueueCodes.AUTHENTICATION_FAILED,
  SCOPE_FORBIDDEN: QueueCodes.SCOPE_FORBIDDEN,
  VALIDATION_FAILED: QueueCodes.VALIDATION_FAILED,
  RATE_LIMITED: QueueCodes.RATE_LIMITED,
} as const
