import type { ManageDeps } from './deps'
import { breakReasonsOf } from '../structure'
import { isoTime } from '../platform/clock'
import { namesObject, storedName } from '../platform/names'
import { addDays, localDate, localDateTime, zonedInstant } from '../platform/time'
import { inReadTransaction } from '../platform/transactions'
import { openStateAt } from '../structure'
import type { TicketRow } from '../tickets'
import type { AppointmentService } from '../appointments'
import type { FloorAppointment, FloorCounter, FloorLocation, FloorService, FloorSnapshot } from './model'

/** The longest-waiting ticket of one (service, location) line: what the wait-target watch needs. */
export interface LineHead {
  queueUnitId: string
  locationId: string
  serviceId: string
  waitTargetSeconds: number
  /** Null when nobody waits. */
  head: { ticketId: string; ticketNumber: string; waitingSince: number } | null
}

/** One unit's floor at one revision: the snapshot's JSON text (sent as is to every view) and its line heads. */
export interface FloorState {
  queueUnitId: string
  workspaceId: string
  stateRevision: number
  revision: number
  snapshot: FloorSnapshot
  json: string
  heads: LineHead[]
  /** The first local midnight after the build among the unit's locations (ms): the floor's "today" ends there. */
  dayEndsAt: number
}

interface UnitRow { id: string; workspaceId: string; name: string; names: string | null; defaultLanguage: string; breakReasons: string; stateRevision: number; active: number }
interface CounterRow { id: string; name: string; names: string | null; locationId: string; open: number; updatedAt: number; serviceIds: string }
interface IntervalRow { counterId: string; kind: 'signed_in' | 'break'; reason: string | null; startedAt: number; username: string; displayName: string | null; userActive: number | null }

function prepareFloorStatements(deps: Pick<ManageDeps, 'db'>) {
  const sql = deps.db.$client
  return {
    unitStmt: sql.query<UnitRow, [string]>(
      `SELECT id, workspace_id AS workspaceId, name, names, default_language AS defaultLanguage, break_reasons AS breakReasons,
        state_revision AS stateRevision, active FROM queue_units WHERE id = ?1`,
    ),
    unitsStmt: sql.query<{ id: string; name: string; names: string | null; defaultLanguage: string }, []>(
      'SELECT id, name, names, default_language AS defaultLanguage FROM queue_units WHERE active = 1 ORDER BY id',
    ),
    countersStmt: sql.query<CounterRow, [string]>(
      `SELECT c.id, c.name, c.names, c.location_id AS locationId, c.open, c.updated_at AS updatedAt,
        (SELECT json_group_array(cs.service_id) FROM (SELECT service_id FROM counter_services WHERE counter_id = c.id ORDER BY service_id) cs) AS serviceIds
       FROM counters c WHERE c.queue_unit_id = ?1 AND c.active = 1 ORDER BY c.id`,
    ),
    // The unit's active lines (an active service at an active location) with their targets, in the floor's order.
    activeLinesStmt: sql.query<{ serviceId: string; locationId: string; waitTargetSeconds: number }, [string]>(
      `SELECT s.id AS serviceId, l.id AS locationId, s.wait_target_seconds AS waitTargetSeconds
       FROM service_locations sl JOIN services s ON s.id = sl.service_id JOIN locations l ON l.id = sl.location_id
       WHERE s.queue_unit_id = ?1 AND l.queue_unit_id = ?1 AND s.active = 1 AND l.active = 1 ORDER BY l.id, s.id`,
    ),
    // Each counter's open intervals: one seek per counter on staff_intervals_open_counter.
    intervalsStmt: sql.query<IntervalRow, [string]>(
      `SELECT s.counter_id AS counterId, s.kind, s.reason, s.started_at AS startedAt, s.username, u.display_name AS displayName,
        (u.state = 'active') AS userActive
       FROM counters c JOIN staff_intervals s ON s.counter_id = c.id AND s.ended_at IS NULL
       LEFT JOIN users u ON u.id = s.user_id
       WHERE c.queue_unit_id = ?1 AND c.active = 1 ORDER BY s.started_at`,
    ),
  }
}

/**
 * Contract §22's floor of a queue unit, computed from the live state the boards read (the
 * unit's open tickets, its lines with the one estimator's figures, counters, the clerks' open
 * intervals) and today's report roll-ups (what is per day: first calls within target, served per
 * counter), never from the ticket history. Built at most once per revision of the floor (the
 * unit's `stateRevision` plus its wait-target crossings, which the watch counts) and kept as
 * JSON text: 100 open views of a unit cost one build and one encoding per change.
 */
export class FloorModel {
  private readonly cache = new Map<string, FloorState>()
  /** Each unit's line heads at its last state revision: the watch's and the metric's, built without the floor. */
  private readonly headsCache = new Map<string, { stateRevision: number; heads: LineHead[] }>()
  /** Wait-target crossings seen per unit (the watch adds them): part of the floor's revision. */
  private readonly crossings = new Map<string, number>()
  /** Local midnights passed per unit since start: part of the floor's revision, since a new day changes the floor with no write. */
  private readonly dayTurns = new Map<string, number>()

  private prepared: ReturnType<typeof prepareFloorStatements> | undefined

  constructor(
    private readonly deps: Pick<ManageDeps, 'db' | 'tickets' | 'clock' | 'configuration'>,
    private readonly appointments: Pick<AppointmentService, 'list'>,
    /** Told when a kept floor turned to a new day (its views must hear of it: nothing else moved its revision). */
    private readonly dayTurned: (queueUnitId: string) => void = () => {},
  ) {}

  /** Prepared on first use (not while the server starts). */
  private get parts(): ReturnType<typeof prepareFloorStatements> {
    return (this.prepared ??= prepareFloorStatements(this.deps))
  }

  /** Every active unit (an admin's list), with its names. */
  activeUnits(): { id: string; name: string; names: Record<string, string> }[] {
    return this.parts.unitsStmt.all().map((u) => ({ id: u.id, name: u.name, names: namesObject(storedName(u.name, u.names), u.defaultLanguage) }))
  }

  /**
   * Each active line's longest-waiting ticket (null when nobody waits) with its target: what the
   * wait-target watch and the metric need, read once per state revision (one head read per line)
   * and never the whole floor, whose wait estimates replay every waiting ticket: the watch looks
   * every second whether or not anyone watches the floor. Null for an unknown unit.
   */
  heads(queueUnitId: string): LineHead[] | null {
    const change = this.deps.tickets.revision(queueUnitId)
    if (change === null) {
      this.headsCache.delete(queueUnitId)
      return null
    }
    const kept = this.headsCache.get(queueUnitId)
    if (kept !== undefined && kept.stateRevision === change.stateRevision) return kept.heads
    const heads = inReadTransaction(this.deps.db, () => {
      const oldest = new Map(this.deps.tickets.oldestWaiting(queueUnitId).map((h) => [`${h.serviceId}\u0000${h.locationId}`, h]))
      return this.parts.activeLinesStmt.all(queueUnitId).map((line): LineHead => {
        const head = oldest.get(`${line.serviceId}\u0000${line.locationId}`)
        return {
          queueUnitId, locationId: line.locationId, serviceId: line.serviceId, waitTargetSeconds: line.waitTargetSeconds,
          head: head === undefined ? null : { ticketId: head.ticketId, ticketNumber: head.ticketNumber, waitingSince: head.createdAt },
        }
      })
    })
    this.headsCache.set(queueUnitId, { stateRevision: change.stateRevision, heads })
    return heads
  }

  /**
   * Midnight at one of the locations of a kept floor: today's share, served counts and
   * appointments start again, though no write says so. The floor's revision moves and its views
   * are told (the watch asks each second, so within a second of midnight). True when it turned.
   */
  turnDay(queueUnitId: string, now: number = this.deps.clock.now()): boolean {
    const kept = this.cache.get(queueUnitId)
    if (kept === undefined || now < kept.dayEndsAt) return false
    this.dayTurns.set(queueUnitId, (this.dayTurns.get(queueUnitId) ?? 0) + 1)
    this.cache.delete(queueUnitId)
    this.dayTurned(queueUnitId)
    return true
  }

  /** The unit's floor now: the kept one while its revision holds, else built anew. Null for an unknown unit. */
  state(queueUnitId: string): FloorState | null {
    const change = this.deps.tickets.revision(queueUnitId)
    if (change === null) {
      this.cache.delete(queueUnitId)
      return null
    }
    this.turnDay(queueUnitId)
    const revision = change.stateRevision + (this.crossings.get(queueUnitId) ?? 0) + (this.dayTurns.get(queueUnitId) ?? 0)
    const kept = this.cache.get(queueUnitId)
    if (kept !== undefined && kept.revision === revision) return kept
    const built = this.build(queueUnitId, revision)
    if (built === null) this.cache.delete(queueUnitId)
    else this.cache.set(queueUnitId, built)
    return built
  }

  /** The kept floors (the metric's and the watch's view of what is in memory). */
  kept(): Iterable<FloorState> {
    return this.cache.values()
  }

  /** A wait-target crossing was seen: the floor's revision moves, so every view hears of it. */
  noteCrossing(queueUnitId: string): void {
    this.crossings.set(queueUnitId, (this.crossings.get(queueUnitId) ?? 0) + 1)
  }

  private build(queueUnitId: string, revision: number): FloorState | null {
    const { tickets, db } = this.deps
    return inReadTransaction(db, () => {
      const unit = this.parts.unitStmt.get(queueUnitId)
      if (unit === null) return null
      const now = this.deps.clock.now()
      const language = unit.defaultLanguage
      const names = (name: string, stored: string | null) => namesObject(storedName(name, stored), language)
      // The unit's locations, services and hours: the configuration read (kept across ticket changes).
      const configuration = this.deps.configuration.unit(queueUnitId)
      if (configuration === null) return null
      const serviceRows = [...configuration.services.values()]
      const targets = new Map(serviceRows.map((s) => [s.id, s.waitTargetSeconds]))
      const serviceNames = new Map(serviceRows.map((s) => [s.id, { name: s.defaultName, names: namesObject(s.name, language) }]))

      // The longest-waiting ticket of each line (one seek per line), and each counter's ticket:
      // never a read of every open ticket, so a build does not grow with the waiting line.
      const heads = new Map(tickets.oldestWaiting(queueUnitId).map((h) => [`${h.serviceId}\u0000${h.locationId}`, h]))
      const breaks = new Map<string, IntervalRow>()
      const clerks = new Map<string, IntervalRow>()
      for (const interval of this.parts.intervalsStmt.all(queueUnitId)) {
        if (interval.kind === 'break') breaks.set(interval.counterId, interval)
        else if (interval.userActive === 1) clerks.set(interval.counterId, interval)
      }
      const lines = tickets.lines(queueUnitId, true)
      const counterRows = this.parts.countersStmt.all(queueUnitId)
      const held = new Map<string, TicketRow>()
      for (const counter of counterRows) {
        const ticket = tickets.heldBy(counter.id)
        if (ticket !== null) held.set(counter.id, ticket)
      }
      const lineHeads: LineHead[] = []

      let dayEndsAt = Number.POSITIVE_INFINITY
      const locations: FloorLocation[] = [...configuration.locations.values()].filter((l) => l.active).map((location) => {
        const day = localDate(now, location.timezone)
        dayEndsAt = Math.min(dayEndsAt, zonedInstant(addDays(day, 1), '00:00', location.timezone))
        const todays = new Map(tickets.rollupReads.daily([queueUnitId], day, day, location.id, null).map((r) => [r.serviceId, r]))
        const servedToday = new Map(tickets.rollupReads.counters([queueUnitId], day, day, location.id).map((r) => [r.counterId, r.served]))
        const services: FloorService[] = lines.filter((line) => line.locationId === location.id).map((line) => {
          // Contract §18, §28: a closed service says when it opens, not an estimate.
          const opening = openStateAt(location.hours, configuration.services.get(line.id)?.hours ?? null, now, location.timezone)
          const target = targets.get(line.id) ?? 0
          const head = heads.get(`${line.id}\u0000${location.id}`)
          const seconds = head === undefined ? 0 : Math.max(0, Math.floor((now - head.createdAt) / 1000))
          lineHeads.push({
            queueUnitId, locationId: location.id, serviceId: line.id, waitTargetSeconds: target,
            head: head === undefined ? null : { ticketId: head.ticketId, ticketNumber: head.ticketNumber, waitingSince: head.createdAt },
          })
          const today = todays.get(line.id)
          const called = today?.waitCount ?? 0
          const within = today?.withinTarget ?? 0
          return {
            id: line.id,
            name: line.name,
            names: namesObject(line.names ?? line.name, language),
            waiting: line.waiting,
            longestWait: head === undefined ? null : { ticketNumber: head.ticketNumber, waitingSince: isoTime(head.createdAt), seconds },
            estimatedWaitSeconds: line.estimatedWaitSeconds,
            noCounterOpen: line.noCounterOpen,
            peopleAhead: line.peopleAhead,
            counterFree: line.counterFree,
            open: opening.open,
            opensAt: opening.open || opening.opensAt === null ? null : isoTime(opening.opensAt),
            waitTargetSeconds: target,
            overTarget: head !== undefined && seconds > target,
            today: { called, withinTarget: within, withinTargetShare: called === 0 ? null : Math.round((within / called) * 1000) / 1000 },
          }
        })
        const counters: FloorCounter[] = counterRows.filter((c) => c.locationId === location.id).map((c) => {
          const ticket = held.get(c.id) ?? null
          const onBreak = c.open === 1 ? null : breaks.get(c.id) ?? null
          const clerk = clerks.get(c.id) ?? null
          const since = ticket === null ? null : ticket.status === 'SERVING' ? ticket.servingAt : ticket.calledAt
          return {
            id: c.id,
            name: c.name,
            names: names(c.name, c.names),
            serviceIds: JSON.parse(c.serviceIds) as string[],
            state: c.open === 1 ? 'open' : onBreak !== null ? 'break' : 'closed',
            breakReason: onBreak?.reason ?? null,
            stateSince: isoTime(onBreak?.startedAt ?? c.updatedAt),
            clerk: clerk === null ? null : { username: clerk.username, displayName: clerk.displayName ?? clerk.username },
            ticket: ticket === null ? null : {
              id: ticket.id,
              ticketNumber: ticket.ticketNumber,
              serviceId: ticket.serviceId,
              status: ticket.status as 'CALLED' | 'SERVING',
              since: isoTime(since ?? ticket.createdAt),
            },
            servedToday: servedToday.get(c.id) ?? 0,
          }
        })
        // Today's appointments of the location: one seek on (location_id, local_date), a day's
        // bookings. Every booking, cancellation, check-in and missed marking bumps the unit's
        // stateRevision in its own write (AppointmentService.announce), so this is read once per
        // revision like the rest of the floor.
        const appointments: FloorAppointment[] = []
        let appointmentsToCome = 0
        for (const row of this.appointments.list(location.id, day)) {
          if (row.status === 'CANCELLED') continue
          const service = serviceNames.get(row.serviceId) ?? { name: row.serviceId, names: { [language]: row.serviceId } }
          if (row.status === 'BOOKED') appointmentsToCome += 1
          appointments.push({
            id: row.id,
            startAt: isoTime(row.startAt),
            time: localDateTime(row.startAt, location.timezone).time,
            serviceId: row.serviceId,
            serviceName: service.name,
            serviceNames: service.names,
            customerName: row.name,
            status: row.status,
          })
        }
        return { id: location.id, name: location.defaultName, names: namesObject(location.name, language), businessDay: day, timezone: location.timezone, services, counters, appointments, appointmentsToCome }
      })

      const reasons = breakReasonsOf(unit.breakReasons, unit.defaultLanguage)
      const snapshot: FloorSnapshot = {
        queueUnitId,
        name: unit.name,
        names: names(unit.name, unit.names),
        revision,
        generatedAt: isoTime(now),
        // Contract §28: the ids "Close counter" sends, and each one's names per language.
        breakReasons: reasons.map((r) => r.id),
        breakReasonNames: Object.fromEntries(reasons.map((r) => [r.id, r.names])),
        locations,
      }
      return { queueUnitId, workspaceId: unit.workspaceId, stateRevision: unit.stateRevision, revision, snapshot, json: JSON.stringify(snapshot), heads: lineHeads, dayEndsAt }
    })
  }
}
