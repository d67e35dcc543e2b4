import type { Db } from '../db/open'
import { isoTime } from '../platform/clock'
import { planStable } from '../platform/sql'
import { averageServiceSeconds } from './wait'
import { estimateWait, restOfCurrent, type CounterNow } from './estimate'

/** The ticket a line is serving now, as the live reads show it. */
export interface LineNowServing {
  number: string
  counterName: string
  /** Contract §18: the counter's names per language, or null when it has one name. */
  counterNames: Readonly<Record<string, string>> | null
  status: 'CALLED' | 'SERVING'
  calledAt: string
  /** Contract §8: the ticket served is a priority ticket. */
  priority: boolean
}

/** One (service, location) pair of a queue unit with its live counts. */
export interface QueueLine {
  id: string
  /** The service's name in its unit's default language. */
  name: string
  /** Contract §18: the service's names per language, or null when it has one name. */
  names: Readonly<Record<string, string>> | null
  prefix: string
  locationId: string
  /** The service and its location are both active. */
  active: boolean
  waiting: number
  /** Contract §19: seconds until a new normal ticket of the line would be called (estimate.ts). */
  estimatedWaitSeconds: number
  /** Contract §19: no open counter serves the line now; the estimate assumed one. */
  noCounterOpen: boolean
  nowServing: LineNowServing | null
}

/** One row of the lines query (SQLite's 0/1 for booleans). */
interface LineRow {
  id: string
  name: string
  names: string | null
  prefix: string
  serviceActive: number
  defaultServiceSeconds: number
  locationId: string
  locationActive: number
  waiting: number | null
  avgServiceSeconds: number | null
  nowServingNumber: string | null
  nowServingStatus: string | null
  nowServingCalledAt: number | null
  nowServingCounter: string | null
  nowServingCounterNames: string | null
  nowServingPriority: number | null
}

/** One (open counter, service it serves) row of the counters query. */
interface OpenCounterRow {
  counterId: string
  locationId: string
  serviceId: string
  waiting: number
  heldStatus: string | null
  heldServingAt: number | null
  heldAvg: number | null
  heldDefault: number | null
}

/** The open counters of a unit per line, as the estimator sees them (key: `lineKey`). */
export type OpenCounters = Map<string, CounterNow[]>

export function lineKey(serviceId: string, locationId: string): string {
  return `${serviceId}\u0000${locationId}`
}

/**
 * The waiting lines of a queue unit: every (service, location) pair where the service is
 * offered, with `service_stats` (waiting, average, now-serving pointer) and the open counters
 * (contract §19's estimate, estimate.ts) of
 * open counters. O(services × locations) per read, never a scan of the ticket history.
 */
export class QueueLines {
  private readonly linesStmt

  // Raw statements, not drizzle's: mapping rows through drizzle's column objects took ~14 % of
  // a state read's time in the profile. Booleans come back as 0/1 and are read as `=== 1`.
  private readonly countersStmt

  /** `now` is the clock the expected rest of a counter's current ticket is measured with (contract §19). */
  constructor(db: Db, private readonly now: () => number = Date.now) {
    // A stale now-serving pointer (the ticket is no longer CALLED or SERVING) reads as nothing
    // served. The statuses are literals and the unit is `(SELECT ?1)`: bound parameters a join's
    // planner looks at would make SQLite plan it anew on every run (see planStable).
    this.linesStmt = db.$client.query<LineRow, [string]>(`
      SELECT s.id AS id, s.name AS name, s.names AS names, s.prefix AS prefix, s.active AS serviceActive,
        s.default_service_seconds AS defaultServiceSeconds, l.id AS locationId, l.active AS locationActive,
        st.waiting AS waiting, st.avg_service_seconds AS avgServiceSeconds,
        t.ticket_number AS nowServingNumber, t.status AS nowServingStatus, t.called_at AS nowServingCalledAt,
        c.name AS nowServingCounter, c.names AS nowServingCounterNames, t.priority AS nowServingPriority
      FROM service_locations sl
      INNER JOIN services s ON s.id = sl.service_id
      INNER JOIN locations l ON l.id = sl.location_id
      LEFT JOIN service_stats st ON st.service_id = sl.service_id AND st.location_id = sl.location_id
      LEFT JOIN tickets t ON t.id = st.now_serving_ticket_id AND t.status IN ('CALLED', 'SERVING')
      LEFT JOIN counters c ON c.id = t.counter_id
      WHERE s.queue_unit_id = ${planStable('?1')} AND l.queue_unit_id = ${planStable('?1')}
      ORDER BY l.id ASC, s.id ASC`)
    // Contract §19: every open counter of the unit with each service it serves (and that line's
    // waiting count, for a shared counter's share) and the ticket it holds (one per counter,
    // contract §3) with its service's average. O(open counters × their services).
    this.countersStmt = db.$client.query<OpenCounterRow, [string]>(`
      SELECT c.id AS counterId, c.location_id AS locationId, cs.service_id AS serviceId, coalesce(st.waiting, 0) AS waiting,
        t.status AS heldStatus, t.serving_at AS heldServingAt, hst.avg_service_seconds AS heldAvg, hs.default_service_seconds AS heldDefault
      FROM counters c INNER JOIN counter_services cs ON cs.counter_id = c.id
      LEFT JOIN service_stats st ON st.service_id = cs.service_id AND st.location_id = c.location_id
      LEFT JOIN tickets t ON t.id = (SELECT h.id FROM tickets h WHERE h.counter_id = c.id AND h.status IN ('CALLED', 'SERVING') LIMIT 1)
      LEFT JOIN services hs ON hs.id = t.service_id
      LEFT JOIN service_stats hst ON hst.service_id = t.service_id AND hst.location_id = t.location_id
      WHERE c.queue_unit_id = ${planStable('?1')} AND c.open = 1
      ORDER BY c.id ASC`)
  }

  /**
   * The unit's open counters per line they serve: the expected rest of what each holds now
   * and the waiting tickets of all its services at its location.
   */
  openCounters(queueUnitId: string): OpenCounters {
    const now = this.now()
    const rows = this.countersStmt.all(queueUnitId)
    const waitingServed = new Map<string, number>()
    for (const row of rows) waitingServed.set(row.counterId, (waitingServed.get(row.counterId) ?? 0) + row.waiting)
    const byLine: OpenCounters = new Map()
    for (const row of rows) {
      const held = row.heldStatus === null ? null : { status: row.heldStatus, servingAt: row.heldServingAt }
      const counter: CounterNow = {
        restSeconds: restOfCurrent(held, averageServiceSeconds(row.heldAvg, row.heldDefault), now),
        waitingServed: waitingServed.get(row.counterId) ?? 0,
      }
      const key = lineKey(row.serviceId, row.locationId)
      const list = byLine.get(key)
      if (list === undefined) byLine.set(key, [counter])
      else list.push(counter)
    }
    return byLine
  }

  /**
   * Every line of the unit ordered by location ID then service ID; `activeOnly` keeps active
   * services at active locations (the public reads and display feeds show only those).
   */
  lines(queueUnitId: string, activeOnly: boolean): QueueLine[] {
    const rows = this.linesStmt.all(queueUnitId)
    const wanted = activeOnly ? rows.filter((row) => row.serviceActive === 1 && row.locationActive === 1) : rows
    if (wanted.length === 0) return []
    const open = this.openCounters(queueUnitId)
    return wanted.map((row) => {
      const waiting = row.waiting ?? 0
      const average = averageServiceSeconds(row.avgServiceSeconds, row.defaultServiceSeconds)
      // A new normal ticket is called after every waiting one, whatever the priority policy.
      const estimate = estimateWait(waiting, average, waiting, open.get(lineKey(row.id, row.locationId)) ?? [])
      return {
        id: row.id,
        name: row.name,
        names: row.names === null ? null : (JSON.parse(row.names) as Record<string, string>),
        prefix: row.prefix,
        locationId: row.locationId,
        active: row.serviceActive === 1 && row.locationActive === 1,
        waiting,
        estimatedWaitSeconds: estimate.estimatedWaitSeconds,
        noCounterOpen: estimate.noCounterOpen,
        nowServing: row.nowServingNumber != null && row.nowServingCounter != null && row.nowServingCalledAt != null
          ? {
              number: row.nowServingNumber,
              counterName: row.nowServingCounter,
              counterNames: row.nowServingCounterNames === null ? null : (JSON.parse(row.nowServingCounterNames) as Record<string, string>),
              status: row.nowServingStatus as 'CALLED' | 'SERVING',
              calledAt: isoTime(row.nowServingCalledAt),
              priority: row.nowServingPriority === 1,
            }
          : null,
      }
    })
  }
}
