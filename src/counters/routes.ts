import { Elysia } from 'elysia'
import { readIdempotencyKeyHeader, type IdempotencyKeyPolicy } from '../platform/idempotency'
import { Type, type TSchema } from '@sinclair/typebox'
import type { AppDeps } from '../root/deps'
import type { Credential } from '../platform/credentials'
import { ApiError, type ErrorDetail } from '../platform/errors'
import { KiB, isJsonContentType, parseJsonBytes, readBodyAfterChecks } from '../platform/body'
import { json } from '../platform/http'
import { routeDetail } from '../platform/openapi'
import { assertSchema, compile, type SchemaCheck } from '../platform/validation'
import type { RateBucket } from '../queue/access'
import { admitOperatorCaller } from '../devices/access'
import type { DeviceService } from '../devices/service'
import { QueueTicket, Scopes, TICKET_EXAMPLE } from '../queue/model'
import { IDEMPOTENCY_KEY_MAX } from '../queue/replay'
import { trackedTicketJson } from '../tickets'
import { CounterCodes, CounterErrorExamples } from './errors'
import { CallTicketRequest, Counter, CounterResponse, NoBody, OverviewLine, QueueOverviewResponse, RequeueRequest, TicketEvent, TicketEventsResponse, TrackedTicketResponse, TransferRequest, WalkInRequest } from './model'
import type { CounterService } from './service'

const BASE = '/api/operator/v1'

/** Operator bodies are small; the same 16 KB (16,384 bytes) as the public ticket issue. */
export const MAX_OPERATOR_BODY = 16 * KiB

const checkNoBody = compile(NoBody)
const checkCall = compile(CallTicketRequest)
const checkRequeue = compile(RequeueRequest)
const checkTransfer = compile(TransferRequest)
const checkWalkIn = compile(WalkInRequest)

/**
 * The JSON body of an operator request, after the caller was admitted: Content-Type (400
 * INVALID_REQUEST) → JSON (400 INVALID_JSON) → schema (422 VALIDATION_FAILED). Actions without
 * parameters (`optional`) also accept no body at all, which reads as `{}`.
 */
function readBody<T extends TSchema>(request: Request, raw: Uint8Array, check: SchemaCheck<T>, optional: boolean) {
  let value: unknown = {}
  if (raw.byteLength > 0 || !optional) {
    if (!isJsonContentType(request)) {
      throw new ApiError(400, CounterCodes.INVALID_REQUEST, 'Content-Type must be application/json', [{ path: 'Content-Type', message: 'must be application/json' }])
    }
    value = parseJsonBytes(raw)
  }
  assertSchema(check, value, CounterCodes.VALIDATION_FAILED)
  return value
}

/** A walk-in: optional, 1–160 characters. */
const WALK_IN_IDEMPOTENCY_KEY: IdempotencyKeyPolicy = { required: false, min: 1, max: IDEMPOTENCY_KEY_MAX, missing: '', invalid: `must be 1 to ${IDEMPOTENCY_KEY_MAX} characters` }

/**
 * The headers step of a walk-in: Content-Type application/json, and the optional
 * Idempotency-Key (1–160 characters). Every bad header is listed; 400 INVALID_REQUEST.
 */
function readWalkInHeaders(request: Request): { idempotencyKey: string | null } {
  const details: ErrorDetail[] = []
  if (!isJsonContentType(request)) details.push({ path: 'Content-Type', message: 'must be application/json' })
  const { key: idempotencyKey, problem } = readIdempotencyKeyHeader(request, WALK_IN_IDEMPOTENCY_KEY)
  if (problem !== null) details.push(problem)
  if (details.length > 0) {
    throw new ApiError(400, CounterCodes.INVALID_REQUEST, `invalid request headers: ${details.map((d) => d.path).join(', ')}`, details)
  }
  return { idempotencyKey }
}

const ORDER_OF_CHECKS =
  'Checks, in order: declared body size (16 KB; a chunked body is measured while read, after the rate limit) → credential → scope `counter:operate` → rate limit → Content-Type (when a body is sent or required) → JSON → schema → ' +
  'Edge authority → Queue Unit active → counter / ticket lookup (404 also outside the key\'s locations and services) → transition → write.'

const commonMutationErrors = {
  400: [CounterCodes.INVALID_REQUEST, CounterCodes.INVALID_JSON],
  401: [CounterCodes.AUTHENTICATION_FAILED],
  403: [CounterCodes.SCOPE_FORBIDDEN, CounterCodes.ORIGIN_FORBIDDEN, CounterCodes.QUEUE_UNIT_INACTIVE],
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

const counterParams = Type.Object({ counterId: Type.String({ description: 'the counter ID' }) })
const ticketParams = Type.Object({ ticketId: Type.String({ description: 'the ticket ID (tkt_…)' }) })

/** A success response of an operator route: its body's component name and an example. */
interface Success { status: number; description: string; name: string; schema: TSchema; example: unknown }

/** The request bodies of operator routes, by schema: component name and example. */
const BODIES = new Map<TSchema, { name: string; examples: Record<string, { summary: string; value: unknown }> }>([
  [NoBody, { name: 'EmptyBody', examples: { empty: { summary: 'no parameters (the body may also be left out)', value: {} } } }],
  [CallTicketRequest, { name: 'CallTicketRequest', examples: { counter: { summary: 'call to Counter 1', value: { counterId: 'cnt_1' } } } }],
  [RequeueRequest, { name: 'RequeueRequest', examples: { first: { summary: 'back to the front of the line', value: { position: 'FIRST' } } } }],
  [TransferRequest, { name: 'TransferRequest', examples: { loans: { summary: 'to Loans, at the end of its line', value: { serviceId: 'svc_loans', position: 'LAST' } } } }],
])

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
    ...(body === undefined ? {} : { body: { name: named!.name, schema: body, required: body !== NoBody, examples: named!.examples } }),
    responses: { [success.status]: { description: success.description, name: success.name, schema: success.schema, example: success.example } },
    errors,
    errorExamples: CounterErrorExamples,
    schemas,
  })
}

/** The operator API's ticket: the public one and `priority` (contract §8). */
export const OPERATOR_TICKET_EXAMPLE = { ...TICKET_EXAMPLE, priority: false }
const CALLED_TICKET = { ...OPERATOR_TICKET_EXAMPLE, status: 'CALLED', calledAt: '2026-11-25T09:41:12.345Z' }
/** Contract §10: operator answers carry the ticket's phone page (a path). */
const TRACKING_URL_EXAMPLE = '/t/k3v9q2m7x4c8h6b5n2r7t3w4'
const ticketResult = (example: Record<string, unknown> = CALLED_TICKET): Success => ({ status: 200, description: 'the ticket after the transition', name: 'OperatorTicketResponse', schema: TrackedTicketResponse, example: { data: { ...example, trackingUrl: TRACKING_URL_EXAMPLE } } })
const COUNTER_EXAMPLE = { id: 'cnt_1', name: 'Counter 1', locationId: 'loc_hall', serviceIds: ['svc_accounts', 'svc_loans'], open: true, busy: false, ticket: null }
const counterResult: Success = { status: 200, description: 'the counter', name: 'CounterResponse', schema: CounterResponse, example: { data: COUNTER_EXAMPLE } }

type SimpleAction = 'recall' | 'start' | 'complete' | 'no-show' | 'cancel'
const SIMPLE_ACTIONS: Record<SimpleAction, { operationId: string; summary: string; description: string; after: Record<string, unknown> }> = {
  recall: { operationId: 'recallTicket', after: CALLED_TICKET, summary: 'Recall a called ticket', description: 'CALLED→CALLED: calls the ticket again at its counter (call count +1; `calledAt` keeps the first call). Webhook `ticket.recalled`.' },
  start: { operationId: 'startServingTicket', after: { ...CALLED_TICKET, status: 'SERVING', servingAt: '2026-11-25T09:42:03.120Z' }, summary: 'Start serving a called ticket', description: 'CALLED→SERVING: sets `servingAt`. Webhook `ticket.serving`.' },
  complete: { operationId: 'completeTicket', after: { ...CALLED_TICKET, status: 'COMPLETED', servingAt: '2026-11-25T09:42:03.120Z', completedAt: '2026-11-25T09:47:40.002Z' }, summary: 'Complete a ticket being served', description: 'SERVING→COMPLETED: sets `completedAt`; `completedAt − servingAt` feeds the average service time. Webhook `ticket.completed`.' },
  'no-show': { operationId: 'markTicketNoShow', after: { ...CALLED_TICKET, status: 'NO_SHOW', completedAt: '2026-11-25T09:44:12.000Z' }, summary: 'Mark a called ticket as no-show', description: 'CALLED→NO_SHOW: sets `completedAt`. Webhook `ticket.no_show`.' },
  cancel: { operationId: 'cancelTicket', after: { ...OPERATOR_TICKET_EXAMPLE, status: 'CANCELLED', completedAt: '2026-11-25T09:35:00.000Z' }, summary: 'Cancel a waiting ticket', description: 'WAITING→CANCELLED: sets `completedAt`, the line is one shorter. Webhook `ticket.cancelled`.' },
}

/**
 * The operator API (contract §3 "Operator API") at /api/operator/v1, for Queue keys with the
 * `counter:operate` scope. Building the routes starts nothing: the daily close is background
 * work that `serve` starts (src/server.ts).
 */
export function counterRoutes(deps: AppDeps, { counters: service, devices }: { counters: CounterService; devices: DeviceService }) {

  /** Body size → credential → scope → rate limit, in the public issue's order. */
  async function admit(request: Request, bucket: RateBucket): Promise<{ raw: Uint8Array; caller: Credential; now: number }> {
    // With a declared size the credential is checked before the body is read (see readBodyAfterChecks).
    const now = deps.clock.now()
    const { raw, checked: caller } = await readBodyAfterChecks(request, MAX_OPERATOR_BODY, () => admitOperatorCaller(deps, devices, request, Scopes.COUNTER_OPERATE, bucket, now))
    return { raw, caller, now }
  }

  const ticketOk = (row: Parameters<typeof trackedTicketJson>[0]) => json(200, { data: trackedTicketJson(row) })

  /** recall · start · complete · no-show · cancel: one route each, the same shape. */
  const simpleAction = (action: SimpleAction) => [
    `${BASE}/tickets/:ticketId/${action}`,
    async ({ request, params }: { request: Request; params: { ticketId: string } }) => {
      const { raw, caller, now } = await admit(request, 'operate')
      readBody(request, raw, checkNoBody, true)
      return ticketOk(await deps.writes.run(() => service.transition(caller, params.ticketId, action, now)))
    },
    {
      parse: 'none',
      params: ticketParams,
      detail: docs(
        SIMPLE_ACTIONS[action].operationId,
        SIMPLE_ACTIONS[action].summary,
        `${SIMPLE_ACTIONS[action].description} ${ORDER_OF_CHECKS}`,
        ticketResult(SIMPLE_ACTIONS[action].after),
        { ...commonMutationErrors, 404: [CounterCodes.TICKET_NOT_FOUND], 409: [CounterCodes.QUEUE_UNIT_EDGE_MANAGED, CounterCodes.INVALID_TRANSITION] },
        NoBody,
      ),
    },
  ] as const

  return new Elysia({ name: 'lobby.counters' })
    .post(
      `${BASE}/counters/:counterId/open`,
      async ({ request, params }) => {
        const { raw, caller, now } = await admit(request, 'operate')
        readBody(request, raw, checkNoBody, true)
        return json(200, { data: await deps.writes.run(() => service.openCounter(caller, params.counterId, now)) })
      },
      {
        parse: 'none',
        params: counterParams,
        detail: docs(
          'openCounter',
          'Open a counter',
          `Marks the counter open (open counters feed the wait estimate). Opening an open counter changes nothing. ${ORDER_OF_CHECKS}`,
          counterResult,
          { ...commonMutationErrors, 404: [CounterCodes.COUNTER_NOT_FOUND] },
          NoBody,
        ),
      },
    )
    .post(
      `${BASE}/counters/:counterId/close`,
      async ({ request, params }) => {
        const { raw, caller, now } = await admit(request, 'operate')
        readBody(request, raw, checkNoBody, true)
        return json(200, { data: await deps.writes.run(() => service.closeCounter(caller, params.counterId, now)) })
      },
      {
        parse: 'none',
        params: counterParams,
        detail: docs(
          'closeCounter',
          'Close a counter',
          `Marks the counter closed; 409 COUNTER_BUSY while it holds a CALLED or SERVING ticket. Closing a closed counter changes nothing. ${ORDER_OF_CHECKS}`,
          { ...counterResult, example: { data: { ...COUNTER_EXAMPLE, open: false } } },
          { ...commonMutationErrors, 404: [CounterCodes.COUNTER_NOT_FOUND], 409: [CounterCodes.QUEUE_UNIT_EDGE_MANAGED, CounterCodes.COUNTER_BUSY] },
          NoBody,
        ),
      },
    )
    .post(
      `${BASE}/counters/:counterId/call-next`,
      async ({ request, params }) => {
        const { raw, caller, now } = await admit(request, 'operate')
        readBody(request, raw, checkNoBody, true)
        return ticketOk(await deps.writes.run(() => service.callNext(caller, params.counterId, now)))
      },
      {
        parse: 'none',
        params: counterParams,
        detail: docs(
          'callNextTicket',
          'Call the next ticket',
          'Calls the first WAITING ticket at the counter\'s location among the services it serves (and the key may use): tickets requeued FIRST, then by the queue unit\'s ' +
            'priority setting (FIRST: priority tickets before normal ones; INTERLEAVE: the oldest, but a waiting priority ticket after N normal calls at this counter), each oldest first. ' +
            'WAITING→CALLED with `calledAt` and the counter; a closed counter opens. 409 COUNTER_BUSY while the counter holds a CALLED or SERVING ticket; ' +
            `404 NO_TICKET_WAITING when none waits. Webhook \`ticket.called\`. ${ORDER_OF_CHECKS}`,
          { ...ticketResult(), description: 'the called ticket' },
          { ...commonMutationErrors, 404: [CounterCodes.COUNTER_NOT_FOUND, CounterCodes.NO_TICKET_WAITING], 409: [CounterCodes.QUEUE_UNIT_EDGE_MANAGED, CounterCodes.COUNTER_BUSY] },
          NoBody,
        ),
      },
    )
    .post(
      `${BASE}/tickets`,
      async ({ request }) => {
        const { raw, caller, now } = await admit(request, 'issue')
        const { idempotencyKey } = readWalkInHeaders(request)
        const body = parseJsonBytes(raw)
        assertSchema(checkWalkIn, body, CounterCodes.VALIDATION_FAILED)
        const outcome = await deps.writes.run(() => service.walkIn(caller, idempotencyKey, body, now))
        return json(outcome.status, outcome.body, outcome.replayed ? { ...outcome.headers, 'idempotent-replayed': 'true' } : outcome.headers)
      },
      {
        parse: 'none',
        detail: routeDetail({
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
            403: [CounterCodes.SCOPE_FORBIDDEN, CounterCodes.ORIGIN_FORBIDDEN, CounterCodes.LOCATION_FORBIDDEN, CounterCodes.SERVICE_FORBIDDEN, CounterCodes.QUEUE_UNIT_INACTIVE],
            409: [CounterCodes.IDEMPOTENCY_KEY_REUSED, CounterCodes.QUEUE_UNIT_EDGE_MANAGED],
          },
          errorExamples: CounterErrorExamples,
          schemas,
        }),
      },
    )
    .post(
      `${BASE}/tickets/:ticketId/call`,
      async ({ request, params }) => {
        const { raw, caller, now } = await admit(request, 'operate')
        const body = readBody(request, raw, checkCall, false)
        return ticketOk(await deps.writes.run(() => service.callTicket(caller, params.ticketId, body.counterId, now)))
      },
      {
        parse: 'none',
        params: ticketParams,
        detail: docs(
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
        ),
      },
    )
    .post(
      `${BASE}/tickets/:ticketId/requeue`,
      async ({ request, params }) => {
        const { raw, caller, now } = await admit(request, 'operate')
        const body = readBody(request, raw, checkRequeue, false)
        return ticketOk(await deps.writes.run(() => service.requeue(caller, params.ticketId, body.position, now)))
      },
      {
        parse: 'none',
        params: ticketParams,
        detail: docs(
          'requeueTicket',
          'Requeue a called ticket',
          'CALLED→WAITING: the ticket leaves its counter, `calledAt` goes back to null, and it waits FIRST (in front of every ticket waiting at the location: the next call-next of a counter serving it takes it) ' +
            `or LAST. Webhook \`ticket.requeued\`. ${ORDER_OF_CHECKS}`,
          ticketResult(),
          { ...commonMutationErrors, 404: [CounterCodes.TICKET_NOT_FOUND], 409: [CounterCodes.QUEUE_UNIT_EDGE_MANAGED, CounterCodes.INVALID_TRANSITION] },
          RequeueRequest,
        ),
      },
    )
    .post(
      `${BASE}/tickets/:ticketId/transfer`,
      async ({ request, params }) => {
        const { raw, caller, now } = await admit(request, 'operate')
        const body = readBody(request, raw, checkTransfer, false)
        return ticketOk(await deps.writes.run(() => service.transfer(caller, params.ticketId, body.serviceId, body.position ?? 'LAST', now)))
      },
      {
        parse: 'none',
        params: ticketParams,
        detail: docs(
          'transferTicket',
          'Transfer a ticket to another service',
          'CALLED/SERVING→WAITING in another service at the same location, number kept: the ticket leaves its counter, `calledAt` and `servingAt` go back to null, ' +
            'and it joins the target line LAST (default) or FIRST. The target must be another active service of the unit offered at the ticket\'s location ' +
            `(else 422 on /serviceId) and within the key's services (else 403 SERVICE_FORBIDDEN), checked before the transition. Webhook \`ticket.transferred\`. ${ORDER_OF_CHECKS}`,
          ticketResult(),
          {
            ...commonMutationErrors,
            403: [CounterCodes.SCOPE_FORBIDDEN, CounterCodes.ORIGIN_FORBIDDEN, CounterCodes.SERVICE_FORBIDDEN, CounterCodes.QUEUE_UNIT_INACTIVE],
            404: [CounterCodes.TICKET_NOT_FOUND],
            409: [CounterCodes.QUEUE_UNIT_EDGE_MANAGED, CounterCodes.INVALID_TRANSITION],
          },
          TransferRequest,
        ),
      },
    )
    .get(
      `${BASE}/queue`,
      ({ request }) => {
        const now = deps.clock.now()
        const caller = admitOperatorCaller(deps, devices, request, Scopes.COUNTER_OPERATE, 'operate', now)
        service.queue.assertQueueUnitActive(caller)
        return json(200, { data: service.overview(caller, now) })
      },
      {
        detail: docs(
          'readQueueOverview',
          'Queue overview',
          'Every (service, location) line the key may use with its waiting count, estimate, now serving and WAITING tickets in call order; every counter the key may operate, ' +
            'open or closed, with the ticket it holds. Checks: credential → scope → rate limit → Queue Unit active.',
          {
            status: 200,
            description: 'the live queue',
            name: 'QueueOverviewResponse',
            schema: QueueOverviewResponse,
            example: {
              data: {
                generatedAt: '2026-11-25T09:42:00.000Z',
                services: [{
                  id: 'svc_accounts', name: 'Accounts', prefix: 'A', locationId: 'loc_hall', active: true, waiting: 1, estimatedWaitSeconds: 300,
                  nowServing: { number: 'A007', counterName: 'Counter 1', status: 'CALLED', calledAt: '2026-11-25T09:41:12.345Z', priority: false },
                  tickets: [{ ...OPERATOR_TICKET_EXAMPLE, id: 'tkt_01JD6ZB2P1F0S9E8D7C6B5A4Z3', ticketId: 'tkt_01JD6ZB2P1F0S9E8D7C6B5A4Z3', ticketNumber: 'A008', externalReference: null, createdAt: '2026-11-25T09:33:20.000Z' }],
                }],
                counters: [{ ...COUNTER_EXAMPLE, busy: true, ticket: CALLED_TICKET }],
              },
            },
          },
          readErrors,
        ),
      },
    )
    .get(
      `${BASE}/tickets/:ticketId/events`,
      ({ request, params }) => {
        const now = deps.clock.now()
        const caller = admitOperatorCaller(deps, devices, request, Scopes.COUNTER_OPERATE, 'operate', now)
        service.queue.assertQueueUnitActive(caller)
        return json(200, { data: service.events(caller, params.ticketId) })
      },
      {
        params: ticketParams,
        detail: docs(
          'listTicketEvents',
          'A ticket\'s event history',
          'Every transition of the ticket, oldest first: what (type, from, to), when, at which counter, and who (the credential ID, or `system` for the daily close). ' +
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
                  { id: 1, type: 'created', fromStatus: null, toStatus: 'WAITING', counterId: null, actor: 'cred_01JD5KIOSK0000000000000000', at: '2026-11-25T09:30:00.000Z', detail: null },
                  { id: 2, type: 'called', fromStatus: 'WAITING', toStatus: 'CALLED', counterId: 'cnt_1', actor: 'cred_01JD5OPERATOR00000000000000', at: '2026-11-25T09:41:12.345Z', detail: null },
                ],
              },
            },
          },
          { ...readErrors, 404: [CounterCodes.TICKET_NOT_FOUND] },
        ),
      },
    )
    .post(...simpleAction('recall'))
    .post(...simpleAction('start'))
    .post(...simpleAction('complete'))
    .post(...simpleAction('no-show'))
    .post(...simpleAction('cancel'))
}
