import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/open'
import { isoTime } from '../platform/clock'
import { planStableParam } from '../platform/sql'
import { counters, counterServices } from '../counters/tables'
import { locations, services, serviceLocations, serviceStats, tickets } from './tables'
import { averageServiceSeconds, estimatedWaitSeconds } from './wait'

/** The ticket a line is serving now, as the live reads show it. */
export interface LineNowServing {
  number: string
  counterName: string
  status: 'CALLED' | 'SERVING'
  calledAt: string
}

/** One (service, location) pair of a queue unit with its live counts. */
export interface QueueLine {
  id: string
  name: string
  prefix: string
  locationId: string
  /** The service and its location are both active. */
  active: boolean
  waiting: number
  estimatedWaitSeconds: number
  nowServing: LineNowServing | null
}

/**
 * The waiting lines of a queue unit: every (service, location) pair where the service is
 * offered, with `service_stats` (waiting, average, now-serving pointer) and one grouped count of
 * open counters. O(services × locations) per read, never a scan of the ticket history.
 */
export class QueueLines {
  private readonly linesStmt
  private readonly openCountersStmt

  constructor(db: Db) {
    this.linesStmt = db
      .select({
        id: services.id,
        name: services.name,
        prefix: services.prefix,
        serviceActive: services.active,
        defaultServiceSeconds: services.defaultServiceSeconds,
        locationId: locations.id,
        locationActive: locations.active,
        waiting: serviceStats.waiting,
        avgServiceSeconds: serviceStats.avgServiceSeconds,
        nowServingNumber: tickets.ticketNumber,
        nowServingStatus: tickets.status,
        nowServingCalledAt: tickets.calledAt,
        nowServingCounter: counters.name,
      })
      .from(serviceLocations)
      .innerJoin(services, eq(services.id, serviceLocations.serviceId))
      .innerJoin(locations, eq(locations.id, serviceLocations.locationId))
      .leftJoin(serviceStats, and(eq(serviceStats.serviceId, serviceLocations.serviceId), eq(serviceStats.locationId, serviceLocations.locationId)))
      // A stale pointer (the ticket is no longer CALLED or SERVING) reads as nothing served.
      // The statuses as literals: bound parameters here would make SQLite plan the join anew on
      // every run (see planStableParam).
      .leftJoin(tickets, and(eq(tickets.id, serviceStats.nowServingTicketId), sql`${tickets.status} IN ('CALLED', 'SERVING')`))
      .leftJoin(counters, eq(counters.id, tickets.counterId))
      .where(and(eq(services.queueUnitId, planStableParam('unit')), eq(locations.queueUnitId, planStableParam('unit'))))
      .orderBy(asc(locations.id), asc(services.id))
      .prepare()
    // Open counters per (service, location): a counter counts for every service it serves.
    this.openCountersStmt = db
      .select({ serviceId: counterServices.serviceId, locationId: counters.locationId, open: sql<number>`count(*)` })
      .from(counters)
      .innerJoin(counterServices, eq(counterServices.counterId, counters.id))
      .where(and(eq(counters.queueUnitId, planStableParam('unit')), sql`${counters.open} = 1`))
      .groupBy(counterServices.serviceId, counters.locationId)
      .prepare()
  }

  /**
   * Every line of the unit ordered by location ID then service ID; `activeOnly` keeps active
   * services at active locations (the public reads and display feeds show only those).
   */
  lines(queueUnitId: string, activeOnly: boolean): QueueLine[] {
    const rows = this.linesStmt.all({ unit: queueUnitId })
    const wanted = activeOnly ? rows.filter((row) => row.serviceActive && row.locationActive) : rows
    if (wanted.length === 0) return []
    const open = new Map<string, number>()
    for (const row of this.openCountersStmt.all({ unit: queueUnitId })) open.set(`${row.serviceId}\u0000${row.locationId}`, row.open)
    return wanted.map((row) => {
      const waiting = row.waiting ?? 0
      return {
        id: row.id,
        name: row.name,
        prefix: row.prefix,
        locationId: row.locationId,
        active: row.serviceActive && row.locationActive,
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
              status: row.nowServingStatus as 'CALLED' | 'SERVING',
              calledAt: isoTime(row.nowServingCalledAt),
            }
          : null,
      }
    })
  }
}
