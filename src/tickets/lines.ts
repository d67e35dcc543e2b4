import type { Db } from '../db/open'
import { isoTime } from '../platform/clock'
import { planStable } from '../platform/sql'
import { averageServiceSeconds, estimatedWaitSeconds } from './wait'

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
  estimatedWaitSeconds: number
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

/**
 * The waiting lines of a queue unit: every (service, location) pair where the service is
 * offered, with `service_stats` (waiting, average, now-serving pointer) and one grouped count of
 * open counters. O(services × locations) per read, never a scan of the ticket history.
 */
export class QueueLines {
  private readonly linesStmt
  private readonly openCountersStmt

  // Raw statements, not drizzle's: mapping rows through drizzle's column objects took ~14 % of
  // a state read's time in the profile. Booleans come back as 0/1 and are read as `=== 1`.
  constructor(db: Db) {
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
    // Open counters per (service, location): a counter counts for every service it serves.
    this.openCountersStmt = db.$client.query<{ serviceId: string; locationId: string; open: number }, [string]>(`
      SELECT cs.service_id AS serviceId, c.location_id AS locationId, count(*) AS open
      FROM counters c INNER JOIN counter_services cs ON cs.counter_id = c.id
      WHERE c.queue_unit_id = ${planStable('?1')} AND c.open = 1
      GROUP BY cs.service_id, c.location_id`)
  }

  /**
   * Every line of the unit ordered by location ID then service ID; `activeOnly` keeps active
   * services at active locations (the public reads and display feeds show only those).
   */
  lines(queueUnitId: string, activeOnly: boolean): QueueLine[] {
    const rows = this.linesStmt.all(queueUnitId)
    const wanted = activeOnly ? rows.filter((row) => row.serviceActive === 1 && row.locationActive === 1) : rows
    if (wanted.length === 0) return []
    const open = new Map<string, number>()
    for (const row of this.openCountersStmt.all(queueUnitId)) open.set(`${row.serviceId}\u0000${row.locationId}`, row.open)
    return wanted.map((row) => {
      const waiting = row.waiting ?? 0
      return {
        id: row.id,
        name: row.name,
        names: row.names === null ? null : (JSON.parse(row.names) as Record<string, string>),
        prefix: row.prefix,
        locationId: row.locationId,
        active: row.serviceActive === 1 && row.locationActive === 1,
        waiting,
        estimatedWaitSeconds: estimatedWaitSeconds(
          waiting,
          open.get(`${row.id}\u0000${row.locationId}`) ?? 0,
          averageServiceSeconds(row.avgServiceSeconds, row.defaultServiceSeconds),
        ),
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
