import type { Db } from '../db/open'
import { isoTime } from '../platform/clock'
import { planStable } from '../platform/sql'
import { averageServiceSeconds, logSigmaOfSpread, serviceSpread } from './wait'
import { counterFreeFor, estimateForNew, replayCalls, restOfCurrent, type LocationNow, type ReplayCounter, type ReplayTicket, type WaitEstimate } from './estimate'
import { callOrder, callsAhead, DEFAULT_PRIORITY_POLICY, type PriorityPolicy } from './priority'
import { UsualCounters } from './usual-counters'

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
  /**
   * Contract §28: the people ahead of a new normal ticket of the line, from its call order at
   * this revision (`LocationEstimates.placeForNew`): the number every surface says.
   */
  peopleAhead: number
  /** Contract §28: an open counter of the service holds nothing now. */
  counterFree: boolean
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
  open: number
  locationId: string
  serviceId: string
  normalCalls: number
  heldStatus: string | null
  heldCalledAt: number | null
  heldAvg: number | null
  heldDefault: number | null
  heldSpread: number | null
}

/** One WAITING ticket of the unit, as the estimator reads it. */
interface WaitingRow { id: string; serviceId: string; locationId: string; priority: number; front: number; queueRank: number; createdAt: number }

/**
 * A ticket's place in its (service, location) line at one state revision (contract §8, §19,
 * §28): the tickets of its line called before it, and the estimator's facts. What the wait
 * verdict (src/screens/shared/wait-verdict.ts) reads on every surface.
 */
export interface LineFacts extends WaitEstimate {
  /** Tickets of the line that will be called before it (its index in the line's call order). */
  ahead: number
}

/**
 * A location's estimates at one state revision (contract §19, estimate.ts): the replay of its
 * waiting tickets is run once, and once per new-ticket question (service, priority). The people
 * ahead come from the same waiting tickets in their line's call order (`callOrder`), so every
 * surface reading one revision says the same number (contract §28).
 */
export class LocationEstimates {
  private calls: ReturnType<typeof replayCalls> | null = null
  private readonly forNewCache = new Map<string, WaitEstimate>()
  private readonly newAheadCache = new Map<string, number>()
  /** Per waiting ticket: its service and its index in its line's call order. */
  private order: Map<string, { serviceId: string; ahead: number }> | null = null
  private lineSizes: Map<string, number> | null = null
  constructor(readonly state: LocationNow) {}

  /** A waiting ticket's estimate, or null when it is not waiting here. */
  forTicket(ticketId: string): WaitEstimate | null {
    this.calls ??= replayCalls(this.state)
    const at = this.calls.callsAt.get(ticketId)
    if (at === undefined) return null
    const serviceId = this.lineOrder().get(ticketId)?.serviceId
    return { estimatedWaitSeconds: Math.round(at), noCounterOpen: this.calls.noCounter.has(ticketId), counterFree: serviceId !== undefined && counterFreeFor(this.state, serviceId) }
  }

  /** Every waiting ticket's index in its line's call order (the unit's priority policy), built once. */
  private lineOrder(): Map<string, { serviceId: string; ahead: number }> {
    if (this.order !== null) return this.order
    const lines = new Map<string, ReplayTicket[]>()
    for (const t of this.state.waiting) {
      let line = lines.get(t.serviceId)
      if (line === undefined) lines.set(t.serviceId, (line = []))
      line.push(t)
    }
    this.order = new Map()
    this.lineSizes = new Map()
    for (const [serviceId, line] of lines) {
      this.lineSizes.set(serviceId, line.length)
      callOrder(line, this.state.policy).forEach((t, ahead) => this.order!.set(t.id, { serviceId, ahead }))
    }
    return this.order
  }

  /** A waiting ticket's place (people ahead and estimate), or null when it is not waiting here. */
  placeOf(ticketId: string): LineFacts | null {
    const inLine = this.lineOrder().get(ticketId)
    const estimate = this.forTicket(ticketId)
    return inLine === undefined || estimate === null ? null : { ahead: inLine.ahead, ...estimate }
  }

  /**
   * The place a ticket of `serviceId` issued now would get (`priority` or not): the people of
   * its line called before it (a normal one: all of them) and its estimate.
   */
  placeForNew(serviceId: string, priority: boolean): LineFacts {
    const key = `${serviceId}\u0000${priority ? 1 : 0}`
    let ahead = this.newAheadCache.get(key)
    if (ahead === undefined) {
      this.lineOrder()
      if (!priority) ahead = this.lineSizes!.get(serviceId) ?? 0
      else {
        const line = this.state.waiting.filter((t) => t.serviceId === serviceId)
        ahead = callsAhead(line, { id: NEW_PLACE_ID, priority, front: false, queueRank: Number.POSITIVE_INFINITY, createdAt: Number.POSITIVE_INFINITY }, this.state.policy)
      }
      this.newAheadCache.set(key, ahead)
    }
    return { ahead, ...this.forNew(serviceId, priority) }
  }

  /** The estimate of a ticket of `serviceId` issued now (`priority` or not). */
  forNew(serviceId: string, priority: boolean): WaitEstimate {
    const key = `${serviceId}\u0000${priority ? 1 : 0}`
    let found = this.forNewCache.get(key)
    if (found === undefined) this.forNewCache.set(key, (found = estimateForNew(this.state, serviceId, priority)))
    return found
  }
}

/** The ID `placeForNew` gives the ticket about to be issued in its line's call order (no real ticket ID is empty). */
const NEW_PLACE_ID = ''

/**
 * How long a unit's estimates are reused at one state revision: what the counters hold ages
 * with the clock, not with a write, so a revision's estimates are recomputed after this.
 */
export const ESTIMATES_FRESH_MS = 5_000

interface CachedEstimates { revision: number; at: number; locations: Map<string, LocationEstimates> }

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
  private readonly waitingStmt
  private readonly unitStmt
  private readonly averagesStmt
  private readonly cache = new Map<string, CachedEstimates>()
  private readonly locationsStmt
  private readonly usual: UsualCounters

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
    // Contract §19: every counter of the unit (open or not) with each service it serves, its INTERLEAVE
    // count and the ticket it holds (one per counter, contract §3) with its service's average.
    // O(open counters × their services).
    this.countersStmt = db.$client.query<OpenCounterRow, [string]>(`
      SELECT c.id AS counterId, c.open AS open, c.location_id AS locationId, cs.service_id AS serviceId, coalesce(k.normal_calls, 0) AS normalCalls,
        t.status AS heldStatus, t.called_at AS heldCalledAt, hst.avg_service_seconds AS heldAvg, hst.service_spread AS heldSpread, hs.default_service_seconds AS heldDefault
      FROM counters c INNER JOIN counter_services cs ON cs.counter_id = c.id
      LEFT JOIN counter_call_streaks k ON k.counter_id = c.id
      LEFT JOIN tickets t ON t.id = (SELECT h.id FROM tickets h WHERE h.counter_id = c.id AND h.status IN ('CALLED', 'SERVING') LIMIT 1)
      LEFT JOIN services hs ON hs.id = t.service_id
      LEFT JOIN service_stats hst ON hst.service_id = t.service_id AND hst.location_id = t.location_id
      WHERE c.queue_unit_id = ${planStable('?1')} AND c.active = 1
      ORDER BY c.id ASC, cs.service_id ASC`)
    this.locationsStmt = db.$client.query<{ id: string; timezone: string }, [string]>('SELECT id, timezone FROM locations WHERE queue_unit_id = ?1')
    this.usual = new UsualCounters(db)
    // The unit's WAITING tickets: the live line, never the history (tickets_open_by_status).
    this.waitingStmt = db.$client.query<WaitingRow, [string]>(`
      SELECT id, service_id AS serviceId, location_id AS locationId, priority, front, queue_rank AS queueRank, created_at AS createdAt
      FROM tickets WHERE status = 'WAITING' AND location_id IN (SELECT id FROM locations WHERE queue_unit_id = ?1)`)
    this.unitStmt = db.$client.query<{ revision: number; mode: string; normalPerPriority: number | null }, [string]>(
      'SELECT state_revision AS revision, priority_mode AS mode, normal_per_priority AS normalPerPriority FROM queue_units WHERE id = ?1',
    )
    this.averagesStmt = db.$client.query<{ serviceId: string; locationId: string; avg: number | null; defaultSeconds: number }, [string]>(`
      SELECT s.id AS serviceId, sl.location_id AS locationId, st.avg_service_seconds AS avg, s.default_service_seconds AS defaultSeconds
      FROM services s INNER JOIN service_locations sl ON sl.service_id = s.id
      LEFT JOIN service_stats st ON st.service_id = s.id AND st.location_id = sl.location_id
      WHERE s.queue_unit_id = ?1`)
  }

  /**
   * The unit's estimates per location (contract §19), read and replayed once per state
   * revision and at most `ESTIMATES_FRESH_MS` apart: O(waiting tickets × open counters) per
   * revision, never a scan of the ticket history.
   */
  estimates(queueUnitId: string): Map<string, LocationEstimates> {
    const now = this.now()
    const unit = this.unitStmt.get(queueUnitId)
    if (unit === null) return new Map()
    const cached = this.cache.get(queueUnitId)
    if (cached !== undefined && cached.revision === unit.revision && now >= cached.at && now - cached.at < ESTIMATES_FRESH_MS) return cached.locations
    const policy: PriorityPolicy = unit.mode === 'INTERLEAVE' && unit.normalPerPriority !== null ? { mode: 'INTERLEAVE', normalPerPriority: unit.normalPerPriority } : DEFAULT_PRIORITY_POLICY
    type State = { waiting: ReplayTicket[]; open: Map<string, ReplayCounter>; closed: Map<string, { id: string; serviceIds: string[] }>; averageSeconds: Map<string, number> }
    const states = new Map<string, State>()
    const stateOf = (locationId: string) => {
      let state = states.get(locationId)
      if (state === undefined) states.set(locationId, (state = { waiting: [], open: new Map(), closed: new Map(), averageSeconds: new Map() }))
      return state
    }
    for (const row of this.averagesStmt.all(queueUnitId)) stateOf(row.locationId).averageSeconds.set(row.serviceId, averageServiceSeconds(row.avg, row.defaultSeconds))
    for (const row of this.waitingStmt.all(queueUnitId)) {
      stateOf(row.locationId).waiting.push({ id: row.id, serviceId: row.serviceId, priority: row.priority === 1, front: row.front === 1, queueRank: row.queueRank, createdAt: row.createdAt })
    }
    for (const row of this.countersStmt.all(queueUnitId)) {
      const state = stateOf(row.locationId)
      const known = state.open.get(row.counterId) ?? state.closed.get(row.counterId)
      if (known !== undefined) {
        ;(known.serviceIds as string[]).push(row.serviceId)
        continue
      }
      if (row.open !== 1) {
        state.closed.set(row.counterId, { id: row.counterId, serviceIds: [row.serviceId] })
        continue
      }
      const held = row.heldStatus === null ? null : { calledAt: row.heldCalledAt }
      state.open.set(row.counterId, {
        id: row.counterId,
        serviceIds: [row.serviceId],
        restSeconds: restOfCurrent(held, averageServiceSeconds(row.heldAvg, row.heldDefault), now, logSigmaOfSpread(serviceSpread(row.heldSpread))),
        normalCalls: row.normalCalls,
      })
    }
    const timezones = new Map(this.locationsStmt.all(queueUnitId).map((l) => [l.id, l.timezone]))
    const locations = new Map<string, LocationEstimates>()
    for (const [locationId, state] of states) {
      const timezone = timezones.get(locationId)
      // The usual day is read only where someone waits: an empty location's estimates need no future.
      const day = timezone === undefined || state.waiting.length === 0 && state.open.size > 0 ? null : this.usual.dayAt(locationId, timezone, now)
      locations.set(locationId, new LocationEstimates({
        waiting: state.waiting,
        counters: [...state.open.values()],
        averageSeconds: state.averageSeconds,
        policy,
        usual: day === null ? undefined : { slots: day.slots, closed: [...state.closed.values()], secondsSinceMidnight: (now - day.midnight) / 1000, priorityArrivals: day.priorityArrivals },
      }))
    }
    this.cache.set(queueUnitId, { revision: unit.revision, at: now, locations })
    return locations
  }

  /** One location's estimates (see `estimates`); an unknown location has an empty one. */
  estimatesAt(queueUnitId: string, locationId: string): LocationEstimates {
    return this.estimates(queueUnitId).get(locationId) ?? new LocationEstimates({ waiting: [], counters: [], averageSeconds: new Map(), policy: DEFAULT_PRIORITY_POLICY })
  }

  /**
   * Every line of the unit ordered by location ID then service ID; `activeOnly` keeps active
   * services at active locations (the public reads and display feeds show only those).
   */
  lines(queueUnitId: string, activeOnly: boolean): QueueLine[] {
    const rows = this.linesStmt.all(queueUnitId)
    const wanted = activeOnly ? rows.filter((row) => row.serviceActive === 1 && row.locationActive === 1) : rows
    if (wanted.length === 0) return []
    const estimates = this.estimates(queueUnitId)
    return wanted.map((row) => {
      const waiting = row.waiting ?? 0
      // A new normal ticket goes behind every waiting one of its line, whatever the priority policy.
      const estimate = (estimates.get(row.locationId) ?? this.estimatesAt(queueUnitId, row.locationId)).placeForNew(row.id, false)
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
        peopleAhead: estimate.ahead,
        counterFree: estimate.counterFree,
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
