import { Type, type Static } from '@sinclair/typebox'
import { IssueTicketRequest, QueueTicket } from '../queue'
import { ActorJson, TrackedQueueTicket } from '../tickets'

const closed = { additionalProperties: false } as const

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 160, description })

/**
 * Contract §18: a name in every language it was provisioned in, BCP 47 tag → text, beside
 * `name` (the unit's default language's). Always an object: a name provisioned as one string
 * is `{defaultLanguage: name}`, so a page has one shape to read.
 */
export const Names = Type.Record(Type.String(), Type.String(), {
  description: 'the name per BCP 47 language tag (contract §18); a name provisioned as one string is {"<defaultLanguage>": name}',
  examples: [{ en: 'Accounts', ar: 'الحسابات' }],
})

/** Where a requeued or transferred ticket joins the waiting line. */
export const Position = Type.Union([Type.Literal('FIRST'), Type.Literal('LAST')], {
  description: 'FIRST: in front of every ticket waiting at the location now; LAST: behind all of them',
})
export type Position = Static<typeof Position>

/**
 * `POST tickets` (walk-in): the public issue's body and `priority` (contract §8: the operator
 * walk-in flag; absent means false). The public issue's own body has no such field.
 */
export const WalkInRequest = Type.Object(
  {
    ...IssueTicketRequest.properties,
    priority: Type.Optional(Type.Boolean({ description: 'true: a priority ticket, called by the queue unit\'s priority rule (default false)' })),
  },
  closed,
)
export type WalkInRequest = Static<typeof WalkInRequest>

/** The operator API's ticket responses: the ticket with `priority`. */
export const TicketResponse = Type.Object({ data: QueueTicket }, closed)

/** Actions without parameters take no body, or an empty JSON object. */
export const NoBody = Type.Object({}, { ...closed, description: 'no body, or {}' })

/** `POST counters/{id}/close` (contract §16): optionally why, one of the unit's `breakReasons`; no body closes as before. */
export const CloseCounterRequest = Type.Object({
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 60, description: 'one of the queue unit\'s breakReasons: the signed-in clerk starts a break with it' })),
}, { ...closed, description: 'no body, {}, or {"reason"}' })

/** `POST tickets/{ticketId}/call`. */
export const CallTicketRequest = Type.Object({ counterId: Id('the counter that calls the ticket (at the ticket\'s location, serving its service)') }, closed)
export type CallTicketRequest = Static<typeof CallTicketRequest>

/** `POST tickets/{ticketId}/requeue`. */
export const RequeueRequest = Type.Object({ position: Position }, closed)
export type RequeueRequest = Static<typeof RequeueRequest>

/** `POST tickets/{ticketId}/reinstate` (contract §20 "Bring back"): requeue's body, one component (`RequeueRequest`). */
export const ReinstateRequest = RequeueRequest
export type ReinstateRequest = RequeueRequest

/** `POST tickets/{ticketId}/transfer`; `position` is optional (default LAST). */
export const TransferRequest = Type.Object(
  {
    serviceId: Id('another active service of the Queue Unit offered at the ticket\'s location'),
    position: Type.Optional(Position),
    note: Type.Optional(Type.String({
      maxLength: 200,
      description: 'contract §20: a note for the receiving desk, plain text, at most 200 characters (422 beyond); shown as text, never as HTML; blank means none',
      examples: ['Wants to open a savings account'],
    })),
  },
  closed,
)
export type TransferRequest = Static<typeof TransferRequest>

export const Counter = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ description: 'the name in the queue unit\'s default language' }),
    names: Names,
    locationId: Type.String(),
    serviceIds: Type.Array(Type.String(), { description: 'the services this counter serves' }),
    open: Type.Boolean({ description: 'open counters feed the wait estimate; a counter opens by `open` or by its first call' }),
    busy: Type.Boolean({ description: 'the counter holds a CALLED or SERVING ticket (one at most): call-next and close answer 409 COUNTER_BUSY' }),
    ticket: Type.Union([QueueTicket, Type.Null()], { description: 'the ticket the counter holds, when this key may see it (its location and service within the key\'s lists); else null' }),
  },
  closed,
)
export type Counter = Static<typeof Counter>

export const CounterResponse = Type.Object({ data: Counter }, closed)

const DateTime = Type.String({ format: 'date-time' })

export const OverviewNowServing = Type.Object(
  {
    number: Type.String(),
    counterName: Type.String({ description: 'the counter\'s name in the queue unit\'s default language' }),
    counterNames: Names,
    status: Type.Union([Type.Literal('CALLED'), Type.Literal('SERVING')]),
    calledAt: DateTime,
    priority: Type.Boolean({ description: 'the ticket served is a priority ticket' }),
  },
  closed,
)

export const OverviewLine = Type.Object(
  {
    id: Type.String({ description: 'service ID' }),
    name: Type.String({ description: 'the service\'s name in the queue unit\'s default language' }),
    names: Names,
    prefix: Type.String(),
    locationId: Type.String(),
    active: Type.Boolean({ description: 'the service and its location are active (an inactive line may still hold waiting tickets)' }),
    waiting: Type.Integer({ minimum: 0 }),
    estimatedWaitSeconds: Type.Integer({ minimum: 0 }),
    noCounterOpen: Type.Boolean({ description: 'Contract §19: no open counter serves the line now; `estimatedWaitSeconds` assumed one.' }),
    peopleAhead: Type.Integer({ minimum: 0, description: 'Contract §28: the people ahead of a normal ticket taken now (the line\'s call order; the same number every page says).' }),
    counterFree: Type.Boolean({ description: 'Contract §28: an open counter of the service holds nothing now (with nobody ahead and 0 seconds, "You\'re next").' }),
    nowServing: Type.Union([OverviewNowServing, Type.Null()]),
    tickets: Type.Array(QueueTicket, {
      description: 'the WAITING tickets of this line in the order call-next takes them: requeued FIRST, then by the unit\'s priority policy (INTERLEAVE: as a counter that just called a priority ticket)',
    }),
  },
  closed,
)

export const QueueOverview = Type.Object(
  {
    generatedAt: DateTime,
    defaultLanguage: Type.String({ description: 'the queue unit\'s default language (contract §18): `name` is in it, and a page falls back to it' }),
    languages: Type.Array(Type.String(), { description: 'the languages the unit\'s kiosk, phone and join pages offer, the default first' }),
    services: Type.Array(OverviewLine, { description: 'every (service, location) pair the key may use, by location ID then service ID' }),
    counters: Type.Array(Counter, { description: 'every counter the key may operate, by ID' }),
  },
  closed,
)
export type QueueOverview = Static<typeof QueueOverview>
export const QueueOverviewResponse = Type.Object({ data: QueueOverview }, closed)

export const TicketEvent = Type.Object(
  {
    id: Type.Integer({ description: 'increases along the history' }),
    type: Type.String({ description: 'created, called, recalled, serving, completed, no_show, cancelled, requeued, transferred' }),
    fromStatus: Type.Union([Type.String(), Type.Null()]),
    toStatus: Type.String(),
    counterId: Type.Union([Type.String(), Type.Null()]),
    actor: ActorJson,
    at: DateTime,
    detail: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  },
  closed,
)
export type TicketEvent = Static<typeof TicketEvent>

export const TicketEventsResponse = Type.Object(
  { data: Type.Object({ ticketId: Type.String(), ticketNumber: Type.String(), events: Type.Array(TicketEvent) }, closed) },
  closed,
)

/** An operator API ticket answer: the ticket with its phone page (contract §10). */
export const TrackedTicketResponse = Type.Object({ data: TrackedQueueTicket }, closed)
