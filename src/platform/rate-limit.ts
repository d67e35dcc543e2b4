/** Outcome of one attempt against a rolling window. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number }

/** Where a key's window is kept: `fixed` keys (credentials, widgets, overall limits) are never evicted. */
export type RateStore = 'fixed' | 'address'

export interface RateLimiter {
  /**
   * Counts an attempt for `key` unless it is over `limit` per rolling `windowMs`. `store`
   * `address` (a caller's address: a key space strangers choose) is bounded and forgets its
   * oldest key; `fixed` (default: keys provisioning bounds, and overall limits) never forgets.
   */
  attempt(key: string, limit: number, now: number, windowMs?: number, store?: RateStore): RateDecision
}

/** Each window is counted in this many slices: a key costs the same whatever its limit. */
export const SLICES = 60
const SLICE_MAX = 0xffff

/**
 * Rolling-window counters in fixed-size slots: per key, `SLICES` 16-bit counts (one per 1/60 of
 * the window, aligned to the clock), their total and the newest slice. An attempt is allowed when
 * fewer than `limit` attempts fall in the live slices; a refused attempt is not recorded (a 429 is
 * not itself counted). An attempt leaves the window when its slice does, `windowMs` after the
 * slice began: at most one slice (1 s of a minute) early. A key costs ~150 bytes (its slot and
 * its Map entry) whatever its limit; slots live in typed arrays of 4,096 slots each.
 * Bounded when `maxKeys` is given: past it the least recently created key is forgotten.
 */
export class SlicedWindowCounters {
  private readonly slots = new Map<string, number>()
  private readonly free: number[] = []
  /** Slots in chunks of CHUNK: growing never copies, and never holds twice the memory. */
  private readonly counts: Uint16Array[] = []
  private readonly totals: Uint32Array[] = []
  /** The newest slice index counted (absolute: floor(time / sliceMs)). */
  private readonly heads: Float64Array[] = []
  private readonly windows: Float64Array[] = []
  private next = 0

  constructor(private readonly maxKeys = Number.POSITIVE_INFINITY) {}

  get size(): number {
    return this.slots.size
  }

  attempt(key: string, limit: number, now: number, windowMs = 60_000): RateDecision {
    const sliceMs = windowMs / SLICES
    const slice = Math.floor(now / sliceMs)
    let slot = this.slots.get(key)
    if (slot === undefined || this.windows[slot >>> SHIFT]![slot & MASK] !== windowMs) {
      slot ??= this.newSlot(key)
      this.reset(slot, windowMs, slice)
    }
    const c = slot >>> SHIFT
    const j = slot & MASK
    const counts = this.counts[c]!
    const totals = this.totals[c]!
    this.advance(counts, totals, this.heads[c]!, j, slice)
    const total = totals[j]!
    if (limit <= 0 || total >= limit) {
      return { allowed: false, retryAfterSeconds: retryAfter(counts, j * SLICES, total, limit, slice, sliceMs, windowMs, now) }
    }
    const i = j * SLICES + (slice % SLICES)
    if (counts[i]! < SLICE_MAX) {
      counts[i]! += 1
      totals[j]! += 1
    }
    return { allowed: true }
  }

  private newSlot(key: string): number {
    if (this.slots.size >= this.maxKeys) {
      const oldest = this.slots.keys().next().value as string
      this.free.push(this.slots.get(oldest)!)
      this.slots.delete(oldest)
    }
    let slot = this.free.pop()
    if (slot === undefined) {
      slot = this.next++
      if (slot >>> SHIFT >= this.counts.length) {
        this.counts.push(new Uint16Array(CHUNK * SLICES))
        this.totals.push(new Uint32Array(CHUNK))
        this.heads.push(new Float64Array(CHUNK))
        this.windows.push(new Float64Array(CHUNK))
      }
    }
    this.slots.set(key, slot)
    return slot
  }

  private reset(slot: number, windowMs: number, slice: number): void {
    const c = slot >>> SHIFT
    const j = slot & MASK
    this.counts[c]!.fill(0, j * SLICES, (j + 1) * SLICES)
    this.totals[c]![j] = 0
    this.heads[c]![j] = slice
    this.windows[c]![j] = windowMs
  }

  /** Empties the slices that left the window since the newest counted one. */
  private advance(counts: Uint16Array, totals: Uint32Array, heads: Float64Array, j: number, slice: number): void {
    const head = heads[j]!
    if (slice <= head) return
    const base = j * SLICES
    if (slice - head >= SLICES) {
      counts.fill(0, base, base + SLICES)
      totals[j] = 0
    } else {
      for (let s = head + 1; s <= slice; s++) {
        const i = base + (s % SLICES)
        totals[j]! -= counts[i]!
        counts[i] = 0
      }
    }
    heads[j] = slice
  }
}

const SHIFT = 12
const CHUNK = 1 << SHIFT
const MASK = CHUNK - 1

/** Seconds until enough of the oldest slices leave for one more attempt to fit. */
function retryAfter(counts: Uint16Array, base: number, total: number, limit: number, slice: number, sliceMs: number, windowMs: number, now: number): number {
  if (limit <= 0) return Math.max(1, Math.ceil(windowMs / 1000))
  let leaving = 0
  for (let s = slice - SLICES + 1; s <= slice; s++) {
    leaving += counts[base + (((s % SLICES) + SLICES) % SLICES)]!
    if (total - leaving < limit) return Math.max(1, Math.ceil(((s + SLICES) * sliceMs - now) / 1000))
  }
  return Math.max(1, Math.ceil(windowMs / 1000))
}

/**
 * The app's limiter: two stores, so that strangers choosing addresses can never push out a
 * credential's or an overall window. `address` keys are bounded (100,000; the least recently
 * created is forgotten); `fixed` keys are bounded by what is provisioned and never forgotten.
 */
export class RollingWindowLimiter implements RateLimiter {
  readonly fixed = new SlicedWindowCounters()
  readonly addresses: SlicedWindowCounters

  constructor(maxAddressKeys = 100_000) {
    this.addresses = new SlicedWindowCounters(maxAddressKeys)
  }

  attempt(key: string, limit: number, now: number, windowMs = 60_000, store: RateStore = 'fixed'): RateDecision {
    return (store === 'address' ? this.addresses : this.fixed).attempt(key, limit, now, windowMs)
  }

  /** Keys held in both stores. */
  get size(): number {
    return this.fixed.size + this.addresses.size
  }
}
