import { CommonCodes } from '../platform/errors'

/** The codes the voice routes answer with (tests import these, not copies of the strings). */
export const VoiceCodes = {
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  NOT_FOUND: CommonCodes.NOT_FOUND,
  INVALID_REQUEST: CommonCodes.INVALID_REQUEST,
} as const
