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
 * Contract §19: one completion, however far off, moves the estimate by at most this share of it.
 * Below 0.1 (the contract's "a tenth") with room for the rounding of stored figures.
 */
export const MAX_MOVE = 0.09

/**
 * The band a completion is clamped to around the current estimate, for a completion weighing
 * `weight`: ×(1 − MAX_MOVE / weight) … ×(1 + MAX_MOVE / weight), the low end never under ×0.25.
 * So one completion moves the estimate by at most MAX_MOVE of it, whatever its duration. The
 * band widens as the weight falls (×0.46 … ×1.54 for the first completion, ×0.25 … ×2.8 once
 * settled at 1/AVERAGE_WINDOW): service times have a long right tail (a few customers take
 * three times the usual), and a narrow band would cut that tail off and learn an average lower
 * than the real one, which every estimate would then inherit as waits promised too short.
 */
export function sampleBand(weight: number): { low: number; high: number } {
  // MAX_MOVE / weight, as documented above: the former MAX_MOVE / max(weight, MAX_MOVE) capped the
  // high end at ×2 for every weight under MAX_MOVE, which cut the long tail of a σ 0.8 service and
  // settled 13 % under its mean (bench/sim/analysis.md). The weight is never under 1/AVERAGE_WINDOW.
  const reach = MAX_MOVE / Math.max(weight, 1 / AVERAGE_WINDOW)
  return { low: Math.max(1 - reach, 0.25), high: 1 + reach }
}

/**
 * Contract §19 "service times are learned per service from recent completions, robust to
 * outliers": the current estimate (`previous`, or the service's default before the first
 * completion) moves towards each new `completedAt − servingAt`, clamped to `sampleBand` around
 * it, with the weight max(1/(n + 1 + PRIOR_COMPLETIONS), 1/AVERAGE_WINDOW) for the n-th
 * completion (n = `completedBefore`). O(1) state: the estimate and the count, stored in
 * `service_stats.avg_service_seconds` and `completed_count`. Returns the new estimate, unrounded.
 */
export function nextServiceAverage(previous: number | null, completedBefore: number, durationSeconds: number, serviceDefault: number = DEFAULT_SERVICE_SECONDS): number {
  const current = previous !== null && completedBefore > 0 ? previous : Math.max(serviceDefault, 0)
  const sample = Math.max(durationSeconds, 0)
  // An estimate of 0 (a service provisioned with 0 seconds) has no band: one second is the least it starts from.
  const anchor = Math.max(current, 1)
  const weight = Math.max(1 / (Math.max(completedBefore, 0) + 1 + PRIOR_COMPLETIONS), 1 / AVERAGE_WINDOW)
  const band = sampleBand(weight)
  const clamped = Math.min(Math.max(sample, anchor * band.low), anchor * band.high)
  return current + (clamped - current) * weight
}
