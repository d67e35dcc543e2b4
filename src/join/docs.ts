import { routeDetail } from '../platform/openapi'
import { TrackedQueueTicket } from '../tickets'
import { JoinCodes, JoinErrorExamples } from './errors'
import { JoinRequest, JoinTicket, JoinTicketResponse } from './model'

/*
 * The OpenAPI detail of the join ticket issue (src/join/routes.ts, contract §20). The join page
 * and the poster are pages for people, left out of the document like the kiosk's and phone's
 * pages (docs/journey.md describes them); the issue answers a form with a redirect or a page in
 * words, and JSON with JSON.
 */

const LOCATION_PARAM = { locationId: { description: 'a location with `remoteJoin.enabled: true`', example: 'loc_hall' } }

const issueDetail = routeDetail({
  operationId: 'issueJoinTicket',
  summary: 'Take a ticket from a phone',
  description:
    'Contract §20: the join page `GET /join/{locationId}` (public, no pairing) lists the location\'s services with their waits and a button each; ' +
    'its poster is `GET /join/{locationId}/poster`. A tap issues a ticket (source `REMOTE`) for the chosen service at the location by the public issue\'s rules and write path (numbering, Edge authority, ' +
    'inactive unit or service, idempotency by `key`, and the service\'s opening hours: 409 SERVICE_CLOSED), and sets the cookie `lobby_join` (HttpOnly, SameSite=Lax, ' +
    '`Path=/join/{locationId}`) holding the new ticket\'s tracking code. The join page sends a form (`application/x-www-form-urlencoded`): success is 303 to the ' +
    'ticket\'s phone page `/t/{code}`, and every refusal is a page in words with the status below (its `data-code` names the code). A JSON body ' +
    '(`application/json`) gets 201 with the ticket and the error envelope on a refusal. Rules: the request\'s `Origin` is this server\'s (403 ORIGIN_FORBIDDEN); ' +
    'with `remoteJoin.allowedNetworks`, the caller\'s address (through `--trusted-proxy`) is in one of them (403 NETWORK_FORBIDDEN); the browser holds no active ' +
    'ticket of this location in its cookie (409 ACTIVE_TICKET, `details[0].message` is that ticket\'s phone page); at most `remoteJoin.perAddressPer10Min` (default 3; 0: no limit) ' +
    'requests per client address (an IPv6 client: its /64) per 10 minutes reach the issue, none counted from inside `remoteJoin.guestNetworks` (429 RATE_LIMITED with Retry-After); the service is open (409 SERVICE_CLOSED) and its waiting count is under `remoteJoin.maxWaiting` ' +
    '(409 QUEUE_FULL). Checks, in order: location offers joining (404) → declared body size (1.5 KB) → Origin → network → cookie → Content-Type → ' +
    'address rate limit → body (read only now) → fields → idempotency lookup → waiting count → Edge authority → unit, location and service → open → write. ' +
    'A request refused before its body is read is answered with `Connection: close`. ' +
    'Contract §25: optional `phone` and `email` for messages about the ticket, with `consent` ticked (else 422 on /consent); a number is read in the branch\'s country and ' +
    'kept as E.164 with the ticket (422 on /phone or /email when it cannot be used or the branch does not send that channel), stored in the ticket\'s own write. ' +
    'The page offers the fields only where the branch sends SMS or e-mail, and a refused form gets the page again with the words beside each field.',
  tags: ['Join'],
  public: true,
  params: LOCATION_PARAM,
  body: {
    name: 'JoinRequest',
    schema: JoinRequest,
    description: 'as a form (`application/x-www-form-urlencoded`, what the page sends) or as JSON; the same fields',
    examples: {
      normal: { summary: 'a tap on a service', value: { serviceId: 'svc_accounts', language: 'en', key: 'q1Zc7o0m3hV9dY2kPpW8xA' } },
      arabic: { summary: 'taken on the Arabic page (contract §18)', value: { serviceId: 'svc_accounts', language: 'ar' } },
      messages: { summary: 'with a number for messages and the consent box ticked (contract §25)', value: { serviceId: 'svc_accounts', language: 'en', key: 'q1Zc7o0m3hV9dY2kPpW8xA', phone: '07700 900123', consent: true } },
    },
  },
  responses: {
    201: {
      description: 'JSON request: the ticket and its phone page; the `lobby_join` cookie is set',
      name: 'JoinTicketResponse',
      schema: JoinTicketResponse,
      example: {
        data: {
          ticket: {
            id: 'tkt_01JD6ZB2P1F0S9E8D7C6B5A4Z3', ticketId: 'tkt_01JD6ZB2P1F0S9E8D7C6B5A4Z3', ticketNumber: 'A003', status: 'WAITING', source: 'REMOTE',
            queueUnitId: 'qu_main', locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: null,
            createdAt: '2026-11-25T09:42:00.000Z', calledAt: null, servingAt: null, completedAt: null, priority: false, transfer: null, trackingUrl: '/t/k3v9q2m7x4c8h6b5n2r7t3w4',
          },
          trackingUrl: '/t/k3v9q2m7x4c8h6b5n2r7t3w4',
        },
      },
      headers: {
        Location: { description: 'the ticket\'s phone page', required: true, schema: { type: 'string' } },
        'Set-Cookie': { description: '`lobby_join=<tracking code>; HttpOnly; SameSite=Lax; Path=/join/{locationId}`', required: true, schema: { type: 'string' } },
        'Idempotent-Replayed': { description: '`true` when this repeats an earlier request with the same `key`', schema: { type: 'string', enum: ['true'] } },
      },
    },
    303: {
      description: 'form request: to the ticket\'s phone page; the `lobby_join` cookie is set',
      headers: {
        Location: { description: 'the ticket\'s phone page `/t/{code}`', required: true, schema: { type: 'string' } },
        'Set-Cookie': { description: '`lobby_join=<tracking code>; HttpOnly; SameSite=Lax; Path=/join/{locationId}`', required: true, schema: { type: 'string' } },
      },
    },
  },
  errors: {
    400: [JoinCodes.INVALID_REQUEST, JoinCodes.INVALID_JSON],
    403: [JoinCodes.ORIGIN_FORBIDDEN, JoinCodes.NETWORK_FORBIDDEN, JoinCodes.QUEUE_UNIT_INACTIVE],
    404: [JoinCodes.JOIN_NOT_OFFERED],
    409: [JoinCodes.ACTIVE_TICKET, JoinCodes.QUEUE_FULL, JoinCodes.SERVICE_CLOSED, JoinCodes.IDEMPOTENCY_KEY_REUSED, JoinCodes.QUEUE_UNIT_EDGE_MANAGED],
    413: [JoinCodes.PAYLOAD_TOO_LARGE],
    422: [JoinCodes.VALIDATION_FAILED],
    429: [JoinCodes.RATE_LIMITED],
  },
  errorExamples: JoinErrorExamples,
  schemas: { JoinTicket, TrackedQueueTicket },
})

/** The body as the page sends it (a form) and as JSON: routeDetail writes the JSON one. */
const issueBody = (issueDetail as { requestBody: { required: boolean; description?: string; content: Record<string, unknown> } }).requestBody

/**
 * A refusal of the form is a page in words (issue 48: the document listed only the JSON
 * envelope): every error status the route answers with an `ApiError` also has `text/html`.
 * A 500 is never a page (an unexpected error is answered as JSON, whatever was sent).
 */
const PROBLEM_PAGE = {
  schema: {
    type: 'string',
    description: 'the join page\'s refusal in the page\'s language: a heading, a hint, a link back (or to the browser\'s ticket); `data-code` on its alert names the error code',
  },
  example: '<!doctype html><html lang="en" dir="ltr"><head><meta charset="utf-8"><title>Joining is not possible right now</title></head><body><main id="join"><h1>Main hall</h1><section class="notice problem" role="alert" data-code="QUEUE_FULL"><h2>Full for now</h2><p>Please take a ticket at the kiosk.</p><a href="/join/loc_hall?lang=en">Back</a></section></main></body></html>',
}
type Responses = Record<string, { description: string; content?: Record<string, unknown> }>
const responses = Object.fromEntries(Object.entries((issueDetail as unknown as { responses: Responses }).responses).map(([status, response]) =>
  [status, Number(status) >= 400 && status !== '500' ? { ...response, content: { ...response.content, 'text/html': PROBLEM_PAGE } } : response]))

export const issueJoinTicketDocs: typeof issueDetail = {
  ...issueDetail,
  requestBody: { ...issueBody, content: { 'application/x-www-form-urlencoded': { schema: JoinRequest }, ...issueBody.content } },
  responses,
} as typeof issueDetail
