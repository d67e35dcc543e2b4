import { Type, type Static } from '@sinclair/typebox'
import { ACTOR_TYPES } from '../platform/actor'
import { TICKET_SOURCES } from './tables'

/*
 * The ticket as every feature sees it (contract §3): its statuses, its sources and its JSON:
 * `PublicQueueTicket`, exactly the vendor spec's (public-api.md: the public Queue API's ticket
 * responses), and `QueueTicket`, the same plus `priority` (contract §8: the operator API,
 * webhook events, the desk and kiosk).
 */

/** Contract §3. */
export const TICKET_STATUSES = ['WAITING', 'CALLED', 'SERVING', 'COMPLETED', 'NO_SHOW', 'CANCELLED'] as const
export type TicketStatus = (typeof TICKET_STATUSES)[number]
/** Part one's API/OPERATOR/KIOSK/EDGE, a phone's join page (REMOTE, §20), a checked-in appointment (APPOINTMENT, §21). */
export { TICKET_SOURCES, type TicketSource } from './tables'

const closed = { additionalProperties: false } as const

/**
 * Contract §16 "Attribution": who made a change, in every ticket event and webhook body (stored
 * as `type:id` text, src/platform/actor.ts).
 */
export const ActorJson = Type.Object(
  {
    type: Type.Union(ACTOR_TYPES.map((t) => Type.Literal(t)), {
      description: 'clerk: a clerk signed in at a desk; user: a signed-in staff member; device: a paired device without a clerk; key: an API key; customer: the ticket\'s own customer; system: the server itself',
    }),
    id: Type.String({
      description: 'clerk and user: the username; device: the device name; key: the credential ID; customer: the ticket ID; system: what ran (`daily-close`)',
    }),
  },
  { ...closed, description: 'who made the change (contract §16)' },
)
export type ActorJson = Static<typeof ActorJson>

const DateTime = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' })
const NullableDateTime = Type.Union([DateTime, Type.Null()])

const publicTicketFields = {
  id: Type.String({ description: 'opaque ticket ID (tkt_…)' }),
  ticketId: Type.String({ description: 'the same value as id' }),
  ticketNumber: Type.String({ description: 'service prefix + number, zero-padded to 3 digits (A007, A1000), per location and prefix per local day' }),
  status: Type.Union(TICKET_STATUSES.map((s) => Type.Literal(s))),
  source: Type.Union(TICKET_SOURCES.map((s) => Type.Literal(s)), { description: 'where it was taken: API (the public Queue API), OPERATOR (a walk-in at a counter), KIOSK (a paired kiosk), EDGE (an Edge holding the unit), REMOTE (a customer\'s phone on the join page, contract §20), APPOINTMENT (a booked appointment, contract §21)' }),
  queueUnitId: Type.String(),
  locationId: Type.String(),
  serviceId: Type.String(),
  externalReference: Type.Union([Type.String(), Type.Null()]),
  createdAt: DateTime,
  calledAt: NullableDateTime,
  servingAt: NullableDateTime,
  completedAt: NullableDateTime,
}

/** The public Queue API's ticket (public-api.md), field for field: it never shows `priority`. */
export const PublicQueueTicket = Type.Object(publicTicketFields, closed)
export type PublicQueueTicket = Static<typeof PublicQueueTicket>

/** Contract §20: where a transferred ticket came from (its last transfer) and the note the sending desk gave. */
export const TicketTransfer = Type.Object(
  {
    fromServiceId: Type.String({ description: 'the service it was transferred from' }),
    fromCounterId: Type.Union([Type.String(), Type.Null()], { description: 'the counter that transferred it (null when it held none)' }),
    note: Type.Union([Type.String({ maxLength: 200 }), Type.Null()], { description: 'the sending desk\'s note for the receiving desk, plain text (≤ 200 characters), or null' }),
  },
  { ...closed, description: 'the ticket\'s last transfer', examples: [{ fromServiceId: 'svc_accounts', fromCounterId: 'cnt_1', note: 'Wants to open a savings account' }] },
)
export type TicketTransfer = Static<typeof TicketTransfer>

/** The ticket of the operator API, webhooks and pages: the public fields, `priority` (contract §8) and `transfer` (§20). */
export const QueueTicket = Type.Object(
  {
    ...publicTicketFields,
    priority: Type.Boolean({ description: 'a priority ticket (walk-in flag or kiosk choice): called by the queue unit\'s priority rule' }),
    transfer: Type.Union([TicketTransfer, Type.Null()], { description: 'contract §20: where the ticket was last transferred from, with the sending desk\'s note; null for a ticket never transferred' }),
  },
  closed,
)
export type QueueTicket = Static<typeof QueueTicket>

/**
 * Contract §10: the ticket as the kiosk, the desk walk-in and the operator API answer it, with
 * its phone page. The public API's QueueTicket stays as the vendor spec shows it.
 */
export const TrackedQueueTicket = Type.Composite(
  [
    QueueTicket,
    Type.Object({
      trackingUrl: Type.Union([Type.String({ description: 'path of the ticket\'s phone page, `/t/{code}` (no host)', examples: ['/t/k3v9q2m7x4c8h6b5n2r7t3w4'] }), Type.Null()], {
        description: 'null only for tickets issued before tracking codes existed',
      }),
    }),
  ],
  closed,
)
export type TrackedQueueTicket = Static<typeof TrackedQueueTicket>
