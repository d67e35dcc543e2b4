import { CommonCodes } from '../platform/errors'
import type { ErrorExample } from '../platform/openapi'

/**
 * Contract §16: a desk of a unit with `deskSignIn: required` acts only while a clerk is signed in
 * there. The desk's admission (access.ts) refuses with it; the operator API's codes
 * (src/counters/errors.ts) and the appointments' list it, as the counters use this feature.
 */
export const DeskCodes = { CLERK_SIGN_IN_REQUIRED: 'CLERK_SIGN_IN_REQUIRED' } as const

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

/** An example of each code for the OpenAPI document (the messages the routes answer with). */
export const DeviceErrorExamples = {
  INVALID_JSON: 'request body is not valid JSON',
  INVALID_REQUEST: { message: 'Content-Type must be application/json', details: [{ path: 'Content-Type', message: 'must be application/json' }] },
  VALIDATION_FAILED: { message: 'request validation failed', details: [{ path: '/code', message: 'Expected string length less or equal to 32' }] },
  PAYLOAD_TOO_LARGE: 'request body exceeds 1024 bytes',
  RATE_LIMITED: 'too many pairing attempts; retry after 42 s',
  PAIRING_CODE_INVALID: 'this pairing code is wrong, expired or already used',
  AUTHENTICATION_FAILED: 'this device is not paired (or no longer): pair it again at /pair',
  ORIGIN_FORBIDDEN: 'a device may change things only from a page of this server (Origin does not match)',
  COUNTER_NOT_FOUND: 'no such counter for this key',
} as const satisfies Record<keyof typeof DeviceCodes, ErrorExample>
