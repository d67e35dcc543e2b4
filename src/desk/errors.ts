import { DeviceCodes, DeviceErrorExamples } from '../devices'
// The people feature's codes file itself, not its door: the pages' typecheck follows this file's
// imports (through src/contract/wire.ts), and the door would bring in the server's code.
import { PeopleCodes } from '../people'
import type { ErrorExample } from '../platform/openapi'

/** Every error code the desk's clerk routes answer with (contract §16). Tests import these. */
export const DeskClerkCodes = {
  INVALID_JSON: DeviceCodes.INVALID_JSON,
  INVALID_REQUEST: DeviceCodes.INVALID_REQUEST,
  VALIDATION_FAILED: DeviceCodes.VALIDATION_FAILED,
  PAYLOAD_TOO_LARGE: DeviceCodes.PAYLOAD_TOO_LARGE,
  RATE_LIMITED: DeviceCodes.RATE_LIMITED,
  /** No paired desk behind the cookie: a PIN works only on a paired desk device. */
  AUTHENTICATION_FAILED: DeviceCodes.AUTHENTICATION_FAILED,
  ORIGIN_FORBIDDEN: DeviceCodes.ORIGIN_FORBIDDEN,
  COUNTER_NOT_FOUND: DeviceCodes.COUNTER_NOT_FOUND,
  /** Wrong username or PIN, or not an active clerk of this desk's unit (the same answer for an unknown user). */
  SIGN_IN_FAILED: PeopleCodes.SIGN_IN_FAILED,
  /** 5 wrong PINs for this clerk in 15 minutes: locked for 15 minutes (Retry-After). */
  SIGN_IN_LOCKED: PeopleCodes.SIGN_IN_LOCKED,
} as const

/** An example of each code for the OpenAPI document (the messages the routes answer with). */
export const DeskClerkErrorExamples = {
  INVALID_JSON: DeviceErrorExamples.INVALID_JSON,
  INVALID_REQUEST: DeviceErrorExamples.INVALID_REQUEST,
  VALIDATION_FAILED: { message: 'request validation failed', details: [{ path: '/username', message: 'Expected string length less or equal to 64' }] },
  PAYLOAD_TOO_LARGE: 'request body exceeds 1024 bytes',
  RATE_LIMITED: 'too many sign-in attempts from this address; retry after 42 s',
  AUTHENTICATION_FAILED: 'a PIN works only on a paired desk: pair this device at /pair',
  ORIGIN_FORBIDDEN: DeviceErrorExamples.ORIGIN_FORBIDDEN,
  COUNTER_NOT_FOUND: 'this desk\'s counter is retired or no longer exists',
  SIGN_IN_FAILED: 'wrong username or PIN',
  SIGN_IN_LOCKED: 'too many wrong PINs for this clerk; try again in 15 minutes',
} as const satisfies Record<keyof typeof DeskClerkCodes, ErrorExample>

