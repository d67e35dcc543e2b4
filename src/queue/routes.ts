import { Elysia } from 'elysia'
import { Type } from '@sinclair/typebox'
import type { AppDeps } from '../platform/deps'
import { KiB, parseJsonBytes, readBodyAfterChecks } from '../platform/body'
import { json } from '../platform/http'
import { inReadTransaction } from '../platform/transactions'
import { routeDetail } from '../platform/openapi'
import { assertSchema, compile } from '../platform/validation'
import { QueueCodes } from './errors'
import { IssueTicketRequest, Scopes, ServicesResponse, StateResponse, TicketResponse } from './model'
import { admitQueueCaller, credentialScope } from './access'
import { assertFreshRequest, readIssueHeaders } from './replay'
import { QueueService } from './service'

const BASE = '/api/public/v1/queue'

/** public-api.md Limits: the ticket issue body is at most 16 KB (16,384 bytes, contract §3). */
export const MAX_ISSUE_BODY = 16 * KiB

const checkIssue = compile(IssueTicketRequest)

// Documentation only: the handler checks these headers itself, in the contract's order.
const issueHeaders = Type.Object(
  {
    'x-request-timestamp': Type.Optional(Type.String({ description: 'required: the current UTC time, ISO 8601 (e.g. 2026-11-25T09:30:00Z); accepted within ±5 minutes of server time, bounds included' })),
    'x-request-nonce': Type.Optional(Type.String({ description: 'required: 12 to 160 characters, new for every request; remembered 10 minutes per key' })),
    'idempotency-key': Type.Optional(Type.String({ description: 'required: 1 to 160 characters; the same key and the same parsed body within 24 hours return the original ticket' })),
    'x-correlation-id': Type.Optional(Type.String({ description: 'optional: 1 to 120 of [A-Za-z0-9_.:-]; echoed in the response and logs' })),
  },
  { additionalProperties: true },
)
const readHeaders = Type.Object(
  { 'x-correlation-id': Type.Optional(Type.String({ description: 'optional: 1 to 120 of [A-Za-z0-9_.:-]; echoed in the response and logs' })) },
  { additionalProperties: true },
)

const readErrors = {
  401: [QueueCodes.AUTHENTICATION_FAILED],
  403: [QueueCodes.SCOPE_FORBIDDEN, QueueCodes.QUEUE_UNIT_INACTIVE],
  429: [QueueCodes.RATE_LIMITED],
}

const issueDescription = [
  'Issues one ticket for an allowed location and service. A retry with the same Idempotency-Key and the same parsed body',
  '(field order and whitespace do not matter) within 24 hours returns the original 201 body with `Idempotent-Replayed: true`;',
  'the same key with another body is 409 IDEMPOTENCY_KEY_REUSED. Refused with 409 QUEUE_UNIT_EDGE_MANAGED while an Edge holds authority.',
  'Checks, in order: body size → credential → scope → rate limit → headers (content type, timestamp, nonce, Idempotency-Key) →',
  'timestamp window → nonce → JSON → schema → idempotency lookup → Edge authority → location and service → write.',
].join(' ')

/** The four public Queue endpoints (public-api.md endpoints 1–4, contract §3). */
export function queueRoutes(deps: AppDeps, queue: QueueService = new QueueService(deps)) {

  return new Elysia({ name: 'lobby.queue' })
    .get(
      `${BASE}/services`,
      ({ request }) => {
        const now = deps.clock.now()
        return inReadTransaction(deps.db, () => {
          const caller = admitQueueCaller(deps, request, Scopes.SERVICES_READ, 'read', now)
          queue.assertQueueUnitActive(caller)
          return json(200, { data: { services: queue.listServices(caller) } })
        })
      },
      {
        headers: readHeaders,
        detail: routeDetail({
          summary: 'List allowed services',
          description: 'Active services at active locations the key may use, once per (service, location), with waiting counts and the estimated wait for a ticket issued now. Scope `services:read`.',
          tags: ['Queue'],
          security: 'queueBearer',
          responses: { 200: { description: 'the allowed services', schema: ServicesResponse } },
          errors: readErrors,
        }),
      },
    )
    .post(
      `${BASE}/tickets`,
      async ({ request }) => {
        // Credential, scope and rate limit need only the headers: with a declared size they run
        // before the body is read, so an unauthorized issue holds no memory.
        const now = deps.clock.now()
        const { raw, checked: caller } = await readBodyAfterChecks(request, MAX_ISSUE_BODY, () => admitQueueCaller(deps, request, Scopes.TICKETS_WRITE, 'issue', now))
        const headers = readIssueHeaders(request)
        assertFreshRequest(deps.nonces, credentialScope(caller), headers, now)
        const body = parseJsonBytes(raw)
        assertSchema(checkIssue, body, QueueCodes.VALIDATION_FAILED)
        // Group commit: issues arriving together share one transaction and one fsync; this
        // answers once the ticket is committed (see WriteBatcher).
        const outcome = await deps.writes.run(() => queue.issueIdempotent(caller, headers.idempotencyKey, body, now))
        return json(outcome.status, outcome.body, outcome.replayed ? { ...outcome.headers, 'idempotent-replayed': 'true' } : outcome.headers)
      },
      {
        parse: 'none',
        headers: issueHeaders,
        detail: routeDetail({
          summary: 'Issue a ticket',
          description: issueDescription,
          tags: ['Queue'],
          security: 'queueBearer',
          body: { schema: IssueTicketRequest },
          responses: {
            201: {
              description: 'the ticket (a replay carries `Idempotent-Replayed: true` and the original body)',
              headers: {
                Location: { description: 'the ticket URL', schema: { type: 'string' } },
                'Idempotent-Replayed': { description: '`true` when this repeats an earlier response', schema: { type: 'string', enum: ['true'] } },
              },
              schema: TicketResponse,
            },
          },
          errors: {
            400: [QueueCodes.INVALID_REQUEST, QueueCodes.INVALID_JSON, QueueCodes.REQUEST_TIMESTAMP_OUT_OF_WINDOW],
            401: [QueueCodes.AUTHENTICATION_FAILED],
            403: [QueueCodes.SCOPE_FORBIDDEN, QueueCodes.LOCATION_FORBIDDEN, QueueCodes.SERVICE_FORBIDDEN, QueueCodes.QUEUE_UNIT_INACTIVE],
            409: [QueueCodes.NONCE_REPLAYED, QueueCodes.IDEMPOTENCY_KEY_REUSED, QueueCodes.QUEUE_UNIT_EDGE_MANAGED],
            413: [QueueCodes.PAYLOAD_TOO_LARGE],
            422: [QueueCodes.VALIDATION_FAILED],
            429: [QueueCodes.RATE_LIMITED],
          },
        }),
      },
    )
    .get(
      `${BASE}/tickets/:ticketId`,
      ({ request, params }) => {
        const now = deps.clock.now()
        return inReadTransaction(deps.db, () => {
          const caller = admitQueueCaller(deps, request, Scopes.TICKETS_READ, 'read', now)
          queue.assertQueueUnitActive(caller)
          return json(200, { data: queue.readTicket(caller, params.ticketId) })
        })
      },
      {
        params: Type.Object({ ticketId: Type.String({ description: 'the ticket ID (tkt_…)' }) }),
        headers: readHeaders,
        detail: routeDetail({
          summary: 'Read one ticket',
          description: 'The current state of a ticket. An unknown ticket and one the key may not see (another Queue Unit, or a location or service outside the key\'s lists) are both 404 TICKET_NOT_FOUND. Scope `tickets:read`.',
          tags: ['Queue'],
          security: 'queueBearer',
          responses: { 200: { description: 'the ticket', schema: TicketResponse } },
          errors: { ...readErrors, 404: [QueueCodes.TICKET_NOT_FOUND] },
        }),
      },
    )
    .get(
      `${BASE}/state`,
      ({ request }) => {
        const now = deps.clock.now()
        return inReadTransaction(deps.db, () => {
          const caller = admitQueueCaller(deps, request, Scopes.STATE_READ, 'read', now)
          queue.assertQueueUnitActive(caller)
          return json(200, { data: queue.liveState(caller, now) })
        })
      },
      {
        headers: readHeaders,
        detail: routeDetail({
          summary: 'Read live state',
          description: 'Waiting count and now serving per allowed (service, location); `nowServing` is null when no ticket of the service is CALLED or SERVING there. Scope `state:read`.',
          tags: ['Queue'],
          security: 'queueBearer',
          responses: { 200: { description: 'the live state', schema: StateResponse } },
          errors: readErrors,
        }),
      },
    )
}

