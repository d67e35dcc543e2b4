import { HOUR_COLUMNS, SERVED_HOUR_COLUMNS } from './tables'
import type { CounterKey, DailyKey, RollupEffect, StaffKey } from './rollup-rules'

/*
 * How the report roll-ups are stored (contract §12): the distributions (`Histogram`), the local
 * hour a figure counts in, a row's figures summed from effects (`DailyDelta`, `CounterDelta`,
 * `StaffDelta`) and the upserts that add them to `report_daily`, `report_counter_daily`,
 * `report_staff_daily` and their distributions. Shared by the live writer (rollup-writer.ts) and the rebuild (rollup-rebuild.ts).
 */

/**
 * The bucket (its lower bound, in seconds) a duration falls in: every second below one hour,
 * then every minute below one day, then every hour. Percentiles below one hour are exact to
 * the second; above, they are the lower bound of their bucket (never above the day's max).
 */
export function bucketOf(s: number): number {
  if (s < 3600) return s
  if (s < 86_400) return s - (s % 60)
  return s - (s % 3600)
}

/**
 * A distribution as stored: sorted (bucket, count) pairs in a Uint32Array, as bytes (the
 * machine's byte order; x64 and arm64 are both little-endian). Sparse, so a day with a few
 * hundred tickets keeps a few hundred pairs.
 */
export class Histogram {
  constructor(public pairs: Uint32Array = new Uint32Array(0)) {}

  static fromBytes(bytes: Uint8Array | null | undefined): Histogram {
    if (bytes == null || bytes.byteLength === 0) return new Histogram()
    // Copy: the bytes SQLite hands out need not be 4-byte aligned.
    const copy = new Uint8Array(bytes.byteLength)
    copy.set(bytes)
    return new Histogram(new Uint32Array(copy.buffer))
  }

  bytes(): Uint8Array {
    return new Uint8Array(this.pairs.buffer, this.pairs.byteOffset, this.pairs.byteLength)
  }

  /** Adds one duration in seconds. */
  add(s: number, count = 1): void {
    const bucket = bucketOf(s)
    const p = this.pairs
    let lo = 0
    let hi = p.length / 2
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (p[mid * 2]! < bucket) lo = mid + 1
      else hi = mid
    }
    if (lo * 2 < p.length && p[lo * 2] === bucket) {
      p[lo * 2 + 1]! += count
      return
    }
    const next = new Uint32Array(p.length + 2)
    next.set(p.subarray(0, lo * 2))
    next[lo * 2] = bucket
    next[lo * 2 + 1] = count
    next.set(p.subarray(lo * 2), lo * 2 + 2)
    this.pairs = next
  }

  /** Adds every count of `other`. */
  merge(other: Histogram): void {
    for (let i = 0; i < other.pairs.length; i += 2) this.add(other.pairs[i]!, other.pairs[i + 1]!)
  }

  total(): number {
    let n = 0
    for (let i = 1; i < this.pairs.length; i += 2) n += this.pairs[i]!
    return n
  }

  /**
   * Nearest rank: the ceil(q × N)-th smallest value (1-based), as its bucket; null when empty.
   * `q` in (0, 1].
   */
  percentile(q: number): number | null {
    const n = this.total()
    if (n === 0) return null
    const rank = Math.max(1, Math.ceil(q * n - 1e-9))
    let seen = 0
    for (let i = 0; i < this.pairs.length; i += 2) {
      seen += this.pairs[i + 1]!
      if (seen >= rank) return this.pairs[i]!
    }
    return this.pairs[this.pairs.length - 2]!
  }
}

// ---- the local hour -------------------------------------------------------------------

const hourFormatters = new Map<string, Intl.DateTimeFormat>()
const hourCache = new Map<string, number>()
/** Every zone's offset is a whole number of quarter hours, so the local hour is constant within one. */
const QUARTER_HOUR_MS = 900_000

/** The local hour (0–23) of instant `ms` in zone `tz`. */
export function localHour(ms: number, tz: string): number {
  const key = `${tz}\u0000${Math.floor(ms / QUARTER_HOUR_MS)}`
  const cached = hourCache.get(key)
  if (cached !== undefined) return cached
  let fmt = hourFormatters.get(tz)
  if (fmt === undefined) {
    fmt = new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', hourCycle: 'h23' })
    hourFormatters.set(tz, fmt)
  }
  const hour = Number(fmt.format(ms)) % 24
  // Bounded: a year of quarter hours in a handful of zones, then it starts again.
  if (hourCache.size >= 200_000) hourCache.clear()
  hourCache.set(key, hour)
  return hour
}

// ---- a row's figures and the upserts ------------------------------------------------------

export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)

/** 24 counts from a list of hours. */
export function hourCounts(hours: number[]): number[] {
  const counts = new Array<number>(24).fill(0)
  for (const h of hours) counts[h]! += 1
  return counts
}

export interface DailyDelta {
  hours: number[]
  servedHours: number[]
  served: number
  noShow: number
  cancelled: number
  transferredOut: number
  waits: number[]
  withinTarget: number
  serviceTimes: number[]
}

/**
 * The figures of a row that counts completions and no-shows and keeps the completions' service
 * times: a counter's day and a clerk's day are both such a row (`SERVED_ROW_UPDATE`,
 * `servedRowValues`).
 */
export interface ServedDelta {
  served: number
  noShow: number
  serviceTimes: number[]
}

export interface CounterDelta extends ServedDelta {
  busy: number
}

export type StaffDelta = ServedDelta

export const emptyDailyDelta = (): DailyDelta => ({ hours: [], servedHours: [], served: 0, noShow: 0, cancelled: 0, transferredOut: 0, waits: [], withinTarget: 0, serviceTimes: [] })
export const emptyCounterDelta = (): CounterDelta => ({ served: 0, noShow: 0, serviceTimes: [], busy: 0 })
export const emptyStaffDelta = (): StaffDelta => ({ served: 0, noShow: 0, serviceTimes: [] })

export function addDaily(delta: DailyDelta, effect: Extract<RollupEffect, { day: DailyKey }>): void {
  switch (effect.kind) {
    case 'issued': delta.hours.push(effect.hour); break
    case 'wait': delta.waits.push(effect.seconds); if (effect.withinTarget) delta.withinTarget += 1; break
    case 'serviceTime': delta.serviceTimes.push(effect.seconds); break
    case 'served': delta.served += 1; delta.servedHours.push(effect.hour); break
    case 'noShowTakenBack': delta.noShow -= 1; break
    default: delta[effect.kind] += 1
  }
}

export function addCounter(delta: CounterDelta, effect: Extract<RollupEffect, { counter: CounterKey }>): void {
  switch (effect.kind) {
    case 'counterServed': delta.served += 1; break
    case 'counterNoShow': delta.noShow += 1; break
    case 'counterNoShowTakenBack': delta.noShow -= 1; break
    case 'counterServiceTime': delta.serviceTimes.push(effect.seconds); break
    case 'counterBusy': delta.busy += effect.seconds; break
  }
}

export function addStaff(delta: StaffDelta, effect: Extract<RollupEffect, { staff: StaffKey }>): void {
  switch (effect.kind) {
    case 'staffServed': delta.served += 1; break
    case 'staffNoShow': delta.noShow += 1; break
    case 'staffServiceTime': delta.serviceTimes.push(effect.seconds); break
  }
}

/**
 * The figures a served row's upsert adds, in its parameter order after the key columns
 * (served, no_show, service_count, service_sum, service_p50, service_p90): the percentiles from
 * `distribution` (the row's whole distribution with this delta's times added), or null to keep
 * the stored ones when the delta has no time.
 */
export function servedRowValues(delta: ServedDelta, distribution: Histogram | null): [number, number, number, number, number | null, number | null] {
  return [
    delta.served, delta.noShow, delta.serviceTimes.length, sum(delta.serviceTimes),
    distribution === null ? null : distribution.percentile(0.5),
    distribution === null ? null : distribution.percentile(0.9),
  ]
}

/** How a served row (counter, clerk) takes an upsert: counts add, percentiles are replaced when given. */
const SERVED_ROW_UPDATE = `served = served + excluded.served, no_show = no_show + excluded.no_show,
    service_count = service_count + excluded.service_count, service_sum = service_sum + excluded.service_sum,
    service_p50 = coalesce(excluded.service_p50, service_p50), service_p90 = coalesce(excluded.service_p90, service_p90)`

// Counts add; the max keeps the larger; percentiles are written whole when given (the caller
// updated their distribution in this transaction), else kept.
export const DAILY_UPSERT = `
  INSERT INTO report_daily (location_id, service_id, business_day, queue_unit_id,
    issued, served, no_show, cancelled, transferred_out, wait_count, wait_sum, within_target, service_count, service_sum,
    wait_max, wait_p50, wait_p90, service_p50, service_p90, ${HOUR_COLUMNS.join(', ')}, ${SERVED_HOUR_COLUMNS.join(', ')})
  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
    ${HOUR_COLUMNS.map((_, h) => `?${20 + h}`).join(', ')}, ${SERVED_HOUR_COLUMNS.map((_, h) => `?${44 + h}`).join(', ')})
  ON CONFLICT (location_id, service_id, business_day) DO UPDATE SET
    issued = issued + excluded.issued, served = served + excluded.served, no_show = no_show + excluded.no_show,
    cancelled = cancelled + excluded.cancelled, transferred_out = transferred_out + excluded.transferred_out,
    wait_count = wait_count + excluded.wait_count, wait_sum = wait_sum + excluded.wait_sum, within_target = within_target + excluded.within_target,
    service_count = service_count + excluded.service_count, service_sum = service_sum + excluded.service_sum,
    wait_max = CASE WHEN excluded.wait_max IS NULL THEN wait_max WHEN wait_max IS NULL OR excluded.wait_max > wait_max THEN excluded.wait_max ELSE wait_max END,
    wait_p50 = coalesce(excluded.wait_p50, wait_p50), wait_p90 = coalesce(excluded.wait_p90, wait_p90),
    service_p50 = coalesce(excluded.service_p50, service_p50), service_p90 = coalesce(excluded.service_p90, service_p90),
    ${[...HOUR_COLUMNS, ...SERVED_HOUR_COLUMNS].map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`

export const DAILY_DISTRIBUTION_UPSERT = `
  INSERT INTO report_daily_distributions (location_id, service_id, business_day, queue_unit_id, wait_hist, service_hist) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
  ON CONFLICT (location_id, service_id, business_day) DO UPDATE SET
    wait_hist = coalesce(excluded.wait_hist, wait_hist), service_hist = coalesce(excluded.service_hist, service_hist)`

/** Parameters: the key (counter, day, unit, location), `servedRowValues`, then busy seconds. */
export const COUNTER_UPSERT = `
  INSERT INTO report_counter_daily (counter_id, business_day, queue_unit_id, location_id,
    served, no_show, service_count, service_sum, service_p50, service_p90, busy_seconds)
  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
  ON CONFLICT (counter_id, business_day) DO UPDATE SET
    ${SERVED_ROW_UPDATE}, busy_seconds = busy_seconds + excluded.busy_seconds`

export const COUNTER_DISTRIBUTION_UPSERT = `
  INSERT INTO report_counter_distributions (counter_id, business_day, service_hist) VALUES (?1, ?2, ?3)
  ON CONFLICT (counter_id, business_day) DO UPDATE SET service_hist = excluded.service_hist`

/** Parameters: the key (username, unit, day), then `servedRowValues`. */
export const STAFF_UPSERT = `
  INSERT INTO report_staff_daily (username, queue_unit_id, business_day,
    served, no_show, service_count, service_sum, service_p50, service_p90)
  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
  ON CONFLICT (username, queue_unit_id, business_day) DO UPDATE SET
    ${SERVED_ROW_UPDATE}`

export const STAFF_DISTRIBUTION_UPSERT = `
  INSERT INTO report_staff_distributions (username, queue_unit_id, business_day, service_hist) VALUES (?1, ?2, ?3, ?4)
  ON CONFLICT (username, queue_unit_id, business_day) DO UPDATE SET service_hist = excluded.service_hist`
