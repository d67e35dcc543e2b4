import { KiB, MiB } from './body'

/**
 * The bounds one server keeps so that no client, authenticated or not, can take what the
 * branch needs (file descriptors, memory, the one JavaScript thread). docs/reliability.md
 * "Limits" lists them with the flags and environment variables that change them.
 */
export interface Limits {
  /** Open display websockets per credential (display token or device); the excess is closed with 1013. */
  socketsPerCredential: number
  /** Open display websockets in all; well below the descriptor limit, so HTTP keeps room. */
  socketsTotal: number
  /** The largest websocket message a client may send; Bun closes the socket (1009) beyond it. */
  socketMessageBytes: number
  /** Subscribe messages per socket: a burst of this many, then one more per `socketMessageRefillMs`. */
  socketMessageBurst: number
  socketMessageRefillMs: number
  /** How often the credentials of open websockets are re-checked (revocation closes within this, plus a send). */
  socketRecheckMs: number
  /** Request body bytes held in flight across all requests; beyond it, 503 with Retry-After. */
  bodyBytesInFlight: number
}

export const DEFAULT_LIMITS: Limits = {
  socketsPerCredential: 50,
  socketsTotal: 2000,
  socketMessageBytes: 64 * KiB,
  socketMessageBurst: 20,
  socketMessageRefillMs: 1000,
  socketRecheckMs: 1000,
  bodyBytesInFlight: 64 * MiB,
}
