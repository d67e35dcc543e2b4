import type { TSchema } from '@sinclair/typebox'
import { routeDetail } from '../platform/openapi'
import { QueueTicket, TICKET_EXAMPLE } from '../queue'
import { CounterCodes, CounterErrorExamples } from './errors'
import { CallTicketRequest, CloseCounterRequest, Counter, CounterResponse, NoBody, OverviewLine, QueueOverviewResponse, RequeueRequest, ReinstateRequest, TicketEvent, TicketEventsResponse, TrackedTicketResponse, TransferRequest, WalkInRequest } from './model'

/** The ticket actions of a counter that take no body beyond the optional note (routes.ts declares one route each). */
export type SimpleAction = 'recall' | 'start' | 'complete' | 'no-show' | 'cancel'

/*
 * The OpenAPI details of the operator API's routes (src/counters/routes.ts): what each route
 * answers, with examples and its error codes by status.
 */

const ORDER_OF_CHECKS =
  'Checks, in order: declared body size (16 KB; a chunked body is measured while read, after the rate limit) → credential → scope `counter:operate` → rate limit → ' +
  'a desk of a unit with `deskSignIn: required` and no clerk signed in: 403 CLERK_SIGN_IN_REQUIRED → Content-Type (when a body is sent or required) → JSON → schema → ' +
  'Edge authority → Queue Unit active → counter / ticket lookup (404 also outside the key\'s locations and services) → transition → write.'

const commonMutationErrors = {
  400: [CounterCodes.INVALID_REQUEST, CounterCodes.INVALID_JSON],
  401: [CounterCodes.AUTHENTICATION_FAILED],
  403: [CounterCodes.SCOPE_FORBIDDEN, CounterCodes.ORIGIN_FORBIDDEN, CounterCodes.CLERK_SIGN_IN_REQUIRED, CounterCodes.QUEUE_UNIT_INACTIVE],
  409: [CounterCodes.QUEUE_UNIT_EDGE_MANAGED],
  413: [CounterCodes.PAYLOAD_TOO_LARGE],
  422: [CounterCodes.VALIDATION_FAILED],
  429: [CounterCodes.RATE_LIMITED],
}

const readErrors = {
  401: [CounterCodes.AUTHENTICATION_FAILED],
  403: [CounterCodes.SCOPE_FORBIDDEN, CounterCodes.QUEUE_UNIT_INACTIVE],
  429: [CounterCodes.RATE_LIMITED],
}

/** A success response of an operator route: its body's component name and an example. */
interface Success { status: number; description: string; name: string; schema: TSchema; example: unknown }

/** The request bodies of operator routes, by schema: component name and example. */
const BODIES = new Map<TSchema, { name: string; examples: Record<string, { summary: string; value: unknown }> }>([
  [NoBody, { name: 'EmptyBody', examples: { empty: { summary: 'no parameters (the body may also be left out)', value: {} } } }],
  [CloseCounterRequest, { name: 'CloseCounterRequest', examples: {
    lunch: { summary: 'closed for lunch: the clerk signs out and starts a break', value: { reason: 'Lunch' } },
    empty: { summary: 'no reason (the body may also be left out): the clerk signs out', value: {} },
  } }],
  [CallTicketRequest, { name: 'CallTicketRequest', examples: { counter: { summary: 'call to Counter 1', value: { counterId: 'cnt_1' } } } }],
  // Reinstate (contract §20) takes the same body: ReinstateRequest is this schema.
  [RequeueRequest, { name: 'RequeueRequest', examples: { first: { summary: 'back to the front of the line', value: { position: 'FIRST' } } } }],
  [TransferRequest, { name: 'TransferRequest', examples: {
    loans: { summary: 'to Loans, at the end of its line', value: { serviceId: 'svc_loans', position: 'LAST' } },
    note: { summary: 'to Loans with a note for the receiving desk (contract §20)', value: { serviceId: 'svc_loans', note: 'Wants to open a savings account' } },
  } }],
])

/** Bodies that may be left out: the actions without parameters, and close's optional reason. */
const OPTIONAL_BODIES = new Set<TSchema>([NoBody, CloseCounterRequest])

const counterParam = { counterId: { description: 'the counter ID', example: 'cnt_1' } }
const ticketParam = { ticketId: { description: 'the ticket ID (tkt_…)', example: TICKET_EXAMPLE.id } }
/** The routes under counters/{counterId}; the other operator routes with a path parameter are under tickets/{ticketId}. */
const COUNTER_ROUTES = new Set(['openCounter', 'closeCounter', 'callNextTicket'])
// The operator API's ticket has `priority` (contract §8): a name of its own beside the public QueueTicket.
const schemas = { OperatorTicket: QueueTicket, Counter, TicketEvent, OverviewLine, EmptyBody: NoBody }

/** An operator route's OpenAPI detail; actions without parameters document `NoBody` as optional. */
function docs(operationId: string, summary: string, description: string, success: Success, errors: Record<number, string[]>, body?: TSchema) {
  const named = body === undefined ? undefined : BODIES.get(body)!
  const params = COUNTER_ROUTES.has(operationId) ? counterParam : operationId === 'readQueueOverview' ? undefined : ticketParam
  return routeDetail({
    operationId,
    summary,
    description,
    tags: ['Operator'],
    security: 'operator',
    ...(params === undefined ? {} : { params }),
    ...(body === undefined ? {} : { body: { name: named!.name, schema: body, required: !OPTIONAL_BODIES.has(body), examples: named!.examples } }),
    responses: { [success.status]: { description: success.description, name: success.name, schema: success.schema, example: success.example } },
    errors,
    errorExamples: CounterErrorExamples,
    schemas,
  })
}

/** The operator API's ticket: the public one and `priority` (contract §8). */
export const OPERATOR_TICKET_EXAMPLE = { ...TICKET_EXAMPLE, priority: false, transfer: null }
const CALLED_TICKET = { ...OPERATOR_TICKET_EXAMPLE, status: 'CALLED', calledAt: '2026-11-25T09:41:12.345Z' }
/** Contract §10: operator answers carry the ticket's phone page (a path). */
const TRACKING_URL_EXAMPLE = '/t/k3v9q2m7x4c8h6b5n2r7t3w4'
const ticketResult = (example: Record<string, unknown> = CALLED_TICKET): Success => ({ status: 200, description: 'the ticket after the transition', name: 'OperatorTicketResponse', schema: TrackedTicketResponse, example: { data: { ...example, trackingUrl: TRACKING_URL_EXAMPLE } } })
const COUNTER_EXAMPLE = { id: 'cnt_1', name: 'Counter 1', names: { en: 'Counter 1', ar: 'الشباك ١' }, locationId: 'loc_hall', serviceIds: ['svc_accounts', 'svc_loans'], open: true, busy: false, ticket: null }
const counterResult: Success = { status: 200, description: 'the counter', name: 'CounterResponse', schema: CounterResponse, example: { data: COUNTER_EXAMPLE } }

const SIMPLE_ACTIONS: Record<SimpleAction, { operationId: string; summary: string; description: string; after: Record<string, unknown> }> = {
  recall: { operationId: 'recallTicket', after: CALLED_TICKET, summary: 'Recall a called ticket', description: 'CALLED→CALLED: calls the ticket again at its counter (call count +1; `calledAt` keeps the first call). Webhook `ticket.recalled`.' },
  start: { operationId: 'startServingTicket', after: { ...CALLED_TICKET, status: 'SERVING', servingAt: '2026-11-25T09:42:03.120Z' }, summary: 'Start serving a called ticket', description: 'CALLED→SERVING: sets `servingAt`. Webhook `ticket.serving`.' },
  complete: { operationId: 'completeTicket', after: { ...CALLED_TICKET, status: 'COMPLETED', servingAt: '2026-11-25T09:42:03.120Z', completedAt: '2026-11-25T09:47:40.002Z' }, summary: 'Complete a ticket being served', description: 'SERVING→COMPLETED: sets `completedAt`; `completedAt − servingAt` feeds the average service time. Webhook `ticket.completed`.' },
  'no-show': { operationId: 'markTicketNoShow', after: { ...CALLED_TICKET, status: 'NO_SHOW', completedAt: '2026-11-25T09:44:12.000Z' }, summary: 'Mark a called ticket as no-show', description: 'CALLED→NO_SHOW: sets `completedAt`. Webhook `ticket.no_show`.' },
  cancel: { operationId: 'cancelTicket', after: { ...OPERATOR_TICKET_EXAMPLE, status: 'CANCELLED', completedAt: '2026-11-25T09:35:00.000Z' }, summary: 'Cancel a waiting ticket', description: 'WAITING→CANCELLED: sets `completedAt`, the line is one shorter. Webhook `ticket.cancelled`.' },
}

/** recall · start · complete · no-show · cancel: the same shape, one detail each. */
export const simpleActionDocs = Object.fromEntries(Object.entries(SIMPLE_ACTIONS).map(([action, { operationId, summary, description, after }]) => [
  action,
  docs(
    operationId,
    summary,
    `${description} ${ORDER_OF_CHECKS}`,
    ticketResult(after),
    { ...commonMutationErrors, 404: [CounterCodes.TICKET_NOT_FOUND], 409: [CounterCodes.QUEUE_UNIT_EDGE_MANAGED, CounterCodes.INVALID_TRANSITION] },
    NoBody,
  ),
])) as Record<SimpleAction, ReturnType<typeof routeDetail>>

export const openCounterDocs = docs(
  'openCounter',
  'Open a counter',
  `Marks the counter open (open counters feed the wait estimate). Opening an open counter changes nothing. ${ORDER_OF_CHECKS}`,
  counterResult,
  { ...commonMutationErrors, 404: [CounterCodes.COUNTER_NOT_FOUND] },
  NoBody,
)

export const closeCounterDocs = docs(
  'closeCounter',
  'Close a counter',
  'Marks the counter closed; 409 COUNTER_BUSY while it holds a CALLED or SERVING ticket. The clerk signed in at its desk signs out (contract §16); with the optional ' +
    '`reason`, which must be one of the queue unit\'s `breakReasons` (else 422 on /reason), that clerk starts a break, which ends when the counter opens again or the clerk ' +
    `signs in anywhere. Closing a closed counter changes nothing but that sign-out. ${ORDER_OF_CHECKS}`,
  { ...counterResult, example: { data: { ...COUNTER_EXAMPLE, open: false } } },
  { ...commonMutationErrors, 404: [CounterCodes.COUNTER_NOT_FOUND], 409: [CounterCodes.QUEUE_UNIT_EDGE_MANAGED, CounterCodes.COUNTER_BUSY] },
  CloseCounterRequest,
)

export const callNextTicketDocs = docs(
  'callNextTicket',
  'Call the next ticket',
  'Calls the first WAITING ticket at the counter\'s location among the services it serves (and the key may use): tickets requeued FIRST, then by the queue unit\'s ' +
    'priority setting (FIRST: priority tickets before normal ones; INTERLEAVE: the oldest, but a waiting priority ticket after N normal calls at this counter), each oldest first. ' +
    'WAITING→CALLED with `calledAt` and the counter. 409 COUNTER_CLOSED when the counter is closed (open it first); 409 COUNTER_BUSY while it holds a CALLED or SERVING ticket; ' +
    `404 NO_TICKET_WAITING when none waits. Webhook \`ticket.called\`. ${ORDER_OF_CHECKS}`,
  { ...ticketResult(), description: 'the called ticket' },
  { ...commonMutationErrors, 404: [CounterCodes.COUNTER_NOT_FOUND, CounterCodes.NO_TICKET_WAITING], 409: [CounterCodes.QUEUE_UNIT_EDGE_MANAGED, CounterCodes.COUNTER_CLOSED, CounterCodes.COUNTER_BUSY] },
  NoBody,
)

export const issueWalkInTicketDocs = routeDetail({
  operationId: 'issueWalkInTicket',
  summary: 'Issue a walk-in ticket',
  description:
    'A ticket issued at a counter (source OPERATOR), with the public issue\'s body and rules, and optionally `"priority": true` for a priority ticket. No X-Request-Timestamp or X-Request-Nonce; an optional ' +
    'Idempotency-Key makes retries safe (replay: 201 with `Idempotent-Replayed: true`; another body: 409 IDEMPOTENCY_KEY_REUSED). Counts against the ' +
    'key\'s ticket-issue rate limit. Checks, in order: body size → credential → scope → rate limit → headers (Content-Type, Idempotency-Key) → JSON → ' +
    'schema → idempotency lookup → Edge authority → Queue Unit active → location and service → write. Webhook `ticket.created`.',
  tags: ['Operator'],
  security: 'operator',
  headers: {
    'Idempotency-Key': {
      required: false,
      description: 'optional: 1 to 160 characters; the same key and parsed body within 24 hours return the original ticket',
      example: 'desk-cnt_1-2026-11-25-0017',
      schema: { type: 'string', minLength: 1, maxLength: 160 },
    },
  },
  body: {
    name: 'WalkInRequest',
    schema: WalkInRequest,
    examples: {
      walkIn: { summary: 'A walk-in for Accounts in the main hall', value: { locationId: 'loc_hall', serviceId: 'svc_accounts' } },
      priorityWalkIn: { summary: 'A priority walk-in (called before normal tickets by the unit\'s priority setting)', value: { locationId: 'loc_hall', serviceId: 'svc_accounts', priority: true } },
    },
  },
  responses: {
    201: {
      description: 'the ticket',
      name: 'OperatorTicketResponse',
      example: { data: { ...OPERATOR_TICKET_EXAMPLE, source: 'OPERATOR', externalReference: null, trackingUrl: TRACKING_URL_EXAMPLE } },
      headers: {
        Location: { description: 'the ticket URL (public read)', required: true, schema: { type: 'string' } },
        'Idempotent-Replayed': { description: '`true` when this repeats an earlier response', schema: { type: 'string', enum: ['true'] } },
      },
      schema: TrackedTicketResponse,
    },
  },
  errors: {
    ...commonMutationErrors,
    403: [CounterCodes.SCOPE_FORBIDDEN, CounterCodes.ORIGIN_FORBIDDEN, CounterCodes.CLERK_SIGN_IN_REQUIRED, CounterCodes.LOCATION_FORBIDDEN, CounterCodes.SERVICE_FORBIDDEN, CounterCodes.QUEUE_UNIT_INACTIVE],
    409: [CounterCodes.IDEMPOTENCY_KEY_REUSED, CounterCodes.QUEUE_UNIT_EDGE_MANAGED],
  },
  errorExamples: CounterErrorExamples,
  schemas,
})

export const callTicketDocs = docs(
  'callTicket',
  'Call a specific ticket',
  'WAITING→CALLED at the given counter, which must be at the ticket\'s location and serve its service (else 422 on /counterId); a closed counter opens. ' +
    'Ticket lookup, then counter lookup, then the counter match, then the transition (409 INVALID_TRANSITION), then 409 COUNTER_BUSY. ' +
    `Webhook \`ticket.called\`. ${ORDER_OF_CHECKS}`,
  ticketResult(),
  {
    ...commonMutationErrors,
    404: [CounterCodes.TICKET_NOT_FOUND, CounterCodes.COUNTER_NOT_FOUND],
    409: [CounterCodes.QUEUE_UNIT_EDGE_MANAGED, CounterCodes.INVALID_TRANSITION, CounterCodes.COUNTER_BUSY],
  },
  CallTicketRequest,
)

export const requeueTicketDocs = docs(
  'requeueTicket',
  'Requeue a called ticket',
  'CALLED→WAITING: the ticket leaves its counter, `calledAt` goes back to null, and it waits FIRST (in front of every ticket waiting at the location: the next call-next of a counter serving it takes it) ' +
    `or LAST. Webhook \`ticket.requeued\`. ${ORDER_OF_CHECKS}`,
  ticketResult(),
  { ...commonMutationErrors, 404: [CounterCodes.TICKET_NOT_FOUND], 409: [CounterCodes.QUEUE_UNIT_EDGE_MANAGED, CounterCodes.INVALID_TRANSITION] },
  RequeueRequest,
)

export const reinstateTicketDocs = docs(
  'reinstateTicket',
  'Bring back a no-show',
  'Contract §20: NO_SHOW→WAITING within the queue unit\'s `noShowGraceMinutes` (default 30) of the no-show (its `completedAt`; the last millisecond still counts), ' +
    'FIRST (in front of every ticket waiting at the location) or LAST. The ticket leaves its counter, `calledAt` and `completedAt` go back to null; number, priority and ' +
    'transfer kept. A desk (bound to its counter) brings back only the no-shows of its own counter. After the window: 409 NO_SHOW_GRACE_EXPIRED; a ticket that is not ' +
    'NO_SHOW: 409 INVALID_TRANSITION. Event `reinstated` in its history, webhook `ticket.reinstated`. Reports: the no-show is taken back from its service\'s day and ' +
    `its counter (docs/reports.md). ${ORDER_OF_CHECKS}`,
  ticketResult(),
  { ...commonMutationErrors, 404: [CounterCodes.TICKET_NOT_FOUND], 409: [CounterCodes.QUEUE_UNIT_EDGE_MANAGED, CounterCodes.INVALID_TRANSITION, CounterCodes.NO_SHOW_GRACE_EXPIRED] },
  ReinstateRequest,
)

export const transferTicketDocs = docs(
  'transferTicket',
  'Transfer a ticket to another service',
  'CALLED/SERVING→WAITING in another service at the same location, number kept: the ticket leaves its counter, `calledAt` and `servingAt` go back to null, ' +
    'and it joins the target line LAST (default) or FIRST. The target must be another active service of the unit offered at the ticket\'s location ' +
    `(else 422 on /serviceId) and within the key's services (else 403 SERVICE_FORBIDDEN), checked before the transition. Contract §20: an optional \`note\` for the receiving desk ` +
    '(plain text, at most 200 characters, else 422 on /note; blank is none); the ticket JSON then has `transfer: {fromServiceId, fromCounterId, note}` (its last transfer), which the ' +
    `receiving desk shows ("Transferred from Accounts, Counter 1"). Webhook \`ticket.transferred\`. ${ORDER_OF_CHECKS}`,
  ticketResult(),
  {
    ...commonMutationErrors,
    403: [CounterCodes.SCOPE_FORBIDDEN, CounterCodes.ORIGIN_FORBIDDEN, CounterCodes.CLERK_SIGN_IN_REQUIRED, CounterCodes.SERVICE_FORBIDDEN, CounterCodes.QUEUE_UNIT_INACTIVE],
    404: [CounterCodes.TICKET_NOT_FOUND],
    409: [CounterCodes.QUEUE_UNIT_EDGE_MANAGED, CounterCodes.INVALID_TRANSITION],
  },
  TransferRequest,
)

export const readQueueOverviewDocs = docs(
  'readQueueOverview',
  'Queue overview',
  'Every (service, location) line the key may use with its waiting count, estimate, now serving and WAITING tickets in call order; every counter the key may operate, ' +
    'open or closed, with the ticket it holds. Names (contract §18): each `name` is in the queue unit\'s `defaultLanguage`, and `names` beside it (services, counters, ' +
    '`nowServing.counterNames`) holds every language it was provisioned in (a plain name as `{"<defaultLanguage>": name}`); `languages` are the unit\'s. Checks: credential → scope → rate limit → Queue Unit active.',
  {
    status: 200,
    description: 'the live queue',
    name: 'QueueOverviewResponse',
    schema: QueueOverviewResponse,
    example: {
      data: {
        generatedAt: '2026-11-25T09:42:00.000Z',
        defaultLanguage: 'en',
        languages: ['en', 'ar'],
        services: [{
          id: 'svc_accounts', name: 'Accounts', names: { en: 'Accounts', ar: 'الحسابات' }, prefix: 'A', locationId: 'loc_hall', active: true, waiting: 1, estimatedWaitSeconds: 300, noCounterOpen: false, peopleAhead: 1, counterFree: false,
          nowServing: { number: 'A007', counterName: 'Counter 1', counterNames: { en: 'Counter 1', ar: 'الشباك ١' }, status: 'CALLED', calledAt: '2026-11-25T09:41:12.345Z', priority: false },
          tickets: [{ ...OPERATOR_TICKET_EXAMPLE, id: 'tkt_01JD6ZB2P1F0S9E8D7C6B5A4Z3', ticketId: 'tkt_01JD6ZB2P1F0S9E8D7C6B5A4Z3', ticketNumber: 'A008', externalReference: null, createdAt: '2026-11-25T09:33:20.000Z' }],
        }],
        counters: [{ ...COUNTER_EXAMPLE, busy: true, ticket: CALLED_TICKET }],
      },
    },
  },
  readErrors,
)

export const listTicketEventsDocs = docs(
  'listTicketEvents',
  'A ticket\'s event history',
  'Every transition of the ticket, oldest first: what (type, from, to), when, at which counter, and who (`actor`, contract §16: a clerk signed in at the desk by username, a desk or kiosk without one by device name, an API key by credential ID, ' +
    'the daily close as `{type: system, id: daily-close}`). ' +
    'Checks: credential → scope → rate limit → Queue Unit active → ticket (404 also outside the key\'s locations and services).',
  {
    status: 200,
    description: 'the history',
    name: 'TicketEventsResponse',
    schema: TicketEventsResponse,
    example: {
      data: {
        ticketId: TICKET_EXAMPLE.id,
        ticketNumber: 'A007',
        events: [
          { id: 1, type: 'created', fromStatus: null, toStatus: 'WAITING', counterId: null, actor: { type: 'device', id: 'kiosk-entrance' }, at: '2026-11-25T09:30:00.000Z', detail: { source: 'KIOSK' } },
          { id: 2, type: 'called', fromStatus: 'WAITING', toStatus: 'CALLED', counterId: 'cnt_1', actor: { type: 'clerk', id: 'alice' }, at: '2026-11-25T09:41:12.345Z', detail: null },
        ],
      },
    },
  },
  { ...readErrors, 404: [CounterCodes.TICKET_NOT_FOUND] },
)
