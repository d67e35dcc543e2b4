/** One ticket's estimate at issue against its real wait (issue → first call), in seconds. */
export interface EstimateSample {
  estimateSeconds: number
  realWaitSeconds: number
}

/** The accuracy figures of one estimator over one scenario's called tickets (contract §19). */
export interface AccuracyFigures {
  tickets: number
  /** Mean |estimate − real|, seconds. */
  meanAbsoluteErrorSeconds: number
  /** Median |estimate − real| / real over tickets whose real wait was over 5 minutes, percent; null when none. */
  medianApeOver5MinPercent: number | null
  ticketsOver5Min: number
  /**
   * Median |estimate − real| / max(real, 60 s) over every called ticket, percent: the floor of
   * one minute keeps a 0-second real wait from dividing by zero.
   */
  medianApePercent: number | null
  /** 90th percentile of |estimate − real|, seconds (nearest rank). */
  p90AbsoluteErrorSeconds: number
  /** Mean (estimate − real), seconds: positive = the estimate promised more waiting than happened. */
  biasSeconds: number
}

/** Nearest-rank percentile of unsorted values; NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.max(Math.ceil((p / 100) * sorted.length), 1)
  return sorted[rank - 1]!
}

const mean = (values: number[]) => (values.length === 0 ? Number.NaN : values.reduce((s, v) => s + v, 0) / values.length)

export function accuracyOf(samples: EstimateSample[]): AccuracyFigures {
  const errors = samples.map((s) => s.estimateSeconds - s.realWaitSeconds)
  const absolute = errors.map(Math.abs)
  const over5 = samples.filter((s) => s.realWaitSeconds > 300)
  const ape = (s: EstimateSample, floor: number) => (100 * Math.abs(s.estimateSeconds - s.realWaitSeconds)) / Math.max(s.realWaitSeconds, floor)
  return {
    tickets: samples.length,
    meanAbsoluteErrorSeconds: mean(absolute),
    medianApeOver5MinPercent: over5.length === 0 ? null : percentile(over5.map((s) => ape(s, 1)), 50),
    ticketsOver5Min: over5.length,
    medianApePercent: samples.length === 0 ? null : percentile(samples.map((s) => ape(s, 60)), 50),
    p90AbsoluteErrorSeconds: percentile(absolute, 90),
    biasSeconds: mean(errors),
  }
}
