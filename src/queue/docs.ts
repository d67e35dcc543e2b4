import { FRESH_HEADER_EXAMPLES, routeDetail } from '../platform/openapi'
import { QueueCodes, QueueErrorExamples } from './errors'
import { IssueTicketRequest, NowServing, PublicQueueTicket, ServiceEntry, ServicesResponse, StateEntry, StateResponse, TICKET_EXAMPLE, TicketResponse } from './model'

/*
 * The OpenAPI details of the public Queue API (src/queue/routes.ts): headers, bodies and
 * responses with examples, and the error codes of each route by status.
 */

const correlationHeader = {
  description: '1 to 120 of [A-Za-z0-9_.:-]; echoed in the response and logs, else one is generated',
  example: 'kiosk-7f3a-0001',
}

// Required exactly as the handler requires them (it checks them itself, in the contract's order).
const issueHeaders = {
  'X-Request-Timestamp': {
    required: true,
    description: 'The current UTC time, ISO 8601 (e.g. 2026-11-25T09:30:00Z); accepted within ±5 minutes of server time, bounds included. ' +
      'Swagger UI replaces this example with the current time when it sends the request.',
    example: FRESH_HEADER_EXAMPLES['X-Request-Timestamp'],
  },
  'X-Request-Nonce': {
    required: true,
    description: '12 to 160 characters, new for every request (a retry too); remembered 10 minutes per key. ' +
      'Swagger UI replaces this example with a random nonce when it sends the request.',
    example: FRESH_HEADER_EXAMPLES['X-Request-Nonce'],
    schema: { type: 'string', minLength: 12, maxLength: 160 },
  },
  'Idempotency-Key': {
    required: true,
    description: '1 to 160 characters; the same key and the same parsed body within 24 hours return the original ticket. ' +
      'Swagger UI replaces this example with a random key when it sends the request.',
    example: FRESH_HEADER_EXAMPLES['Idempotency-Key'],
    schema: { type: 'string', minLength: 1, maxLength: 160 },
  },
  'X-Correlation-ID': correlationHeader,
}
const readHeaders = { 'X-Correlation-ID': correlationHeader }

/** Contract §18: the two reads that carry names answer in an asked language the unit has. */
const namedReadHeaders = {
  ...readHeaders,
  'Accept-Language': {
    description: 'the language of `name` (and `counterName`) when the Queue Unit has it among its `languages` (RFC 9110 weights; else its default language)',
    example: 'ar, en;q=0.8',
  },
}
const contentLanguage = {
  'Content-Language': { description: 'the language `Accept-Language` chose among the unit\'s languages; absent when none was asked or matched (the default language)', schema: { type: 'string', examples: ['ar'] } },
  Vary: { description: 'always `Accept-Language`', schema: { type: 'string', examples: ['Accept-Language'] } },
}

const readErrors = {
  401: [QueueCodes.AUTHENTICATION_FAILED],
  403: [QueueCodes.SCOPE_FORBIDDEN, QueueCodes.QUEUE_UNIT_INACTIVE],
  429: [QueueCodes.RATE_LIMITED],
}

// The public API's ticket is the vendor spec's (no `priority`): named QueueTicket as there.
const schemas = { QueueTicket: PublicQueueTicket, ServiceEntry, StateEntry, NowServing }

const issueDescription = [
  'Issues one ticket for an allowed location and service. A retry with the same Idempotency-Key and the same parsed body',
  '(field order and whitespace do not matter) within 24 hours returns the original 201 body with `Idempotent-Replayed: true`;',
  'the same key with another body is 409 IDEMPOTENCY_KEY_REUSED. Refused with 409 QUEUE_UNIT_EDGE_MANAGED while an Edge holds authority,',
  'and with 409 SERVICE_CLOSED outside the service\'s opening hours (`details` names the next opening).',
  'Checks, in order: declared body size (a chunked body is measured while read, after the rate limit) → credential → scope → rate limit → headers (content type, timestamp, nonce, Idempotency-Key) →',
  'timestamp window → nonce → JSON → schema → idempotency lookup → Edge authority → location and service → opening hours → write.',
].join(' ')

export const listServicesDocs = routeDetail({
  operationId: 'listServices',
  summary: 'List allowed services',
  description: 'Active services at active locations the key may use, once per (service, location), with waiting counts and the estimated wait for a ticket issued now. Scope `services:read`. ' +
    '`name` is in the unit\'s default language, or in the one `Accept-Language` asks for when the unit has it (contract §18).',
  tags: ['Queue'],
  security: 'queueBearer',
  headers: namedReadHeaders,
  responses: {
    200: {
      description: 'the allowed services',
      headers: contentLanguage,
      name: 'ServicesResponse',
      schema: ServicesResponse,
      example: {
        data: {
          services: [
            { id: 'svc_accounts', name: 'Accounts', prefix: 'A', locationId: 'loc_hall', waiting: 4, estimatedWaitSeconds: 750 },
            { id: 'svc_loans', name: 'Loans', prefix: 'L', locationId: 'loc_hall', waiting: 0, estimatedWaitSeconds: 600 },
          ],
        },
      },
    },
  },
  errors: readErrors,
  errorExamples: QueueErrorExamples,
  schemas,
})

export const issueTicketDocs = routeDetail({
  operationId: 'issueTicket',
  summary: 'Issue a ticket',
  description: issueDescription,
  tags: ['Queue'],
  security: 'queueBearer',
  headers: issueHeaders,
  body: {
    name: 'IssueTicketRequest',
    schema: IssueTicketRequest,
    examples: {
      ticket: { summary: 'A ticket for Accounts in the main hall', value: { locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: 'crm-4711' } },
      minimal: { summary: 'No external reference', value: { locationId: 'loc_hall', serviceId: 'svc_accounts' } },
    },
  },
  responses: {
    201: {
      description: 'the ticket (a replay carries `Idempotent-Replayed: true` and the original body)',
      headers: {
        Location: { description: 'the ticket URL', required: true, schema: { type: 'string' } },
        'Idempotent-Replayed': { description: '`true` when this repeats an earlier response', schema: { type: 'string', enum: ['true'] } },
      },
      name: 'TicketResponse',
      schema: TicketResponse,
      example: { data: TICKET_EXAMPLE },
    },
  },
  errorExamples: QueueErrorExamples,
  schemas,
  errors: {
    400: [QueueCodes.INVALID_REQUEST, QueueCodes.INVALID_JSON, QueueCodes.REQUEST_TIMESTAMP_OUT_OF_WINDOW],
    401: [QueueCodes.AUTHENTICATION_FAILED],
    403: [QueueCodes.SCOPE_FORBIDDEN, QueueCodes.LOCATION_FORBIDDEN, QueueCodes.SERVICE_FORBIDDEN, QueueCodes.QUEUE_UNIT_INACTIVE],
    409: [QueueCodes.NONCE_REPLAYED, QueueCodes.IDEMPOTENCY_KEY_REUSED, QueueCodes.QUEUE_UNIT_EDGE_MANAGED, QueueCodes.SERVICE_CLOSED],
    413: [QueueCodes.PAYLOAD_TOO_LARGE],
    422: [QueueCodes.VALIDATION_FAILED],
    429: [QueueCodes.RATE_LIMITED],
  },
})

export const readTicketDocs = routeDetail({
  operationId: 'readTicket',
  summary: 'Read one ticket',
  description: 'The current state of a ticket. An unknown ticket and one the key may not see (another Queue Unit, or a location or service outside the key\'s lists) are both 404 TICKET_NOT_FOUND. Scope `tickets:read`.',
  tags: ['Queue'],
  security: 'queueBearer',
  params: { ticketId: { description: 'the ticket ID (tkt_…)', example: TICKET_EXAMPLE.id } },
  headers: readHeaders,
  responses: {
    200: {
      description: 'the ticket',
      name: 'TicketResponse',
      schema: TicketResponse,
      example: { data: { ...TICKET_EXAMPLE, status: 'CALLED', calledAt: '2026-11-25T09:41:12.345Z' } },
    },
  },
  errors: { ...readErrors, 404: [QueueCodes.TICKET_NOT_FOUND] },
  errorExamples: QueueErrorExamples,
  schemas,
})

export const readLiveStateDocs = routeDetail({
  operationId: 'readLiveState',
  summary: 'Read live state',
  description: 'Waiting count and now serving per allowed (service, location); `nowServing` is null when no ticket of the service is CALLED or SERVING there. Scope `state:read`. ' +
    '`name` and `counterName` are in the unit\'s default language, or in the one `Accept-Language` asks for when the unit has it (contract §18).',
  tags: ['Queue'],
  security: 'queueBearer',
  headers: namedReadHeaders,
  responses: {
    200: {
      description: 'the live state',
      headers: contentLanguage,
      name: 'StateResponse',
      schema: StateResponse,
      example: {
        data: {
          generatedAt: '2026-11-25T09:42:00.000Z',
          services: [
            { id: 'svc_accounts', name: 'Accounts', locationId: 'loc_hall', waiting: 3, nowServing: { number: 'A007', counterName: 'Counter 1' } },
            { id: 'svc_loans', name: 'Loans', locationId: 'loc_hall', waiting: 0, nowServing: null },
          ],
        },
      },
    },
  },
  errors: readErrors,
  errorExamples: QueueErrorExamples,
  schemas,
})
