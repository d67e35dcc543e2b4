import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '../db/open'
import type { IdGenerator } from '../platform/ids'
import { isoTime } from '../platform/clock'
import type { Actor } from '../platform/actor'
import { credentials } from '../structure'
import { webhooks, webhookDeliveries } from './tables'
import { TICKET_EVENT_TYPES, type TicketEventType } from '../tickets'

// The ticket events are the tickets feature's (each transition names its own); re-exported for this feature's readers.
export { TICKET_EVENT_TYPES, type TicketEventType }

/** Contract §21: an appointment's events; their body's `data` is the appointment (src/appointments). */
export type AppointmentEventType = 'appointment.booked' | 'appointment.cancelled' | 'appointment.checked_in' | 'appointment.missed'
/**
 * Events about a line rather than one ticket's change (contract §22). Their body is the same
 * `{id, type, createdAt, actor, data}`; `data` is the event's own object (src/manage/model.ts
 * `WaitTargetExceeded`), and the delivery is ordered with the events of the ticket it names.
 */
export const QUEUE_EVENT_TYPES = ['queue.wait_target_exceeded'] as const
export type QueueEventType = (typeof QUEUE_EVENT_TYPES)[number]
export type WebhookEventType = TicketEventType | QueueEventType | AppointmentEventType

/** One event as the outbox writes it, handed to the taps inside the event's own transaction. */
export interface OutboxEvent {
  queueUnitId: string
  type: WebhookEventType
  actor: Actor
  ticketId: string
  data: unknown
  now: number
}

/** The taps per database (two apps in one process never hear each other). */
const eventTaps = new WeakMap<Db, Set<(event: OutboxEvent) => void>>()

/**
 * Calls `tap` with every event written to the outbox of `db`, whether or not an endpoint
 * subscribed to it, inside the event's own transaction (contract §25: a notification is written
 * with the change, like a webhook). A tap writes its own durable rows there and must not throw
 * for a reason of its own: that would undo the change. Returns the function that removes it.
 */
export function tapOutboxEvents(db: Db, tap: (event: OutboxEvent) => void): () => void {
  let set = eventTaps.get(db)
  if (set === undefined) eventTaps.set(db, (set = new Set()))
  set.add(tap)
  return () => {
    set.delete(tap)
  }
}

/** A transaction or the database. */
type Tx = Pick<Db, 'select' | 'insert' | 'update' | 'run'>

/**
 * Writes one event into the durable outbox for every active endpoint of the queue unit that
 * subscribed to its type. Called inside the ticket change's own transaction, so the event
 * exists exactly when the change does; delivery happens later, off the request path.
 */
export class WebhookOutbox {
  private prepared: ReturnType<WebhookOutbox['prepare']> | undefined

  /** Built once, by the composition root; its statements are prepared on first use (not while the app is built). */
  constructor(private readonly db: Db, private readonly ids: IdGenerator) {}

  private prepare() {
    const subscribers = this.db
      .select({ id: webhooks.id, events: webhooks.events })
      .from(webhooks)
      .where(and(eq(webhooks.queueUnitId, sql.placeholder('unit')), eq(webhooks.active, true)))
      .prepare()
    const insert = this.db
      .insert(webhookDeliveries)
      .values({
        id: sql.placeholder('id'),
        webhookId: sql.placeholder('webhookId'),
        ticketId: sql.placeholder('ticketId'),
        eventType: sql.placeholder('eventType'),
        body: sql.placeholder('body'),
        status: 'PENDING',
        attempts: 0,
        nextAttemptAt: sql.placeholder('now'),
        createdAt: sql.placeholder('now'),
      })
      .prepare()
    return { subscribers, insert }
  }

  /**
   * Enqueue `type` for `ticket` (the QueueTicket JSON), made by `actor` (contract §16: the body
   * is `{id, type, createdAt, actor, data}`). Returns the deliveries written.
   */
  enqueue(queueUnitId: string, type: TicketEventType | AppointmentEventType, actor: Actor, ticket: { id: string }, now: number): number {
    return this.enqueueEvent(queueUnitId, type, actor, ticket.id, ticket, now)
  }

  /**
   * Enqueue any event type with its `data`; `ticketId` is the ticket it concerns, which orders
   * its delivery with that ticket's other events. Returns the deliveries written.
   */
  enqueueEvent(queueUnitId: string, type: WebhookEventType, actor: Actor, ticketId: string, data: unknown, now: number): number {
    const taps = eventTaps.get(this.db)
    if (taps !== undefined) for (const tap of taps) tap({ queueUnitId, type, actor, ticketId, data, now })
    let written = 0
    const { subscribers, insert } = (this.prepared ??= this.prepare())
    let body: string | undefined
    for (const hook of subscribers.all({ unit: queueUnitId })) {
      if (!(JSON.parse(hook.events) as string[]).includes(type)) continue
      // One event, one ID and one body, whichever endpoints receive it.
      body ??= JSON.stringify({ id: this.ids.next('evt_'), type, createdAt: isoTime(now), actor: { type: actor.type, id: actor.id }, data })
      insert.run({ id: this.ids.next('dlv_'), webhookId: hook.id, ticketId, eventType: type, body, now })
      written += 1
    }
    return written
  }
}

/** The current signing secret of an endpoint (rotation replaces it; revocation stops signing). */
export function signingSecret(db: Db, webhookId: string): string | null {
  const row = db
    .select({ secret: credentials.secret })
    .from(credentials)
    .where(and(
      eq(credentials.kind, 'webhook'), eq(credentials.ownerId, webhookId),
      isNull(credentials.supersededAt), isNull(credentials.revokedAt),
    ))
    .get()
  return row?.secret ?? null
}
