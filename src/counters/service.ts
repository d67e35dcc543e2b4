import { breakReasonsOf } from '../structure'
import { mayUseLocation, mayUseService } from '../access'
import { and, asc, eq, sql } from 'drizzle-orm'
import type { CounterDeps } from './deps'
import type { Credential } from '../platform/credentials'
import { ApiError, pointer } from '../platform/errors'
import { actorOf, encodeActor } from '../platform/actor'
import { isoTime } from '../platform/clock'
import { localDate } from '../platform/time'
import { namesObject, storedName } from '../platform/names'
import { locations } from '../structure'
import { QueueService, queueUnitInactive, type IssueOutcome } from '../queue'
import { assertNotEdgeManaged } from '../queue'
import { ticketJson, type TicketRow, ticketEventJson, assertTransition, type TicketAction, callOrder } from '../tickets'
import { DEFAULT_NO_SHOW_GRACE_MINUTES, queueUnits } from '../structure'
import { counters, counterServices } from '../structure'
import { CounterCodes } from './errors'
import type { Counter, Position, QueueOverview, TicketEvent, WalkInRequest } from './model'

/**
 * Contract §20: a transfer note as stored: plain text, trimmed; an empty one is no note. The
 * schema bounds it (≤ 200 characters, 422 beyond); pages show it as text, never as HTML.
 */
export function transferNoteOf(note: string | null | undefined): string | null {
  const trimmed = note?.trim() ?? ''
  return trimmed === '' ? null : trimmed
}

/** A counter as the operator API resolves it for a key. */
export interface CounterRecord {
  id: string
  queueUnitId: string
  locationId: string
  name: string
  /** Contract §18: the name per language (one entry, the unit's default language, for a plain name). */
  names: Record<string, string>
  open: boolean
  openDay: string | null
  /** The location's time zone (the counter's business day). */
  timezone: string
  /** Every service the counter serves. */
  serviceIds: string[]
  /** Those the key may use: call-next takes tickets of these only. */
  usableServiceIds: string[]
}

function prepareCounterStatements(db: CounterDeps['db']) {
  return {
    graceStmt: db.select({ grace: queueUnits.noShowGraceMinutes }).from(queueUnits).where(eq(queueUnits.id, sql.placeholder('id'))).prepare(),
    breakReasonsStmt: db.select({ breakReasons: queueUnits.breakReasons }).from(queueUnits).where(eq(queueUnits.id, sql.placeholder('id'))).prepare(),
    counterStmt: db
      .select({
        id: counters.id,
        queueUnitId: counters.queueUnitId,
        locationId: counters.locationId,
        name: counters.name,
        names: counters.names,
        defaultLanguage: queueUnits.defaultLanguage,
        active: counters.active,
        open: counters.open,
        openDay: counters.openDay,
        timezone: locations.timezone,
      })
      .from(counters)
      .innerJoin(locations, eq(locations.id, counters.locationId))
      .innerJoin(queueUnits, eq(queueUnits.id, counters.queueUnitId))
      .where(eq(counters.id, sql.placeholder('id')))
      .prepare(),
    counterServicesStmt: db
      .select({ serviceId: counterServices.serviceId })
      .from(counterServices)
      .where(eq(counterServices.counterId, sql.placeholder('id')))
      .orderBy(asc(counterServices.serviceId))
      .prepare(),
    setOpenStmt: db
      .update(counters)
      .set({ open: sql`${sql.placeholder('open')}`, openDay: sql`${sql.placeholder('openDay')}`, updatedAt: sql`${sql.placeholder('now')}` })
      .where(eq(counters.id, sql.placeholder('id')))
      .prepare(),
    unitCountersStmt: db
      .select({ id: counters.id, name: counters.name, names: counters.names, locationId: counters.locationId, open: counters.open })
      .from(counters)
      .where(and(eq(counters.queueUnitId, sql.placeholder('unit')), eq(counters.active, true)))
      .orderBy(asc(counters.id))
      .prepare(),
    unitCounterServicesStmt: db
      .select({ counterId: counterServices.counterId, serviceId: counterServices.serviceId })
      .from(counterServices)
      .innerJoin(counters, eq(counters.id, counterServices.counterId))
      .where(eq(counters.queueUnitId, sql.placeholder('unit')))
      .orderBy(asc(counterServices.serviceId))
      .prepare(),
  }
}

/**
 * The operator API's logic (contract §3 "Operator API"), free of HTTP. Every mutation is one
 * write of `deps.writes` (synchronous, no await inside; the routes run it in `writes.run`,
 * group commit) that checks, in order, Edge authority
 * (409 QUEUE_UNIT_EDGE_MANAGED), the Queue Unit being active (403 QUEUE_UNIT_INACTIVE), the
 * counter and ticket the request names (404, also when outside the key's lists), then the
 * transition, written by `deps.tickets` (the ticket, its event, the live counts, the webhook
 * outbox rows and the unit's `stateRevision`). Listeners hear of the change after commit.
 */
export class CounterService {
  private prepared: ReturnType<typeof prepareCounterStatements> | undefined

  constructor(private readonly deps: CounterDeps, readonly queue: QueueService) {}

  /** Prepared on first use (not while the server starts). */
  private get parts(): ReturnType<typeof prepareCounterStatements> {
    return (this.prepared ??= prepareCounterStatements(this.deps.db))
  }

  // ---- lookups ------------------------------------------------------------------------

  /**
   * The counter if the key may operate it: same Queue Unit, its location within the key's
   * locations, and at least one of its services within the key's services (a key without a
   * service list may operate a counter of any services), not retired, and the caller's own
   * counter when it is bound to some (a paired desk). Else null.
   */
  visibleCounter(caller: Credential, counterId: string): CounterRecord | null {
    const row = this.parts.counterStmt.get({ id: counterId })
    if (row === undefined || row.queueUnitId !== caller.ownerId || !mayUseLocation(caller, row.locationId)) return null
    if (!row.active || (caller.counters != null && !caller.counters.includes(row.id))) return null
    const serviceIds = this.parts.counterServicesStmt.all({ id: counterId }).map((r) => r.serviceId)
    const usableServiceIds = serviceIds.filter((id) => mayUseService(caller, id))
    if (caller.services !== null && usableServiceIds.length === 0) return null
    const { active: _active, names, defaultLanguage, ...record } = row
    return { ...record, names: namesObject(storedName(row.name, names), defaultLanguage), serviceIds, usableServiceIds }
  }

  private requireCounter(caller: Credential, counterId: string): CounterRecord {
    const counter = this.visibleCounter(caller, counterId)
    if (counter === null) throw new ApiError(404, CounterCodes.COUNTER_NOT_FOUND, 'no such counter for this key')
    return counter
  }

  private requireTicket(caller: Credential, ticketId: string): TicketRow {
    const ticket = this.queue.visibleTicket(caller, ticketId)
    // A desk bound to one counter sees waiting tickets of its services and the ticket it holds,
    // never one held at another counter (docs/devices.md).
    const heldElsewhere = ticket !== null && caller.counters != null && ticket.counterId !== null && !caller.counters.includes(ticket.counterId)
    if (ticket === null || heldElsewhere) throw new ApiError(404, CounterCodes.TICKET_NOT_FOUND, 'no such ticket for this key')
    return ticket
  }

  /** The CALLED or SERVING ticket the counter holds, or null. */
  heldTicket(counterId: string): TicketRow | null {
    return this.deps.tickets.heldBy(counterId)
  }

  /** Whether the key may see `ticket` (its location and service within the key's lists). */
  private maySee(caller: Credential, ticket: TicketRow): boolean {
    return mayUseLocation(caller, ticket.locationId) && mayUseService(caller, ticket.serviceId)
  }

  /**
   * 409 COUNTER_BUSY while the counter holds a CALLED or SERVING ticket (one open ticket per
   * counter). The message names the ticket only when the key may see it.
   */
  private assertCounterFree(caller: Credential, counter: CounterRecord): void {
    const held = this.heldTicket(counter.id)
    if (held === null) return
    const what = this.maySee(caller, held) ? `ticket ${held.ticketNumber} (${held.status})` : `a ${held.status} ticket`
    throw new ApiError(409, CounterCodes.COUNTER_BUSY, `counter ${counter.id} holds ${what}; complete, no-show, requeue or transfer it first`)
  }

  /**
   * A counter as the key sees it: `busy` while it holds a CALLED or SERVING ticket, and that
   * ticket when the key may see it (else null: a ticket of a service outside the key's list).
   */
  private counterView(caller: Credential, counter: Pick<CounterRecord, 'id' | 'name' | 'names' | 'locationId' | 'open' | 'serviceIds'>, held: TicketRow | null = this.heldTicket(counter.id)): Counter {
    return {
      id: counter.id,
      name: counter.name,
      names: counter.names,
      locationId: counter.locationId,
      serviceIds: counter.serviceIds,
      open: counter.open,
      busy: held !== null,
      ticket: held !== null && this.maySee(caller, held) ? ticketJson(held) : null,
    }
  }

  // ---- the transaction every mutation runs in -----------------------------------------

  private mutate<T>(caller: Credential, now: number, work: () => T): T {
    return this.deps.writes.now(() => {
      const unit = this.queue.queueUnit(caller.ownerId)
      if (unit !== null) assertNotEdgeManaged(unit, now)
      if (unit === null || !unit.active) throw queueUnitInactive()
      return work()
    })
  }

  /** Opens or closes the counter; an opening (by open, or by a call) ends the breaks taken there (contract §16). */
  private setOpen(counter: CounterRecord, open: boolean, now: number): void {
    this.parts.setOpenStmt.run({ id: counter.id, open: open ? 1 : 0, openDay: open ? localDate(now, counter.timezone) : counter.openDay, now })
    if (open) this.deps.staff.counterOpened(counter.id, now)
  }

  // ---- counters -----------------------------------------------------------------------

  /** `POST counters/{id}/open`: opening an open counter changes nothing; opening ends the breaks taken there (contract §16). */
  openCounter(caller: Credential, counterId: string, now: number): Counter {
    return this.mutate(caller, now, () => {
      const counter = this.requireCounter(caller, counterId)
      const today = localDate(now, counter.timezone)
      if (counter.open && counter.openDay === today) return this.counterView(caller, counter)
      this.setOpen(counter, true, now)
      // Re-opening a counter left open from an earlier day only moves its business day.
      if (!counter.open) this.deps.tickets.touch(counter.queueUnitId)
      return this.counterView(caller, { ...counter, open: true })
    })
  }

  /**
   * `POST counters/{id}/close {reason?}`: 409 COUNTER_BUSY while it holds a ticket; a reason must
   * be one of the unit's `breakReasons` (422 on /reason). The clerk signed in there signs out
   * and, with a reason, starts a break (contract §16), also when the counter was closed already
   * (the clerk leaves all the same); a closed counter without a clerk changes nothing.
   */
  closeCounter(caller: Credential, counterId: string, now: number, reason: string | null = null): Counter {
    return this.mutate(caller, now, () => {
      const counter = this.requireCounter(caller, counterId)
      this.assertCounterFree(caller, counter)
      if (reason !== null) {
        const row = this.parts.breakReasonsStmt.get({ id: counter.queueUnitId })
        // Contract §28: the reason names an item's id (a plain string item is its own id).
        const reasons = row === undefined ? [] : breakReasonsOf(row.breakReasons, 'en').map((r) => r.id)
        if (!reasons.includes(reason)) {
          throw new ApiError(422, CounterCodes.VALIDATION_FAILED, `"${reason.slice(0, 60)}" is not a break reason of this queue unit (${reasons.join(', ')})`, [
            { path: pointer('reason'), message: `must be one of the unit's breakReasons: ${reasons.join(', ')}` },
          ])
        }
      }
      const signedOut = this.deps.staff.counterClosed(counter, reason, now)
      if (!counter.open) {
        if (signedOut !== null) this.deps.tickets.touch(counter.queueUnitId)
        return this.counterView(caller, counter)
      }
      this.setOpen(counter, false, now)
      this.deps.tickets.touch(counter.queueUnitId)
      return this.counterView(caller, { ...counter, open: false })
    })
  }

  // ---- calls --------------------------------------------------------------------------

  /**
   * `POST counters/{id}/call-next` (contract §3): 409 COUNTER_BUSY while the counter holds a
   * ticket; else the first WAITING ticket at the counter's location of the services it serves
   * (and the key may use): tickets requeued FIRST, then by the unit's priority policy (contract
   * §8: FIRST or INTERLEAVE with the counter's count), each lane oldest first. 404
   * NO_TICKET_WAITING when there is none. A closed counter calls no one: 409 COUNTER_CLOSED
   * (contract §27; open it first), checked before it is asked whether it is free.
   */
  callNext(caller: Credential, counterId: string, now: number): TicketRow {
    return this.mutate(caller, now, () => {
      const counter = this.requireCounter(caller, counterId)
      if (!counter.open) throw new ApiError(409, CounterCodes.COUNTER_CLOSED, `counter ${counter.id} is closed; open it before calling the next ticket`)
      this.assertCounterFree(caller, counter)
      const next = this.deps.tickets.nextWaiting(counter.queueUnitId, counter.locationId, counter.usableServiceIds, counter.id)
      if (next === null) throw new ApiError(404, CounterCodes.NO_TICKET_WAITING, `no ticket is waiting for counter ${counter.id}`)
      return this.callAt(caller, counter, next, now)
    })
  }

  /**
   * `POST tickets/{id}/call {counterId}`: ticket (404) → counter (404) → the counter is at the
   * ticket's location and serves its service (422 on /counterId) → WAITING (409
   * INVALID_TRANSITION) → the counter is free (409 COUNTER_BUSY).
   */
  callTicket(caller: Credential, ticketId: string, counterId: string, now: number): TicketRow {
    return this.mutate(caller, now, () => {
      const ticket = this.requireTicket(caller, ticketId)
      const counter = this.requireCounter(caller, counterId)
      if (counter.locationId !== ticket.locationId || !counter.serviceIds.includes(ticket.serviceId)) {
        throw new ApiError(422, CounterCodes.VALIDATION_FAILED, 'request validation failed', [
          { path: pointer('counterId'), message: `counter does not serve ${ticket.serviceId} at ${ticket.locationId}` },
        ])
      }
      assertTransition('call', ticket.status)
      this.assertCounterFree(caller, counter)
      return this.callAt(caller, counter, ticket, now)
    })
  }

  /**
   * WAITING→CALLED at `counter` (what it changes: the tickets' `TRANSITION_EFFECTS`). Calling a
   * specific ticket at a closed counter opens it (staff decide, docs/counters.md; the call's own
   * revision bump covers the opening); call-next never gets here with a closed one (contract §27).
   */
  private callAt(caller: Credential, counter: CounterRecord, ticket: TicketRow, now: number): TicketRow {
    if (!counter.open) this.setOpen(counter, true, now)
    return this.deps.tickets.call(ticket, counter.id, encodeActor(actorOf(caller)), now)
  }

  // ---- the other ticket transitions ---------------------------------------------------

  /**
   * recall · start · complete · no-show · cancel: the ticket (404) → the transition (409
   * INVALID_TRANSITION, checked by `deps.tickets`) → write. The event names the ticket's counter.
   */
  transition(caller: Credential, ticketId: string, action: Extract<TicketAction, 'recall' | 'start' | 'complete' | 'no-show' | 'cancel'>, now: number): TicketRow {
    return this.mutate(caller, now, () => {
      const ticket = this.requireTicket(caller, ticketId)
      const tickets = this.deps.tickets
      const actor = encodeActor(actorOf(caller))
      switch (action) {
        case 'recall': return tickets.recall(ticket, actor, now)
        case 'start': return tickets.start(ticket, actor, now)
        case 'complete': return tickets.complete(ticket, actor, now)
        case 'no-show': return tickets.noShow(ticket, actor, now)
        case 'cancel': return tickets.cancel(ticket, actor, now)
      }
    })
  }

  /** CALLED→WAITING (contract §3 requeue): the ticket (404) → the transition (409) → FIRST or LAST in line. */
  requeue(caller: Credential, ticketId: string, position: Position, now: number): TicketRow {
    return this.mutate(caller, now, () => {
      const ticket = this.requireTicket(caller, ticketId)
      return this.deps.tickets.requeue(ticket, position, encodeActor(actorOf(caller)), now)
    })
  }

  /**
   * CALLED/SERVING→WAITING in another service (contract §3 transfer), number kept: the ticket
   * (404) → the target service: of this unit, active, offered at the ticket's location and not
   * the ticket's own (422 on /serviceId), within the key's services (403 SERVICE_FORBIDDEN) →
   * the transition (409) → write, by `deps.tickets` (it joins the target line LAST (default) or
   * FIRST and keeps its `priority`).
   */
  transfer(caller: Credential, ticketId: string, serviceId: string, position: Position, now: number, note: string | null = null): TicketRow {
    return this.mutate(caller, now, () => {
      const ticket = this.requireTicket(caller, ticketId)
      const target = this.queue.serviceOf(ticket.queueUnitId, serviceId)
      const refuse = (message: string) => new ApiError(422, CounterCodes.VALIDATION_FAILED, 'request validation failed', [{ path: pointer('serviceId'), message }])
      if (target === null) throw refuse('no such service in this Queue Unit')
      if (!target.active) throw refuse('service is not active')
      if (target.id === ticket.serviceId) throw refuse('the ticket is already in this service; use requeue')
      if (!target.locationIds.includes(ticket.locationId)) throw refuse('service is not offered at the ticket\'s location')
      // A desk (bound to its counter) may send a ticket of its services to any service there.
      if (caller.counters == null && !mayUseService(caller, target.id)) throw new ApiError(403, CounterCodes.SERVICE_FORBIDDEN, 'this key may not use this service')
      return this.deps.tickets.transfer(ticket, target.id, position, encodeActor(actorOf(caller)), now, transferNoteOf(note))
    })
  }

  /**
   * NO_SHOW→WAITING (contract §20 "Bring back"): the ticket (404; a desk sees only the no-shows
   * of its own counter) → NO_SHOW (409 INVALID_TRANSITION) → within the unit's
   * `noShowGraceMinutes` of the no-show, its `completedAt` (409 NO_SHOW_GRACE_EXPIRED; the
   * last millisecond of the window still counts) → FIRST or LAST in its line.
   */
  reinstate(caller: Credential, ticketId: string, position: Position, now: number): TicketRow {
    return this.mutate(caller, now, () => {
      const ticket = this.requireTicket(caller, ticketId)
      assertTransition('reinstate', ticket.status)
      const graceMinutes = this.parts.graceStmt.get({ id: ticket.queueUnitId })?.grace ?? DEFAULT_NO_SHOW_GRACE_MINUTES
      const until = (ticket.completedAt ?? now) + graceMinutes * 60_000
      if (now > until) {
        throw new ApiError(409, CounterCodes.NO_SHOW_GRACE_EXPIRED, `ticket ${ticket.ticketNumber} was a no-show more than ${graceMinutes} minutes ago (the queue unit's noShowGraceMinutes): it can no longer be brought back`, [
          { path: '/completedAt', message: `brought back until ${isoTime(until)}` },
        ])
      }
      return this.deps.tickets.reinstate(ticket, position, encodeActor(actorOf(caller)), now)
    })
  }

  /**
   * Contract §20: the counter's no-shows that may still be brought back at `now` (within the
   * unit's `noShowGraceMinutes`), latest first; read on the `tickets_counter_open` index.
   */
  recentNoShows(counter: Pick<CounterRecord, 'id' | 'queueUnitId'>, now: number): TicketRow[] {
    const graceMinutes = this.parts.graceStmt.get({ id: counter.queueUnitId })?.grace ?? DEFAULT_NO_SHOW_GRACE_MINUTES
    return this.deps.tickets.noShowsAt(counter.id, now - graceMinutes * 60_000)
  }

  /** The moment a no-show of the unit can no longer be brought back. */
  graceEndsAt(queueUnitId: string, ticket: TicketRow): number {
    const graceMinutes = this.parts.graceStmt.get({ id: queueUnitId })?.grace ?? DEFAULT_NO_SHOW_GRACE_MINUTES
    return (ticket.completedAt ?? 0) + graceMinutes * 60_000
  }

  // ---- walk-ins -------------------------------------------------------------------------

  /**
   * `POST tickets` (walk-in at a counter): the public issue's rules from the idempotency lookup
   * on, with source OPERATOR; the Idempotency-Key is optional (null: none). `"priority": true`
   * issues a priority ticket (contract §8).
   */
  walkIn(caller: Credential, idempotencyKey: string | null, request: WalkInRequest, now: number): IssueOutcome {
    return this.queue.issueIdempotent(caller, idempotencyKey, request, now, 'OPERATOR')
  }

  // ---- reads --------------------------------------------------------------------------

  /**
   * `GET queue`: every (service, location) line the key may use with its live counts and its
   * WAITING tickets in call order, and every counter the key may operate with the ticket it
   * holds. Reads the live queue (open tickets), never the ticket history.
   */
  overview(caller: Credential, now: number): QueueOverview {
    const unit = caller.ownerId
    // Contract §18: names beside `name`, each an object (a plain name under the default language).
    const { defaultLanguage, languages } = this.queue.queueUnit(unit) ?? { defaultLanguage: 'en', languages: ['en'] }
    const names = (name: string, given: Readonly<Record<string, string>> | null) => namesObject(given ?? name, defaultLanguage)
    const lines = this.deps.tickets.lines(unit, false).filter((line) => mayUseLocation(caller, line.locationId) && mayUseService(caller, line.id))
    const waiting = new Map<string, TicketRow[]>()
    const held = new Map<string, TicketRow>()
    for (const ticket of this.deps.tickets.openOfUnit(unit)) {
      if (ticket.status === 'WAITING') {
        const key = `${ticket.serviceId}\u0000${ticket.locationId}`
        const line = waiting.get(key)
        if (line === undefined) waiting.set(key, [ticket])
        else line.push(ticket)
      } else if (ticket.counterId !== null) {
        held.set(ticket.counterId, ticket)
      }
    }
    const servicesOf = new Map<string, string[]>()
    for (const row of this.parts.unitCounterServicesStmt.all({ unit })) {
      const list = servicesOf.get(row.counterId)
      if (list === undefined) servicesOf.set(row.counterId, [row.serviceId])
      else list.push(row.serviceId)
    }
    const counterList: Counter[] = []
    for (const counter of this.parts.unitCountersStmt.all({ unit })) {
      const serviceIds = servicesOf.get(counter.id) ?? []
      if (!mayUseLocation(caller, counter.locationId)) continue
      if (caller.counters != null && !caller.counters.includes(counter.id)) continue
      if (caller.services !== null && !serviceIds.some((id) => mayUseService(caller, id))) continue
      counterList.push(this.counterView(caller, { ...counter, names: namesObject(storedName(counter.name, counter.names), defaultLanguage), serviceIds }, held.get(counter.id) ?? null))
    }
    // Each line in the order call-next takes its tickets (contract §8), as a counter whose
    // count of normal calls is 0 would.
    const policy = this.deps.tickets.priorityPolicy(unit)
    return {
      generatedAt: isoTime(now),
      defaultLanguage,
      languages,
      services: lines.map(({ id, name, names: lineNames, nowServing, ...line }) => ({
        id,
        name,
        names: names(name, lineNames),
        ...line,
        nowServing: nowServing === null ? null : {
          number: nowServing.number,
          counterName: nowServing.counterName,
          counterNames: names(nowServing.counterName, nowServing.counterNames),
          status: nowServing.status,
          calledAt: nowServing.calledAt,
          priority: nowServing.priority,
        },
        tickets: callOrder(waiting.get(`${id}\u0000${line.locationId}`) ?? [], policy).map(ticketJson),
      })),
      counters: counterList,
    }
  }

  /** `GET tickets/{id}/events`: the ticket's whole history, oldest first (404 as for a read). */
  events(caller: Credential, ticketId: string): { ticketId: string; ticketNumber: string; events: TicketEvent[] } {
    const ticket = this.requireTicket(caller, ticketId)
    return {
      ticketId: ticket.id,
      ticketNumber: ticket.ticketNumber,
      events: this.deps.tickets.events(ticket.id).map(ticketEventJson),
    }
  }
}
