import type { ConfigurationRead } from '../structure'
import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm'
import type { Db } from '../db/open'
import type { IdGenerator } from '../platform/ids'
import type { Logger } from '../platform/log'
import type { WriteBatcher } from '../platform/write-batch'
import { isoTime, systemClock, type Clock } from '../platform/clock'
import { decodeActor } from '../platform/actor'
import { planStable } from '../platform/sql'
import { inReadTransaction } from '../platform/transactions'
import { tickets, ticketEvents, ticketCalls } from './tables'
import { TicketStore, issueActor, ticketJson, type NewTicket, type TicketRow } from './store'
import { TicketWriter, SYSTEM_ACTOR, isSystemActor, type TicketChange } from './writer'
import { ReportRollups } from './rollup-writer'
import { localHour } from './rollup-encoding'
import { QueueLines, type QueueLine } from './lines'
import { QueueRevisions, type QueueChange } from './changes'
import type { CommitListeners } from '../platform/listeners'
import { QueueDisplayReader, type OpenSignature, type QueueDisplayState } from './display-state'
import { assertTransition, DAILY_CLOSE, OPEN_STATUSES, type TicketAction, type TicketEventType, type TicketOutbox, type TransitionInput, type TransitionRule } from './transitions'
import { callOrder, callsAhead, chooseNext, DEFAULT_PRIORITY_POLICY, type LinePlace, type PriorityPolicy } from './priority'
import { RollupReads } from './rollup-reads'
import { MORE_TIME_LIMIT, planMoreTime } from './more-time'
import { TicketFeedback } from './feedback'
import { ApiError } from '../platform/errors'
import { TicketCodes } from './errors'
import { ApproachingWatch } from './approaching'

/**
 * The head of each lane (front, priority, normal) of each line in ?1 (a JSON array of service
 * IDs) at location ?2: one range each on tickets_waiting_line (service, location, status,
 * front, priority, rank). The front lane orders by rank across priority values (a sort of the
 * few front tickets) and names the index: left to itself SQLite took `tickets_open_by_status`
 * there and read every WAITING ticket of the location on every call-next (5.6 ms at 24,000
 * waiting against a few µs). Raw: read on every call-next.
 */
export const LANE_HEADS_SQL = `
      SELECT t.id, t.priority, t.front, t.queue_rank AS queueRank, t.created_at AS createdAt
      FROM json_each(?1) s JOIN tickets t ON t.id IN (
        (SELECT f.id FROM tickets f INDEXED BY tickets_waiting_line WHERE f.service_id = s.value AND f.location_id = ${planStable('?2')} AND f.status = 'WAITING' AND f.front = 1 ORDER BY f.queue_rank LIMIT 1),
        (SELECT p.id FROM tickets p WHERE p.service_id = s.value AND p.location_id = ${planStable('?2')} AND p.status = 'WAITING' AND p.front = 0 AND p.priority = 1 ORDER BY p.queue_rank LIMIT 1),
        (SELECT n.id FROM tickets n WHERE n.service_id = s.value AND n.location_id = ${planStable('?2')} AND n.status = 'WAITING' AND n.front = 0 AND n.priority = 0 ORDER BY n.queue_rank LIMIT 1))`

/** Where a requeued or transferred ticket joins the waiting line. */
export type LinePosition = 'FIRST' | 'LAST'

/** A ticket's place in its line (contract §8: the tickets that will really be called ahead). */
export interface PlaceInLine {
  /** Tickets of the line that will be called before it. */
  ahead: number
  /** Contract §19: seconds until it is called (estimate.ts); 0 with nobody ahead and a free open counter. */
  estimatedWaitSeconds: number
  /** Contract §19: no open counter serves its line now; the estimate assumed one. */
  noCounterOpen: boolean
  /** Contract §28: an open counter of its service holds nothing now (the wait verdict reads it). */
  counterFree: boolean
}

interface PlaceRow { id: string; priority: number; front: number; queueRank: number; createdAt: number }
const toPlace = (row: PlaceRow): LinePlace => ({ id: row.id, priority: row.priority === 1, front: row.front === 1, queueRank: row.queueRank, createdAt: row.createdAt })

/** One entry of a ticket's history (`ticket_events`), as stored. */
export interface TicketEventRow {
  id: number
  type: string
  fromStatus: string | null
  toStatus: string
  counterId: string | null
  /** `type:id` (src/platform/actor.ts); `ticketEventJson` shows it as `{type, id}`. */
  actor: string
  at: number
  detail: string | null
}

/** What `Tickets` needs from the app. */
export interface TicketsDeps {
  db: Db
  ids: IdGenerator
  log: Logger
  writes: WriteBatcher
  /** What wait estimates measure a counter's current service against (contract §19; default the system clock). */
  clock?: Clock
  /** Told each ticket event once its write committed (`lobby_tickets_total`). */
  onEvent?: (type: TicketEventType) => void
  /** Where each change's webhook event is written, inside its transaction (the root's one `WebhookOutbox`, src/webhooks). */
  outbox: TicketOutbox
  /** The app's registry of queue-change listeners (`deps.events.queueChanges`), told after each COMMIT. */
  queueChanges: CommitListeners<QueueChange>
  /** Contract §10: a new ticket's tracking code (tests inject predictable ones). */
  trackingCodes?: (now: number) => string
  /** The one cached read of the configuration tables (src/structure/configuration.ts): the boards' unit, locations and hours. */
  configuration: ConfigurationRead
}


/**
 * The one owner of ticket state: the tables `tickets`, `ticket_sequences`, `ticket_events`,
 * `ticket_calls`, `service_stats` and `counter_call_streaks`, and every statement over them. Built once per app (in
 * `createDeps`) and reached by the features through `deps.tickets`; its statements are prepared
 * on first use (not while the server starts) and belong to this object.
 *
 * Writes (`issue`, the transitions `call` … `transfer` and `closeDay`, `touch`, the daily-close
 * helpers) must run inside a write of `deps.writes` (`run` for requests, group commit; `now` for
 * background work): the immediate transaction is already open, and the listeners hear of the
 * change only after its COMMIT. What each transition changes is `TRANSITION_EFFECTS`
 * (transitions.ts). Every ticket change ends in `changed`, the one place where what must commit
 * with any ticket change is written (the webhook outbox rows, the report roll-ups and the unit's
 * `stateRevision`).
 */
export class Tickets {
  private prepared: Parts | undefined
  private dueDays: ReturnType<typeof prepareDueDays> | undefined
  private completedStmt: import('bun:sqlite').Statement<{ served: number }, [string, string]> | undefined
  private oldestStmt: import('bun:sqlite').Statement<{ serviceId: string; locationId: string; ticketId: string; ticketNumber: string; createdAt: number }, [string]> | undefined

  constructor(private readonly deps: TicketsDeps) {}

  private get parts(): Parts {
    return (this.prepared ??= prepareParts(this.deps, (change) => this.changed(change)))
  }

  private rollupReader: RollupReads | undefined

  /** The report roll-ups' reads (contract §12), prepared on first use. */
  get rollupReads(): RollupReads {
    return (this.rollupReader ??= new RollupReads(this.deps.db.$client))
  }

  // ---- writes ---------------------------------------------------------------------------

  /**
   * Writes a new WAITING ticket (its number, its rank at the end of the line, its `created`
   * event, the waiting count) and the change step (webhook `ticket.created`, `stateRevision`).
   * The caller has checked that it may be issued.
   */
  issue(input: NewTicket, now: number): TicketRow {
    const row = this.parts.store.insertTicket(input, now)
    this.changed({ before: null, after: row, rule: ISSUE, actor: issueActor(input, row.id), now, timezone: input.location.timezone })
    return row
  }

  // ---- transitions (contract §3): each checks its rule (409 INVALID_TRANSITION) and writes
  // what `TRANSITION_EFFECTS` says it changes, with its event, live counts and change step.
  // `ticket` was read in this write; each returns the ticket as written.

  /** WAITING→CALLED at `counterId` (the caller checked the counter may call it and is free). */
  call(ticket: TicketRow, counterId: string, actor: string, now: number): TicketRow {
    return this.move('call', ticket, actor, now, { counterId })
  }

  /** CALLED→CALLED: called again at its counter. */
  recall(ticket: TicketRow, actor: string, now: number): TicketRow {
    return this.move('recall', ticket, actor, now)
  }

  /** CALLED→SERVING. */
  start(ticket: TicketRow, actor: string, now: number): TicketRow {
    return this.move('start', ticket, actor, now)
  }

  /** SERVING→COMPLETED. */
  complete(ticket: TicketRow, actor: string, now: number): TicketRow {
    return this.move('complete', ticket, actor, now)
  }

  /** CALLED→NO_SHOW. */
  noShow(ticket: TicketRow, actor: string, now: number): TicketRow {
    return this.move('no-show', ticket, actor, now)
  }

  /** WAITING→CANCELLED. */
  cancel(ticket: TicketRow, actor: string, now: number): TicketRow {
    return this.move('cancel', ticket, actor, now)
  }

  /** CALLED→WAITING, FIRST or LAST in its line (see `placeAt`). */
  requeue(ticket: TicketRow, position: LinePosition, actor: string, now: number): TicketRow {
    return this.move('requeue', ticket, actor, now, { position, detail: { position } })
  }

  /**
   * CALLED/SERVING→WAITING in `toServiceId` (the caller checked the service may take it), FIRST
   * or LAST in its line there; number and priority kept.
   */
  transfer(ticket: TicketRow, toServiceId: string, position: LinePosition, actor: string, now: number, note: string | null = null): TicketRow {
    const detail = { fromServiceId: ticket.serviceId, toServiceId, position, ...(note === null ? {} : { note }) }
    return this.move('transfer', ticket, actor, now, { toServiceId, position, transferNote: note, detail })
  }

  /**
   * NO_SHOW→WAITING (contract §20 "Bring back"), FIRST or LAST in its line; the caller checked
   * the unit's `noShowGraceMinutes` since the no-show (`completedAt`).
   */
  reinstate(ticket: TicketRow, position: LinePosition, actor: string, now: number): TicketRow {
    return this.move('reinstate', ticket, actor, now, { position, detail: { position } })
  }

  /**
   * The daily close's system transition of a ticket still open from an earlier business day
   * (contract §3, `DAILY_CLOSE`): WAITING→CANCELLED, CALLED→NO_SHOW, SERVING→COMPLETED, by
   * the system (`SYSTEM_ACTOR`, `system:daily-close`), which measures no service or busy time.
   */
  closeDay(ticket: TicketRow, now: number): TicketRow {
    const action = DAILY_CLOSE[ticket.status as keyof typeof DAILY_CLOSE]
    return this.move(action, ticket, SYSTEM_ACTOR, now, { detail: { reason: 'daily_close', businessDay: ticket.businessDay } })
  }

  private move(
    action: TicketAction,
    ticket: TicketRow,
    actor: string,
    now: number,
    extra: { counterId?: string; toServiceId?: string; position?: LinePosition; transferNote?: string | null; detail?: Record<string, unknown> } = {},
  ): TicketRow {
    assertTransition(action, ticket.status)
    const input: TransitionInput = { at: now }
    if (extra.counterId !== undefined) input.counterId = extra.counterId
    if (extra.toServiceId !== undefined) input.toServiceId = extra.toServiceId
    if (extra.transferNote !== undefined) input.transferNote = extra.transferNote
    if (extra.position !== undefined) input.place = this.placeAt(ticket.locationId, extra.position)
    return this.parts.writer.apply(ticket, { action, actor, input, detail: extra.detail ?? null }, now)
  }

  /**
   * A change of the unit's live state that is not a ticket's (a counter opened or closed, the
   * daily close clearing calls): +1 on `stateRevision`, told to the listeners after commit.
   */
  touch(queueUnitId: string): void {
    this.parts.revisions.bump(queueUnitId)
  }

  /**
   * The step every ticket change ends with, inside its transaction (contract §3 Webhooks: the
   * event is written in the same transaction as the change). New things that must commit with
   * every ticket change plug in here: the webhook outbox, the report roll-ups (contract §12,
   * rollup-writer.ts) and the unit's `stateRevision`.
   */
  private changed(change: TicketChange): void {
    const { before, after, rule, now } = change
    this.parts.outbox.enqueue(after.queueUnitId, rule.webhook, decodeActor(change.actor), ticketJson(after), now)
    const rollups = this.parts.rollups
    rollups.record({
      before,
      after,
      event: rule.event,
      system: isSystemActor(change.actor) && before !== null,
      actor: change.actor,
      now,
      hourOf: (ms) => localHour(ms, change.timezone ?? rollups.timezone(after.locationId)),
      waitTargetOf: (serviceId) => rollups.waitTarget(serviceId),
    })
    const onEvent = this.deps.onEvent
    if (onEvent !== undefined) this.deps.writes.afterCommit(() => onEvent(rule.webhook))
    this.parts.revisions.bump(after.queueUnitId)
    // Contract §20: a line a ticket joined or left has a new head; looked at once per commit (approaching.ts).
    const watch = this.parts.approaching
    if (before?.status === 'WAITING') this.deps.writes.gather('tickets:approaching', { queueUnitId: before.queueUnitId, serviceId: before.serviceId, locationId: before.locationId, now }, watch.evaluate)
    if (after.status === 'WAITING' && (before?.status !== 'WAITING' || before.serviceId !== after.serviceId || before.queueRank !== after.queueRank)) {
      this.deps.writes.gather('tickets:approaching', { queueUnitId: after.queueUnitId, serviceId: after.serviceId, locationId: after.locationId, now }, watch.evaluate)
    }
  }

  /**
   * Contract §20 "I need more time": a WAITING ticket moves behind the next 3 tickets of its
   * line's call order (more-time.ts `planMoreTime`), at most twice (`more_time_count`). No
   * status changes: its `more_time` event (from and to WAITING) is written and the unit's
   * `stateRevision` moves, so boards, desks and phones update. No webhook and no roll-up figure
   * (docs/queue.md "More time"). The ranks of the location's waiting tickets behind the new
   * place move up by one, which keeps every line's order and the ranks unique.
   */
  moreTime(ticket: TicketRow, actor: string, now: number): TicketRow {
    if (ticket.status !== 'WAITING') {
      throw new ApiError(409, TicketCodes.TICKET_NOT_WAITING, `only a waiting ticket can ask for more time; this one is ${ticket.status}`, [{ path: '/status', message: ticket.status }])
    }
    if (ticket.moreTimeCount >= MORE_TIME_LIMIT) {
      throw new ApiError(409, TicketCodes.MORE_TIME_LIMIT_REACHED, `a ticket can ask for more time at most ${MORE_TIME_LIMIT} times`)
    }
    const { store, moreTimeStmts: stmts } = this.parts
    const waiting = this.parts.lineStmt.all(ticket.serviceId, ticket.locationId).map(toPlace)
    const plan = planMoreTime(waiting, ticket.id, this.priorityPolicy(ticket.queueUnitId))
    let rank: number
    if (plan.afterId === null) rank = store.nextQueueRank(ticket.locationId)
    else {
      rank = waiting.find((t) => t.id === plan.afterId)!.queueRank + 1
      stmts.shift.run(ticket.locationId, rank, ticket.id)
    }
    const after = this.deps.db
      .update(tickets)
      .set({ queueRank: rank, front: false, moreTimeCount: sql`${tickets.moreTimeCount} + 1` })
      .where(and(eq(tickets.id, ticket.id), eq(tickets.status, 'WAITING')))
      .returning()
      .get()
    if (after === undefined) throw new Error(`ticket ${ticket.id} changed under its own transaction`)
    store.appendEvent({
      ticketId: ticket.id, type: 'more_time', fromStatus: 'WAITING', toStatus: 'WAITING', counterId: null, actor,
      detail: { aheadBefore: plan.aheadBefore, aheadAfter: plan.aheadAfter, moreTimeCount: after.moreTimeCount },
    }, now)
    this.parts.revisions.bump(ticket.queueUnitId)
    // The tickets it let pass moved nearer the head: their line is looked at for approaching (approaching.ts).
    this.deps.writes.gather('tickets:approaching', { queueUnitId: ticket.queueUnitId, serviceId: ticket.serviceId, locationId: ticket.locationId, now }, this.parts.approaching.evaluate)
    return after
  }

  private feedbackStore: TicketFeedback | undefined

  /** Contract §20: the customers' ratings (`ticket_feedback`), prepared on first use. */
  get feedback(): TicketFeedback {
    return (this.feedbackStore ??= new TicketFeedback(this.deps.db.$client))
  }

  // ---- numbering and places in line ----------------------------------------------------

  /**
   * The place of a ticket that joins the location's waiting line again (requeue, transfer):
   * FIRST: a rank in front of every WAITING ticket of the location and the front lane (called
   * before priority tickets too, contract §8); LAST: a rank behind all of them, in its own lane.
   */
  private placeAt(locationId: string, position: LinePosition): { queueRank: number; front: boolean } {
    return position === 'FIRST'
      ? { queueRank: this.parts.store.firstQueueRank(locationId), front: true }
      : { queueRank: this.parts.store.nextQueueRank(locationId), front: false }
  }

  // ---- reads ----------------------------------------------------------------------------

  byId(id: string): TicketRow | null {
    return this.parts.store.byId(id)
  }

  /** The ticket of a tracking code (contract §10), or null. */
  byTrackingCode(code: string): TicketRow | null {
    return this.parts.store.byTrackingCode(code)
  }

  /** The CALLED or SERVING ticket a counter holds (contract §3: one at most), or null. */
  heldBy(counterId: string): TicketRow | null {
    return this.parts.heldStmt.get({ id: counterId }) ?? null
  }

  /**
   * The ticket of each (service, location) line of the unit that has waited longest (the
   * WAITING one taken first), for the live floor (contract §22). One seek per line on
   * `tickets_waiting_line` and a look at its waiting rows' `created_at`, raw statement, no row
   * mapping: O(waiting tickets) in SQLite, never the history, and no cost per open ticket in JS.
   */
  oldestWaiting(queueUnitId: string): { serviceId: string; locationId: string; ticketId: string; ticketNumber: string; createdAt: number }[] {
    this.oldestStmt ??= this.deps.db.$client.query<{ serviceId: string; locationId: string; ticketId: string; ticketNumber: string; createdAt: number }, [string]>(`
      SELECT x.serviceId AS serviceId, x.locationId AS locationId, t.id AS ticketId, t.ticket_number AS ticketNumber, t.created_at AS createdAt
      FROM (
        SELECT sl.service_id AS serviceId, sl.location_id AS locationId,
          (SELECT h.id FROM tickets h WHERE h.service_id = sl.service_id AND h.location_id = sl.location_id AND h.status = 'WAITING'
           ORDER BY h.created_at, h.id LIMIT 1) AS headId
        FROM service_locations sl INNER JOIN services s ON s.id = sl.service_id
        WHERE s.queue_unit_id = ${planStable('?1')}
      ) x INNER JOIN tickets t ON t.id = x.headId`)
    return this.oldestStmt.all(queueUnitId)
  }

  /** Open tickets of a unit (waiting or at a counter) in call order: bounded by the live queue, not the history. */
  openOfUnit(queueUnitId: string): TicketRow[] {
    return this.parts.unitOpenStmt.all({ unit: queueUnitId })
  }

  /**
   * The ticket `counterId`'s call-next takes at the location among `serviceIds` (contract §8,
   * `chooseNext`): the front first, then the unit's priority policy with the counter's count of
   * normal calls since its last priority call. Reads only the head of each lane of each line
   * (one index seek each on `tickets_waiting_line`), whatever the length of the lines. Null
   * when nothing waits.
   */
  nextWaiting(queueUnitId: string, locationId: string, serviceIds: string[], counterId: string): TicketRow | null {
    if (serviceIds.length === 0) return null
    const heads = this.parts.headsStmt.all(JSON.stringify(serviceIds), locationId).map(toPlace)
    const next = chooseNext(heads, this.priorityPolicy(queueUnitId), this.normalCallsAt(counterId))
    return next === null ? null : this.byId(next.id)
  }

  /** The queue unit's `priority` setting (FIRST when the unit is unknown). */
  priorityPolicy(queueUnitId: string): PriorityPolicy {
    const row = this.parts.policyStmt.get(queueUnitId)
    if (row?.mode === 'INTERLEAVE' && row.normalPerPriority !== null) return { mode: 'INTERLEAVE', normalPerPriority: row.normalPerPriority }
    return DEFAULT_PRIORITY_POLICY
  }

  /** The counter's normal calls since its last priority call (0 before its first call). */
  normalCallsAt(counterId: string): number {
    return this.parts.streakStmt.get(counterId)?.normalCalls ?? 0
  }

  /**
   * A waiting ticket's place in its (service, location) line: how many of the line's tickets
   * will be called before it under the unit's priority policy (its index in the line's call
   * order) and contract §19's estimate, both from the unit's estimates at this state revision
   * (`LocationEstimates.placeOf`, lines.ts), so every surface says the same number (contract
   * §28). O(the location's waiting tickets + the unit's open counters) once per revision. Null
   * when the ticket is not WAITING.
   */
  placeInLine(ticket: TicketRow): PlaceInLine | null {
    if (ticket.status !== 'WAITING') return null
    return this.place(ticket.queueUnitId, ticket.serviceId, ticket.locationId, toPlaceOf(ticket))
  }

  /**
   * Every waiting ticket's place in one (service, location) line, by ticket ID: the line read
   * once, so N tickets of a line cost one read, not N (the phone polls, contract §23). Each
   * entry is what `placeInLine` answers for that ticket.
   */
  placesInLine(queueUnitId: string, serviceId: string, locationId: string): Map<string, PlaceInLine> {
    return inReadTransaction(this.deps.db, () => {
      const waiting = this.parts.lineStmt.all(serviceId, locationId).map(toPlace)
      const estimates = this.parts.lines.estimatesAt(queueUnitId, locationId)
      const places = new Map<string, PlaceInLine>()
      for (const ticket of waiting) places.set(ticket.id, this.placeFrom(estimates, queueUnitId, serviceId, waiting, ticket))
      return places
    })
  }

  /** The place a ticket issued now would get (`priority` or not): for a kiosk's choice (`LocationEstimates.placeForNew`). */
  placeForNew(queueUnitId: string, serviceId: string, locationId: string, priority: boolean): PlaceInLine {
    return inReadTransaction(this.deps.db, () => this.parts.lines.estimatesAt(queueUnitId, locationId).placeForNew(serviceId, priority))
  }

  private place(queueUnitId: string, serviceId: string, locationId: string, target: LinePlace): PlaceInLine {
    return inReadTransaction(this.deps.db, () => {
      const estimates = this.parts.lines.estimatesAt(queueUnitId, locationId)
      const found = estimates.placeOf(target.id)
      if (found !== null) return found
      return this.placeFrom(estimates, queueUnitId, serviceId, this.parts.lineStmt.all(serviceId, locationId).map(toPlace), target)
    })
  }

  /**
   * A ticket's place from the unit's estimates at this revision; a ticket they do not hold (a
   * write that left the revision as it was) is placed in the line read now by the same order.
   */
  private placeFrom(estimates: ReturnType<QueueLines['estimatesAt']>, queueUnitId: string, serviceId: string, waiting: LinePlace[], target: LinePlace): PlaceInLine {
    const found = estimates.placeOf(target.id)
    if (found !== null) return found
    return { ...estimates.forNew(serviceId, target.priority), ...(estimates.forTicket(target.id) ?? {}), ahead: callsAhead(waiting, target, this.priorityPolicy(queueUnitId)) }
  }

  /** Tickets `counterId` completed on a business day (the desk's "served today"). */
  completedBy(counterId: string, businessDay: string): number {
    this.completedStmt ??= this.deps.db.$client.query<{ served: number }, [string, string]>(
      "SELECT count(*) AS served FROM tickets WHERE counter_id = ?1 AND status = 'COMPLETED' AND business_day = ?2",
    )
    return this.completedStmt.get(counterId, businessDay)?.served ?? 0
  }

  /** Contract §20: the NO_SHOW tickets marked at `counterId` at or after `since` (ms), latest first. */
  noShowsAt(counterId: string, since: number): TicketRow[] {
    return this.parts.noShowsStmt.all({ counter: counterId, since })
  }

  /** A ticket's whole history, oldest first. */
  events(ticketId: string): TicketEventRow[] {
    return this.parts.eventsStmt.all({ id: ticketId })
  }

  /** Every (service, location) line of the unit with its live counts and wait estimate. */
  lines(queueUnitId: string, activeOnly: boolean): QueueLine[] {
    return this.parts.lines.lines(queueUnitId, activeOnly)
  }

  /** The display feeds' queue state (see `queueDisplayState`). */
  displayState(queueUnitId: string, workspaceId: string, now: number, locationId?: string): QueueDisplayState | null {
    return this.parts.display.state(queueUnitId, workspaceId, now, locationId)
  }

  /** Every active unit's open state at `now`, for the display feeds' opening watch (see `QueueDisplayReader.openSignatures`). */
  openSignatures(now: number): OpenSignature[] {
    return this.parts.display.openSignatures(now)
  }

  /** The unit's current `stateRevision`, or null for an unknown unit. */
  revision(queueUnitId: string): QueueChange | null {
    return this.parts.revisions.current(queueUnitId)
  }

  // ---- the daily close ------------------------------------------------------------------

  /** Per location, the earliest business day of a ticket still open or of a listed call. */
  openDays(): { locationId: string; day: string }[] {
    const due = (this.dueDays ??= prepareDueDays(this.deps.db))
    return [...due.dueTicketsStmt.all(), ...due.dueCallsStmt.all()]
  }

  /** The location's tickets still open from a business day before `day`, in call order. */
  openBefore(locationId: string, day: string): TicketRow[] {
    return this.deps.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.locationId, locationId), inArray(tickets.status, [...OPEN_STATUSES]), lt(tickets.businessDay, day)))
      .orderBy(asc(tickets.queueRank), asc(tickets.createdAt), asc(tickets.id))
      .all()
  }

  /** Removes the location's recent calls of business days before `day`; returns how many. */
  clearCallsBefore(locationId: string, day: string): number {
    return this.deps.db
      .delete(ticketCalls)
      .where(and(eq(ticketCalls.locationId, locationId), lt(ticketCalls.businessDay, day)))
      .returning({ id: ticketCalls.id })
      .all().length
  }
}

function toPlaceOf(row: TicketRow): LinePlace {
  return { id: row.id, priority: row.priority, front: row.front, queueRank: row.queueRank, createdAt: row.createdAt }
}

/** A ticket's history entry as the operator API shows it. */
export function ticketEventJson(row: TicketEventRow) {
  return {
    id: row.id,
    type: row.type,
    fromStatus: row.fromStatus,
    toStatus: row.toStatus,
    counterId: row.counterId,
    actor: decodeActor(row.actor),
    at: isoTime(row.at),
    detail: row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>),
  }
}


/** Issue as a rule: the `created` event and webhook `ticket.created`. */
const ISSUE = { event: 'created', webhook: 'ticket.created' } as const

function prepareParts(deps: TicketsDeps, changed: (change: TicketChange) => void) {
  const db = deps.db
  const store = new TicketStore(db, deps.ids, deps.trackingCodes)
  const clock = deps.clock ?? systemClock
  const lines = new QueueLines(db, () => clock.now())
  const outbox = deps.outbox
  const policyStmt = db.$client.query<{ mode: string; normalPerPriority: number | null }, [string]>(
    'SELECT priority_mode AS mode, normal_per_priority AS normalPerPriority FROM queue_units WHERE id = ?1',
  )
  const policyOf = (queueUnitId: string): PriorityPolicy => {
    const row = policyStmt.get(queueUnitId)
    return row?.mode === 'INTERLEAVE' && row.normalPerPriority !== null ? { mode: 'INTERLEAVE', normalPerPriority: row.normalPerPriority } : DEFAULT_PRIORITY_POLICY
  }
  return {
    store,
    lines,
    writer: new TicketWriter(db, store, changed),
    rollups: new ReportRollups(db.$client, deps.writes),
    revisions: new QueueRevisions(db, deps.writes, deps.log, deps.queueChanges),
    outbox,
    approaching: new ApproachingWatch(db.$client, store, outbox, policyOf),
    display: new QueueDisplayReader(db, lines, deps.configuration),
    headsStmt: db.$client.query<PlaceRow, [string, string]>(LANE_HEADS_SQL),
    policyStmt: db.$client.query<{ mode: string; normalPerPriority: number | null }, [string]>(
      'SELECT priority_mode AS mode, normal_per_priority AS normalPerPriority FROM queue_units WHERE id = ?1',
    ),
    streakStmt: db.$client.query<{ normalCalls: number }, [string]>(
      'SELECT normal_calls AS normalCalls FROM counter_call_streaks WHERE counter_id = ?1',
    ),
    lineStmt: db.$client.query<PlaceRow, [string, string]>(`
      SELECT id, priority, front, queue_rank AS queueRank, created_at AS createdAt FROM tickets
      WHERE service_id = ?1 AND location_id = ?2 AND status = 'WAITING'`),
    // Contract §3: one open ticket per counter, CALLED or SERVING.
    heldStmt: db
      .select()
      .from(tickets)
      .where(and(eq(tickets.counterId, sql.placeholder('id')), inArray(tickets.status, ['CALLED', 'SERVING'])))
      .limit(1)
      .prepare(),
    // The tickets_counter_open index (counter, status): a counter's no-shows, then by time.
    noShowsStmt: db
      .select()
      .from(tickets)
      .where(and(eq(tickets.counterId, sql.placeholder('counter')), eq(tickets.status, 'NO_SHOW'), gte(tickets.completedAt, sql.placeholder('since'))))
      .orderBy(desc(tickets.completedAt), desc(tickets.id))
      .limit(20)
      .prepare(),
    unitOpenStmt: db
      .select()
      .from(tickets)
      .where(and(eq(tickets.queueUnitId, sql.placeholder('unit')), inArray(tickets.status, ['WAITING', 'CALLED', 'SERVING'])))
      .orderBy(asc(tickets.queueRank), asc(tickets.createdAt), asc(tickets.id))
      .prepare(),
    eventsStmt: db
      .select()
      .from(ticketEvents)
      .where(eq(ticketEvents.ticketId, sql.placeholder('id')))
      .orderBy(asc(ticketEvents.id))
      .prepare(),
    moreTimeStmts: {
      // Every waiting ticket of the location from rank ?2 up (but the moving one) one place back.
      shift: db.$client.query<unknown, [string, number, string]>(
        `UPDATE tickets SET queue_rank = queue_rank + 1 WHERE status = 'WAITING' AND location_id = ?1 AND queue_rank >= ?2 AND id <> ?3`),
    },
  }
}

type Parts = ReturnType<typeof prepareParts>

/**
 * The daily close's look for open business days, apart from the other parts: it runs before
 * the server serves (cold start), and on a day with nothing to close nothing else is needed.
 */
function prepareDueDays(db: Db) {
  return {
    dueTicketsStmt: db
      .select({ locationId: tickets.locationId, day: sql<string>`min(${tickets.businessDay})` })
      .from(tickets)
      .where(inArray(tickets.status, [...OPEN_STATUSES]))
      .groupBy(tickets.locationId)
      .prepare(),
    dueCallsStmt: db
      .select({ locationId: ticketCalls.locationId, day: sql<string>`min(${ticketCalls.businessDay})` })
      .from(ticketCalls)
      .groupBy(ticketCalls.locationId)
      .prepare(),
  }
}
