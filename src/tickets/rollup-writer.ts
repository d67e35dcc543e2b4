import type { Database } from 'bun:sqlite'
import type { WriteBatcher } from '../platform/write-batch'
import { HOUR_COLUMNS } from './tables'
import { DEFAULT_WAIT_TARGET_SECONDS } from './wait'
import { rollupEffects, type CounterKey, type DailyKey, type RollupChange, type StaffKey } from './rollup-rules'
import {
  Histogram, addCounter, addDaily, addStaff, emptyCounterDelta, emptyDailyDelta, emptyStaffDelta, hourCounts, servedRowValues, sum,
  COUNTER_DISTRIBUTION_UPSERT, COUNTER_UPSERT, DAILY_DISTRIBUTION_UPSERT, DAILY_UPSERT, STAFF_DISTRIBUTION_UPSERT, STAFF_UPSERT,
  type CounterDelta, type DailyDelta, type ServedDelta, type StaffDelta,
} from './rollup-encoding'

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
 * (its distribution) and two upserts (figures, distribution); a completion at a counter twice that,
 * and by a signed-in clerk three times.
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
  private readonly staffHistStmt
  private readonly staffHistWriteStmt
  private readonly staffStmt

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
    this.staffHistStmt = client.query<{ serviceHist: Uint8Array | null }, [string, string, string]>(
      'SELECT service_hist AS serviceHist FROM report_staff_distributions WHERE username = ?1 AND queue_unit_id = ?2 AND business_day = ?3',
    )
    this.staffHistWriteStmt = client.query(STAFF_DISTRIBUTION_UPSERT)
    this.staffStmt = client.query(STAFF_UPSERT)
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
    const staff = new Map<string, { key: StaffKey; delta: StaffDelta }>()
    for (const effect of effects) {
      if ('day' in effect) {
        const id = `${effect.day.locationId}\u0000${effect.day.serviceId}\u0000${effect.day.businessDay}`
        let entry = daily.get(id)
        if (entry === undefined) daily.set(id, (entry = { key: effect.day, delta: emptyDailyDelta() }))
        addDaily(entry.delta, effect)
      } else if ('counter' in effect) {
        const id = `${effect.counter.counterId}\u0000${effect.counter.businessDay}`
        let entry = counters.get(id)
        if (entry === undefined) counters.set(id, (entry = { key: effect.counter, delta: emptyCounterDelta() }))
        addCounter(entry.delta, effect)
      } else {
        const id = `${effect.staff.username}\u0000${effect.staff.queueUnitId}\u0000${effect.staff.businessDay}`
        let entry = staff.get(id)
        if (entry === undefined) staff.set(id, (entry = { key: effect.staff, delta: emptyStaffDelta() }))
        addStaff(entry.delta, effect)
      }
    }
    for (const { key, delta } of daily.values()) this.writeDaily(key, delta)
    for (const { key, delta } of counters.values()) this.writeCounter(key, delta)
    for (const { key, delta } of staff.values()) this.writeStaff(key, delta)
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
    const service = withServiceTimes(delta,
      () => this.counterHistStmt.get(key.counterId, key.businessDay)?.serviceHist,
      (bytes) => this.counterHistWriteStmt.run(key.counterId, key.businessDay, bytes))
    this.counterStmt.run(key.counterId, key.businessDay, key.queueUnitId, key.locationId, ...servedRowValues(delta, service), delta.busy)
  }

  private writeStaff(key: StaffKey, delta: StaffDelta): void {
    const service = withServiceTimes(delta,
      () => this.staffHistStmt.get(key.username, key.queueUnitId, key.businessDay)?.serviceHist,
      (bytes) => this.staffHistWriteStmt.run(key.username, key.queueUnitId, key.businessDay, bytes))
    this.staffStmt.run(key.username, key.queueUnitId, key.businessDay, ...servedRowValues(delta, service))
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

/**
 * A served row's distribution with the delta's service times added (read, added to, written
 * back), or null when the delta has none: then nothing is read and the stored percentiles stay.
 */
function withServiceTimes(delta: ServedDelta, read: () => Uint8Array | null | undefined, write: (bytes: Uint8Array) => void): Histogram | null {
  if (delta.serviceTimes.length === 0) return null
  const service = Histogram.fromBytes(read())
  for (const s of delta.serviceTimes) service.add(s)
  write(service.bytes())
  return service
}
