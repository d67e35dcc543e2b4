/**
 * The branch server's clock, as seen from the screen. A TV's own clock is often wrong; the
 * screen asks Lobby for its time (`/screens/clock`) when it starts, after every reconnect and
 * every quarter of an hour, so countdowns and "now" markers follow the box that computes the
 * data. A change under half a second is ignored, so a countdown never jitters.
 */
let offsetMs = 0
let lastSync = 0

const RESYNC_MS = 15 * 60_000
const IGNORE_BELOW_MS = 500

export function serverNow(): number {
  return Date.now() + offsetMs
}

/** Measures the offset once: the server's time against the midpoint of the request. */
export async function syncClock(): Promise<void> {
  lastSync = Date.now()
  try {
    const sentAt = performance.now()
    const response = await fetch('/screens/clock', { cache: 'no-store' })
    const { now } = (await response.json()) as { now: string }
    const receivedAt = performance.now()
    const server = Date.parse(now)
    if (Number.isNaN(server)) return
    // performance.now() is monotonic: the round trip is measured even if the device clock jumps.
    const estimate = server + (receivedAt - sentAt) / 2 - Date.now()
    if (Math.abs(estimate - offsetMs) >= IGNORE_BELOW_MS) offsetMs = Math.round(estimate)
  } catch {
    // Unreachable: keep the last offset; the next reconnect syncs again.
  }
}

/** Syncs at start and every quarter of an hour. */
export function keepClockInSync(): void {
  void syncClock()
  setInterval(() => {
    if (Date.now() - lastSync >= RESYNC_MS) void syncClock()
  }, 60_000)
}
