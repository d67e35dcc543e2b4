import type { Database } from 'bun:sqlite'
import { DEFAULT_WAIT_TARGET_SECONDS } from './wait'
import { isSystemActor } from './writer'
import { ACTION_OF_EVENT, TRANSITION_EFFECTS, type TicketEventName } from './transitions'
import { rollupEffects, type CounterKey, type DailyKey, type RollupChange, type RollupTicket, type StaffKey } from './rollup-rules'
import {
  Histogram, addCounter, addDaily, addStaff, emptyCounterDelta, emptyDailyDelta, emptyStaffDelta, hourCounts, localHour, servedRowValues, sum,
  COUNTER_DISTRIBUTION_UPSERT, COUNTER_UPSERT, DAILY_DISTRIBUTION_UPSERT, DAILY_UPSERT, STAFF_DISTRIBUTION_UPSERT, STAFF_UPSERT,
  type CounterDelta, type DailyDelta, type StaffDelta,
} from './rollup-encoding'

/**
 * Rebuilds the roll-up tables (per line, per counter and, once they exist, per clerk) from the
 * ticket history (`tickets` and `ticket_events`), by replaying each ticket's events, with their
 * actors, through `rollupEffects`: run by the migration that adds the tables (inside its
 * transaction, src/db/migrate.ts), so a database with tickets from before gets its reports.
 * Within-target uses the services' targets as they are now. Accumulates in memory and writes
 * each row once.
 */
export function rebuildReportRollups(client: Database): { daily: number; counters: number; staff: number } {
  // Migration 0007 runs this before migration 0012 adds the per-clerk tables (and before any
  // actor could be a clerk): those are rebuilt only where they exist.
  const hasStaff = client.query<{ n: number }, []>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'report_staff_daily'").get()!.n > 0
  const tables = ['report_daily', 'report_daily_distributions', 'report_counter_daily', 'report_counter_distributions']
  if (hasStaff) tables.push('report_staff_daily', 'report_staff_distributions')
  for (const table of tables) client.exec(`DELETE FROM ${table}`)
  const zones = new Map(client.query<{ id: string; tz: string }, []>('SELECT id, timezone AS tz FROM locations').all().map((r) => [r.id, r.tz]))
  const targets = new Map<string, number>()
  const hasTarget = client.query<{ n: number }, []>("SELECT count(*) AS n FROM pragma_table_info('services') WHERE name = 'wait_target_seconds'").get()!.n > 0
  for (const r of client.query<{ id: string; target: number }, []>(`SELECT id, ${hasTarget ? 'wait_target_seconds' : DEFAULT_WAIT_TARGET_SECONDS} AS target FROM services`).all()) targets.set(r.id, r.target)

  const daily = new Map<string, { key: DailyKey; delta: DailyDelta; waitMax: number | null; wait: Histogram; service: Histogram }>()
  const counters = new Map<string, { key: CounterKey; delta: CounterDelta; service: Histogram }>()
  const staff = new Map<string, { key: StaffKey; delta: StaffDelta; service: Histogram }>()
  const apply = (change: RollupChange) => {
    for (const effect of rollupEffects(change)) {
      if ('day' in effect) {
        const id = `${effect.day.locationId}\u0000${effect.day.serviceId}\u0000${effect.day.businessDay}`
        let e = daily.get(id)
        if (e === undefined) daily.set(id, (e = { key: effect.day, delta: emptyDailyDelta(), waitMax: null, wait: new Histogram(), service: new Histogram() }))
        if (effect.kind === 'wait') {
          e.wait.add(effect.seconds)
          e.waitMax = e.waitMax === null ? effect.seconds : Math.max(e.waitMax, effect.seconds)
        } else if (effect.kind === 'serviceTime') e.service.add(effect.seconds)
        addDaily(e.delta, effect)
      } else if ('counter' in effect) {
        const id = `${effect.counter.counterId}\u0000${effect.counter.businessDay}`
        let e = counters.get(id)
        if (e === undefined) counters.set(id, (e = { key: effect.counter, delta: emptyCounterDelta(), service: new Histogram() }))
        if (effect.kind === 'counterServiceTime') e.service.add(effect.seconds)
        addCounter(e.delta, effect)
      } else if (hasStaff) {
        const id = `${effect.staff.username}\u0000${effect.staff.queueUnitId}\u0000${effect.staff.businessDay}`
        let e = staff.get(id)
        if (e === undefined) staff.set(id, (e = { key: effect.staff, delta: emptyStaffDelta(), service: new Histogram() }))
        if (effect.kind === 'staffServiceTime') e.service.add(effect.seconds)
        addStaff(e.delta, effect)
      }
    }
  }

  // Each ticket's events in order (the index ticket_events_ticket), replayed on a copy of the
  // ticket's state as it was: each event's transition changes the columns `TRANSITION_EFFECTS`
  // says, as the live writer did.
  const ticketsStmt = client.query<{ id: string; queueUnitId: string; locationId: string; serviceId: string; businessDay: string; createdAt: number }, []>(
    'SELECT id, queue_unit_id AS queueUnitId, location_id AS locationId, service_id AS serviceId, business_day AS businessDay, created_at AS createdAt FROM tickets ORDER BY id',
  )
  const eventsStmt = client.query<{ ticketId: string; type: string; counterId: string | null; actor: string; at: number; detail: string | null }, []>(
    'SELECT ticket_id AS ticketId, type, counter_id AS counterId, actor, at, detail FROM ticket_events ORDER BY ticket_id, id',
  )
  const events = eventsStmt.iterate()
  let pending = events.next()
  type EventRow = { ticketId: string; type: string; counterId: string | null; actor: string; at: number; detail: string | null }
  for (const ticket of ticketsStmt.iterate()) {
    // Events of tickets without a row (none expected) are skipped.
    while (!pending.done && pending.value.ticketId < ticket.id) pending = events.next()
    const history: EventRow[] = []
    while (!pending.done && pending.value.ticketId === ticket.id) {
      history.push(pending.value)
      pending = events.next()
    }
    const tz = zones.get(ticket.locationId) ?? 'UTC'
    const hourOf = (ms: number) => localHour(ms, tz)
    // The service it was issued for: the `fromServiceId` of its first transfer, else its own.
    const firstTransfer = history.find((e) => e.type === 'transferred')
    const from = firstTransfer === undefined ? undefined : parseDetail(firstTransfer.detail)?.fromServiceId
    let state: RollupTicket = {
      queueUnitId: ticket.queueUnitId, locationId: ticket.locationId, serviceId: typeof from === 'string' ? from : ticket.serviceId,
      businessDay: ticket.businessDay, counterId: null, callCount: 0, createdAt: ticket.createdAt, calledAt: null, servingAt: null, completedAt: null,
    }
    // A ticket whose history has no `created` entry still counts as issued.
    if (!history.some((e) => e.type === 'created')) {
      apply({ before: null, after: state, event: 'created', system: false, actor: 'system:rebuild', now: ticket.createdAt, hourOf, waitTargetOf: () => 0 })
    }
    for (const e of history) {
      const before = state
      const type = e.type as TicketEventName
      let after: RollupTicket = before
      if (type !== 'created') {
        const action = ACTION_OF_EVENT[type]
        if (action === undefined) continue
        // The transfer's target is in its event's detail; without one it stays in its service.
        const to = type === 'transferred' ? parseDetail(e.detail)?.toServiceId : undefined
        const changes = TRANSITION_EFFECTS[action].columns(before, {
          at: e.at,
          counterId: e.counterId,
          ...(typeof to === 'string' ? { toServiceId: to } : {}),
        })
        after = { ...before, ...changes }
      }
      apply({
        before: type === 'created' ? null : before,
        after,
        event: type,
        system: isSystemActor(e.actor) && type !== 'created',
        actor: e.actor,
        now: e.at,
        hourOf,
        waitTargetOf: (serviceId) => targets.get(serviceId) ?? DEFAULT_WAIT_TARGET_SECONDS,
      })
      state = after
    }
  }

  const dailyStmt = client.query(DAILY_UPSERT)
  const dailyHistStmt = client.query(DAILY_DISTRIBUTION_UPSERT)
  for (const { key, delta, waitMax, wait, service } of daily.values()) {
    if (delta.waits.length + delta.serviceTimes.length > 0) {
      dailyHistStmt.run(key.locationId, key.serviceId, key.businessDay, key.queueUnitId, delta.waits.length > 0 ? wait.bytes() : null, delta.serviceTimes.length > 0 ? service.bytes() : null)
    }
    dailyStmt.run(
      key.locationId, key.serviceId, key.businessDay, key.queueUnitId,
      delta.hours.length, delta.served, delta.noShow, delta.cancelled, delta.transferredOut,
      delta.waits.length, sum(delta.waits), delta.withinTarget, delta.serviceTimes.length, sum(delta.serviceTimes),
      waitMax, wait.percentile(0.5), wait.percentile(0.9), service.percentile(0.5), service.percentile(0.9),
      ...hourCounts(delta.hours), ...hourCounts(delta.servedHours),
    )
  }
  const counterStmt = client.query(COUNTER_UPSERT)
  const counterHistStmt = client.query(COUNTER_DISTRIBUTION_UPSERT)
  for (const { key, delta, service } of counters.values()) {
    const timed = delta.serviceTimes.length > 0
    if (timed) counterHistStmt.run(key.counterId, key.businessDay, service.bytes())
    counterStmt.run(key.counterId, key.businessDay, key.queueUnitId, key.locationId, ...servedRowValues(delta, timed ? service : null), delta.busy)
  }
  if (hasStaff) {
    const staffStmt = client.query(STAFF_UPSERT)
    const staffHistStmt = client.query(STAFF_DISTRIBUTION_UPSERT)
    for (const { key, delta, service } of staff.values()) {
      const timed = delta.serviceTimes.length > 0
      if (timed) staffHistStmt.run(key.username, key.queueUnitId, key.businessDay, service.bytes())
      staffStmt.run(key.username, key.queueUnitId, key.businessDay, ...servedRowValues(delta, timed ? service : null))
    }
  }
  return { daily: daily.size, counters: counters.size, staff: staff.size }
}

function parseDetail(detail: string | null): Record<string, unknown> | null {
  if (detail === null) return null
  try {
    return JSON.parse(detail) as Record<string, unknown>
  } catch {
    return null
  }
}
