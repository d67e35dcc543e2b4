/**
 * Websocket close codes of the live feeds (docs/display.md), as values: the browser bundles
 * import this file (it imports nothing), the server's display errors name the same numbers
 * (test/screens/contract.test.ts checks they agree).
 */
export const WireCloseCodes = {
  /** The server restarts or stops (contract §23): reconnect; it is back within seconds. */
  SERVICE_RESTART: 1012,
  /** Too many messages from the client. */
  POLICY_VIOLATION: 1008,
  /** Too many connections, or the client read too slowly: reconnect later with `sinceRevision`. */
  TRY_AGAIN_LATER: 1013,
  /** The token (or the paired device) is not, or no longer, valid: do not reconnect with it. */
  TOKEN_INVALID: 4401,
  /**
   * The credential is still valid but no longer may read what this socket reads (contract §27:
   * a manager's units or role changed to exclude it): read again over HTTP before reconnecting.
   */
  FORBIDDEN: 4403,
} as const

export type WireCloseCode = (typeof WireCloseCodes)[keyof typeof WireCloseCodes]
