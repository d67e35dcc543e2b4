/**
 * The HTTP metrics' counts, kept by the request path without prom-client and read by it only
 * when Prometheus scrapes (src/ops/metrics.ts). prom-client hashed the labels of every request
 * twice (counter and histogram): 12 % of a hot read (bench/analysis.md "Hot reads"). Here one
 * string key finds a series, and a series is a few numbers.
 */

/** The duration histogram's upper bounds in seconds (`le`), as Prometheus shows them. */
export const HTTP_DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const

export interface RequestSeries {
  route: string
  method: string
  status: string
  count: number
}

export interface DurationSeries {
  route: string
  method: string
  /** Observations per bucket, not cumulative; the last slot counts those above every bound. */
  buckets: number[]
  sum: number
  count: number
}

export class HttpTally {
  /**
   * Per route template, then method, then status: lookups by strings the request already holds
   * (no key made per request). Iterated only when scraped.
   */
  private readonly byRoute = new Map<string, Map<string, { requests: Map<string, RequestSeries>; duration: DurationSeries }>>()

  /** One answered request; `seconds` undefined when its start is unknown (it is counted, not timed). */
  observe(route: string, method: string, status: string, seconds: number | undefined): void {
    let byMethod = this.byRoute.get(route)
    if (byMethod === undefined) this.byRoute.set(route, (byMethod = new Map()))
    let entry = byMethod.get(method)
    if (entry === undefined) {
      entry = { requests: new Map(), duration: { route, method, buckets: new Array<number>(HTTP_DURATION_BUCKETS.length + 1).fill(0), sum: 0, count: 0 } }
      byMethod.set(method, entry)
    }
    const series = entry.requests.get(status)
    if (series === undefined) entry.requests.set(status, { route, method, status, count: 1 })
    else series.count += 1
    if (seconds === undefined) return
    const timing = entry.duration
    let bucket = 0
    while (bucket < HTTP_DURATION_BUCKETS.length && seconds > HTTP_DURATION_BUCKETS[bucket]!) bucket++
    timing.buckets[bucket]! += 1
    timing.sum += seconds
    timing.count += 1
  }

  /** Every request series, in the order first seen per route and method. */
  *requests(): Iterable<RequestSeries> {
    for (const byMethod of this.byRoute.values()) for (const entry of byMethod.values()) yield* entry.requests.values()
  }

  /** Every duration series with at least one timed request. */
  *durations(): Iterable<DurationSeries> {
    for (const byMethod of this.byRoute.values()) for (const entry of byMethod.values()) if (entry.duration.count > 0) yield entry.duration
  }

  /** Forgets the durations (prom-client's `reset` of the histogram); the request counts stay. */
  resetDurations(): void {
    for (const byMethod of this.byRoute.values()) {
      for (const entry of byMethod.values()) {
        entry.duration.buckets.fill(0)
        entry.duration.sum = 0
        entry.duration.count = 0
      }
    }
  }
}
