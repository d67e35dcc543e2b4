/** Outcome of one attempt against a rolling window. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number }

export interface RateLimiter {
  /** Counts an attempt for `key` unless it is over `limit` per rolling `windowMs`. */
  attempt(key: string, limit: number, now: number, windowMs?: number): RateDecision
}

interface Window {
  times: Float64Array
  start: number
  count: number
}

/**
 * Rolling-window limiter in memory: per key, a ring of the last `limit` attempt times.
 * An attempt is allowed when fewer than `limit` attempts fall inside the window; a refused
 * attempt is not recorded (contract: a 429 is not itself counted). Bounded: past `maxKeys`
 * the least recently created key is forgotten.
 */
export class RollingWindowLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>()
  constructor(private readonly maxKeys = 100_000) {}

  attempt(key: string, limit: number, now: number, windowMs = 60_000): RateDecision {
    let w = this.windows.get(key)
    if (w === undefined || w.times.length !== limit) {
      w = { times: new Float64Array(Math.max(limit, 1)), start: 0, count: 0 }
      this.windows.delete(key)
      this.windows.set(key, w)
      if (this.windows.size > this.maxKeys) {
        const oldest = this.windows.keys().next().value as string
        this.windows.delete(oldest)
      }
    }
    const cap = w.times.length
    // Drop attempts that left the window.
    while (w.count > 0 && w.times[w.start]! <= now - windowMs) {
      w.start = (w.start + 1) % cap
      w.count -= 1
    }
    if (limit <= 0 || w.count >= limit) {
      const oldest = w.count > 0 ? w.times[w.start]! : now
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest + windowMs - now) / 1000))
      return { allowed: false, retryAfterSeconds }
    }
    w.times[(w.start + w.count) % cap] = now
    w.count += 1
    return { allowed: true }
  }

  get size(): number {
    return this.windows.size
  }
}
