import { WireCloseCodes } from '../screens'
import { CommonCodes, CommonErrorExamples } from '../platform/errors'
import type { ErrorExample } from '../platform/openapi'

/** Every error code the display routes answer with (docs/display.md). */
export const DisplayCodes = {
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  NOT_FOUND: CommonCodes.NOT_FOUND,
} as const

/**
 * Websocket close codes of the display feed (docs/display.md): 1012 (service restart) when the
 * server stops (screens reconnect at once and keep retrying every few seconds, contract §23),
 * 4401 when the display token is not, or no longer, valid; 4403 when the credential still is
 * but no longer may read a topic it subscribed to (the live floor, contract §27).
 */
export const CloseCodes = {
  SERVICE_RESTART: WireCloseCodes.SERVICE_RESTART,
  TOKEN_INVALID: WireCloseCodes.TOKEN_INVALID,
  FORBIDDEN: WireCloseCodes.FORBIDDEN,
} as const

/** An example of each code for the OpenAPI document (the messages the routes answer with). */
export const DisplayErrorExamples = {
  AUTHENTICATION_FAILED: 'a valid display token (lbd_…) or a paired display is required on display routes',
  NOT_FOUND: 'no such widget for this display token',
} as const satisfies Record<keyof typeof DisplayCodes, ErrorExample>
