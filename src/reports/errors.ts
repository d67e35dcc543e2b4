import { QueueCodes } from '../queue'
import type { ErrorExample } from '../platform/openapi'

/** Every error code the report routes answer with (contract §12). Tests import these. */
export const ReportCodes = {
  AUTHENTICATION_FAILED: QueueCodes.AUTHENTICATION_FAILED,
  SCOPE_FORBIDDEN: QueueCodes.SCOPE_FORBIDDEN,
  VALIDATION_FAILED: QueueCodes.VALIDATION_FAILED,
  RATE_LIMITED: QueueCodes.RATE_LIMITED,
  /** Contract §16: a signed-in person whose role may not read reports (a clerk). */
  ROLE_FORBIDDEN: 'ROLE_FORBIDDEN',
} as const

/** The example message (and details) of each code, for the OpenAPI document. */
export const ReportErrorExamples = {
  AUTHENTICATION_FAILED: 'a valid Queue API key is required (Authorization: Bearer lbq_…)',
  SCOPE_FORBIDDEN: 'this key lacks the reports:read scope',
  VALIDATION_FAILED: { message: 'invalid report range', details: [{ path: '/to', message: 'must not be before from' }] },
  RATE_LIMITED: 'over 600 reads per minute for this key; retry after 12 s',
  ROLE_FORBIDDEN: 'a clerk may not read reports: sign in as a manager or an administrator',
} as const satisfies Record<keyof typeof ReportCodes, ErrorExample>
