import type { Database } from 'bun:sqlite'
import { ApiError, type ErrorDetail } from '../platform/errors'
import { isRealDate } from '../platform/time'
import { namesObject, storedName } from '../platform/names'
import { Histogram, type RollupReads } from '../tickets'
import { ReportCodes } from './errors'
import type { CounterReportRow, DailyReportRow } from './model'

/**
 * What a reader may see: its queue units (a key or a device its one, a manager the units it
 * works in; null: every unit, an admin or the CLI) and a key's location and service lists.
 */
export interface ReportScope {
  queueUnitIds: readonly string[] | null
  locations: string[] | null
  services: string[] | null
}

/** A range read's filters: the range, and optionally one of the reader's units, a location, a service. */
export interface ReportQuery {
  from?: unknown
  to?: unknown
  queueUnitId?: string
  locationId?: string
  serviceId?: string
}

/** The longest range one report covers (two years: last year against this one). */
export const MAX_REPORT_DAYS = 731

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** Days from `from` to `to`, inclusive. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1
}

/**
 * `from` and `to` as business days: both present, real `YYYY-MM-DD` dates, from ≤ to, at most
 * `MAX_REPORT_DAYS` days; else 422 VALIDATION_FAILED listing every problem.
 */
export function parseRange(from: unknown, to: unknown): { from: string; to: string } {
  const details: ErrorDetail[] = []
  const check = (value: unknown, name: string): string | null => {
    if (typeof value !== 'string' || value === '') {
      details.push({ path: `/${name}`, message: 'required, a date YYYY-MM-DD' })
      return null
    }
    const m = DAY.exec(value)
    if (m === null || !isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
      details.push({ path: `/${name}`, message: 'must be a real date YYYY-MM-DD' })
      return null
    }
    return value
  }
  const f = check(from, 'from')
  const t = check(to, 'to')
  if (f !== null && t !== null) {
    if (f > t) details.push({ path: '/to', message: 'must not be before from' })
    else if (daysBetween(f, t) > MAX_REPORT_DAYS) details.push({ path: '/to', message: `a report covers at most ${MAX_REPORT_DAYS} days` })
  }
  if (details.length > 0) throw new ApiError(422, ReportCodes.VALIDATION_FAILED, 'invalid report range', details)
  return { from: f!, to: t! }
}

const round1 = (n: number) => Math.round(n * 10) / 10
const avg = (sum: number, count: number) => (count === 0 ? null : round1(sum / count))

/**
 * Contract §12 reads: the rows of the daily roll-ups the tickets feature keeps and reads
 * (src/tickets/rollup-reads.ts), figures only (the distributions are not read), one indexed
 * range per request. Rows exist for the days something happened.
 */
export class ReportService {
  private readonly locationStmt
  private readonly serviceStmt
  private readonly unitStmt

  constructor(client: Database, private readonly rollups: RollupReads) {
    const inUnits = '(?2 IS NULL OR queue_unit_id IN (SELECT value FROM json_each(?2)))'
    this.locationStmt = client.query<{ id: string }, [string, string | null]>(`SELECT id FROM locations WHERE id = ?1 AND ${inUnits}`)
    this.serviceStmt = client.query<{ id: string }, [string, string | null]>(`SELECT id FROM services WHERE id = ?1 AND ${inUnits}`)
    this.unitStmt = client.query<{ id: string }, [string]>('SELECT id FROM queue_units WHERE id = ?1')
  }

  /** `GET reports/daily`: one row per location, service and business day in the range. */
  daily(reader: ReportScope, query: ReportQuery): DailyReportRow[] {
    const range = parseRange(query.from, query.to)
    const scope = this.checkFilters(reader, query)
    const rows: DailyReportRow[] = []
    for (const r of this.rollups.daily(scope.queueUnitIds, range.from, range.to, query.locationId ?? null, query.serviceId ?? null)) {
      if (scope.locations !== null && !scope.locations.includes(r.locationId)) continue
      if (scope.services !== null && !scope.services.includes(r.serviceId)) continue
      rows.push({
        date: r.date,
        locationId: r.locationId,
        serviceId: r.serviceId,
        issued: r.issued,
        served: r.served,
        noShow: r.noShow,
        cancelled: r.cancelled,
        transferredOut: r.transferredOut,
        waitSeconds: { avg: avg(r.waitSum, r.waitCount), p50: r.waitP50, p90: r.waitP90, max: r.waitMax },
        serviceSeconds: { avg: avg(r.serviceSum, r.serviceCount), p50: r.serviceP50, p90: r.serviceP90 },
        withinTarget: r.waitCount === 0 ? null : Math.round((r.withinTarget / r.waitCount) * 1000) / 1000,
        issuedByHour: r.issuedByHour,
      })
    }
    return rows
  }

  /** `GET reports/counters`: one row per counter and business day in the range. */
  counters(reader: ReportScope, query: Omit<ReportQuery, 'serviceId'>): CounterReportRow[] {
    const range = parseRange(query.from, query.to)
    const scope = this.checkFilters(reader, query)
    const rows: CounterReportRow[] = []
    for (const r of this.rollups.counters(scope.queueUnitIds, range.from, range.to, query.locationId ?? null)) {
      if (scope.locations !== null && !scope.locations.includes(r.locationId)) continue
      rows.push({
        date: r.date,
        counterId: r.counterId,
        locationId: r.locationId,
        served: r.served,
        noShow: r.noShow,
        serviceSeconds: { avg: avg(r.serviceSum, r.serviceCount), p50: r.serviceP50, p90: r.serviceP90 },
        busySeconds: r.busySeconds,
      })
    }
    return rows
  }

  /**
   * The reader's scope narrowed to `queueUnitId` when given; a unit that is not one of the
   * reader's (or does not exist), or a location or service the reader cannot see in the units
   * read: 422 VALIDATION_FAILED, a detail per filter (as the staff report's `queueUnitId`).
   */
  checkFilters(reader: ReportScope, { queueUnitId, locationId, serviceId }: Omit<ReportQuery, 'from' | 'to'>): ReportScope {
    const details: ErrorDetail[] = []
    let scope = reader
    if (queueUnitId !== undefined) {
      if (this.unitStmt.get(queueUnitId) === null || (reader.queueUnitIds !== null && !reader.queueUnitIds.includes(queueUnitId))) {
        details.push({ path: '/queueUnitId', message: 'no such queue unit for this reader' })
      } else scope = { ...reader, queueUnitIds: [queueUnitId] }
    }
    const units = scope.queueUnitIds === null ? null : JSON.stringify(scope.queueUnitIds)
    if (locationId !== undefined && (this.locationStmt.get(locationId, units) === null || (scope.locations !== null && !scope.locations.includes(locationId)))) {
      details.push({ path: '/locationId', message: 'no such location for this reader' })
    }
    if (serviceId !== undefined && (this.serviceStmt.get(serviceId, units) === null || (scope.services !== null && !scope.services.includes(serviceId)))) {
      details.push({ path: '/serviceId', message: 'no such service for this reader' })
    }
    if (details.length > 0) throw new ApiError(422, ReportCodes.VALIDATION_FAILED, 'invalid report filter', details)
    return scope
  }
}

/** The wait bins of the page's distribution chart, lower bounds in seconds (the last is open). */
export const WAIT_BIN_EDGES = [0, 300, 600, 900, 1200, 1800, 2700, 3600]

/** One line's figures over a whole range, for the /reports page's charts. */
export interface LineSummary {
  locationId: string
  serviceId: string
  issued: number
  served: number
  /** Tickets called (their waits measured) and, of those, within the service's target. */
  called: number
  withinTarget: number
  issuedByHour: number[]
  servedByHour: number[]
  /** Called tickets per bin of `WAIT_BIN_EDGES`. */
  waitBins: number[]
}

/** Contract §18: a name per BCP 47 language tag (a plain name under its unit's default language). */
type Names = Record<string, string>

export interface ReportSummary {
  from: string
  to: string
  /** The units the reader may read (a page's unit picker), and the one read (null: all of them). */
  queueUnits: { id: string; name: string; names: Names }[]
  queueUnitId: string | null
  /** The default language of the unit read ('en' when several are read together). */
  defaultLanguage: string
  locations: { id: string; name: string; names: Names; timezone: string }[]
  services: { id: string; name: string; names: Names; waitTargetSeconds: number }[]
  counters: { id: string; name: string; names: Names; locationId: string }[]
  lines: LineSummary[]
}

/**
 * The /reports page's one read: the names it shows (locations, services with their targets,
 * counters of the reader's unit) and, per line, the range's totals by hour and its wait
 * distribution merged from the days' distributions (`wait_hist`).
 */
export class ReportSummaryReader {
  private readonly locationsStmt
  private readonly servicesStmt
  private readonly countersStmt
  private readonly languageStmt
  private readonly unitsStmt

  constructor(client: Database, private readonly reports: ReportService, private readonly rollups: RollupReads) {
    // Each row with its unit's default language: `names` is always an object (contract §18).
    this.locationsStmt = client.query<{ id: string; name: string; names: string | null; lang: string; timezone: string }, [string | null]>(
      `SELECT l.id, l.name, l.names, u.default_language AS lang, l.timezone FROM locations l JOIN queue_units u ON u.id = l.queue_unit_id
       WHERE (?1 IS NULL OR l.queue_unit_id IN (SELECT value FROM json_each(?1))) ORDER BY l.name, l.id`,
    )
    this.servicesStmt = client.query<{ id: string; name: string; names: string | null; lang: string; waitTargetSeconds: number }, [string | null]>(
      `SELECT s.id, s.name, s.names, u.default_language AS lang, s.wait_target_seconds AS waitTargetSeconds FROM services s JOIN queue_units u ON u.id = s.queue_unit_id
       WHERE (?1 IS NULL OR s.queue_unit_id IN (SELECT value FROM json_each(?1))) ORDER BY s.name, s.id`,
    )
    this.countersStmt = client.query<{ id: string; name: string; names: string | null; lang: string; locationId: string }, [string | null]>(
      `SELECT c.id, c.name, c.names, u.default_language AS lang, c.location_id AS locationId FROM counters c JOIN queue_units u ON u.id = c.queue_unit_id
       WHERE (?1 IS NULL OR c.queue_unit_id IN (SELECT value FROM json_each(?1))) ORDER BY c.name, c.id`,
    )
    this.languageStmt = client.query<{ lang: string }, [string]>('SELECT default_language AS lang FROM queue_units WHERE id = ?1')
    this.unitsStmt = client.query<{ id: string; name: string; names: string | null; lang: string }, [string | null]>(
      `SELECT id, name, names, default_language AS lang FROM queue_units
       WHERE (?1 IS NULL OR id IN (SELECT value FROM json_each(?1))) ORDER BY name, id`,
    )
  }

  summary(reader: ReportScope, query: Omit<ReportQuery, 'serviceId'>): ReportSummary {
    const range = parseRange(query.from, query.to)
    const scope = this.reports.checkFilters(reader, query)
    const units = scope.queueUnitIds === null ? null : JSON.stringify(scope.queueUnitIds)
    const one = scope.queueUnitIds !== null && scope.queueUnitIds.length === 1 ? scope.queueUnitIds[0]! : null
    const seesLocation = (id: string) => scope.locations === null || scope.locations.includes(id)
    const seesService = (id: string) => scope.services === null || scope.services.includes(id)
    const lines = new Map<string, { line: LineSummary; hist: Histogram }>()
    for (const r of this.rollups.lineDays(scope.queueUnitIds, range.from, range.to, query.locationId ?? null)) {
      if (!seesLocation(r.locationId) || !seesService(r.serviceId)) continue
      const key = `${r.locationId}\u0000${r.serviceId}`
      let entry = lines.get(key)
      if (entry === undefined) {
        entry = {
          line: { locationId: r.locationId, serviceId: r.serviceId, issued: 0, served: 0, called: 0, withinTarget: 0, issuedByHour: new Array(24).fill(0), servedByHour: new Array(24).fill(0), waitBins: [] },
          hist: new Histogram(),
        }
        lines.set(key, entry)
      }
      const line = entry.line
      line.issued += r.issued
      line.served += r.served
      line.called += r.waitCount
      line.withinTarget += r.withinTarget
      for (let h = 0; h < 24; h++) {
        line.issuedByHour[h]! += r.issuedByHour[h]!
        line.servedByHour[h]! += r.servedByHour[h]!
      }
      entry.hist.merge(Histogram.fromBytes(r.waitHist))
    }
    const out: LineSummary[] = []
    for (const { line, hist } of lines.values()) {
      const bins = new Array<number>(WAIT_BIN_EDGES.length).fill(0)
      for (let i = 0; i < hist.pairs.length; i += 2) {
        const seconds = hist.pairs[i]!
        let bin = WAIT_BIN_EDGES.length - 1
        while (bin > 0 && seconds < WAIT_BIN_EDGES[bin]!) bin--
        bins[bin]! += hist.pairs[i + 1]!
      }
      out.push({ ...line, waitBins: bins })
    }
    out.sort((a, b) => (a.locationId + '\u0000' + a.serviceId < b.locationId + '\u0000' + b.serviceId ? -1 : 1))
    return {
      from: range.from,
      to: range.to,
      queueUnits: this.unitsStmt.all(reader.queueUnitIds === null ? null : JSON.stringify(reader.queueUnitIds))
        .map(({ id, name, names, lang }) => ({ id, name, names: namesObject(storedName(name, names), lang) })),
      queueUnitId: query.queueUnitId ?? one,
      defaultLanguage: (one === null ? null : this.languageStmt.get(one)?.lang) ?? 'en',
      locations: this.locationsStmt.all(units).filter((l) => seesLocation(l.id))
        .map(({ id, name, names, lang, timezone }) => ({ id, name, names: namesObject(storedName(name, names), lang), timezone })),
      services: this.servicesStmt.all(units).filter((s) => seesService(s.id))
        .map(({ id, name, names, lang, waitTargetSeconds }) => ({ id, name, names: namesObject(storedName(name, names), lang), waitTargetSeconds })),
      counters: this.countersStmt.all(units).filter((c) => seesLocation(c.locationId))
        .map(({ id, name, names, lang, locationId }) => ({ id, name, names: namesObject(storedName(name, names), lang), locationId })),
      lines: out,
    }
  }
}
