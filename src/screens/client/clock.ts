/**
 * The branch server's clock, as seen from the screen. A TV's own clock is often wrong; the
 * server's `Date` header (whole seconds) corrects it, so countdowns and "now" markers follow
 * the box that computes the data. Offsets under 1.5 s are ignored: that is the header's own
 * precision, and a countdown should not jitter.
 */
let offsetMs = 0

export function serverNow(): number {
  return Date.now() + offsetMs
}

/** Learns the offset from one response: its `Date` header against the request's midpoint. */
export function observeServerDate(dateHeader: string | null, sentAt: number, receivedAt: number): void {
  if (dateHeader === null) return
  const server = Date.parse(dateHeader)
  if (Number.isNaN(server)) return
  // The header truncates to the second: its true value is on average half a second later.
  const estimate = server + 500 - (sentAt + receivedAt) / 2
  offsetMs = Math.abs(estimate) < 1500 ? 0 : Math.round(estimate)
}
