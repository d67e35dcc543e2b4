/**
 * Reconnect delays while the server is unreachable or restarting (closed 1012): 0.5 s, 1 s,
 * then every 2 s, each scaled by a random 0.5–1 so screens spread out. A page is back within
 * 3 s of the server (contract §23); a refused connection costs the server nothing. When the
 * server is up but refuses for load (closed 1013: too many sockets, or too slow a reader):
 * 1 s doubling to 15 s, as before.
 */
const RESTART_RETRY_MS = [500, 1000, 2000] as const
const BUSY_FIRST_RETRY_MS = 1000
const BUSY_MAX_RETRY_MS = 15_000
/** The delay before reconnect attempt `attempt` (0-based); `random` in [0, 1). */
export function reconnectDelayMs(attempt: number, random: number, busy = false): number {
  const base = busy
    ? Math.min(BUSY_MAX_RETRY_MS, BUSY_FIRST_RETRY_MS * 2 ** attempt)
    : RESTART_RETRY_MS[Math.min(attempt, RESTART_RETRY_MS.length - 1)]!
  return Math.round(base * (0.5 + random / 2))
}
