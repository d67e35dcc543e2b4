import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm'
import type { Db } from '../db/open'
import type { IdGenerator } from '../platform/ids'
import type { Logger } from '../platform/log'
import type { WriteBatcher } from '../platform/write-batch'
import { isoTime } from '../platform/clock'
import { WebhookOutbox } from '../webhooks/outbox'
import type { TicketEventType } from '../webhooks/outbox'
import { tickets, ticketEvents, ticketCalls } from './tables'
import { TicketStore, ticketJson, type NewTicket, type TicketRow } from './store'
import { TicketWriter, type TransitionWrite } from './writer'
import { QueueLines, type QueueLine } from './lines'
import { QueueRevisions, type QueueChange } from './changes'
import { QueueDisplayReader, type QueueDisplayState } from './display-state'
import { OPEN_STATUSES, type TransitionRule } from './transitions'
import { estimatedWaitSeconds } from './wait'

/** One entry of a ticket's history (`ticket_events`), as stored. */
export interface TicketEventRow {
  id: number
  type: string
  fromStatus: string | null
  toStatus: string
  counterId: string | null
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
  /** Told each ticket event once its write committed (`lobby_tickets_total`). */
  onEvent?: (type: TicketEventType) => void
  /** Contract §10: a new ticket's tracking code (tests inject predictable ones). */
  trackingCodes?: () => string
}

/** Where a WAITING ticket stands in its line: who is ahead, and the estimate for it. */
export interface TicketPosition {
  /** WAITING tickets of the same service and location that will be called before it. */
  peopleAhead: number
  estimatedWaitSeconds: number
}

/**
 * The one owner of ticket state: the tables `tickets`, `ticket_sequences`, `ticket_events`,
 * `ticket_calls` and `service_stats`, and every statement over them. Built once per app (in
 * `createDeps`) and reached by the features through `deps.tickets`; its statements are prepared
 * on first use (not while the server starts) and belong to this object.
 *
 * Writes (`issue`, `transition`, `touch`, the daily-close helpers) must run inside a write of
 * `deps.writes` (`run` for requests, group commit; `now` for background work): the immediate
 * transaction is already open, and the listeners hear of the change only after its COMMIT.
 * Every ticket change ends in `changed`, the one place where what must commit with any
 * ticket change is written (today: the webhook outbox rows and the unit's `stateRevision`).
 */
export class Tickets {
  private prepared: Parts | undefined
  private completedStmt: import('bun:sqlite').Statement<{ served: number }, [string, string]> | undefined

  constructor(private readonly deps: TicketsDeps) {}

  private get parts(): Parts {
    return (this.prepared ??= prepareParts(this.deps, (row, type, now) => this.changed(row, type, now)))
  }

  // ---- writes ---------------------------------------------------------------------------

  /**
   * Writes a new WAITING ticket (its number, its rank at the end of the line, its `created`
   * event, the waiting count) and the change step (webhook `ticket.created`, `stateRevision`).
   * The caller has checked that it may be issued.
   */
  issue(input: NewTicket, now: number): TicketRow {
    const row = this.parts.store.insertTicket(input, now)
    this.changed(row, 'ticket.created', now)
    return row
  }

  /** Applies one transition to `before` (read in this write); returns the ticket as written. */
  transition(before: TicketRow, write: TransitionWrite, now: number): TicketRow {
    return this.parts.writer.apply(before, write, now)
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
   * every ticket change plug in here.
   */
  private changed(row: TicketRow, type: TransitionRule['webhook'], now: number): void {
    this.parts.outbox.enqueue(row.queueUnitId, type, ticketJson(row), now)
    const onEvent = this.deps.onEvent
    if (onEvent !== undefined) this.deps.writes.afterCommit(() => onEvent(type))
    this.parts.revisions.bump(row.queueUnitId)
  }

  // ---- numbering and places in line ----------------------------------------------------

  /** The rank behind every WAITING ticket of the location (requeue/transfer LAST). */
  lastRankAt(locationId: string): number {
    return this.parts.store.nextQueueRank(locationId)
  }

  /** The rank in front of every WAITING ticket of the location (requeue/transfer FIRST). */
  firstRankAt(locationId: string): number {
    return this.parts.store.firstQueueRank(locationId)
  }

  // ---- reads ----------------------------------------------------------------------------

  byId(id: string): TicketRow | null {
    return this.parts.store.byId(id)
  }

  /** The ticket of a tracking code (contract §10), or null. */
  byTrackingCode(code: string): TicketRow | null {
    return this.parts.store.byTrackingCode(code)
  }

  /**
   * A WAITING ticket's place: the WAITING tickets of its service at its location ahead of it in
   * call order (queue rank, then age, then ID: call-next's order), and contract §3's estimate
   * for that many ahead. A ticket no longer waiting has nobody ahead and no wait.
   */
  position(row: TicketRow): TicketPosition {
    if (row.status !== 'WAITING') return { peopleAhead: 0, estimatedWaitSeconds: 0 }
    const peopleAhead = this.parts.aheadStmt.get(row.serviceId, row.locationId, row.queueRank, row.createdAt, row.id)?.ahead ?? 0
    const line = this.lines(row.queueUnitId, false).find((l) => l.id === row.serviceId && l.locationId === row.locationId)
    const estimate = line === undefined ? 0 : estimatedWaitSeconds(peopleAhead, line.openCounters, line.averageServiceSeconds)
    return { peopleAhead, estimatedWaitSeconds: estimate }
  }

  /** The CALLED or SERVING ticket a counter holds (contract §3: one at most), or null. */
  heldBy(counterId: string): TicketRow | null {
    return this.parts.heldStmt.get({ id: counterId }) ?? null
  }

  /** Open tickets of a unit (waiting or at a counter) in call order: bounded by the live queue, not the history. */
  openOfUnit(queueUnitId: string): TicketRow[] {
    return this.parts.unitOpenStmt.all({ unit: queueUnitId })
  }

  /** The first WAITING ticket at the location among `serviceIds`, by queue rank then age; null when none. */
  nextWaiting(locationId: string, serviceIds: string[]): TicketRow | null {
    if (serviceIds.length === 0) return null
    return this.deps.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.locationId, locationId), eq(tickets.status, 'WAITING'), inArray(tickets.serviceId, serviceIds)))
      .orderBy(asc(tickets.queueRank), asc(tickets.createdAt), asc(tickets.id))
      .limit(1)
      .get() ?? null
  }

  /** Tickets `counterId` completed on a business day (the desk's "served today"). */
  completedBy(counterId: string, businessDay: string): number {
    this.completedStmt ??= this.deps.db.$client.query<{ served: number }, [string, string]>(
      "SELECT count(*) AS served FROM tickets WHERE counter_id = ?1 AND status = 'COMPLETED' AND business_day = ?2",
    )
    return this.completedStmt.get(counterId, businessDay)?.served ?? 0
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

  /** The unit's current `stateRevision`, or null for an unknown unit. */
  revision(queueUnitId: string): QueueChange | null {
    return this.parts.revisions.current(queueUnitId)
  }

  // ---- the daily close ------------------------------------------------------------------

  /** Per location, the earliest business day of a ticket still open or of a listed call. */
  openDays(): { locationId: string; day: string }[] {
    return [...this.parts.dueTicketsStmt.all(), ...this.parts.dueCallsStmt.all()]
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

/** A ticket's history entry as the operator API shows it. */
export function ticketEventJson(row: TicketEventRow) {
  return {
    id: row.id,
    type: row.type,
    fromStatus: row.fromStatus,
    toStatus: row.toStatus,
    counterId: row.counterId,
    actor: row.actor,
    at: isoTime(row.at),
    detail: row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>),
  }
}

function prepareParts(deps: TicketsDeps, changed: (row: TicketRow, type: TransitionRule['webhook'], now: number) => void) {
  const db = deps.db
  const store = new TicketStore(db, deps.ids, deps.trackingCodes)
  const lines = new QueueLines(db)
  return {
    store,
    lines,
    writer: new TicketWriter(db, store, (after, rule, now) => changed(after, rule.webhook, now)),
    revisions: new QueueRevisions(db, deps.writes, deps.log),
    outbox: new WebhookOutbox(db, deps.ids),
    display: new QueueDisplayReader(db, lines),
    // Contract §3: one open ticket per counter, CALLED or SERVING.
    heldStmt: db
      .select()
      .from(tickets)
      .where(and(eq(tickets.counterId, sql.placeholder('id')), inArray(tickets.status, ['CALLED', 'SERVING'])))
      .limit(1)
      .prepare(),
    unitOpenStmt: db
      .select()
      .from(tickets)
      .where(and(eq(tickets.queueUnitId, sql.placeholder('unit')), inArray(tickets.status, ['WAITING', 'CALLED', 'SERVING'])))
      .orderBy(asc(tickets.queueRank), asc(tickets.createdAt), asc(tickets.id))
      .prepare(),
    // One range on `tickets_waiting_line` (service, location, status, rank).
    aheadStmt: db.$client.query<{ ahead: number }, [string, string, number, number, string]>(
      `SELECT count(*) AS ahead FROM tickets WHERE service_id = ?1 AND location_id = ?2 AND status = 'WAITING'
         AND (queue_rank < ?3 OR (queue_rank = ?3 AND (created_at < ?4 OR (created_at = ?4 AND id < ?5))))`,
    ),
    eventsStmt: db
      .select()
      .from(ticketEvents)
      .where(eq(ticketEvents.ticketId, sql.placeholder('id')))
      .orderBy(asc(ticketEvents.id))
      .prepare(),
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

type Parts = ReturnType<typeof prepareParts>
