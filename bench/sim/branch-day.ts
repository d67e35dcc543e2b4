import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { createDeps, type AppDeps } from '../../src/root/deps'
import { ManualClock } from '../../src/platform/clock'
import { SequentialIds } from '../../src/platform/ids'
import type { Credential } from '../../src/platform/credentials'
import { applyProvisioning } from '../../src/provisioning/service'
import type { ProvisioningFile } from '../../src/provisioning/model'
import { QueueService } from '../../src/queue/service'
import { CounterService } from '../../src/counters/service'
import { DailyClose } from '../../src/counters/daily-close'
import { MetricsSink } from '../../src/ops/metric-hooks'
import { ApiError } from '../../src/platform/errors'
import { UsualCounters } from '../../src/tickets/usual-counters'
import { SeededRandom } from './random'
import type { EstimateSample } from './metrics'

const HOUR = 3_600_000
const MINUTE = 60_000
const WEEK = 7 * 24 * HOUR
/** The measured day (a Wednesday), local midnight of the branch, which runs on UTC. */
const MEASURED_DAY = Date.parse('2026-11-25T00:00:00.000Z')
const UNIT = 'qu_sim'
const LOCATION = 'loc_branch'

export interface ServiceSpec {
  id: string
  prefix: string
  /** What the service is provisioned with: the estimate before any completion. */
  defaultServiceSeconds: number
  /** Median and σ of the logarithm of the real service time (log-normal: long tail). */
  medianServiceSeconds: number
  sigma: number
  /** Arrivals per hour from `openHour`, one entry per hour (a Poisson process within each hour). */
  arrivalsPerHour: number[]
  /** Share of its tickets issued as priority (contract §8). */
  priorityShare: number
}

export interface CounterSpec {
  id: string
  services: string[]
  /** Hours of the day (may be fractional): opens at `opens`, closes at `closes` once its ticket is done. */
  opens: number
  closes: number
  breaks: { at: number; minutes: number }[]
}

export interface Scenario {
  name: string
  seed: number
  /** The hour the first arrival may come; arrivals stop after `arrivalsPerHour.length` hours. */
  openHour: number
  services: ServiceSpec[]
  counters: CounterSpec[]
  priority: { mode: 'FIRST' } | { mode: 'INTERLEAVE'; normalPerPriority: number }
  /** Share of called tickets whose customer does not come: marked no-show after `noShowGraceSeconds`. */
  noShowShare: number
  noShowGraceSeconds: number
  /**
   * Share of called tickets whose customer stepped away: after the grace the clerk requeues them
   * FIRST (contract §3) and calls the next; they are called again later.
   */
  requeueShare: number
  /** Seconds from the call to the start of service when the customer comes. */
  walkUpSeconds: number
  /** Share of served tickets transferred, LAST, to the scenario's first other service instead of completed (none with one service). */
  transferShare: number
  /**
   * The same weekday of this many weeks before is run first, not measured, so that what is
   * learned from history (service times; contract §19's counters usually open at that hour of
   * that weekday) starts warm; the daily close runs between the days as the server runs it.
   */
  warmUpWeeks: number
}

export interface TicketRecord extends EstimateSample {
  ticketId: string
  serviceId: string
  priority: boolean
  issuedAt: number
  /** The kiosk's figure: `deps.tickets.placeInLine(row)` of the new ticket (src/kiosk/service.ts `ticketView`). */
  productionEstimateSeconds: number
  /** Part one's formula, from the simulator's own reads of the same moment (see `partOneEstimate`). */
  partOneEstimateSeconds: number
}

export interface BranchDayOutcome {
  scenario: string
  /** Called tickets, in issue order. */
  called: TicketRecord[]
  issued: number
  priorityIssued: number
  /** Tickets still WAITING when every counter had closed: no real wait, excluded. */
  leftAtClose: number
  noShows: number
  /** Tickets requeued FIRST after their first call (each at most once). */
  requeues: number
  transfers: number
  completed: number
  /** What happened on the measured day, for bench/sim/diagnose.ts (contract §19's error breakdown). */
  trace: DayTrace
}

/** The measured day's events as the diagnosis needs them (times in ms). */
export interface DayTrace {
  /** Every call: who, which ticket, of which service then, and how it ended (release time). */
  calls: { at: number; counterId: string; ticketId: string; serviceId: string; releasedAt: number; outcome: 'served' | 'transfer' | 'no-show' | 'requeue' }[]
  /** Counter availability changes: open (taking tickets) or not. */
  counterChanges: { at: number; counterId: string; open: boolean }[]
  /** Per issued ticket: the waiting count of its line before it and the learned average the estimator read. */
  issues: Map<string, { waitingAhead: number; openCounters: number; averageSeconds: number }>
  /** The usual-counters roll-up the estimator used on the measured day (per counter, per 10-minute slot: 0 unknown, 1 present, 2 away). */
  usualSlots: Map<string, Uint8Array>
}

/**
 * Part one's estimate (contract §3), written here and not imported so it stays Part one's when
 * the production estimator in src/tickets changes: ceil((waiting + 1) / max(open, 1)) × average,
 * where waiting = the line's WAITING tickets before the new one (no priority order), open = the
 * open counters at the location serving the service, average = Part one's moving average of the
 * service's completions (`PartOneAverage`), else the service's `defaultServiceSeconds`.
 */
export function partOneEstimate(waiting: number, openCounters: number, averageSeconds: number): number {
  return Math.ceil((Math.max(waiting, 0) + 1) / Math.max(openCounters, 1)) * Math.max(averageSeconds, 0)
}

/** How many recent completions Part one's moving average roughly covers (src/tickets/wait.ts as of Part one). */
const PART_ONE_AVERAGE_WINDOW = 20

/**
 * Part one's learned service time, kept by the simulator from the completions it makes (start →
 * complete) rather than read from `service_stats`, whose meaning the new estimator may change:
 * the n-th completion weighs max(1/n, 1/20); read rounded to whole seconds.
 */
export class PartOneAverage {
  private average: number | null = null
  private completions = 0
  constructor(private readonly defaultSeconds: number) {}

  completed(durationSeconds: number): void {
    const sample = Math.max(durationSeconds, 0)
    this.average = this.average === null ? sample : this.average + (sample - this.average) * Math.max(1 / (this.completions + 1), 1 / PART_ONE_AVERAGE_WINDOW)
    this.completions++
  }

  seconds(): number {
    return this.average === null ? this.defaultSeconds : Math.round(this.average)
  }
}

function provisioningOf(scenario: Scenario): ProvisioningFile {
  return {
    workspaces: [{
      id: 'ws_sim', name: 'Simulated bank',
      queueUnits: [{
        id: UNIT, name: 'Simulated branch', active: true,
        priority: scenario.priority,
        locations: [{ id: LOCATION, name: 'Branch hall', timezone: 'UTC' }],
        services: scenario.services.map((s) => ({ id: s.id, name: s.id, prefix: s.prefix, active: true, locations: [LOCATION], defaultServiceSeconds: s.defaultServiceSeconds })),
        counters: scenario.counters.map((c) => ({ id: c.id, name: c.id, locationId: LOCATION, services: c.services })),
      }],
    }],
  } as ProvisioningFile
}

/**
 * A metrics sink that keeps nothing: the real one loads prom-client once it holds 1,000 events,
 * which reads the database after the simulator has closed it, and a simulated day has no
 * /metrics to answer.
 */
class DiscardedMetrics extends MetricsSink {
  override http(): void {}
  override ticketEvent(): void {}
  override writeBatch(): void {}
  override webhookGivenUp(): void {}
}

type SimEvent =
  | { kind: 'arrival'; serviceId: string; priority: boolean }
  | { kind: 'open' | 'close' | 'break-end'; counterId: string }
  | { kind: 'break'; counterId: string; minutes: number }
  | { kind: 'start' | 'finish' | 'no-show' | 'requeue'; counterId: string; ticketId: string }

interface Scheduled { at: number; seq: number; event: SimEvent }

/** Events in time order, ties in the order they were scheduled (determinism). */
class EventQueue {
  private items: Scheduled[] = []
  private seq = 0
  push(at: number, event: SimEvent): void {
    const item = { at, seq: this.seq++, event }
    let lo = 0
    let hi = this.items.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const m = this.items[mid]!
      if (m.at < at || (m.at === at && m.seq < item.seq)) lo = mid + 1
      else hi = mid
    }
    this.items.splice(lo, 0, item)
  }
  shift(): Scheduled | undefined {
    return this.items.shift()
  }
}

interface CounterState {
  spec: CounterSpec
  state: 'closed' | 'idle' | 'busy' | 'break'
  /** What to do once the ticket it holds is done. */
  pending: { kind: 'break'; minutes: number } | { kind: 'close' } | null
}

/**
 * One branch day in virtual time against the real ticket code: an in-memory migrated database,
 * the app's deps with a ManualClock, tickets issued through the Queue service (source KIOSK),
 * counters calling through the counters service's call-next (the operator API's path, with the
 * unit's priority policy), every write inside `deps.writes.now` as the routes' writes run.
 */
export function simulateBranchDay(scenario: Scenario): BranchDayOutcome {
  const random = new SeededRandom(scenario.seed)
  const db = openDatabase(':memory:')
  migrateDatabase(db.$client)
  const firstDay = MEASURED_DAY - scenario.warmUpWeeks * WEEK
  const clock = new ManualClock(firstDay)
  const deps: AppDeps = createDeps({ db, clock, ids: new SequentialIds(), log: () => {}, changePollMs: 0, metrics: new DiscardedMetrics(db) })
  applyProvisioning(db, provisioningOf(scenario), clock.now())
  const queue = new QueueService(deps)
  const countersService = new CounterService(deps, queue)
  const caller: Credential = {
    id: 'key_sim', kind: 'queue', ownerId: UNIT, name: 'simulator',
    scopes: null, locations: null, services: null, issuePerMinute: null, readPerMinute: null,
  }

  const waitingStmt = db.$client.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM tickets WHERE service_id = ?1 AND location_id = '${LOCATION}' AND status = 'WAITING'`)
  const openStmt = db.$client.query<{ n: number }, [string]>(`
    SELECT count(*) AS n FROM counters c JOIN counter_services cs ON cs.counter_id = c.id
    WHERE cs.service_id = ?1 AND c.location_id = '${LOCATION}' AND c.open = 1 AND c.active = 1`)
  const partOneAverages = new Map(scenario.services.map((s) => [s.id, new PartOneAverage(s.defaultServiceSeconds)]))
  const startedAt = new Map<string, number>()
  const dailyClose = new DailyClose(deps)
  const averageStmt = db.$client.query<{ avg: number | null }, [string]>(`SELECT avg_service_seconds AS avg FROM service_stats WHERE service_id = ?1 AND location_id = '${LOCATION}'`)
  const trace: DayTrace = { calls: [], counterChanges: [], issues: new Map(), usualSlots: new Map() }
  const openCall = new Map<string, DayTrace['calls'][number]>()
  let tracing = false
  const endCall = (counterId: string, at: number, outcome: DayTrace['calls'][number]['outcome']) => {
    const call = openCall.get(counterId)
    if (call === undefined) return
    call.releasedAt = at
    call.outcome = outcome
    openCall.delete(counterId)
  }
  const changed = (counterId: string, at: number, open: boolean) => {
    if (tracing) trace.counterChanges.push({ at, counterId, open })
  }

  const services = new Map(scenario.services.map((s) => [s.id, s]))
  const events = new EventQueue()
  const counterStates = new Map<string, CounterState>(scenario.counters.map((spec) => [spec.id, { spec, state: 'closed', pending: null }]))

  const scheduleDay = (dayStart: number) => {
    const at = (hour: number) => dayStart + Math.round(hour * HOUR)
    // Arrivals: per service and hour, exponential gaps at that hour's rate (memoryless, so
    // restarting at each hour boundary is still a Poisson process with a piecewise rate).
    for (const service of scenario.services) {
      service.arrivalsPerHour.forEach((rate, index) => {
        if (rate <= 0) return
        const end = scenario.openHour + index + 1
        let hour = scenario.openHour + index + random.exponential(rate)
        while (hour < end) {
          events.push(at(hour), { kind: 'arrival', serviceId: service.id, priority: random.chance(service.priorityShare) })
          hour += random.exponential(rate)
        }
      })
    }
    for (const spec of scenario.counters) {
      events.push(at(spec.opens), { kind: 'open', counterId: spec.id })
      for (const pause of spec.breaks) events.push(at(pause.at), { kind: 'break', counterId: spec.id, minutes: pause.minutes })
      events.push(at(spec.closes), { kind: 'close', counterId: spec.id })
    }
  }

  const records = new Map<string, TicketRecord>()
  const order: TicketRecord[] = []
  let noShows = 0
  const requeued = new Set<string>()
  let transfers = 0
  let completed = 0
  const write = <T>(work: () => T): T => deps.writes.now(work)

  const dispatch = (now: number) => {
    for (const counter of counterStates.values()) {
      if (counter.state !== 'idle') continue
      let ticketId: string
      try {
        // The clerk opens the counter (a no-op once open): call-next at a closed one is 409 (contract §27).
        ticketId = write(() => {
          countersService.openCounter(caller, counter.spec.id, now)
          return countersService.callNext(caller, counter.spec.id, now)
        }).id
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) continue
        throw error
      }
      counter.state = 'busy'
      if (tracing) {
        const call = { at: now, counterId: counter.spec.id, ticketId, serviceId: deps.tickets.byId(ticketId)!.serviceId, releasedAt: -1, outcome: 'served' as const }
        trace.calls.push(call)
        openCall.set(counter.spec.id, call)
      }
      const record = records.get(ticketId)
      // The real wait ends at the first call; a later call (after a transfer) is another line's.
      if (record !== undefined && record.realWaitSeconds < 0) record.realWaitSeconds = (now - record.issuedAt) / 1000
      const draw = random.next()
      if (draw < scenario.noShowShare) events.push(now + scenario.noShowGraceSeconds * 1000, { kind: 'no-show', counterId: counter.spec.id, ticketId })
      // Requeued once at most: a second call of the same ticket is served or a no-show.
      else if (draw < scenario.noShowShare + scenario.requeueShare && !requeued.has(ticketId)) {
        requeued.add(ticketId)
        events.push(now + scenario.noShowGraceSeconds * 1000, { kind: 'requeue', counterId: counter.spec.id, ticketId })
      } else events.push(now + scenario.walkUpSeconds * 1000, { kind: 'start', counterId: counter.spec.id, ticketId })
    }
  }

  const release = (counter: CounterState, now: number) => {
    const pending = counter.pending
    counter.pending = null
    if (pending?.kind === 'break') return takeBreak(counter, pending.minutes, now)
    if (pending?.kind === 'close') return closeCounter(counter, now)
    counter.state = 'idle'
    dispatch(now)
  }
  const takeBreak = (counter: CounterState, minutes: number, now: number) => {
    write(() => countersService.closeCounter(caller, counter.spec.id, now))
    changed(counter.spec.id, now, false)
    counter.state = 'break'
    events.push(now + minutes * MINUTE, { kind: 'break-end', counterId: counter.spec.id })
  }
  const closeCounter = (counter: CounterState, now: number) => {
    write(() => countersService.closeCounter(caller, counter.spec.id, now))
    changed(counter.spec.id, now, false)
    counter.state = 'closed'
  }
  const reopen = (counter: CounterState, now: number) => {
    write(() => countersService.openCounter(caller, counter.spec.id, now))
    changed(counter.spec.id, now, true)
    counter.state = 'idle'
    dispatch(now)
  }

  for (let day = firstDay; day <= MEASURED_DAY; day += WEEK) {
    const measured = day === MEASURED_DAY
    tracing = measured
    if (day !== firstDay) {
      // The server's daily close at local midnight: what an earlier day left open is closed.
      clock.set(day)
      dailyClose.runDue(day)
      for (const counter of counterStates.values()) {
        counter.state = 'closed'
        counter.pending = null
      }
    }
    // Only the measured day's outcomes are counted.
    noShows = 0
    transfers = 0
    completed = 0
    requeued.clear()
    scheduleDay(day)
    for (let next = events.shift(); next !== undefined; next = events.shift()) {
      const now = next.at
      clock.set(now)
      const event = next.event
      switch (event.kind) {
        case 'arrival': {
          const service = services.get(event.serviceId)!
          const waiting = waitingStmt.get(service.id)!.n
          const open = openStmt.get(service.id)!.n
          const partOne = partOneEstimate(waiting, open, partOneAverages.get(service.id)!.seconds())
          const learned = averageStmt.get(service.id)?.avg ?? null
          const row = write(() => queue.issueTicket(caller, { locationId: LOCATION, serviceId: service.id, priority: event.priority }, 'KIOSK', now))
          const production = deps.tickets.placeInLine(row)
          if (production === null) throw new Error(`ticket ${row.id} is not WAITING right after its issue`)
          const record: TicketRecord = {
            ticketId: row.id, serviceId: service.id, priority: event.priority, issuedAt: now,
            productionEstimateSeconds: production.estimatedWaitSeconds, partOneEstimateSeconds: partOne,
            estimateSeconds: production.estimatedWaitSeconds, realWaitSeconds: -1,
          }
          if (measured) {
            trace.issues.set(row.id, { waitingAhead: waiting, openCounters: open, averageSeconds: learned === null ? service.defaultServiceSeconds : Math.round(learned) })
            records.set(row.id, record)
            order.push(record)
          }
          dispatch(now)
          break
        }
        case 'open': {
          const counter = counterStates.get(event.counterId)!
          if (counter.state === 'closed') reopen(counter, now)
          break
        }
        case 'break': {
          const counter = counterStates.get(event.counterId)!
          if (counter.state === 'busy') counter.pending = { kind: 'break', minutes: event.minutes }
          else if (counter.state === 'idle') takeBreak(counter, event.minutes, now)
          break
        }
        case 'break-end': {
          const counter = counterStates.get(event.counterId)!
          if (counter.state === 'break') reopen(counter, now)
          break
        }
        case 'close': {
          const counter = counterStates.get(event.counterId)!
          if (counter.state === 'busy') counter.pending = { kind: 'close' }
          else if (counter.state !== 'closed') closeCounter(counter, now)
          break
        }
        case 'start': {
          const ticket = deps.tickets.byId(event.ticketId)!
          write(() => countersService.transition(caller, ticket.id, 'start', now))
          startedAt.set(ticket.id, now)
          const service = services.get(ticket.serviceId)!
          const seconds = Math.max(random.logNormal(service.medianServiceSeconds, service.sigma), 15)
          events.push(now + Math.round(seconds * 1000), { kind: 'finish', counterId: event.counterId, ticketId: event.ticketId })
          break
        }
        case 'finish': {
          const ticket = deps.tickets.byId(event.ticketId)!
          const counter = counterStates.get(event.counterId)!
          const target = scenario.services.find((s) => s.id !== ticket.serviceId)
          if (target !== undefined && random.chance(scenario.transferShare)) {
            write(() => countersService.transfer(caller, ticket.id, target.id, 'LAST', now))
            endCall(event.counterId, now, 'transfer')
            transfers++
          } else {
            write(() => countersService.transition(caller, ticket.id, 'complete', now))
            endCall(event.counterId, now, 'served')
            partOneAverages.get(ticket.serviceId)!.completed((now - startedAt.get(ticket.id)!) / 1000)
            completed++
          }
          release(counter, now)
          break
        }
        case 'requeue': {
          write(() => countersService.requeue(caller, event.ticketId, 'FIRST', now))
          endCall(event.counterId, now, 'requeue')
          release(counterStates.get(event.counterId)!, now)
          break
        }
        case 'no-show': {
          write(() => countersService.transition(caller, event.ticketId, 'no-show', now))
          endCall(event.counterId, now, 'no-show')
          noShows++
          release(counterStates.get(event.counterId)!, now)
          break
        }
      }
    }

  }

  const called = order.filter((r) => r.realWaitSeconds >= 0)
  for (const [id, slots] of new UsualCounters(db).dayAt(LOCATION, 'UTC', MEASURED_DAY + 12 * HOUR).slots) trace.usualSlots.set(id, slots)
  db.$client.close()
  return { scenario: scenario.name, called, issued: order.length, priorityIssued: order.filter((r) => r.priority).length, leftAtClose: order.length - called.length, noShows, requeues: requeued.size, transfers, completed, trace }
}
