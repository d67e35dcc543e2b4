import type { QueueDeps } from './deps'
import type { Credential } from '../platform/credentials'
import { ApiError } from '../platform/errors'
import { isoTime } from '../platform/clock'
import { inReadTransaction } from '../platform/transactions'
import { acceptedLanguage, resolveName } from '../platform/names'
import { publicTicketJson, waitWhenClosed, type QueueLine } from '../tickets'
import { openStateAt, type LocationHours, type OpenState, type WeeklyHours } from '../structure'
import { QueueCodes } from './errors'
import { mayUseLocation, mayUseService } from '../access'
import { queueUnitInactive, type QueueService } from './service'
import { keptBody, type KeptBody } from '../platform/compression'

/** At most this many tickets are remembered for the ticket read; past it the map starts again empty. */
const MAX_CACHED_TICKETS = 10_000

/** A queue unit as the public reads need it, read in one snapshot, with the answers built from it. */
interface UnitView {
  active: boolean
  /** Contract §18: the unit's default language and the languages its names may be asked in. */
  defaultLanguage: string
  languages: string[]
  /** Active services at active locations (`Tickets.lines(unit, true)`). */
  lines: QueueLine[]
  /** Per credential ID and language: the services list's lines and its last body (see `ServicesBody`). */
  servicesBody: Map<string, ServicesBody>
  /** Per line (`lines`' index): its hours, and its open state kept for the span it holds (contract §18). */
  opening: LineOpening[]
  /**
   * Per credential ID and language: the state body's `services` array as JSON, and the last
   * body made from it (UTF-8, with its compressed forms once asked for) with the millisecond
   * its `generatedAt` names.
   */
  stateBodies: Map<string, { services: string; at: number; body: KeptBody }>
}

/**
 * The services list of one credential and language: the lines it shows, and the last body made
 * from them with the estimates of its closed lines (contract §19, §28: the time until the
 * service opens plus the estimate, counted at the read) as `closedWaits`. A body is reused while
 * those numbers are the same: always, while every line is open.
 */
interface ServicesBody {
  lines: { line: QueueLine; index: number }[]
  closedWaits: string
  body: KeptBody
}

/** A line's hours, and its open state at the last look, valid from `from` until `until` (its next opening or closing). */
interface LineOpening {
  location: LocationHours
  service: WeeklyHours | null
  timezone: string
  state: OpenState | null
  from: number
  until: number
}

/** A ticket as the ticket read needs it: what the access check compares and the body. */
interface TicketView {
  queueUnitId: string
  locationId: string
  serviceId: string
  /** UTF-8, with its compressed forms once asked for. */
  body: KeptBody
}

/**
 * The answers are kept as bytes: a string body is encoded to UTF-8 on every response that
 * carries it, which cost 1.3–3 µs of a ~14–24 µs answer in a bare Bun.serve (bench/analysis.md
 * "Hot reads"). Bun sends the same bytes for every request that shares them, without a copy.
 * Each body is a `KeptBody`: its brotli and gzip forms are made the first time a request asks
 * for them and kept beside it, so they live exactly as long as the plain bytes (contract §27).
 */
const utf8 = new TextEncoder()

/**
 * The public Queue reads (services list, live state, ticket read; public-api.md endpoints 1, 3
 * and 4) served from memory. What they show is read from the database once per change, not per
 * request: a unit's row and lines once, then each credential's view of them (its location and
 * service lists applied) as the JSON text of the response, once per credential; a ticket's
 * body once. Everything is dropped when `deps.changes` moves, i.e. right after every commit of
 * this process (every write path goes through `deps.writes`) and within a few milliseconds
 * of a change by another process (CLI: provisioning, keys, Edge authority), and built again
 * on the next read. What depends on the time (`generatedAt`) is added per request.
 */
export class QueueReadModel {
  private generation = Number.NaN
  private units = new Map<string, UnitView | null>()
  private tickets = new Map<string, TicketView>()

  constructor(private readonly deps: Pick<QueueDeps, 'db' | 'tickets' | 'changes'>, private readonly queue: QueueService) {}

  /**
   * Contract §18: the language `Accept-Language` asks for among the caller's unit's languages,
   * or null (the names are then in the unit's default language, and no Content-Language is sent).
   */
  language(caller: Credential, acceptLanguage: string | null): string | null {
    if (acceptLanguage === null) return null
    const unit = this.activeUnit(caller)
    return acceptedLanguage(acceptLanguage, unit.languages)
  }

  /**
   * Endpoint 1's body: `{"data":{"services":[…]}}` in UTF-8, names in `language` (null: the
   * default), each estimate as at `now`: a closed service's is the time until it opens plus the
   * estimate (contract §19, §28), so it is worked out at every read and the bytes are reused
   * only while those numbers stand. 403 QUEUE_UNIT_INACTIVE when the caller's unit is off.
   */
  servicesBody(caller: Credential, now: number, language: string | null = null): KeptBody {
    const unit = this.activeUnit(caller)
    // At most 1 + languages (≤ 20) bodies per credential: `language` is one of the unit's.
    const cacheKey = language === null ? caller.id : `${caller.id}\u0000${language}`
    let kept = unit.servicesBody.get(cacheKey)
    if (kept === undefined) {
      const lines = unit.lines.map((line, index) => ({ line, index })).filter(({ line }) => mayUseLocation(caller, line.locationId) && mayUseService(caller, line.id))
      kept = { lines, closedWaits: '', body: keptBody(new Uint8Array()) }
      unit.servicesBody.set(cacheKey, kept)
      kept.body = this.servicesBytes(unit, kept, language, now)
      return kept.body
    }
    // Every line open (the usual case): nothing to count, the bytes stand.
    const closedWaits = closedWaitsOf(unit, kept.lines, now)
    if (closedWaits !== kept.closedWaits) kept.body = this.servicesBytes(unit, kept, language, now)
    return kept.body
  }

  private servicesBytes(unit: UnitView, kept: ServicesBody, language: string | null, now: number): KeptBody {
    kept.closedWaits = closedWaitsOf(unit, kept.lines, now)
    const services = kept.lines.map(({ line, index }) => ({
      id: line.id,
      name: line.names === null ? line.name : resolveName(line.names, language, unit.defaultLanguage),
      prefix: line.prefix,
      locationId: line.locationId,
      waiting: line.waiting,
      estimatedWaitSeconds: waitWhenClosed(line.estimatedWaitSeconds, openingAt(unit.opening[index]!, now), now),
    }))
    return keptBody(utf8.encode(JSON.stringify({ data: { services } })))
  }

  /**
   * Endpoint 4's body in UTF-8: `{"data":{"generatedAt":…,"services":[…]}}`, the same bytes
   * `JSON.stringify` gives; names in `language` (null: the default). Reads of one credential
   * and language within the same millisecond share the bytes, and their compressed forms.
   */
  stateBody(caller: Credential, now: number, language: string | null = null): KeptBody {
    const unit = this.activeUnit(caller)
    const cacheKey = language === null ? caller.id : `${caller.id}\u0000${language}`
    let kept = unit.stateBodies.get(cacheKey)
    if (kept !== undefined && kept.at === now) return kept.body
    if (kept === undefined) {
      const services = JSON.stringify(allowed(unit.lines, caller).map((line) => ({
        id: line.id,
        name: line.names === null ? line.name : resolveName(line.names, language, unit.defaultLanguage),
        locationId: line.locationId,
        waiting: line.waiting,
        nowServing: line.nowServing === null ? null : {
          number: line.nowServing.number,
          counterName: line.nowServing.counterNames === null ? line.nowServing.counterName : resolveName(line.nowServing.counterNames, language, unit.defaultLanguage),
        },
      })))
      kept = { services, at: Number.NaN, body: keptBody(new Uint8Array()) }
      unit.stateBodies.set(cacheKey, kept)
    }
    kept.at = now
    kept.body = keptBody(utf8.encode(`{"data":{"generatedAt":"${isoTime(now)}","services":${kept.services}}}`))
    return kept.body
  }

  /**
   * Endpoint 3's body: `{"data":<QueueTicket>}`. 404 TICKET_NOT_FOUND for an unknown ticket and
   * for one the caller may not see alike (another unit, a location or service outside its lists).
   */
  ticketBody(caller: Credential, ticketId: string): KeptBody {
    this.activeUnit(caller)
    let ticket = this.tickets.get(ticketId)
    if (ticket === undefined) {
      const row = this.deps.tickets.byId(ticketId)
      if (row !== null) {
        ticket = { queueUnitId: row.queueUnitId, locationId: row.locationId, serviceId: row.serviceId, body: keptBody(utf8.encode(JSON.stringify({ data: publicTicketJson(row) }))) }
        if (this.tickets.size >= MAX_CACHED_TICKETS) this.tickets.clear()
        this.tickets.set(ticketId, ticket)
      }
    }
    if (ticket === undefined || ticket.queueUnitId !== caller.ownerId || !mayUseLocation(caller, ticket.locationId) || !mayUseService(caller, ticket.serviceId)) {
      throw new ApiError(404, QueueCodes.TICKET_NOT_FOUND, 'no such ticket for this key')
    }
    return ticket.body
  }

  /** A line's hours (its location's, narrowed by its service's), read with the unit's snapshot. */
  private openingOf(queueUnitId: string, line: QueueLine): LineOpening {
    const location = this.queue.locationOf(queueUnitId, line.locationId)
    const service = this.queue.serviceOf(queueUnitId, line.id)
    return {
      location: location === null ? { weekly: null, closedDates: [], lastTicketMinutesBeforeClose: 0 } : location.hours,
      service: service === null ? null : service.hours,
      timezone: location?.timezone ?? 'UTC',
      state: null,
      from: 0,
      until: 0,
    }
  }

  /** The caller's unit as it stands now; 403 QUEUE_UNIT_INACTIVE when it is switched off or gone. */
  private activeUnit(caller: Credential): UnitView {
    const generation = this.deps.changes.current()
    if (generation !== this.generation) {
      this.generation = generation
      this.units = new Map()
      this.tickets = new Map()
    }
    let unit = this.units.get(caller.ownerId)
    if (unit === undefined) {
      // The unit's row and its lines from one snapshot.
      unit = inReadTransaction(this.deps.db, () => {
        const row = this.queue.queueUnit(caller.ownerId)
        if (row === null) return null
        const lines = row.active ? this.deps.tickets.lines(row.id, true) : []
        return {
          active: row.active,
          defaultLanguage: row.defaultLanguage,
          languages: row.languages,
          lines,
          opening: lines.map((line) => this.openingOf(row.id, line)),
          servicesBody: new Map<string, ServicesBody>(),
          stateBodies: new Map<string, { services: string; at: number; body: KeptBody }>(),
        }
      })
      this.units.set(caller.ownerId, unit)
    }
    if (unit === null || !unit.active) throw queueUnitInactive()
    return unit
  }
}

/**
 * A closed line's estimate as at `now` (the time until it opens plus the estimate), one entry
 * per closed line of `lines`: the empty string while all are open. Two reads with the same
 * string show the same numbers.
 */
function closedWaitsOf(unit: UnitView, lines: ServicesBody['lines'], now: number): string {
  let out = ''
  for (const { line, index } of lines) {
    const state = openingAt(unit.opening[index]!, now)
    if (!state.open) out += `${index}:${waitWhenClosed(line.estimatedWaitSeconds, state, now)},`
  }
  return out
}

/** A line's open state at `now`, worked out again only when `now` leaves the span the last one holds for. */
function openingAt(opening: LineOpening, now: number): OpenState {
  // The clock may go back (tests inject one): a state holds only inside the span it was worked out for.
  if (opening.state !== null && now >= opening.from && now < opening.until) return opening.state
  const state = openStateAt(opening.location, opening.service, now, opening.timezone)
  opening.state = state
  opening.from = now
  // Closed with no opening ahead: looked at again within the hour (the search horizon moves).
  opening.until = state.open ? (state.closesAt ?? Number.POSITIVE_INFINITY) : (state.opensAt ?? now + 60 * 60_000)
  return state
}

/** Active services at active locations, once per (service, location), within the key's lists. */
function allowed(lines: QueueLine[], caller: Credential): QueueLine[] {
  return caller.locations === null && caller.services === null
    ? lines
    : lines.filter((line) => mayUseLocation(caller, line.locationId) && mayUseService(caller, line.id))
}
