import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/open'
import { DAILY_CLOSE_ACTOR, decodeActor, encodeActor } from '../platform/actor'
import { tickets, ticketCalls } from './tables'
import type { TicketRow, TicketStore } from './store'
import { nextServiceAverage, nextServiceSpread } from './wait'
import { TRANSITION_EFFECTS, type TicketAction, type TransitionInput, type TransitionRule } from './transitions'

/** One ticket change, as `Tickets.changed` receives it. */
export interface TicketChange {
  /** Null for an issue. */
  before: TicketRow | null
  after: TicketRow
  rule: Pick<TransitionRule, 'event' | 'webhook'>
  /** Who made it, encoded (`type:id`, src/platform/actor.ts); `SYSTEM_ACTOR` for the daily close. */
  actor: string
  now: number
  /** The location's time zone; given for an issue (the local hour it counts in). */
  timezone?: string
}

/** The daily close's actor as stored (`system:daily-close`, contract §16): the one change no person or device made. */
export const SYSTEM_ACTOR = encodeActor(DAILY_CLOSE_ACTOR)

/**
 * Whether a stored actor is the system's (the daily close), which measures no service or busy
 * time. Read through `decodeActor`, so a history row still in Part two's form (`system`, before
 * migration 0012) counts the same.
 */
export function isSystemActor(stored: string): boolean {
  return decodeActor(stored).type === 'system'
}

/** One transition to write: which one (its effects are `TRANSITION_EFFECTS[action]`), by whom, with what. */
export interface TransitionWrite {
  action: TicketAction
  /** Who made it, encoded (`type:id`, src/platform/actor.ts); `SYSTEM_ACTOR` for the daily close, which measures no service time. */
  actor: string
  /** What the transition's columns are computed from (the moment, the calling counter, the target service, the place in line). */
  input: TransitionInput
  /** Extra facts for the event history (e.g. transfer's services, requeue's position). */
  detail?: Record<string, unknown> | null
}

const LINE_STATUSES = new Set(['CALLED', 'SERVING'])

/**
 * Writes one ticket transition with everything that must commit with it (contract §3): the
 * ticket row, its `ticket_events` entry, the waiting counts and now-serving pointer in
 * `service_stats`, the average service time, the call list, then the common "ticket changed"
 * step (webhook outbox, `stateRevision`). Runs inside the caller's write; every statement is
 * synchronous, so the transaction holds no await.
 */
export class TicketWriter {
  private readonly callStmt
  private readonly nowServingStmt
  private readonly pointerStmt
  private readonly statsStmt
  private readonly averageStmt
  private readonly streakStmt

  constructor(
    private readonly db: Db,
    private readonly store: TicketStore,
    /** The step every ticket change ends with (see `Tickets.changed`). */
    private readonly changed: (change: TicketChange) => void,
  ) {
    this.callStmt = db
      .insert(ticketCalls)
      .values({
        queueUnitId: sql.placeholder('queueUnitId'),
        locationId: sql.placeholder('locationId'),
        ticketId: sql.placeholder('ticketId'),
        counterId: sql.placeholder('counterId'),
        businessDay: sql.placeholder('businessDay'),
        at: sql.placeholder('at'),
      })
      .prepare()
    // Contract §3 nowServing: the most recently called CALLED or SERVING ticket of the line.
    // "Most recently called" is its latest call or recall (ticket_calls is in call order);
    // the candidates are the line's tickets at counters, at most one per counter.
    this.nowServingStmt = db.$client.query<{ id: string }, [string, string]>(`
      SELECT t.id FROM tickets t
      WHERE t.service_id = ?1 AND t.location_id = ?2 AND t.status IN ('CALLED', 'SERVING')
      ORDER BY (SELECT max(c.id) FROM ticket_calls c WHERE c.ticket_id = t.id) DESC, t.called_at DESC, t.id DESC
      LIMIT 1`)
    this.pointerStmt = db.$client.query<unknown, [string, string, string | null]>(`
      INSERT INTO service_stats (service_id, location_id, now_serving_ticket_id) VALUES (?1, ?2, ?3)
      ON CONFLICT (service_id, location_id) DO UPDATE SET now_serving_ticket_id = excluded.now_serving_ticket_id`)
    // The service's default is where the estimate starts before its first completion (contract §19).
    this.statsStmt = db.$client.query<{ avg: number | null; n: number | null; spread: number | null; defaultSeconds: number }, [string, string]>(`
      SELECT st.avg_service_seconds AS avg, st.completed_count AS n, st.service_spread AS spread, s.default_service_seconds AS defaultSeconds
      FROM services s LEFT JOIN service_stats st ON st.service_id = s.id AND st.location_id = ?2
      WHERE s.id = ?1`)
    this.averageStmt = db.$client.query<unknown, [string, string, number, number, number]>(`
      INSERT INTO service_stats (service_id, location_id, avg_service_seconds, completed_count, service_spread) VALUES (?1, ?2, ?3, ?4, ?5)
      ON CONFLICT (service_id, location_id) DO UPDATE SET avg_service_seconds = excluded.avg_service_seconds, completed_count = excluded.completed_count,
        service_spread = excluded.service_spread`)
    // Contract §8 INTERLEAVE: the counter's normal calls since its last priority call
    // (normalCallsAfter: a priority call sets 0, a normal one adds 1). ?2 is 1 for a priority call.
    this.streakStmt = db.$client.query<unknown, [string, number]>(`
      INSERT INTO counter_call_streaks (counter_id, normal_calls) VALUES (?1, CASE WHEN ?2 = 1 THEN 0 ELSE 1 END)
      ON CONFLICT (counter_id) DO UPDATE SET normal_calls = CASE WHEN ?2 = 1 THEN 0 ELSE normal_calls + 1 END`)
  }

  /**
   * Applies `write` to `before` (read in this transaction; the caller checked the transition
   * is allowed) with the effects `TRANSITION_EFFECTS` gives it; returns the ticket as written.
   */
  apply(before: TicketRow, write: TransitionWrite, now: number): TicketRow {
    if (!this.db.$client.inTransaction) throw new Error('ticket transitions must run inside an immediate transaction')
    const rule = TRANSITION_EFFECTS[write.action]
    const after = this.db
      .update(tickets)
      .set({ ...rule.columns(before, write.input), status: rule.to })
      // Compare-and-set on the status read a moment ago in this same transaction.
      .where(and(eq(tickets.id, before.id), eq(tickets.status, before.status)))
      .returning()
      .get()
    if (after === undefined) throw new Error(`ticket ${before.id} changed under its own transaction`)

    this.store.appendEvent({
      ticketId: after.id,
      type: rule.event,
      fromStatus: before.status,
      toStatus: after.status,
      // The counter the event names: the one calling, or the one the ticket leaves.
      counterId: write.input.counterId !== undefined ? write.input.counterId : before.counterId,
      actor: write.actor,
      detail: write.detail ?? null,
    }, now)

    // Waiting counts: leaving a line −1, joining one +1 (a transfer joins another service's).
    if (before.status === 'WAITING' && after.status !== 'WAITING') this.store.adjustWaiting(before.serviceId, before.locationId, -1)
    if (after.status === 'WAITING' && before.status !== 'WAITING') this.store.adjustWaiting(after.serviceId, after.locationId, +1)

    // Every call at a counter (call-next or a specific ticket; not a recall) moves its count.
    if (rule.countsCall && after.counterId !== null) this.streakStmt.run(after.counterId, after.priority ? 1 : 0)

    if (rule.listsCall) {
      this.callStmt.run({
        queueUnitId: after.queueUnitId,
        locationId: after.locationId,
        ticketId: after.id,
        counterId: after.counterId!,
        businessDay: after.businessDay,
        at: now,
      })
    }

    // Now serving follows every move into, within or out of a counter.
    if (LINE_STATUSES.has(before.status) || LINE_STATUSES.has(after.status)) {
      this.refreshNowServing(before.serviceId, before.locationId)
      if (after.serviceId !== before.serviceId) this.refreshNowServing(after.serviceId, after.locationId)
    }

    // A close at midnight (actor `system:daily-close`) is no service time: it stays out of the average.
    // Contract §19: the time the completion held its counter, from its call (the walk to the
    // counter included): what the customers behind it wait for (docs/queue.md).
    if (rule.measuresService && !isSystemActor(write.actor) && after.servingAt !== null && after.completedAt !== null) {
      this.recordServiceTime(after.serviceId, after.locationId, (after.completedAt - (after.calledAt ?? after.servingAt)) / 1000)
    }

    this.changed({ before, after, rule, actor: write.actor, now })
    return after
  }

  /** Points `now_serving_ticket_id` of the line at its most recently called open ticket (or null). */
  refreshNowServing(serviceId: string, locationId: string): void {
    const current = this.nowServingStmt.get(serviceId, locationId)
    this.pointerStmt.run(serviceId, locationId, current?.id ?? null)
  }

  /**
   * Folds one service duration into the line's robust service-time estimate and its spread (see
   * `nextServiceAverage`, `nextServiceSpread`): O(1), in the write's transaction.
   */
  private recordServiceTime(serviceId: string, locationId: string, seconds: number): void {
    const stats = this.statsStmt.get(serviceId, locationId)
    const count = stats?.n ?? 0
    const average = nextServiceAverage(stats?.avg ?? null, count, seconds, stats?.defaultSeconds)
    const spread = nextServiceSpread(stats?.spread ?? null, stats?.avg ?? null, count, seconds, stats?.defaultSeconds)
    this.averageStmt.run(serviceId, locationId, average, count + 1, spread)
  }
}
