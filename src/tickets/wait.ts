import { DEFAULT_SERVICE_SECONDS } from '../queue/tables'

/**
 * The services' column defaults (src/queue/tables.ts, a schema-only link like tickets/tables.ts's
 * foreign keys): `DEFAULT_SERVICE_SECONDS` is also used when neither completions nor the service
 * say otherwise (contract §3).
 */
export { DEFAULT_SERVICE_SECONDS, DEFAULT_WAIT_TARGET_SECONDS } from '../queue/tables'

/**
 * Contract §3: `estimatedWaitSeconds` = ceil((waiting ahead + 1) / max(open counters, 1))
 * × average service seconds. Inputs come from `service_stats` and one grouped count of open
 * counters, never from a scan of the ticket history.
 */
export function estimatedWaitSeconds(waitingAhead: number, openCounters: number, averageServiceSeconds: number): number {
  return Math.ceil((Math.max(waitingAhead, 0) + 1) / Math.max(openCounters, 1)) * Math.max(averageServiceSeconds, 0)
}

/**
 * The average from recent completions when there is one (stored unrounded, read in whole
 * seconds), else the service's default.
 */
export function averageServiceSeconds(recentAverage: number | null | undefined, serviceDefault: number | null | undefined): number {
  return recentAverage != null ? Math.round(recentAverage) : serviceDefault ?? DEFAULT_SERVICE_SECONDS
}

/** How many recent completions the moving average of service time roughly covers. */
export const AVERAGE_WINDOW = 20

/**
 * Contract §3 "average service seconds from recent completions": an exponentially weighted
 * moving average of `completedAt − servingAt`. The n-th completion weighs max(1/n, 1/20): the
 * first 20 give their plain mean (no bias towards a seed value), later ones move the average by
 * 1/20 of their difference, so it follows roughly the last 20 completions. Returns the new
 * average (unrounded) from the previous one and how many completions it already holds.
 */
export function nextServiceAverage(previous: number | null, completedBefore: number, durationSeconds: number): number {
  const sample = Math.max(durationSeconds, 0)
  if (previous === null || completedBefore <= 0) return sample
  const weight = Math.max(1 / (completedBefore + 1), 1 / AVERAGE_WINDOW)
  return previous + (sample - previous) * weight
}
