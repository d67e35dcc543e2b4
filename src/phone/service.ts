import type { PhoneDeps } from './deps'
import { businessDayAt, MORE_TIME_LIMIT, TRACKING_CODE_PATTERN, type PlaceInLine, type TicketRow } from '../tickets'
import { namesObject, resolveName, storedName, type LocalizedName } from '../platform/names'

/** Contract §18: a name in each of its languages (a plain name: one entry in the unit's default). */
export type Names = Record<string, string>

/**
 * What the phone page may know of a ticket (contract §10), and nothing more: while it is open,
 * its own number, service, location, branch, status, the counter it is called to, the people
 * ahead (a count) and the estimate; once it ended or its business day is over, only that.
 */
export type PhoneStatus =
  | {
      state: 'WAITING' | 'CALLED' | 'SERVING'
      /** Contract §18: the ticket's language (the one it was taken in, else the unit's default); the `…Name` fields are in it. */
      language: string
      /** The unit's default language and its languages (the page's switch offers these). */
      defaultLanguage: string
      languages: string[]
      ticketNumber: string
      serviceName: string
      serviceNames: Names
      locationName: string
      locationNames: Names
      branchName: string
      branchNames: Names
      peopleAhead: number
      estimatedWaitSeconds: number
      /** Contract §19: no open counter serves its line now. */
      noCounterOpen: boolean
      /** Contract §28: an open counter of its service holds nothing now (the page's wait verdict reads it). */
      counterFree: boolean
      /** The counter it is called to (CALLED, SERVING), else null. */
      counterName: string | null
      counterNames: Names | null
      /** Calls so far: a recall is a new call the phone announces again. */
      callCount: number
      /** Contract §20: the unit's `approachingAhead`: the page notifies once when `peopleAhead` is at most this. */
      approachingAhead: number
      /** Contract §20: the ticket was transferred to this service (the page says "You have been transferred to …"). */
      transferred: boolean
      /** Contract §20: how many more times it may ask for more time (0…2). */
      moreTimeLeft: number
    }
  // The ticket's language and how it ended: the page says "closed", "you missed your turn" or
  // offers the rating (contract §20), and nothing more.
  | { state: 'ENDED'; language: string; outcome: EndedOutcome; feedback: FeedbackState | null }
  | { state: 'EXPIRED'; language: string }

/** How an ended ticket ended (contract §20: a missed turn says so; a completed visit may be rated). */
export type EndedOutcome = 'COMPLETED' | 'NO_SHOW' | 'CANCELLED'
/** A completed ticket's rating: OPEN (may be given now), GIVEN, or CLOSED (its 24 hours are over). Null for other outcomes. */
export type FeedbackState = 'OPEN' | 'GIVEN' | 'CLOSED'

/** Contract §20: a completed visit may be rated within this long of its completion. */
export const FEEDBACK_WINDOW_MS = 24 * 60 * 60 * 1000

/** Whether a COMPLETED ticket may still be rated at `now` (its completion, else its creation, less than 24 hours ago). */
export function feedbackOpen(row: TicketRow, now: number): boolean {
  return row.status === 'COMPLETED' && now < (row.completedAt ?? row.createdAt) + FEEDBACK_WINDOW_MS
}

/**
 * What a status needs of its queue unit, read once and shared by every ticket of the unit:
 * the lines' names, each line's places in call order (read when first asked for), the
 * location's names and time zone, counter names. One of these per unit per change, however
 * many phones wait (contract §23).
 */
export interface UnitView {
  readonly queueUnitId: string
  /** Contract §18: the unit's default language and languages (`en`, `["en"]` when the unit is gone). */
  readonly defaultLanguage: string
  readonly languages: string[]
  /** Contract §20: the unit's `approachingAhead` (3 when the unit is gone). */
  readonly approachingAhead: number
  serviceName(serviceId: string, locationId: string): LocalizedName
  place(locationId: string): { unitName: LocalizedName; locationName: LocalizedName; timezone: string } | null
  placeInLine(row: TicketRow): PlaceInLine | null
  counterName(counterId: string): LocalizedName | null
}

function preparePhoneStatements(deps: PhoneDeps) {
  return {
    placeStmt: deps.db.$client.query<{ unitName: string; unitNames: string | null; locationName: string; locationNames: string | null; timezone: string }, [string, string]>(
      `SELECT u.name AS unitName, u.names AS unitNames, l.name AS locationName, l.names AS locationNames, l.timezone AS timezone
       FROM queue_units u INNER JOIN locations l ON l.queue_unit_id = u.id WHERE u.id = ?1 AND l.id = ?2`,
    ),
    counterStmt: deps.db.$client.query<{ name: string; names: string | null }, [string]>('SELECT name, names FROM counters WHERE id = ?1'),
    unitStmt: deps.db.$client.query<{ defaultLanguage: string; languages: string; approachingAhead: number }, [string]>(
      'SELECT default_language AS defaultLanguage, languages, approaching_ahead AS approachingAhead FROM queue_units WHERE id = ?1'),
  }
}

/**
 * The phone page's read by tracking code, free of HTTP. Ticket state comes from `deps.tickets`;
 * names from the provisioned structure.
 */
export class PhoneService {
  /** The last unit views, valid until the database changes (`deps.changes`). */
  private views = new Map<string, UnitView>()
  private viewsAt = -1

  private prepared: ReturnType<typeof preparePhoneStatements> | undefined

  constructor(private readonly deps: PhoneDeps) {}

  /** Prepared on first use (not while the server starts). */
  private get parts(): ReturnType<typeof preparePhoneStatements> {
    return (this.prepared ??= preparePhoneStatements(this.deps))
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
    let names: Map<string, LocalizedName> | undefined
    const places = new Map<string, { unitName: LocalizedName; locationName: LocalizedName; timezone: string } | null>()
    const lines = new Map<string, Map<string, PlaceInLine>>()
    const counters = new Map<string, LocalizedName | null>()
    const lineKey = (serviceId: string, locationId: string) => `${serviceId}\u0000${locationId}`
    const unit = this.parts.unitStmt.get(queueUnitId)
    return {
      queueUnitId,
      defaultLanguage: unit?.defaultLanguage ?? 'en',
      languages: unit === null ? ['en'] : (JSON.parse(unit.languages) as string[]),
      approachingAhead: unit?.approachingAhead ?? 3,
      serviceName: (serviceId, locationId) => {
        names ??= new Map(tickets.lines(queueUnitId, false).map((l) => [lineKey(l.id, l.locationId), l.names ?? l.name]))
        return names.get(lineKey(serviceId, locationId)) ?? ''
      },
      place: (locationId) => {
        if (!places.has(locationId)) {
          const row = this.parts.placeStmt.get(queueUnitId, locationId)
          places.set(locationId, row === null ? null : { unitName: storedName(row.unitName, row.unitNames), locationName: storedName(row.locationName, row.locationNames), timezone: row.timezone })
        }
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
        if (!counters.has(counterId)) {
          const row = this.parts.counterStmt.get(counterId)
          counters.set(counterId, row === null ? null : storedName(row.name, row.names))
        }
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
    // Contract §18: the page speaks the language the ticket was taken in.
    const language = row.language ?? unit.defaultLanguage
    // Contract §20: a completed visit may be rated for 24 hours, past the end of its business day.
    if (place !== null && feedbackOpen(row, now)) {
      return { state: 'ENDED', language, outcome: 'COMPLETED', feedback: this.deps.tickets.feedback.of(row.id) === null ? 'OPEN' : 'GIVEN' }
    }
    if (place === null || businessDayAt(now, place.timezone) > row.businessDay) return { state: 'EXPIRED', language }
    if (row.status !== 'WAITING' && row.status !== 'CALLED' && row.status !== 'SERVING') {
      const given = row.status === 'COMPLETED' && this.deps.tickets.feedback.of(row.id) !== null
      return { state: 'ENDED', language, outcome: row.status, feedback: row.status !== 'COMPLETED' ? null : given ? 'GIVEN' : 'CLOSED' }
    }
    const inLine = unit.placeInLine(row)
    const fallback = unit.defaultLanguage
    const counter = row.status === 'WAITING' || row.counterId === null ? null : unit.counterName(row.counterId)
    const service = unit.serviceName(row.serviceId, row.locationId)
    return {
      state: row.status,
      language,
      defaultLanguage: fallback,
      languages: unit.languages,
      ticketNumber: row.ticketNumber,
      serviceName: resolveName(service, language, fallback),
      serviceNames: namesObject(service, fallback),
      locationName: resolveName(place.locationName, language, fallback),
      locationNames: namesObject(place.locationName, fallback),
      branchName: resolveName(place.unitName, language, fallback),
      branchNames: namesObject(place.unitName, fallback),
      peopleAhead: inLine?.ahead ?? 0,
      estimatedWaitSeconds: inLine?.estimatedWaitSeconds ?? 0,
      noCounterOpen: inLine?.noCounterOpen ?? false,
      counterFree: inLine?.counterFree ?? false,
      counterName: counter === null ? null : resolveName(counter, language, fallback),
      counterNames: counter === null ? null : namesObject(counter, fallback),
      callCount: row.callCount,
      approachingAhead: unit.approachingAhead,
      transferred: row.transferredFromServiceId !== null,
      moreTimeLeft: Math.max(0, MORE_TIME_LIMIT - row.moreTimeCount),
    }
  }
}
