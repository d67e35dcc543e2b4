import type { AppDeps } from '../root/deps'
import { businessDayAt, TRACKING_CODE_PATTERN, type TicketRow } from '../tickets'

/**
 * What the phone page may know of a ticket (contract §10), and nothing more: while it is open,
 * its own number, service, location, branch, status, the counter it is called to, the people
 * ahead (a count) and the estimate; once it ended or its business day is over, only that.
 */
export type PhoneStatus =
  | {
      state: 'WAITING' | 'CALLED' | 'SERVING'
      ticketNumber: string
      serviceName: string
      locationName: string
      branchName: string
      peopleAhead: number
      estimatedWaitSeconds: number
      /** The counter it is called to (CALLED, SERVING), else null. */
      counterName: string | null
      /** Calls so far: a recall is a new call the phone announces again. */
      callCount: number
    }
  | { state: 'ENDED' }
  | { state: 'EXPIRED' }

/**
 * The phone page's read by tracking code, free of HTTP. Ticket state comes from `deps.tickets`;
 * names from the provisioned structure.
 */
export class PhoneService {
  private readonly placeStmt
  private readonly counterStmt

  constructor(private readonly deps: AppDeps) {
    this.placeStmt = deps.db.$client.query<{ unitName: string; locationName: string; timezone: string }, [string, string]>(
      'SELECT u.name AS unitName, l.name AS locationName, l.timezone AS timezone FROM queue_units u INNER JOIN locations l ON l.queue_unit_id = u.id WHERE u.id = ?1 AND l.id = ?2',
    )
    this.counterStmt = deps.db.$client.query<{ name: string }, [string]>('SELECT name FROM counters WHERE id = ?1')
  }

  /** The ticket of a well-formed code, or null (an ill-formed code is never looked up). */
  ticketOf(code: string): TicketRow | null {
    return TRACKING_CODE_PATTERN.test(code) ? this.deps.tickets.byTrackingCode(code) : null
  }

  /**
   * The ticket's status for its phone: EXPIRED once the location's business day of `now` is
   * after the ticket's (whatever its status: the daily close ends it at midnight anyway), ENDED
   * once it is COMPLETED, NO_SHOW or CANCELLED, else its place.
   */
  status(row: TicketRow, now: number): PhoneStatus {
    const place = this.placeStmt.get(row.queueUnitId, row.locationId)
    if (place === null || businessDayAt(now, place.timezone) > row.businessDay) return { state: 'EXPIRED' }
    if (row.status !== 'WAITING' && row.status !== 'CALLED' && row.status !== 'SERVING') return { state: 'ENDED' }
    const inLine = this.deps.tickets.placeInLine(row)
    const line = this.deps.tickets.lines(row.queueUnitId, false).find((l) => l.id === row.serviceId && l.locationId === row.locationId)
    return {
      state: row.status,
      ticketNumber: row.ticketNumber,
      serviceName: line?.name ?? '',
      locationName: place.locationName,
      branchName: place.unitName,
      peopleAhead: inLine?.ahead ?? 0,
      estimatedWaitSeconds: inLine?.estimatedWaitSeconds ?? 0,
      counterName: row.status === 'WAITING' || row.counterId === null ? null : this.counterStmt.get(row.counterId)?.name ?? null,
      callCount: row.callCount,
    }
  }
}
