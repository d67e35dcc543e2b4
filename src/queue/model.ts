import { Type, type Static } from '@sinclair/typebox'

// Operation scopes of a Queue key (contract §1): admission reads them (src/access/keys.ts).
export { DEFAULT_SCOPES, Scopes, type Scope } from '../access'

// The ticket's own shape belongs to the tickets feature; the Queue API answers with it.
// The public API answers with `PublicQueueTicket` (public-api.md, no `priority`); the operator
// API, webhooks and pages with `QueueTicket` (contract §8).
export { TICKET_STATUSES, TICKET_SOURCES, QueueTicket, PublicQueueTicket, type TicketStatus, type TicketSource } from '../tickets'
import { PublicQueueTicket } from '../tickets'

const closed = { additionalProperties: false } as const

/**
 * IssueTicketRequest (public-api.md): IDs 1–160 characters, matched exactly (no trimming, case
 * sensitive); `externalReference` optional, 1–255 characters, `null` meaning the same as absent.
 * Bounds count code points (contract §2; `schemaErrors` re-checks `maxLength` that way).
 */
export const IssueTicketRequest = Type.Object(
  {
    locationId: Type.String({ minLength: 1, maxLength: 160, description: 'an exact locationId from the services list' }),
    serviceId: Type.String({ minLength: 1, maxLength: 160, description: 'an exact service id from the services list' }),
    externalReference: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Null()], { description: "caller's reference, 1–255 characters; null = none" }),
    ),
  },
  closed,
)
export type IssueTicketRequest = Static<typeof IssueTicketRequest>


const DateTime = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' })

export const TicketResponse = Type.Object({ data: PublicQueueTicket }, closed)

export const ServiceEntry = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    prefix: Type.String(),
    locationId: Type.String({ description: 'a service offered at several locations is listed once per location' }),
    waiting: Type.Integer({ minimum: 0 }),
    estimatedWaitSeconds: Type.Integer({
      minimum: 0,
      description: 'for a ticket issued now: ceil((waiting + 1) / max(open counters of this service here, 1)) × average service seconds',
    }),
  },
  closed,
)
export type ServiceEntry = Static<typeof ServiceEntry>

export const ServicesResponse = Type.Object({ data: Type.Object({ services: Type.Array(ServiceEntry) }, closed) }, closed)

export const NowServing = Type.Object({ number: Type.String(), counterName: Type.String() }, closed)

export const StateEntry = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    locationId: Type.String(),
    waiting: Type.Integer({ minimum: 0 }),
    nowServing: Type.Union([NowServing, Type.Null()], { description: 'null when no ticket of this service is CALLED or SERVING here' }),
  },
  closed,
)
export type StateEntry = Static<typeof StateEntry>

export const StateResponse = Type.Object(
  { data: Type.Object({ generatedAt: DateTime, services: Type.Array(StateEntry) }, closed) },
  closed,
)

/** A ticket as the API shows it, for the examples. */
export const TICKET_EXAMPLE = {
  id: 'tkt_01JD6Z8K4Q2M7W3X9B5C1V0N8R',
  ticketId: 'tkt_01JD6Z8K4Q2M7W3X9B5C1V0N8R',
  ticketNumber: 'A007',
  status: 'WAITING',
  source: 'API',
  queueUnitId: 'qu_main',
  locationId: 'loc_hall',
  serviceId: 'svc_accounts',
  externalReference: 'crm-4711',
  createdAt: '2026-11-25T09:30:00.000Z',
  calledAt: null,
  servingAt: null,
  completedAt: null,
}
