/*
 * Contract §19 "Wait estimates customers can trust": the one estimator behind every
 * `estimatedWaitSeconds` (services list, kiosk, phone, print, board, desk).
 *
 * The model, per (service, location) line:
 * - Who is ahead: the tickets of the line called before this one in the real call order
 *   (`callsAhead`: the front lane of requeued/transferred-FIRST tickets, then the unit's priority
 *   policy FIRST or INTERLEAVE). For a new normal ticket that is every waiting ticket.
 * - Who serves: the OPEN counters at the location that serve the service. Each is free after the
 *   expected rest of the ticket it holds: a SERVING ticket max(REST_FLOOR, average − time served
 *   so far), a CALLED one a whole average (its service has not started), none: free now.
 * - Shared counters: a counter that also serves other services takes from their lines too. It
 *   is given to this line in proportion to the waiting tickets: share = (waiting here + 1) /
 *   (waiting in all its services + 1), and a ticket of this line costs it average / share. This
 *   is simpler than simulating the merged call order of every line and needs only the waiting
 *   counts `service_stats` keeps.
 * - Then the counters take the tickets ahead one by one, each going to the counter free first;
 *   the estimate is when the first counter is free after them. O(ahead × open counters).
 * - Nobody ahead and an open counter free now: 0 ("You're next").
 * - No counter of the service open: the contract asks for the counters usually open at that hour
 *   (last 4 weeks); that history is not read per request, so one counter is assumed, busy for
 *   one average as Part one did, and `noCounterOpen` says so for the pages.
 */

/** The least a counter holding a ticket is assumed to still need, however long it has served. */
export const REST_FLOOR_SECONDS = 15

/** An open counter as the estimator sees it. */
export interface CounterNow {
  /** Seconds until it is free of what it holds now (0: free). */
  restSeconds: number
  /** Waiting tickets in all the services it serves at its location (this line's included). */
  waitingServed: number
}

export interface WaitEstimate {
  estimatedWaitSeconds: number
  /** No open counter serves the line: the estimate assumed one (contract §19). */
  noCounterOpen: boolean
}

/**
 * The expected rest of a counter's current ticket, from its status, when its service began
 * (`servingAt`, ms) and the average of the ticket's service; 0 when it holds nothing.
 */
export function restOfCurrent(held: { status: string; servingAt: number | null } | null, averageSeconds: number, now: number): number {
  if (held === null) return 0
  if (held.status !== 'SERVING' || held.servingAt === null) return Math.max(averageSeconds, REST_FLOOR_SECONDS)
  const served = Math.max(now - held.servingAt, 0) / 1000
  return Math.max(averageSeconds - served, REST_FLOOR_SECONDS)
}

/**
 * Seconds until a ticket with `ahead` tickets of its line before it is called, with the line's
 * average service seconds, its waiting count (for shared counters' share) and its open counters.
 */
export function estimateWait(ahead: number, averageSeconds: number, lineWaiting: number, counters: readonly CounterNow[]): WaitEstimate {
  const average = Math.max(averageSeconds, 0)
  const before = Math.max(Math.floor(ahead), 0)
  if (counters.length === 0) {
    return { estimatedWaitSeconds: Math.round((before + 1) * average), noCounterOpen: true }
  }
  const freeAt = counters.map((c) => Math.max(c.restSeconds, 0))
  const perTicket = counters.map((c) => {
    const share = (Math.max(lineWaiting, 0) + 1) / (Math.max(c.waitingServed, lineWaiting, 0) + 1)
    return average / share
  })
  for (let k = 0; k < before; k++) {
    let first = 0
    for (let i = 1; i < freeAt.length; i++) if (freeAt[i]! < freeAt[first]!) first = i
    freeAt[first] = freeAt[first]! + perTicket[first]!
  }
  return { estimatedWaitSeconds: Math.round(Math.min(...freeAt)), noCounterOpen: false }
}
