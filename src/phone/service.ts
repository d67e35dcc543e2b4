import type { AppDeps } from '../root/deps'
import { businessDayAt, TRACKING_CODE_PATTERN, type PlaceInLine, type TicketRow } from '../tickets'

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
 * What a status needs of its queue unit, read once and shared by every ticket of the unit:
 * the lines' names, each line's places in call order (read when first asked for), the
 * location's names and time zone, counter names. One of these per unit per change, however
 * many phones wait (contract §23).
 */
export interface UnitView {
  readonly queueUnitId: string
  serviceName(serviceId: string, locationId: string): string
  place(locationId: string): { unitName: string; locationName: string; timezone: string } | null
  placeInLine(row: TicketRow): PlaceInLine | null
  counterName(counterId: string): string | null
}

/**
 * The phone page's read by tracking code, free of HTTP. Ticket state comes from `deps.tickets`;
 * names from the provisioned structure.
 */
export class PhoneService {
  private readonly placeStmt
  private readonly counterStmt
  /** The last unit views, valid until the database changes (`deps.changes`). */
  private views = new Map<string, UnitView>()
  private viewsAt = -1

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
   * The unit's view as of the database now: built at most once between two changes of the
   * database, so the polls answered by a change and coming straight back share it too.
   */
  unitView(queueUnitId: string): UnitView {
    const generation = this.deps.changes.current()
    if (generation !== this.viewsAt) {
      this.views = new Map()
      this.viewsAt = generation
    }
    let view = this.views.get(queueUnitId)
    if (view === undefined) {
      view = this.buildUnitView(queueUnitId)
      this.views.set(queueUnitId, view)
    }
    return view
  }

  private buildUnitView(queueUnitId: string): UnitView {
    const { tickets } = this.deps
    let names: Map<string, string> | undefined
    const places = new Map<string, ReturnType<PhoneService['placeStmt']['get']>>()
    const lines = new Map<string, Map<string, PlaceInLine>>()
    const counters = new Map<string, string | null>()
    const lineKey = (serviceId: string, locationId: string) => `${serviceId}\u0000${locationId}`
    return {
      queueUnitId,
      serviceName: (serviceId, locationId) => {
        names ??= new Map(tickets.lines(queueUnitId, false).map((l) => [lineKey(l.id, l.locationId), l.name]))
        return names.get(lineKey(serviceId, locationId)) ?? ''
      },
      place: (locationId) => {
        if (!places.has(locationId)) places.set(locationId, this.placeStmt.get(queueUnitId, locationId))
        return places.get(locationId) ?? null
      },
      placeInLine: (row) => {
        if (row.status !== 'WAITING') return null
        const key = lineKey(row.serviceId, row.locationId)
        let line = lines.get(key)
        if (line === undefined) lines.set(key, (line = tickets.placesInLine(queueUnitId, row.serviceId, row.locationId)))
        return line.get(row.id) ?? null
      },
      counterName: (counterId) => {
        if (!counters.has(counterId)) counters.set(counterId, this.counterStmt.get(counterId)?.name ?? null)
        return counters.get(counterId) ?? null
      },
    }
  }

  /**
   * The ticket's status for its phone: EXPIRED once the location's business day of `now` is
   * after the ticket's (whatever its status: the daily close ends it at midnight anyway), ENDED
   * once it is COMPLETED, NO_SHOW or CANCELLED, else its place. `unit` is the ticket's unit's
   * view (`unitView`), shared by the unit's tickets.
   */
  status(row: TicketRow, now: number, unit: UnitView = this.unitView(row.queueUnitId)): PhoneStatus {
    const place = unit.place(row.locationId)
    if (place === null || businessDayAt(now, place.timezone) > row.businessDay) return { state: 'EXPIRED' }
    if (row.status !== 'WAITING' && row.status !== 'CALLED' && row.status !== 'SERVING') return { state: 'ENDED' }
    const inLine = unit.placeInLine(row)
    return {
      state: row.status,
      ticketNumber: row.ticketNumber,
      serviceName: unit.serviceName(row.serviceId, row.locationId),
      locationName: place.locationName,
      branchName: place.unitName,
      peopleAhead: inLine?.ahead ?? 0,
      estimatedWaitSeconds: inLine?.estimatedWaitSeconds ?? 0,
      counterName: row.status === 'WAITING' || row.counterId === null ? null : unit.counterName(row.counterId),
      callCount: row.callCount,
    }
  }
}
