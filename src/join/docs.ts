import { routeDetail } from '../platform/openapi'
import { TrackedQueueTicket } from '../tickets'
import { JoinCodes, JoinErrorExamples } from './errors'
import { JoinRequest, JoinTicket, JoinTicketResponse } from './model'

/*
 * The OpenAPI details of the join routes (src/join/routes.ts, contract §20). The page and the
 * poster are HTML for people; the ticket issue answers a form with a redirect or a page in
 * words, and JSON with JSON.
 */

const LOCATION_PARAM = { locationId: { description: 'a location with `remoteJoin.enabled: true`', example: 'loc_hall' } }
const LANG_QUERY = { lang: { description: 'the page\'s language (the language switch): one of the unit\'s `languages`; else Accept-Language, else the unit\'s default', example: 'ar' } }
const HTML = { type: 'string', description: 'an HTML page' }

export const readJoinPageDocs = routeDetail({
  operationId: 'readJoinPage',
  summary: 'The join page of a location',
  description:
    'Contract §20, for people on their phones (no credential, no pairing): the branch and location names, the language switch, and each active service ' +
    'offered at the location with the people waiting and the estimate for a ticket taken now (the kiosk\'s estimator and words: "about 15 min", "You\'re next", ' +
    '"No counter is open right now"), a "Take a ticket" button per open service (a form POST to this path), closed services with their next opening, and services ' +
    'whose waiting count reached `remoteJoin.maxWaiting` marked full. When the browser\'s `lobby_join` cookie holds an active ticket of this location the page links ' +
    'to that ticket instead of offering buttons. A location that does not offer joining (unknown, inactive, `remoteJoin` absent or not enabled) is a page in words with 404.',
  tags: ['Join'],
  public: true,
  params: LOCATION_PARAM,
  query: LANG_QUERY,
  responses: {
    200: { description: 'the join page', mediaType: 'text/html', name: 'JoinHtmlPage', schema: HTML, example: '<!doctype html>…' },
    404: { description: 'joining from a phone is not offered here (a page in words)', mediaType: 'text/html', name: 'JoinHtmlPage', schema: HTML, example: '<!doctype html>…' },
  },
})

const issueDetail = routeDetail({
  operationId: 'issueJoinTicket',
  summary: 'Take a ticket from a phone',
  description:
    'Contract §20: issues a ticket (source `REMOTE`) for the chosen service at the location by the public issue\'s rules and write path (numbering, Edge authority, ' +
    'inactive unit or service, idempotency by `key`, and the service\'s opening hours: 409 SERVICE_CLOSED), and sets the cookie `lobby_join` (HttpOnly, SameSite=Lax, ' +
    '`Path=/join/{locationId}`) holding the new ticket\'s tracking code. The join page sends a form (`application/x-www-form-urlencoded`): success is 303 to the ' +
    'ticket\'s phone page `/t/{code}`, and every refusal is a page in words with the status below (its `data-code` names the code). A JSON body ' +
    '(`application/json`) gets 201 with the ticket and the error envelope on a refusal. Rules: the request\'s `Origin` is this server\'s (403 ORIGIN_FORBIDDEN); ' +
    'with `remoteJoin.allowedNetworks`, the caller\'s address (through `--trusted-proxy`) is in one of them (403 NETWORK_FORBIDDEN); the browser holds no active ' +
    'ticket of this location in its cookie (409 ACTIVE_TICKET, `details[0].message` is that ticket\'s phone page); at most 3 requests per client address per 10 minutes ' +
    'reach the issue (429 RATE_LIMITED with Retry-After); the service is open (409 SERVICE_CLOSED) and its waiting count is under `remoteJoin.maxWaiting` ' +
    '(409 QUEUE_FULL). Checks, in order: location offers joining (404) → declared body size (1 KB) → Origin → network → cookie → Content-Type → ' +
    'address rate limit → body (read only now) → fields → idempotency lookup → waiting count → Edge authority → unit, location and service → open → write. ' +
    'A request refused before its body is read is answered with `Connection: close`.',
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
            createdAt: '2026-11-25T09:42:00.000Z', calledAt: null, servingAt: null, completedAt: null, priority: false, trackingUrl: '/t/k3v9q2m7x4c8h6b5n2r7t3w4',
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
export const issueJoinTicketDocs: typeof issueDetail = {
  ...issueDetail,
  requestBody: { ...issueBody, content: { 'application/x-www-form-urlencoded': { schema: JoinRequest }, ...issueBody.content } },
} as typeof issueDetail

export const readJoinPosterDocs = routeDetail({
  operationId: 'readJoinPoster',
  summary: 'The join poster of a location',
  description:
    'Contract §20: a printable A4 page (print CSS, `@page size: A4`) with the branch\'s and location\'s names (in the page\'s language, and beneath them in the ' +
    'unit\'s other languages), a large QR code of the join page\'s absolute URL (`--public-origin` when set, else this request\'s origin) and three short steps. ' +
    'The console links to it; a "Print" button prints it. 404 (a page in words) where joining is not offered.',
  tags: ['Join'],
  public: true,
  params: LOCATION_PARAM,
  query: LANG_QUERY,
  responses: {
    200: { description: 'the poster', mediaType: 'text/html', name: 'JoinHtmlPage', schema: HTML, example: '<!doctype html>…' },
    404: { description: 'joining from a phone is not offered here (a page in words)', mediaType: 'text/html', name: 'JoinHtmlPage', schema: HTML, example: '<!doctype html>…' },
  },
})
