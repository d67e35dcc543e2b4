import type { Database } from 'bun:sqlite'
import type { TicketRow } from './store'
import type { TicketEventName } from './transitions'
import { HOUR_COLUMNS, SERVED_HOUR_COLUMNS } from './tables'
import { DEFAULT_WAIT_TARGET_SECONDS } from './wait'
import type { WriteBatcher } from '../platform/write-batch'

/*
 * Contract §12 report roll-ups: `report_daily` (location, service, business day) and
 * `report_counter_daily` (counter, business day), kept by the tickets feature in the
 * transaction of every ticket change (`Tickets.changed`), and rebuilt from the ticket history
 * by the migration that adds them (`rebuildReportRollups`). Both paths derive the same
 * `RollupEffect`s from a change with `rollupEffects`, so they cannot count differently.
 *
 * What counts where (docs/reports.md):
 * - every figure belongs to the ticket's business day (the local day it was issued);
 * - issued: the service it was issued for, in the local hour of `createdAt`;
 * - wait = first call − createdAt, in the service it waited for (a transfer happens after the
 *   first call, so that is the issuing service); within target against the service's
 *   `waitTargetSeconds` at that first call;
 * - served / service time (`completedAt − servingAt`): the service and counter it completed at,
 *   in the local hour of `completedAt`;
 * - no-show, cancelled: the service it was in; transferredOut: the service it left;
 * - busy: from the call at a counter to the ticket leaving it (complete, no-show, requeue,
 *   transfer);
 * - the daily close (actor `system`) counts its completions, no-shows and cancellations but
 *   measures no duration (a close at midnight is no service time).
 * Durations are whole seconds, rounded down (never below 0).
 */

/** One figure a ticket change adds to the roll-ups. */
export type RollupEffect =
  | { kind: 'issued'; day: DailyKey; hour: number }
  | { kind: 'wait'; day: DailyKey; seconds: number; withinTarget: boolean }
  | { kind: 'served'; day: DailyKey; hour: number }
  | { kind: 'noShow' | 'cancelled' | 'transferredOut'; day: DailyKey }
  | { kind: 'serviceTime'; day: DailyKey; seconds: number }
  | { kind: 'counterServed' | 'counterNoShow'; counter: CounterKey }
  | { kind: 'counterServiceTime'; counter: CounterKey; seconds: number }
  | { kind: 'counterBusy'; counter: CounterKey; seconds: number }

export interface DailyKey {
  queueUnitId: string
  locationId: string
  serviceId: string
  businessDay: string
}

export interface CounterKey {
  queueUnitId: string
  locationId: string
  counterId: string
  businessDay: string
}

/** The ticket's state as far as the roll-ups read it (a `TicketRow` has all of it). */
export type RollupTicket = Pick<TicketRow, 'queueUnitId' | 'locationId' | 'serviceId' | 'businessDay' | 'counterId' | 'callCount' | 'createdAt' | 'calledAt' | 'servingAt' | 'completedAt'>

/** One ticket change as the roll-ups see it. */
export interface RollupChange {
  /** Null for the `created` event. */
  before: RollupTicket | null
  after: RollupTicket
  event: TicketEventName
  /** The daily close (actor `system`): counted, no durations. */
  system: boolean
  now: number
  /** The local hour (0–23) of an instant in the location's zone; asked for an issue and a completion only. */
  hourOf: (ms: number) => number
  /** The service's wait target in seconds; read for a first call only. */
  waitTargetSeconds: number
}

const seconds = (from: number, to: number) => Math.max(0, Math.floor((to - from) / 1000))

/** The roll-up figures one ticket change adds (see the rules at the top of this file). */
export function rollupEffects(change: RollupChange): RollupEffect[] {
  const { before, after, event, system, now } = change
  const dayOf = (t: RollupTicket): DailyKey => ({ queueUnitId: t.queueUnitId, locationId: t.locationId, serviceId: t.serviceId, businessDay: t.businessDay })
  const counterOf = (t: RollupTicket): CounterKey | null =>
    t.counterId === null ? null : { queueUnitId: t.queueUnitId, locationId: t.locationId, counterId: t.counterId, businessDay: t.businessDay }
  const effects: RollupEffect[] = []
  // A counter's hold ends: busy from the call there (calledAt, kept by recalls) to now.
  const releaseCounter = () => {
    if (system || before === null || before.calledAt === null) return
    const counter = counterOf(before)
    if (counter !== null) effects.push({ kind: 'counterBusy', counter, seconds: seconds(before.calledAt, now) })
  }
  switch (event) {
    case 'created':
      effects.push({ kind: 'issued', day: dayOf(after), hour: change.hourOf(after.createdAt) })
      break
    case 'called':
      if (before !== null && before.callCount === 0) {
        const wait = seconds(after.createdAt, after.calledAt ?? now)
        effects.push({ kind: 'wait', day: dayOf(after), seconds: wait, withinTarget: wait <= change.waitTargetSeconds })
      }
      break
    case 'completed': {
      effects.push({ kind: 'served', day: dayOf(after), hour: change.hourOf(after.completedAt ?? now) })
      const counter = counterOf(after)
      if (counter !== null) effects.push({ kind: 'counterServed', counter })
      if (!system && after.servingAt !== null && after.completedAt !== null) {
        const s = seconds(after.servingAt, after.completedAt)
        effects.push({ kind: 'serviceTime', day: dayOf(after), seconds: s })
        if (counter !== null) effects.push({ kind: 'counterServiceTime', counter, seconds: s })
      }
      releaseCounter()
      break
    }
    case 'no_show': {
      effects.push({ kind: 'noShow', day: dayOf(after) })
      const counter = counterOf(after)
      if (counter !== null) effects.push({ kind: 'counterNoShow', counter })
      releaseCounter()
      break
    }
    case 'cancelled':
      effects.push({ kind: 'cancelled', day: dayOf(after) })
      break
    case 'transferred':
      if (before !== null) effects.push({ kind: 'transferredOut', day: dayOf(before) })
      releaseCounter()
      break
    case 'requeued':
      releaseCounter()
      break
    case 'recalled':
    case 'serving':
      break
  }
  return effects
}

// ---- distributions ------------------------------------------------------------------------

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

// ---- the live writer ----------------------------------------------------------------------

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

/** A ticket issue as the day roll-up counts it. */
interface IssuedTicket {
  locationId: string
  serviceId: string
  businessDay: string
  queueUnitId: string
  /** The local hour of issue, 0–23. */
  hour: number
}

interface DailyHistRow {
  waitHist: Uint8Array | null
  serviceHist: Uint8Array | null
}

/**
 * Writes the roll-ups of ticket changes on raw statements prepared once (by `Tickets`), inside
 * the change's transaction. Ticket issues are gathered (`WriteBatcher.gather`): one upsert per
 * day row and hour per group commit, written before its COMMIT; a first call costs one read
 * (its distribution) and two upserts (figures, distribution); a completion at a counter twice that.
 */
export class ReportRollups {
  private readonly issuedStmts: ReturnType<Database['query']>[] = []
  private readonly targetStmt
  private readonly zoneStmt
  private readonly dailyHistStmt
  private readonly dailyHistWriteStmt
  private readonly dailyStmt
  private readonly counterHistStmt
  private readonly counterHistWriteStmt
  private readonly counterStmt

  constructor(private readonly client: Database, private readonly writes: Pick<WriteBatcher, 'gather'>) {
    this.targetStmt = client.query<{ target: number }, [string]>('SELECT wait_target_seconds AS target FROM services WHERE id = ?1')
    this.zoneStmt = client.query<{ tz: string }, [string]>('SELECT timezone AS tz FROM locations WHERE id = ?1')
    this.dailyHistStmt = client.query<DailyHistRow, [string, string, string]>(
      'SELECT wait_hist AS waitHist, service_hist AS serviceHist FROM report_daily_distributions WHERE location_id = ?1 AND service_id = ?2 AND business_day = ?3',
    )
    this.dailyHistWriteStmt = client.query(DAILY_DISTRIBUTION_UPSERT)
    this.dailyStmt = client.query(DAILY_UPSERT)
    this.counterHistStmt = client.query<{ serviceHist: Uint8Array | null }, [string, string]>(
      'SELECT service_hist AS serviceHist FROM report_counter_distributions WHERE counter_id = ?1 AND business_day = ?2',
    )
    this.counterHistWriteStmt = client.query(COUNTER_DISTRIBUTION_UPSERT)
    this.counterStmt = client.query(COUNTER_UPSERT)
  }

  /** The location's time zone, read at a completion (the local hour it counts in). */
  timezone(locationId: string): string {
    return this.zoneStmt.get(locationId)?.tz ?? 'UTC'
  }

  /** The service's wait target (seconds), read at a ticket's first call. */
  waitTarget(serviceId: string): number {
    return this.targetStmt.get(serviceId)?.target ?? DEFAULT_WAIT_TARGET_SECONDS
  }

  /** Applies one change's effects. */
  record(change: RollupChange): void {
    if (change.event === 'created') {
      // Ticket issue, the hot path: gathered, so the issues of one group commit add to each
      // day row and local hour in one upsert, written just before the COMMIT (not one each).
      const t = change.after
      const issued: IssuedTicket = { locationId: t.locationId, serviceId: t.serviceId, businessDay: t.businessDay, queueUnitId: t.queueUnitId, hour: change.hourOf(t.createdAt) }
      this.writes.gather('report-rollups:issued', issued, this.writeIssued)
      return
    }
    const effects = rollupEffects(change)
    if (effects.length === 0) return
    // Group by row: one upsert per daily row and per counter row touched.
    const daily = new Map<string, { key: DailyKey; delta: DailyDelta }>()
    const counters = new Map<string, { key: CounterKey; delta: CounterDelta }>()
    for (const effect of effects) {
      if ('day' in effect) {
        const id = `${effect.day.locationId}\u0000${effect.day.serviceId}\u0000${effect.day.businessDay}`
        let entry = daily.get(id)
        if (entry === undefined) daily.set(id, (entry = { key: effect.day, delta: emptyDailyDelta() }))
        addDaily(entry.delta, effect)
      } else {
        const id = `${effect.counter.counterId}\u0000${effect.counter.businessDay}`
        let entry = counters.get(id)
        if (entry === undefined) counters.set(id, (entry = { key: effect.counter, delta: emptyCounterDelta() }))
        addCounter(entry.delta, effect)
      }
    }
    for (const { key, delta } of daily.values()) this.writeDaily(key, delta)
    for (const { key, delta } of counters.values()) this.writeCounter(key, delta)
  }

  private writeDaily(key: DailyKey, delta: DailyDelta): void {
    let wait: Histogram | null = null
    let service: Histogram | null = null
    if (delta.waits.length > 0 || delta.serviceTimes.length > 0) {
      const row = this.dailyHistStmt.get(key.locationId, key.serviceId, key.businessDay)
      if (delta.waits.length > 0) {
        wait = Histogram.fromBytes(row?.waitHist)
        for (const s of delta.waits) wait.add(s)
      }
      if (delta.serviceTimes.length > 0) {
        service = Histogram.fromBytes(row?.serviceHist)
        for (const s of delta.serviceTimes) service.add(s)
      }
      this.dailyHistWriteStmt.run(key.locationId, key.serviceId, key.businessDay, key.queueUnitId, wait?.bytes() ?? null, service?.bytes() ?? null)
    }
    const hourDeltas = hourCounts(delta.hours)
    const servedHourDeltas = hourCounts(delta.servedHours)
    this.dailyStmt.run(
      key.locationId, key.serviceId, key.businessDay, key.queueUnitId,
      delta.hours.length, delta.served, delta.noShow, delta.cancelled, delta.transferredOut,
      delta.waits.length, sum(delta.waits), delta.withinTarget,
      delta.serviceTimes.length, sum(delta.serviceTimes),
      delta.waits.length === 0 ? null : Math.max(...delta.waits),
      wait === null ? null : wait.percentile(0.5),
      wait === null ? null : wait.percentile(0.9),
      service === null ? null : service.percentile(0.5),
      service === null ? null : service.percentile(0.9),
      ...hourDeltas,
      ...servedHourDeltas,
    )
  }

  private writeCounter(key: CounterKey, delta: CounterDelta): void {
    let service: Histogram | null = null
    if (delta.serviceTimes.length > 0) {
      service = Histogram.fromBytes(this.counterHistStmt.get(key.counterId, key.businessDay)?.serviceHist)
      for (const s of delta.serviceTimes) service.add(s)
      this.counterHistWriteStmt.run(key.counterId, key.businessDay, service.bytes())
    }
    this.counterStmt.run(
      key.counterId, key.businessDay, key.queueUnitId, key.locationId,
      delta.served, delta.noShow, delta.serviceTimes.length, sum(delta.serviceTimes), delta.busy,
      service === null ? null : service.percentile(0.5),
      service === null ? null : service.percentile(0.9),
    )
  }

  /** Adds a write's issued tickets to their day rows: one upsert per row and local hour. */
  private readonly writeIssued = (tickets: IssuedTicket[]): void => {
    const counts = new Map<string, { ticket: IssuedTicket; n: number }>()
    for (const t of tickets) {
      const key = `${t.locationId}\u0000${t.serviceId}\u0000${t.businessDay}\u0000${t.hour}`
      const entry = counts.get(key)
      if (entry === undefined) counts.set(key, { ticket: t, n: 1 })
      else entry.n += 1
    }
    for (const { ticket: t, n } of counts.values()) this.issuedStatement(t.hour).run(t.locationId, t.serviceId, t.businessDay, t.queueUnitId, n)
  }

  private issuedStatement(hour: number) {
    const column = HOUR_COLUMNS[hour]!
    return (this.issuedStmts[hour] ??= this.client.query(`
      INSERT INTO report_daily (location_id, service_id, business_day, queue_unit_id, issued, ${column}) VALUES (?1, ?2, ?3, ?4, ?5, ?5)
      ON CONFLICT (location_id, service_id, business_day) DO UPDATE SET issued = issued + ?5, ${column} = ${column} + ?5`))
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)

/** 24 counts from a list of hours. */
function hourCounts(hours: number[]): number[] {
  const counts = new Array<number>(24).fill(0)
  for (const h of hours) counts[h]! += 1
  return counts
}

interface DailyDelta {
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

interface CounterDelta {
  served: number
  noShow: number
  serviceTimes: number[]
  busy: number
}

const emptyDailyDelta = (): DailyDelta => ({ hours: [], servedHours: [], served: 0, noShow: 0, cancelled: 0, transferredOut: 0, waits: [], withinTarget: 0, serviceTimes: [] })
const emptyCounterDelta = (): CounterDelta => ({ served: 0, noShow: 0, serviceTimes: [], busy: 0 })

function addDaily(delta: DailyDelta, effect: Extract<RollupEffect, { day: DailyKey }>): void {
  switch (effect.kind) {
    case 'issued': delta.hours.push(effect.hour); break
    case 'wait': delta.waits.push(effect.seconds); if (effect.withinTarget) delta.withinTarget += 1; break
    case 'serviceTime': delta.serviceTimes.push(effect.seconds); break
    case 'served': delta.served += 1; delta.servedHours.push(effect.hour); break
    default: delta[effect.kind] += 1
  }
}

function addCounter(delta: CounterDelta, effect: Extract<RollupEffect, { counter: CounterKey }>): void {
  switch (effect.kind) {
    case 'counterServed': delta.served += 1; break
    case 'counterNoShow': delta.noShow += 1; break
    case 'counterServiceTime': delta.serviceTimes.push(effect.seconds); break
    case 'counterBusy': delta.busy += effect.seconds; break
  }
}

// Counts add; the max keeps the larger; percentiles are written whole when given (the caller
// updated their distribution in this transaction), else kept.
const DAILY_UPSERT = `
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

const DAILY_DISTRIBUTION_UPSERT = `
  INSERT INTO report_daily_distributions (location_id, service_id, business_day, queue_unit_id, wait_hist, service_hist) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
  ON CONFLICT (location_id, service_id, business_day) DO UPDATE SET
    wait_hist = coalesce(excluded.wait_hist, wait_hist), service_hist = coalesce(excluded.service_hist, service_hist)`

const COUNTER_UPSERT = `
  INSERT INTO report_counter_daily (counter_id, business_day, queue_unit_id, location_id,
    served, no_show, service_count, service_sum, busy_seconds, service_p50, service_p90)
  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
  ON CONFLICT (counter_id, business_day) DO UPDATE SET
    served = served + excluded.served, no_show = no_show + excluded.no_show,
    service_count = service_count + excluded.service_count, service_sum = service_sum + excluded.service_sum,
    busy_seconds = busy_seconds + excluded.busy_seconds,
    service_p50 = coalesce(excluded.service_p50, service_p50), service_p90 = coalesce(excluded.service_p90, service_p90)`

const COUNTER_DISTRIBUTION_UPSERT = `
  INSERT INTO report_counter_distributions (counter_id, business_day, service_hist) VALUES (?1, ?2, ?3)
  ON CONFLICT (counter_id, business_day) DO UPDATE SET service_hist = excluded.service_hist`

// ---- the rebuild --------------------------------------------------------------------------

/**
 * Rebuilds both roll-up tables from the ticket history (`tickets` and `ticket_events`), by
 * replaying each ticket's events through `rollupEffects`: run by the migration that adds the
 * tables (inside its transaction, src/db/migrate.ts), so a database with tickets from before
 * gets its reports. Within-target uses the services' targets as they are now. Accumulates in
 * memory and writes each row once.
 */
export function rebuildReportRollups(client: Database): { daily: number; counters: number } {
  for (const table of ['report_daily', 'report_daily_distributions', 'report_counter_daily', 'report_counter_distributions']) client.exec(`DELETE FROM ${table}`)
  const zones = new Map(client.query<{ id: string; tz: string }, []>('SELECT id, timezone AS tz FROM locations').all().map((r) => [r.id, r.tz]))
  const targets = new Map<string, number>()
  const hasTarget = client.query<{ n: number }, []>("SELECT count(*) AS n FROM pragma_table_info('services') WHERE name = 'wait_target_seconds'").get()!.n > 0
  for (const r of client.query<{ id: string; target: number }, []>(`SELECT id, ${hasTarget ? 'wait_target_seconds' : DEFAULT_WAIT_TARGET_SECONDS} AS target FROM services`).all()) targets.set(r.id, r.target)

  const daily = new Map<string, { key: DailyKey; delta: DailyDelta; waitMax: number | null; wait: Histogram; service: Histogram }>()
  const counters = new Map<string, { key: CounterKey; delta: CounterDelta; service: Histogram }>()
  const apply = (change: RollupChange) => {
    for (const effect of rollupEffects(change)) {
      if ('day' in effect) {
        const id = `${effect.day.locationId}\u0000${effect.day.serviceId}\u0000${effect.day.businessDay}`
        let e = daily.get(id)
        if (e === undefined) daily.set(id, (e = { key: effect.day, delta: emptyDailyDelta(), waitMax: null, wait: new Histogram(), service: new Histogram() }))
        if (effect.kind === 'wait') {
          e.wait.add(effect.seconds)
          e.waitMax = e.waitMax === null ? effect.seconds : Math.max(e.waitMax, effect.seconds)
        } else if (effect.kind === 'serviceTime') e.service.add(effect.seconds)
        addDaily(e.delta, effect)
      } else {
        const id = `${effect.counter.counterId}\u0000${effect.counter.businessDay}`
        let e = counters.get(id)
        if (e === undefined) counters.set(id, (e = { key: effect.counter, delta: emptyCounterDelta(), service: new Histogram() }))
        if (effect.kind === 'counterServiceTime') e.service.add(effect.seconds)
        addCounter(e.delta, effect)
      }
    }
  }

  // Each ticket's events in order (the index ticket_events_ticket), replayed on a copy of the
  // ticket's state as it was: the transitions' column changes of src/counters/service.ts.
  const ticketsStmt = client.query<{ id: string; queueUnitId: string; locationId: string; serviceId: string; businessDay: string; createdAt: number }, []>(
    'SELECT id, queue_unit_id AS queueUnitId, location_id AS locationId, service_id AS serviceId, business_day AS businessDay, created_at AS createdAt FROM tickets ORDER BY id',
  )
  const eventsStmt = client.query<{ ticketId: string; type: string; counterId: string | null; actor: string; at: number; detail: string | null }, []>(
    'SELECT ticket_id AS ticketId, type, counter_id AS counterId, actor, at, detail FROM ticket_events ORDER BY ticket_id, id',
  )
  const events = eventsStmt.iterate()
  let pending = events.next()
  type EventRow = { ticketId: string; type: string; counterId: string | null; actor: string; at: number; detail: string | null }
  for (const ticket of ticketsStmt.iterate()) {
    // Events of tickets without a row (none expected) are skipped.
    while (!pending.done && pending.value.ticketId < ticket.id) pending = events.next()
    const history: EventRow[] = []
    while (!pending.done && pending.value.ticketId === ticket.id) {
      history.push(pending.value)
      pending = events.next()
    }
    const tz = zones.get(ticket.locationId) ?? 'UTC'
    const hourOf = (ms: number) => localHour(ms, tz)
    // The service it was issued for: the `fromServiceId` of its first transfer, else its own.
    const firstTransfer = history.find((e) => e.type === 'transferred')
    const from = firstTransfer === undefined ? undefined : parseDetail(firstTransfer.detail)?.fromServiceId
    let state: RollupTicket = {
      queueUnitId: ticket.queueUnitId, locationId: ticket.locationId, serviceId: typeof from === 'string' ? from : ticket.serviceId,
      businessDay: ticket.businessDay, counterId: null, callCount: 0, createdAt: ticket.createdAt, calledAt: null, servingAt: null, completedAt: null,
    }
    // A ticket whose history has no `created` entry still counts as issued.
    if (!history.some((e) => e.type === 'created')) {
      apply({ before: null, after: state, event: 'created', system: false, now: ticket.createdAt, hourOf, waitTargetSeconds: 0 })
    }
    for (const e of history) {
      const before = state
      const after: RollupTicket = { ...before }
      const type = e.type as TicketEventName
      switch (type) {
        case 'created': break
        case 'called': after.counterId = e.counterId; after.calledAt = e.at; after.callCount += 1; break
        case 'recalled': after.callCount += 1; break
        case 'serving': after.servingAt = e.at; break
        case 'completed': case 'no_show': case 'cancelled': after.completedAt = e.at; break
        case 'requeued': after.counterId = null; after.calledAt = null; break
        case 'transferred': {
          const to = parseDetail(e.detail)?.toServiceId
          if (typeof to === 'string') after.serviceId = to
          after.counterId = null; after.calledAt = null; after.servingAt = null
          break
        }
        default: continue
      }
      apply({
        before: type === 'created' ? null : before,
        after,
        event: type,
        system: e.actor === 'system' && type !== 'created',
        now: e.at,
        hourOf,
        waitTargetSeconds: targets.get(after.serviceId) ?? DEFAULT_WAIT_TARGET_SECONDS,
      })
      state = after
    }
  }

  const dailyStmt = client.query(DAILY_UPSERT)
  const dailyHistStmt = client.query(DAILY_DISTRIBUTION_UPSERT)
  for (const { key, delta, waitMax, wait, service } of daily.values()) {
    if (delta.waits.length + delta.serviceTimes.length > 0) {
      dailyHistStmt.run(key.locationId, key.serviceId, key.businessDay, key.queueUnitId, delta.waits.length > 0 ? wait.bytes() : null, delta.serviceTimes.length > 0 ? service.bytes() : null)
    }
    dailyStmt.run(
      key.locationId, key.serviceId, key.businessDay, key.queueUnitId,
      delta.hours.length, delta.served, delta.noShow, delta.cancelled, delta.transferredOut,
      delta.waits.length, sum(delta.waits), delta.withinTarget, delta.serviceTimes.length, sum(delta.serviceTimes),
      waitMax, wait.percentile(0.5), wait.percentile(0.9), service.percentile(0.5), service.percentile(0.9),
      ...hourCounts(delta.hours), ...hourCounts(delta.servedHours),
    )
  }
  const counterStmt = client.query(COUNTER_UPSERT)
  const counterHistStmt = client.query(COUNTER_DISTRIBUTION_UPSERT)
  for (const { key, delta, service } of counters.values()) {
    if (delta.serviceTimes.length > 0) counterHistStmt.run(key.counterId, key.businessDay, service.bytes())
    counterStmt.run(
      key.counterId, key.businessDay, key.queueUnitId, key.locationId,
      delta.served, delta.noShow, delta.serviceTimes.length, sum(delta.serviceTimes), delta.busy,
      service.percentile(0.5), service.percentile(0.9),
    )
  }
  return { daily: daily.size, counters: counters.size }
}

function parseDetail(detail: string | null): Record<string, unknown> | null {
  if (detail === null) return null
  try {
    return JSON.parse(detail) as Record<string, unknown>
  } catch {
    return null
  }
}
