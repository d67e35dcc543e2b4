import { and, asc, eq, sql } from 'drizzle-orm'
import type { CounterDeps } from './deps'
import type { BackgroundTask } from '../platform/lifecycle'
import { localDate } from '../platform/time'
import { queueUnits, locations } from '../structure'
import { activeEdgeLease } from '../queue'
import { counters } from '../structure'

/** How often the server looks for locations whose business day has ended. */
export const DAILY_CLOSE_EVERY_MS = 30_000

/** What one location's close did. */
export interface LocationClose {
  queueUnitId: string
  locationId: string
  /** The location's current local date: everything of earlier days was closed. */
  businessDay: string
  cancelled: number
  noShows: number
  completed: number
  countersClosed: number
  callsCleared: number
  /** Clerks' sign-ins and breaks of earlier days ended at their day's end (contract §16). */
  staffIntervalsEnded: number
}

/**
 * Contract §3: the daily close at each location's local midnight, a system transition of every
 * ticket still open from an earlier business day: WAITING→CANCELLED, CALLED→NO_SHOW,
 * SERVING→COMPLETED, each with its event (actor `{type: 'system', id: 'daily-close'}`) and webhook event. The same run
 * closes the location's counters opened on an earlier day and clears its recent-calls list of
 * earlier days, and ends its clerks' sign-ins and breaks of earlier days (contract §16) at
 * their day's end. Each location closes in its own write (`writes.now`), with the unit's
 * `stateRevision` told to the listeners once, after commit.
 *
 * `runDue(now)` is idempotent: it finds what is due from three grouped reads (open tickets,
 * open counters, calls per location: O(locations) rows), so running it every 30 seconds costs
 * nearly nothing, and running it at start-up catches up after any downtime. A Queue Unit under
 * Edge authority is skipped (the Edge runs that queue); it is closed after the Edge releases it.
 */
export class DailyClose {
  private readonly locationsStmt
  private readonly dueCountersStmt
  private readonly unitStmt

  constructor(private readonly deps: CounterDeps) {
    const db = deps.db
    this.locationsStmt = db
      .select({ id: locations.id, queueUnitId: locations.queueUnitId, timezone: locations.timezone })
      .from(locations)
      .orderBy(asc(locations.id))
      .prepare()
    // A counter opened before open_day existed counts as opened on an earlier day.
    this.dueCountersStmt = db
      .select({ locationId: counters.locationId, day: sql<string>`min(coalesce(${counters.openDay}, ''))` })
      .from(counters)
      .where(eq(counters.open, true))
      .groupBy(counters.locationId)
      .prepare()
    this.unitStmt = db
      .select({ edgeHolder: queueUnits.edgeHolder, edgeExpiresAt: queueUnits.edgeExpiresAt })
      .from(queueUnits)
      .where(eq(queueUnits.id, sql.placeholder('id')))
      .prepare()
  }

  /** Closes every location whose local business day has ended for something still open. */
  runDue(now: number): LocationClose[] {
    const earliest = new Map<string, string>()
    const note = (rows: { locationId: string; day: string }[]) => {
      for (const row of rows) {
        const seen = earliest.get(row.locationId)
        if (seen === undefined || row.day < seen) earliest.set(row.locationId, row.day)
      }
    }
    note(this.deps.tickets.openDays())
    note(this.dueCountersStmt.all())
    note(this.deps.staff.openDays())
    const closed: LocationClose[] = []
    for (const location of this.locationsStmt.all()) {
      const day = earliest.get(location.id)
      if (day === undefined) continue
      const today = localDate(now, location.timezone)
      if (day >= today) continue
      const result = this.closeLocation(location, today, now)
      if (result !== null) closed.push(result)
    }
    return closed
  }

  /** One location's close in one write; null when the unit is Edge-managed or nothing was left. */
  private closeLocation(location: { id: string; queueUnitId: string; timezone: string }, today: string, now: number): LocationClose | null {
    const db = this.deps.db
    const tickets = this.deps.tickets
    const result = this.deps.writes.now((): LocationClose | null => {
      const unit = this.unitStmt.get({ id: location.queueUnitId })
      if (unit === undefined || activeEdgeLease(unit, now) !== null) return null
      const report: LocationClose = {
        queueUnitId: location.queueUnitId, locationId: location.id, businessDay: today,
        cancelled: 0, noShows: 0, completed: 0, countersClosed: 0, callsCleared: 0, staffIntervalsEnded: 0,
      }
      const open = tickets.openBefore(location.id, today)
      for (const ticket of open) {
        // WAITING→CANCELLED, CALLED→NO_SHOW, SERVING→COMPLETED, by the system (`system:daily-close`, no service time).
        const closed = tickets.closeDay(ticket, now)
        if (closed.status === 'CANCELLED') report.cancelled += 1
        else if (closed.status === 'NO_SHOW') report.noShows += 1
        else report.completed += 1
      }
      report.countersClosed = db
        .update(counters)
        .set({ open: false, updatedAt: now })
        .where(and(eq(counters.locationId, location.id), eq(counters.open, true), sql`coalesce(${counters.openDay}, '') < ${today}`))
        .returning({ id: counters.id })
        .all().length
      report.callsCleared = tickets.clearCallsBefore(location.id, today)
      // The end of the business day signs clerks out and ends their breaks, at the local midnight.
      report.staffIntervalsEnded = this.deps.staff.closeDay(location.id, location.timezone, today, now)
      const changed = open.length + report.countersClosed + report.callsCleared + report.staffIntervalsEnded > 0
      if (!changed) return null
      // Transitions bumped the revision already; counters, calls and sign-outs alone need one bump.
      if (open.length === 0) tickets.touch(location.queueUnitId)
      return report
    })
    if (result !== null) {
      this.deps.log({ level: 'info', msg: 'daily close', ...result })
    }
    return result
  }

  /**
   * The server's timer: once at start-up (catching up after downtime), then every 30 seconds.
   * A failed run (e.g. the database busy with a CLI write past the busy timeout) is logged and
   * retried by the next one.
   */
  task(intervalMs: number = DAILY_CLOSE_EVERY_MS): BackgroundTask {
    let timer: ReturnType<typeof setInterval> | undefined
    const run = () => {
      try {
        this.runDue(this.deps.clock.now())
      } catch (error) {
        this.deps.log({ level: 'error', msg: 'daily close failed', error: String((error as Error)?.stack ?? error) })
      }
    }
    return {
      start: () => {
        run()
        timer = setInterval(run, intervalMs)
      },
      stop: () => clearInterval(timer),
    }
  }
}
