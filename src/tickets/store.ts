import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/open'
import type { IdGenerator } from '../platform/ids'
import { isoTime, isoOrNull } from '../platform/clock'
import { planStable } from '../platform/sql'
import type { PublicQueueTicket, QueueTicket, TicketSource } from './model'
import { tickets, ticketSequences, serviceStats, ticketEvents } from './tables'
import { businessDayAt, formatTicketNumber } from './numbering'
import { newTrackingCode, trackingPath } from './tracking'

export type TicketRow = typeof tickets.$inferSelect

/** What a new ticket needs; the caller has already checked that it may be issued. */
export interface NewTicket {
  queueUnitId: string
  location: { id: string; timezone: string }
  service: { id: string; prefix: string }
  source: TicketSource
  externalReference: string | null
  /** Contract §8: a priority ticket (the walk-in flag; never from the public API). */
  priority: boolean
  /** The credential that issued it (stored on the ticket: a kiosk reprints only its own tickets); null for the system. */
  credentialId: string | null
  /**
   * Who issued it, encoded (`type:id`, src/platform/actor.ts): the `actor` of its `created` event
   * and `ticket.created` webhook. A function of the new ticket's ID when the actor is named by
   * it: a customer taking a ticket on the join page is `customer:<ticket ID>` (contract §20).
   */
  actor: string | ((ticketId: string) => string)
  /** Contract §18: the language it was taken in (one of its unit's `languages`); absent or null = the unit's default. */
  language?: string | null
  /**
   * Contract §21: the appointment checked in (source APPOINTMENT). Its ticket is ranked just
   * before the first WAITING ticket of the location created after the slot start (see
   * `appointmentQueueRank`), so walk-ins who came after the slot start are called after it.
   */
  appointment?: { id: string; startAt: number } | null
}

/** The encoded actor of a new ticket (`NewTicket.actor`, resolved with its ID). */
export function issueActor(input: Pick<NewTicket, 'actor'>, ticketId: string): string {
  return typeof input.actor === 'string' ? input.actor : input.actor(ticketId)
}

/**
 * The public Queue API's ticket JSON of a row (public-api.md, field for field; contract §8
 * keeps `priority` out of it); `id` and `ticketId` carry the same `tkt_…`.
 */
export function publicTicketJson(row: TicketRow): PublicQueueTicket {
  return {
    id: row.id,
    ticketId: row.id,
    ticketNumber: row.ticketNumber,
    status: row.status,
    source: row.source,
    queueUnitId: row.queueUnitId,
    locationId: row.locationId,
    serviceId: row.serviceId,
    externalReference: row.externalReference,
    createdAt: isoTime(row.createdAt),
    calledAt: isoOrNull(row.calledAt),
    servingAt: isoOrNull(row.servingAt),
    completedAt: isoOrNull(row.completedAt),
  }
}

/** The ticket JSON of the operator API, webhooks and pages: the public one, `priority` (contract §8) and `transfer` (§20). */
export function ticketJson(row: TicketRow): QueueTicket {
  return {
    ...publicTicketJson(row),
    priority: row.priority,
    transfer: row.transferredFromServiceId === null ? null : { fromServiceId: row.transferredFromServiceId, fromCounterId: row.transferredFromCounterId, note: row.transferNote },
  }
}

/**
 * Ticket writes and reads on statements prepared once per app (by `Tickets`). Writers must run
 * inside a write (`WriteBatcher.run` or `.now`, which open the immediate transaction), so the
 * number, the ticket, its event and the live counts commit together or not at all.
 */
export class TicketStore {
  private readonly nextSeqStmt
  private readonly nextRankStmt
  private readonly firstRankStmt
  private readonly laterRankStmt
  private readonly shiftRanksStmt
  private readonly insertStmt
  private readonly eventStmt
  private readonly waitingStmt
  private readonly byIdStmt
  private readonly byTrackingStmt

  constructor(private readonly db: Db, private readonly ids: IdGenerator, private readonly trackingCodes: (now: number) => string = newTrackingCode) {
    // One row per (location, prefix, local day): the upsert hands out 1, 2, 3, … and the
    // write lock of the immediate transaction makes it race-free; the unique index on
    // tickets (location, prefix, business_day, seq) would refuse a duplicate anyway.
    this.nextSeqStmt = db
      .insert(ticketSequences)
      .values({
        locationId: sql.placeholder('locationId'),
        prefix: sql.placeholder('prefix'),
        businessDay: sql.placeholder('businessDay'),
        lastSeq: 1,
      })
      .onConflictDoUpdate({
        target: [ticketSequences.locationId, ticketSequences.prefix, ticketSequences.businessDay],
        set: { lastSeq: sql`${ticketSequences.lastSeq} + 1` },
      })
      .returning({ seq: ticketSequences.lastSeq })
      .prepare()
    // The highest / lowest WAITING rank at a location: one seek on `tickets_open_by_status`
    // (status, location, rank), whatever the number of services, lanes and waiting tickets
    // (it was one seek per service and lane: 20 µs of every issue with the bench's services).
    this.nextRankStmt = db.$client.query<{ rank: number }, [string]>(
      `SELECT coalesce(max(queue_rank), 0) + 1 AS rank FROM tickets WHERE status = 'WAITING' AND location_id = ${planStable('?1')}`)
    this.firstRankStmt = db.$client.query<{ rank: number }, [string]>(
      `SELECT coalesce(min(queue_rank), 1) - 1 AS rank FROM tickets WHERE status = 'WAITING' AND location_id = ${planStable('?1')}`)
    // Contract §21: the smallest rank among the location's WAITING tickets (out of the front
    // lane) created after an instant, and the shift that frees that rank. Both walk
    // `tickets_open_by_status` (status, location, rank), bounded by the waiting line.
    this.laterRankStmt = db.$client.query<{ rank: number | null }, [string, number]>(
      `SELECT min(queue_rank) AS rank FROM tickets WHERE status = 'WAITING' AND location_id = ${planStable('?1')} AND front = 0 AND created_at > ?2`)
    this.shiftRanksStmt = db.$client.query<never, [string, number]>(
      `UPDATE tickets SET queue_rank = queue_rank + 1 WHERE status = 'WAITING' AND location_id = ${planStable('?1')} AND queue_rank >= ?2`)
    this.insertStmt = db
      .insert(tickets)
      .values({
        id: sql.placeholder('id'),
        queueUnitId: sql.placeholder('queueUnitId'),
        locationId: sql.placeholder('locationId'),
        serviceId: sql.placeholder('serviceId'),
        prefix: sql.placeholder('prefix'),
        businessDay: sql.placeholder('businessDay'),
        seq: sql.placeholder('seq'),
        ticketNumber: sql.placeholder('ticketNumber'),
        status: 'WAITING',
        source: sql.placeholder('source'),
        externalReference: sql.placeholder('externalReference'),
        credentialId: sql.placeholder('credentialId'),
        priority: sql.placeholder('priority'),
        queueRank: sql.placeholder('queueRank'),
        createdAt: sql.placeholder('now'),
        trackingCode: sql.placeholder('trackingCode'),
        language: sql.placeholder('language'),
        appointmentId: sql.placeholder('appointmentId'),
        appointmentStartAt: sql.placeholder('appointmentStartAt'),
      })
      .prepare()
    this.eventStmt = db
      .insert(ticketEvents)
      .values({
        ticketId: sql.placeholder('ticketId'),
        type: sql.placeholder('type'),
        fromStatus: sql.placeholder('fromStatus'),
        toStatus: sql.placeholder('toStatus'),
        counterId: sql.placeholder('counterId'),
        actor: sql.placeholder('actor'),
        at: sql.placeholder('now'),
        detail: sql.placeholder('detail'),
      })
      .prepare()
    this.waitingStmt = db
      .insert(serviceStats)
      .values({ serviceId: sql.placeholder('serviceId'), locationId: sql.placeholder('locationId'), waiting: sql`max(${sql.placeholder('delta')}, 0)` })
      .onConflictDoUpdate({
        target: [serviceStats.serviceId, serviceStats.locationId],
        set: { waiting: sql`max(${serviceStats.waiting} + ${sql.placeholder('delta')}, 0)` },
      })
      .prepare()
    this.byIdStmt = db.select().from(tickets).where(eq(tickets.id, sql.placeholder('id'))).prepare()
    this.byTrackingStmt = db.select().from(tickets).where(eq(tickets.trackingCode, sql.placeholder('code'))).prepare()
  }

  /**
   * Contract §3 numbering: the next number of the location and prefix for the local business
   * day of `now`, never reused that day. Must run in the issuing transaction.
   */
  nextTicketNumber(locationId: string, timezone: string, prefix: string, now: number) {
    const businessDay = businessDayAt(now, timezone)
    const { seq } = this.nextSeqStmt.get({ locationId, prefix, businessDay })!
    return { businessDay, seq, ticketNumber: formatTicketNumber(prefix, seq) }
  }

  /**
   * The rank that puts a ticket behind every WAITING ticket of its location (all services, so
   * a counter serving several services can compare ranks: smaller is called first). A ticket
   * requeued FIRST can take a rank below the smallest waiting one.
   */
  nextQueueRank(locationId: string): number {
    return this.nextRankStmt.get(locationId)!.rank
  }

  /**
   * The rank that puts a ticket in front of every WAITING ticket of its location (requeue
   * FIRST): one below the smallest waiting rank, so the latest ticket put first is called first.
   */
  firstQueueRank(locationId: string): number {
    return this.firstRankStmt.get(locationId)!.rank
  }

  /**
   * Contract §21: the rank of a checked-in appointment's ticket. Before the first WAITING ticket
   * of the location (out of the front lane) created after the slot start, whose rank and every
   * rank behind it move up by one in this transaction (relative order unchanged, so every
   * lane's order and the priority rule stay as they were); with no such ticket, the end of the
   * line. So among a counter's services it is called before walk-ins who came after its slot
   * start and after those who came before it; the estimator reads the same ranks.
   */
  appointmentQueueRank(locationId: string, slotStartAt: number): number {
    const later = this.laterRankStmt.get(locationId, slotStartAt)?.rank ?? null
    if (later === null) return this.nextQueueRank(locationId)
    this.shiftRanksStmt.run(locationId, later)
    return later
  }

  /**
   * Writes a new WAITING ticket: its number, its rank at the end of the line, a `created` event
   * in its history, and `service_stats.waiting` + 1. Returns the row as written. Used by the
   * public API (source API) and by walk-ins at a counter (source OPERATOR).
   */
  insertTicket(input: NewTicket, now: number): TicketRow {
    this.assertInTransaction()
    const number = this.nextTicketNumber(input.location.id, input.location.timezone, input.service.prefix, now)
    const row: TicketRow = {
      id: this.ids.next('tkt_'),
      queueUnitId: input.queueUnitId,
      locationId: input.location.id,
      serviceId: input.service.id,
      prefix: input.service.prefix,
      businessDay: number.businessDay,
      seq: number.seq,
      ticketNumber: number.ticketNumber,
      status: 'WAITING',
      source: input.source,
      externalReference: input.externalReference,
      credentialId: input.credentialId,
      counterId: null,
      callCount: 0,
      priority: input.priority,
      front: false,
      queueRank: input.appointment == null ? this.nextQueueRank(input.location.id) : this.appointmentQueueRank(input.location.id, input.appointment.startAt),
      createdAt: now,
      calledAt: null,
      servingAt: null,
      completedAt: null,
      trackingCode: this.trackingCodes(now),
      language: input.language ?? null,
      transferredFromServiceId: null,
      transferredFromCounterId: null,
      transferNote: null,
      moreTimeCount: 0,
      approachingAt: null,
      appointmentId: input.appointment?.id ?? null,
      appointmentStartAt: input.appointment?.startAt ?? null,
    }
    this.insertStmt.run({
      id: row.id,
      queueUnitId: row.queueUnitId,
      locationId: row.locationId,
      serviceId: row.serviceId,
      prefix: row.prefix,
      businessDay: row.businessDay,
      seq: row.seq,
      ticketNumber: row.ticketNumber,
      source: row.source,
      externalReference: row.externalReference,
      credentialId: row.credentialId,
      priority: row.priority ? 1 : 0,
      queueRank: row.queueRank,
      now,
      trackingCode: row.trackingCode,
      language: row.language,
      appointmentId: row.appointmentId,
      appointmentStartAt: row.appointmentStartAt,
    })
    const detail: Record<string, unknown> = { source: row.source }
    if (row.priority) detail.priority = true
    if (row.appointmentId !== null) detail.appointmentId = row.appointmentId
    this.appendEvent({ ticketId: row.id, type: 'created', fromStatus: null, toStatus: 'WAITING', counterId: null, actor: issueActor(input, row.id), detail }, now)
    this.adjustWaiting(row.serviceId, row.locationId, +1)
    return row
  }

  /**
   * Keeps `service_stats.waiting` in step: +1 when a ticket enters a waiting line, −1 when it
   * leaves (never below 0). The services list and state read only this count.
   */
  adjustWaiting(serviceId: string, locationId: string, delta: number): void {
    this.waitingStmt.run({ serviceId, locationId, delta })
  }

  /** Appends one entry to a ticket's history (`ticket_events`). */
  appendEvent(event: { ticketId: string; type: string; fromStatus: string | null; toStatus: string; counterId: string | null; actor: string; detail?: Record<string, unknown> | null }, now: number): void {
    this.eventStmt.run({
      ticketId: event.ticketId,
      type: event.type,
      fromStatus: event.fromStatus,
      toStatus: event.toStatus,
      counterId: event.counterId,
      actor: event.actor,
      now,
      detail: event.detail == null ? null : JSON.stringify(event.detail),
    })
  }

  byId(id: string): TicketRow | null {
    return this.byIdStmt.get({ id }) ?? null
  }

  /** The ticket of a tracking code (contract §10), or null. */
  byTrackingCode(code: string): TicketRow | null {
    return this.byTrackingStmt.get({ code }) ?? null
  }

  private assertInTransaction(): void {
    if (!this.db.$client.inTransaction) throw new Error('ticket writes must run inside an immediate transaction')
  }
}

/** The ticket JSON the kiosk, the desk walk-in and the operator API answer: QueueTicket + `trackingUrl`. */
export type TrackedTicket = QueueTicket & { trackingUrl: string | null }

export function trackedTicketJson(row: TicketRow): TrackedTicket {
  return { ...ticketJson(row), trackingUrl: row.trackingCode === null ? null : trackingPath(row.trackingCode) }
}
