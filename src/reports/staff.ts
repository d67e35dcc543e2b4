import type { Database } from 'bun:sqlite'
import { ApiError } from '../platform/errors'
import { Histogram, type RollupReads, type StaffRollupRow } from '../tickets'
import type { StaffReads } from '../people'
import { ReportCodes } from './errors'
import type { StaffReportRow } from './model'
import { NO_BREAK_REASON } from './csv'
import { parseRange } from './service'

/** The units a staff report reader sees: a key or device its one unit, a manager its units, an admin or the CLI every unit (null). */
export interface StaffScope {
  queueUnitIds: string[] | null
}

const round1 = (n: number) => Math.round(n * 10) / 10

/**
 * Contract §16 `GET reports/staff`: one row per clerk and business day in the range, for every
 * clerk with figures (the tickets feature's `report_staff_daily`: completions and no-shows a
 * signed-in clerk made) or time at a desk (the people feature's `staff_intervals`) that day.
 * A clerk who worked in several of the reader's units on one day gets one row: counts add, and
 * the percentiles come from the units' distributions merged (read only then).
 */
export class StaffReport {
  private readonly unitStmt

  constructor(client: Database, private readonly rollups: RollupReads, private readonly people: StaffReads) {
    this.unitStmt = client.query<{ id: string }, [string]>('SELECT id FROM queue_units WHERE id = ?1')
  }

  rows(scope: StaffScope, query: { from?: unknown; to?: unknown; queueUnitId?: string }, now: number): StaffReportRow[] {
    const range = parseRange(query.from, query.to)
    const units = this.unitsOf(scope, query.queueUnitId)
    const rows = new Map<string, { row: StaffReportRow; figures: StaffRollupRow[] }>()
    const rowOf = (date: string, username: string) => {
      const id = `${date}\u0000${username}`
      let entry = rows.get(id)
      if (entry === undefined) {
        entry = {
          row: { date, username, displayName: username, served: 0, noShow: 0, serviceSeconds: { avg: null, p50: null, p90: null }, signedInSeconds: 0, breakSeconds: {} },
          figures: [],
        }
        rows.set(id, entry)
      }
      return entry
    }
    for (const f of this.rollups.staff(units, range.from, range.to)) rowOf(f.date, f.username).figures.push(f)
    for (const t of this.people.time(units, range.from, range.to, now)) {
      const { row } = rowOf(t.date, t.username)
      if (t.kind === 'signed_in') row.signedInSeconds += t.seconds
      else {
        const reason = t.reason ?? NO_BREAK_REASON
        row.breakSeconds[reason] = (row.breakSeconds[reason] ?? 0) + t.seconds
      }
    }
    const names = this.people.displayNames([...new Set([...rows.values()].map((e) => e.row.username))])
    const out: StaffReportRow[] = []
    for (const { row, figures } of rows.values()) {
      row.displayName = names.get(row.username) ?? row.username
      let count = 0
      let sum = 0
      for (const f of figures) {
        row.served += f.served
        row.noShow += f.noShow
        count += f.serviceCount
        sum += f.serviceSum
      }
      if (count > 0) row.serviceSeconds = { avg: round1(sum / count), ...this.percentiles(figures) }
      out.push(row)
    }
    return out.sort((a, b) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.username < b.username ? -1 : a.username > b.username ? 1 : 0))
  }

  /** The day's p50 and p90: as stored for one unit's row; merged from the distributions of several. */
  private percentiles(figures: StaffRollupRow[]): { p50: number | null; p90: number | null } {
    const timed = figures.filter((f) => f.serviceCount > 0)
    if (timed.length === 1) return { p50: timed[0]!.serviceP50, p90: timed[0]!.serviceP90 }
    const merged = new Histogram()
    for (const f of timed) merged.merge(Histogram.fromBytes(this.rollups.staffServiceTimes(f.username, f.queueUnitId, f.date)))
    return { p50: merged.percentile(0.5), p90: merged.percentile(0.9) }
  }

  /** The units read: the reader's, or the one it asked for (422 when it is not one of them). */
  private unitsOf(scope: StaffScope, queueUnitId: string | undefined): string[] | null {
    if (queueUnitId === undefined) return scope.queueUnitIds
    const known = this.unitStmt.get(queueUnitId) !== null
    if (!known || (scope.queueUnitIds !== null && !scope.queueUnitIds.includes(queueUnitId))) {
      throw new ApiError(422, ReportCodes.VALIDATION_FAILED, 'invalid report filter', [{ path: '/queueUnitId', message: 'no such queue unit for this reader' }])
    }
    return [queueUnitId]
  }
}
