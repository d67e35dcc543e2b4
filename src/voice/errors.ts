import { CommonCodes } from '../platform/errors'
import type { ErrorExample } from '../platform/openapi'

/** The codes the voice routes answer with (tests import these, not copies of the strings). */
export const VoiceCodes = {
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  NOT_FOUND: CommonCodes.NOT_FOUND,
  INVALID_REQUEST: CommonCodes.INVALID_REQUEST,
} as const

/** An example of each code for the OpenAPI document (the messages the routes answer with). */
export const VoiceErrorExamples = {
  AUTHENTICATION_FAILED: 'a valid display token (lbd_…) or a paired display is required on display routes',
  NOT_FOUND: 'no such queue unit for this display token',
  INVALID_REQUEST: '`lang` must be a BCP 47 language tag (e.g. ar, en-GB)',
} as const satisfies Record<keyof typeof VoiceCodes, ErrorExample>
