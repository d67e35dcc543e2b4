import { DEFAULT_SERVICE_SECONDS } from '../structure'

/**
 * The services' column defaults (src/structure/tables.ts, a schema-only link like tickets/tables.ts's
 * foreign keys): `DEFAULT_SERVICE_SECONDS` is also used when neither completions nor the service
 * say otherwise (contract §3).
 */
export { DEFAULT_SERVICE_SECONDS, DEFAULT_WAIT_TARGET_SECONDS } from '../structure'

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

/**
 * How many recent completions the service-time estimate roughly covers once it has settled. 50,
 * not 20: a wait at the peak is the sum of 20–30 services ahead, and the learned figure's own
 * error multiplies every one of them. Over 20 completions of a σ 0.6 service it wanders ±10 %
 * around the true mean, over 50 about ±6 %; on 20 lunch-peak days not used to choose it this
 * took the seeds meeting the MAE bar from 5 to 9 (bench/sim/analysis.md). A service whose times
 * really change follows within a day or two of its completions.
 */
export const AVERAGE_WINDOW = 50

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
 * band widens as the weight falls (×0.46 … ×1.54 for the first completion, ×0.25 … ×5.5 once
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

/**
 * The spread a service starts from before its first completion: the mean absolute deviation of
 * its service times from their mean, as a share of the mean (0.4: a log-normal of σ ≈ 0.5, the
 * narrowest the branch services measured in bench/sim/scenarios.ts have).
 */
export const DEFAULT_SPREAD = 0.4

/**
 * How many recent completions the spread roughly covers once settled: more than the average
 * (AVERAGE_WINDOW), because a service's spread changes more slowly than its level and one
 * deviation is a noisier sample of it than one duration is of the mean.
 */
export const SPREAD_WINDOW = 50

/**
 * Contract §19's spread of the service time, kept beside its average in O(1): the moving mean of
 * |duration − average| / average over recent completions (`previousSpread`, or DEFAULT_SPREAD
 * before the first), where the duration is clamped to `sampleBand` around the average as the
 * average's update clamps it, and the deviation to `sampleBand` around the current spread, so one
 * completion, however far off, moves the spread by at most MAX_MOVE of it. Weight
 * max(1/(n + 1 + PRIOR_COMPLETIONS), 1/SPREAD_WINDOW). `previousAverage` is the average before
 * this completion is folded in (or the service's default before the first). Returns the new spread.
 */
export function nextServiceSpread(previousSpread: number | null, previousAverage: number | null, completedBefore: number, durationSeconds: number, serviceDefault: number = DEFAULT_SERVICE_SECONDS): number {
  const spread = previousSpread !== null && completedBefore > 0 ? previousSpread : DEFAULT_SPREAD
  const average = Math.max(previousAverage !== null && completedBefore > 0 ? previousAverage : serviceDefault, 1)
  const durationBand = sampleBand(Math.max(1 / (Math.max(completedBefore, 0) + 1 + PRIOR_COMPLETIONS), 1 / AVERAGE_WINDOW))
  const duration = Math.min(Math.max(durationSeconds, average * durationBand.low), average * durationBand.high)
  const weight = Math.max(1 / (Math.max(completedBefore, 0) + 1 + PRIOR_COMPLETIONS), 1 / SPREAD_WINDOW)
  const band = sampleBand(weight)
  const deviation = Math.abs(duration - average) / average
  const clamped = Math.min(Math.max(deviation, spread * band.low), spread * band.high)
  return spread + (clamped - spread) * weight
}

/** The spread a stored value reads as: the default before the first completion. */
export function serviceSpread(stored: number | null | undefined): number {
  return stored ?? DEFAULT_SPREAD
}

/** log Φ(y), the standard normal CDF, accurate far into the lower tail (Numerical Recipes' erfc, relative error < 1.2e-7). */
export function logNormalCdf(y: number): number {
  const x = -y / Math.SQRT2
  if (x < 0) return Math.log1p(-Math.exp(logErfc(-x)) / 2)
  return logErfc(x) - Math.LN2
}

function logErfc(x: number): number {
  const t = 1 / (1 + 0.5 * x)
  const poly = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))
  return Math.log(t) - x * x + poly
}

/**
 * The σ of the log-normal whose mean absolute deviation from its mean is `spread` of the mean:
 * for a log-normal, E|X − m| = 2m(2Φ(σ/2) − 1), so σ = 2Φ⁻¹((1 + spread/2)/2) (bisection; the
 * spread kept in 0.02…1.6, σ in about 0.05…5).
 */
export function logSigmaOfSpread(spread: number): number {
  const target = (1 + Math.min(Math.max(spread, 0.02), 1.6) / 2) / 2
  let low = 0
  let high = 8
  for (let i = 0; i < 40; i++) {
    const mid = (low + high) / 2
    if (Math.exp(logNormalCdf(mid)) < target) low = mid
    else high = mid
  }
  return 2 * ((low + high) / 2)
}

/**
 * The expected rest of a service of mean `averageSeconds` and log-spread `sigma` that has already
 * lasted `elapsedSeconds`: E[X − e | X > e] for the log-normal X of that mean and σ,
 * m·Φ(σ − z)/Φ(−z) − e with z = (ln e − ln m + σ²/2)/σ. A long-tailed service that has run past
 * its mean is more likely one of the long ones, so its rest does not fall to nothing; with σ → 0
 * it is max(m − e, 0).
 */
export function expectedRest(averageSeconds: number, sigma: number, elapsedSeconds: number): number {
  const m = Math.max(averageSeconds, 0)
  if (elapsedSeconds <= 0 || m === 0) return m
  if (sigma < 1e-3) return Math.max(m - elapsedSeconds, 0)
  const z = (Math.log(elapsedSeconds) - Math.log(m) + (sigma * sigma) / 2) / sigma
  return Math.max(m * Math.exp(logNormalCdf(sigma - z) - logNormalCdf(-z)) - elapsedSeconds, 0)
}
