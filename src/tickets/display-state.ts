import type { Db } from '../db/open'
import type { Clock } from '../platform/clock'
import { isoTime } from '../platform/clock'
import { inReadTransaction } from '../platform/transactions'
import { namesObject, storedName } from '../platform/names'
import { openStateAt, type ConfigurationRead, type LocationConfiguration, type OpenState, type ServiceConfiguration, type UnitConfiguration } from '../structure'
import type { TicketStatus } from './model'
import type { QueueLines, LineNowServing } from './lines'

/** How many calls `recentCalls` lists (docs/display.md). */
export const RECENT_CALLS = 10

export interface QueueDisplayLocation {
  id: string
  name: string
  /** Contract §18: the name in every language it has (one entry, the default language's, for a plain name). */
  names: Record<string, string>
  timezone: string
  /** Any of its services (shown here) takes tickets now. */
  open: boolean
  /** Closed: the earliest next opening of its services (ISO), or null (open, or none within the search horizon). */
  opensAt: string | null
}

export interface QueueDisplayNowServing extends Omit<LineNowServing, 'counterNames'> {
  counterNames: Record<string, string>
}

export interface QueueDisplayService {
  id: string
  name: string
  names: Record<string, string>
  prefix: string
  locationId: string
  waiting: number
  estimatedWaitSeconds: number
  /** Contract §19: no open counter serves the line now (the board says "No counter is open right now"). */
  noCounterOpen: boolean
  /** Contract §28: the people ahead of a normal ticket taken now (the line's call order). */
  peopleAhead: number
  /** Contract §28: an open counter of the service holds nothing now. */
  counterFree: boolean
  nowServing: QueueDisplayNowServing | null
  /** Contract §18: the service takes tickets now (its location's hours narrowed by its own). */
  open: boolean
  /** Closed: its next opening (ISO), or null (open, or none within the search horizon). */
  opensAt: string | null
}

export interface QueueDisplayCall {
  number: string
  serviceId: string
  locationId: string
  counterName: string
  counterNames: Record<string, string>
  /** When this call (or recall) was made. */
  calledAt: string
  /** The ticket's status now. */
  status: TicketStatus
  /** Contract §8: a priority ticket. */
  priority: boolean
}

/** The queue-state body of docs/display.md. */
export interface QueueDisplayState {
  queueUnitId: string
  name: string
  names: Record<string, string>
  /** Contract §18: the language every `name` is in, and the unit's languages (the default first). */
  defaultLanguage: string
  languages: string[]
  stateRevision: number
  generatedAt: string
  locations: QueueDisplayLocation[]
  services: QueueDisplayService[]
  recentCalls: QueueDisplayCall[]
}

interface CallRow { number: string; serviceId: string; locationId: string; counterName: string; counterNames: string | null; at: number; status: TicketStatus; priority: number }

/**
 * A line's open state, kept until the instant it can next change (its `opensAt` or `closesAt`)
 * or until its hours change: the schedule walks day by day through time-zone arithmetic, and a
 * state read runs on every ticket change, so it is computed once per opening or closing.
 */
interface CachedOpenState {
  /** The configuration's objects it was worked out from (a change of the configuration makes new ones). */
  location: LocationConfiguration
  service: ServiceConfiguration | undefined
  state: OpenState
  from: number
  until: number
}

/** One unit's open state as `openSignatures` reads it. */
export interface OpenSignature {
  queueUnitId: string
  signature: string
  /** Its locations or services have opening hours or closed dates (else it is always open). */
  timed: boolean
}

/**
 * Contract §19: a closed service keeps its integer, the time until it opens plus the estimate
 * now (the page says when it opens); open, or closed with no opening ahead, the estimate.
 */
export function waitWhenClosed(estimatedWaitSeconds: number, opening: { open: boolean; opensAt: number | null }, now: number): number {
  if (opening.open || opening.opensAt === null) return estimatedWaitSeconds
  return Math.max(Math.ceil((opening.opensAt - now) / 1000), 0) + estimatedWaitSeconds
}

/** A closed line with no opening within the search horizon is looked at again after this. */
const NO_OPENING_RECHECK_MS = 60 * 60_000

/**
 * The display feeds' queue reads, on statements prepared once per app (by `Tickets`); the unit,
 * its locations and hours come from the configuration read (src/structure/configuration.ts),
 * read before the snapshot of the tickets (the configuration is kept across ticket changes).
 */
export class QueueDisplayReader {
  private readonly revision
  private readonly calls
  private readonly callsAt
  private readonly units
  private readonly openStates = new Map<string, CachedOpenState>()

  constructor(private readonly db: Db, private readonly lines: QueueLines, private readonly configuration: ConfigurationRead) {
    this.revision = db.$client.query<{ stateRevision: number }, [string]>('SELECT state_revision AS stateRevision FROM queue_units WHERE id = ?1')
    this.units = db.$client.query<{ id: string }, []>('SELECT id FROM queue_units WHERE active = 1 ORDER BY id')
    // The unit's latest calls and recalls, newest first; ticket_calls holds the current
    // business days only (the daily close clears earlier ones), read by its (unit, id) index.
    const callColumns = `
      SELECT t.ticket_number AS number, t.service_id AS serviceId, c.location_id AS locationId, k.name AS counterName, k.names AS counterNames,
             c.at AS at, t.status AS status, t.priority AS priority
      FROM ticket_calls c
      JOIN tickets t ON t.id = c.ticket_id
      JOIN counters k ON k.id = c.counter_id
      JOIN locations l ON l.id = c.location_id AND l.active = 1`
    this.calls = db.$client.query<CallRow, [string, number]>(`${callColumns} WHERE c.queue_unit_id = ?1 ORDER BY c.id DESC LIMIT ?2`)
    this.callsAt = db.$client.query<CallRow, [string, string, number]>(
      `${callColumns} WHERE c.queue_unit_id = ?1 AND c.location_id = ?2 ORDER BY c.id DESC LIMIT ?3`,
    )
  }

  /** See `queueDisplayState`. */
  state(queueUnitId: string, workspaceId: string, now: number, locationId?: string): QueueDisplayState | null {
    const unit = this.configuration.unit(queueUnitId)
    if (unit === null || unit.workspaceId !== workspaceId) return null
    const allLocations = activeLocations(unit)
    const shown = locationId === undefined ? allLocations : allLocations.filter((l) => l.id === locationId)
    if (locationId !== undefined && shown.length === 0) return null
    // One read transaction: the revision and the data it stands for come from one snapshot.
    return inReadTransaction(this.db, () => {
      const stateRevision = this.revision.get(queueUnitId)
      if (stateRevision === null) return null
      const language = unit.defaultLanguage
      const names = (name: string, stored: string | null) => namesObject(storedName(name, stored), language)
      const byLocation = new Map(shown.map((l) => [l.id, l]))
      const services = this.lines
        .lines(queueUnitId, true)
        .filter((line) => byLocation.has(line.locationId))
        .map((line): QueueDisplayService => {
          const opening = this.openState(byLocation.get(line.locationId)!, unit.services.get(line.id), now)
          return {
            id: line.id,
            name: line.name,
            names: namesObject(line.names ?? line.name, language),
            prefix: line.prefix,
            locationId: line.locationId,
            waiting: line.waiting,
            estimatedWaitSeconds: waitWhenClosed(line.estimatedWaitSeconds, opening, now),
            noCounterOpen: line.noCounterOpen,
            peopleAhead: line.peopleAhead,
            counterFree: line.counterFree,
            nowServing: line.nowServing === null ? null : {
              number: line.nowServing.number,
              counterName: line.nowServing.counterName,
              counterNames: namesObject(line.nowServing.counterNames ?? line.nowServing.counterName, language),
              status: line.nowServing.status,
              calledAt: line.nowServing.calledAt,
              priority: line.nowServing.priority,
            },
            open: opening.open,
            opensAt: opening.open || opening.opensAt === null ? null : isoTime(opening.opensAt),
          }
        })
      const calls = locationId === undefined
        ? this.calls.all(queueUnitId, RECENT_CALLS)
        : this.callsAt.all(queueUnitId, locationId, RECENT_CALLS)
      return {
        queueUnitId: unit.id,
        name: unit.defaultName,
        names: namesObject(unit.name, language),
        defaultLanguage: language,
        languages: [...unit.languages],
        stateRevision: stateRevision.stateRevision,
        generatedAt: isoTime(now),
        locations: shown.map((l) => {
          const here = services.filter((s) => s.locationId === l.id)
          // Open when any of its services is; closed, it opens with the earliest of them. A
          // location offering no service reads its own hours.
          const own = here.length === 0 ? this.openState(l, undefined, now) : null
          const open = own !== null ? own.open : here.some((s) => s.open)
          const openings = own !== null
            ? (own.opensAt === null ? [] : [isoTime(own.opensAt)])
            : here.flatMap((s) => (s.opensAt === null ? [] : [s.opensAt]))
          return {
            id: l.id,
            name: l.defaultName,
            names: namesObject(l.name, language),
            timezone: l.timezone,
            open,
            opensAt: open || openings.length === 0 ? null : openings.reduce((a, b) => (a < b ? a : b)),
          }
        }),
        services,
        recentCalls: calls.map((c) => ({
          number: c.number,
          serviceId: c.serviceId,
          locationId: c.locationId,
          counterName: c.counterName,
          counterNames: names(c.counterName, c.counterNames),
          calledAt: isoTime(c.at),
          status: c.status,
          priority: c.priority === 1,
        })),
      }
    })
  }

  /**
   * Every queue unit's open state at `now` as one string per unit (each line open, or closed
   * until when), and whether it has hours at all (`timed`). The display feeds' opening watch
   * (src/display/opening-watch.ts) compares them from one look to the next: open and opensAt
   * change with time, not with a write, so it bumps the unit's revision when they do.
   */
  openSignatures(now: number): OpenSignature[] {
    const units = this.units.all().flatMap(({ id }) => {
      const unit = this.configuration.unit(id)
      return unit === null ? [] : [unit]
    })
    return inReadTransaction(this.db, () => units.map((unit) => {
      const locations = new Map(activeLocations(unit).map((l) => [l.id, l]))
      let timed = false
      const parts: string[] = []
      for (const line of this.lines.lines(unit.id, true)) {
        const location = locations.get(line.locationId)
        if (location === undefined) continue
        const service = unit.services.get(line.id)
        if (location.hours.weekly !== null || location.hours.closedDates.length > 0 || (service?.hours ?? null) !== null) timed = true
        const state = this.openState(location, service, now)
        parts.push(`${line.locationId}/${line.id}:${state.open ? 'open' : `closed-${state.opensAt ?? 'never'}`}`)
      }
      return { queueUnitId: unit.id, signature: parts.join(','), timed }
    }))
  }

  /** A (location, service) line's open state at `now`, from the cache while it holds. */
  private openState(location: LocationConfiguration, service: ServiceConfiguration | undefined, now: number): OpenState {
    const key = `${location.id}\u0000${service?.id ?? ''}`
    const cached = this.openStates.get(key)
    // The clock may go back (tests inject one): a state is kept only inside the span it was computed for.
    if (cached !== undefined && cached.location === location && cached.service === service && now >= cached.from && now < cached.until) return cached.state
    const state = openStateAt(location.hours, service?.hours ?? null, now, location.timezone)
    const until = state.open ? (state.closesAt ?? Number.POSITIVE_INFINITY) : (state.opensAt ?? now + NO_OPENING_RECHECK_MS)
    if (this.openStates.size > 10_000) this.openStates.clear()
    this.openStates.set(key, { location, service, state, from: now, until })
    return state
  }
}

/** The unit's active locations, in id order (the boards show no other). */
function activeLocations(unit: UnitConfiguration): LocationConfiguration[] {
  return [...unit.locations.values()].filter((l) => l.active)
}

/**
 * The live state of a queue unit for screens (docs/display.md, contract §6): every active
 * service at every active location of the unit (no key restriction: display tokens see the
 * whole unit of their workspace) with waiting, estimate and now serving; the last 10 calls
 * (recalls included), newest first; and the unit's `stateRevision`, all read in one snapshot.
 * With `locationId`, only that location's entries. Null when the unit is unknown or belongs to
 * another workspace, or when `locationId` is not an active location of the unit.
 * O(services × locations + 10) per call, never a scan of the ticket history.
 */
export function queueDisplayState(
  deps: { tickets: { displayState(queueUnitId: string, workspaceId: string, now: number, locationId?: string): QueueDisplayState | null }; clock: Clock },
  queueUnitId: string,
  workspaceId: string,
  locationId?: string,
): QueueDisplayState | null {
  return deps.tickets.displayState(queueUnitId, workspaceId, deps.clock.now(), locationId)
}
