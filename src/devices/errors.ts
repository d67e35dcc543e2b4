import { CommonCodes } from '../platform/errors'

/** Every error code the device routes answer with (contract §7). Tests import these. */
export const DeviceCodes = {
  INVALID_JSON: CommonCodes.INVALID_JSON,
  INVALID_REQUEST: CommonCodes.INVALID_REQUEST,
  VALIDATION_FAILED: CommonCodes.VALIDATION_FAILED,
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  RATE_LIMITED: CommonCodes.RATE_LIMITED,
  /** Wrong, expired or already used pairing code. */
  PAIRING_CODE_INVALID: 'PAIRING_CODE_INVALID',
  /** No device cookie, or the device was revoked, or its role may not use this route. */
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  /** A state-changing request authenticated by the device cookie from another origin. */
  ORIGIN_FORBIDDEN: 'ORIGIN_FORBIDDEN',
  /** A desk whose counter is retired or gone. */
  COUNTER_NOT_FOUND: 'COUNTER_NOT_FOUND',
} as const

export type DeviceCode = (typeof DeviceCodes)[keyof typeof DeviceCodes]
