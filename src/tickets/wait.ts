import { DEFAULT_SERVICE_SECONDS } from '../queue/tables'

/**
 * The services' column defaults (src/queue/tables.ts, a schema-only link like tickets/tables.ts's
 * foreign keys): `DEFAULT_SERVICE_SECONDS` is also used when neither completions nor the service
 * say otherwise (contract §3).
 */
export { DEFAULT_SERVICE_SECONDS, DEFAULT_WAIT_TARGET_SECONDS } from '../queue/tables'

/**
 * Part one's formula (contract §3): ceil((waiting ahead + 1) / max(open counters, 1)) × average
 * service seconds. No surface uses it since contract §19 (estimate.ts's `estimateWait` does);
 * it stays as the baseline the accuracy measurements compare against.
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

/** How many recent completions the service-time estimate roughly covers once it has settled. */
export const AVERAGE_WINDOW = 20

/**
 * How many completions the service's default counts as before any is seen: the first
 * completion weighs 1/(PRIOR_COMPLETIONS + 1), so the estimate moves from the default towards
 * the learned value as completions accumulate instead of jumping to the first one.
 */
export const PRIOR_COMPLETIONS = 5

/**
 * Contract §19's band: a completion counts as at most this far from the current estimate
 * (×0.5 … ×1.5). With the weights below, one completion moves the estimate by at most
 * 0.5 / (PRIOR_COMPLETIONS + 1) ≈ 8 % at first and 0.5 / AVERAGE_WINDOW = 2.5 % later: a
 * 2-second or 3-hour service moves it by less than a tenth. A service that is really longer or
 * shorter still gets there, by a few percent per completion.
 */
export const SAMPLE_BAND = { low: 0.5, high: 1.5 } as const

/**
 * Contract §19 "service times are learned per service from recent completions, robust to
 * outliers": the current estimate (`previous`, or the service's default before the first
 * completion) moves towards each new `completedAt − servingAt`, clamped to `SAMPLE_BAND` around
 * it, with the weight max(1/(n + 1 + PRIOR_COMPLETIONS), 1/AVERAGE_WINDOW) for the n-th
 * completion (n = `completedBefore`). O(1) state: the estimate and the count, stored in
 * `service_stats.avg_service_seconds` and `completed_count`. Returns the new estimate, unrounded.
 */
export function nextServiceAverage(previous: number | null, completedBefore: number, durationSeconds: number, serviceDefault: number = DEFAULT_SERVICE_SECONDS): number {
  const current = previous !== null && completedBefore > 0 ? previous : Math.max(serviceDefault, 0)
  const sample = Math.max(durationSeconds, 0)
  // An estimate of 0 (a service provisioned with 0 seconds) has no band: one second is the least it starts from.
  const anchor = Math.max(current, 1)
  const clamped = Math.min(Math.max(sample, anchor * SAMPLE_BAND.low), anchor * SAMPLE_BAND.high)
  const weight = Math.max(1 / (Math.max(completedBefore, 0) + 1 + PRIOR_COMPLETIONS), 1 / AVERAGE_WINDOW)
  return current + (clamped - current) * weight
}
