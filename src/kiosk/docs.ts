import { routeDetail } from '../platform/openapi'
import { IDEMPOTENCY_KEY_MAX } from '../queue'
import { TrackedQueueTicket } from '../tickets'
import { KioskCodes, KioskErrorExamples } from './errors'
import { KioskIssueRequest, KioskService as KioskServiceSchema, KioskTicket, KioskTicketResponse, KioskView, KioskViewResponse } from './model'

/*
 * The OpenAPI details of the kiosk's API (src/kiosk/routes.ts): what each route answers, with
 * examples and its error codes by status.
 */

const VIEW_EXAMPLE = {
  data: {
    generatedAt: '2026-11-25T09:42:00.000Z',
    branchName: 'Main branch',
    defaultLanguage: 'en',
    languages: ['en', 'ar'],
    open: true,
    opensAt: null,
    queueUnit: { id: 'qu_main', name: 'Main branch', names: { en: 'Main branch', ar: 'الفرع الرئيسي' }, active: true },
    location: { id: 'loc_hall', name: 'Main hall', names: { en: 'Main hall', ar: 'القاعة الرئيسية' }, timezone: 'Europe/Berlin', active: true },
    priorityChoice: true,
    appointments: true,
    services: [
      { id: 'svc_accounts', name: 'Accounts', names: { en: 'Accounts', ar: 'الحسابات' }, prefix: 'A', open: true, opensAt: null, waiting: 2, estimatedWaitSeconds: 900, noCounterOpen: false, priorityEstimatedWaitSeconds: 300, peopleAhead: 2, priorityPeopleAhead: 0, counterFree: false },
      { id: 'svc_loans', name: 'Loans', names: { en: 'Loans', ar: 'القروض' }, prefix: 'L', open: false, opensAt: '2026-11-26T07:30:00.000Z', waiting: 0, estimatedWaitSeconds: 600, noCounterOpen: true, priorityEstimatedWaitSeconds: 600, peopleAhead: 0, priorityPeopleAhead: 0, counterFree: false },
    ],
  },
}
const TICKET_EXAMPLE = {
  data: {
    ticket: {
      id: 'tkt_01JD6ZB2P1F0S9E8D7C6B5A4Z3', ticketId: 'tkt_01JD6ZB2P1F0S9E8D7C6B5A4Z3', ticketNumber: 'A003', status: 'WAITING', source: 'KIOSK',
      queueUnitId: 'qu_main', locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: null,
      createdAt: '2026-11-25T09:42:00.000Z', calledAt: null, servingAt: null, completedAt: null, priority: false, transfer: null, trackingUrl: '/t/k3v9q2m7x4c8h6b5n2r7t3w4',
    },
    language: 'en',
    branchName: 'Main branch',
    serviceName: 'Accounts',
    locationName: 'Main hall',
    timezone: 'Europe/Berlin',
    peopleAhead: 2,
    estimatedWaitSeconds: 900,
    noCounterOpen: false,
    counterFree: false,
    printPath: '/kiosk/tickets/tkt_01JD6ZB2P1F0S9E8D7C6B5A4Z3/print',
    appointmentAt: null,
  },
}

const issueErrors = {
  400: [KioskCodes.INVALID_REQUEST, KioskCodes.INVALID_JSON],
  401: [KioskCodes.AUTHENTICATION_FAILED],
  403: [KioskCodes.ORIGIN_FORBIDDEN, KioskCodes.LOCATION_FORBIDDEN, KioskCodes.SERVICE_FORBIDDEN, KioskCodes.QUEUE_UNIT_INACTIVE],
  409: [KioskCodes.IDEMPOTENCY_KEY_REUSED, KioskCodes.QUEUE_UNIT_EDGE_MANAGED, KioskCodes.SERVICE_CLOSED],
  413: [KioskCodes.PAYLOAD_TOO_LARGE],
  422: [KioskCodes.VALIDATION_FAILED],
  429: [KioskCodes.RATE_LIMITED],
}

export const readKioskViewDocs = routeDetail({
  operationId: 'readKioskView',
  summary: 'What a paired kiosk offers',
  description:
    'For a paired kiosk (device cookie): the branch (queue unit) and its location, and every active service of that location within the kiosk\'s ' +
    'service list with the people waiting and the estimate for a ticket taken now. An inactive unit or location lists no service (`active: false` says why). ' +
    'Contract §18: the unit\'s `defaultLanguage` and `languages` (the kiosk\'s language switch), `names` beside each `name`, and per service `open` and ' +
    '`opensAt` in its hours; a closed service stays listed so the kiosk can say when it opens. The top `open` is true while any listed service is open, ' +
    'else `opensAt` is the earliest next opening. ' +
    'Checks: credential → rate limit (600 a minute per kiosk).',
  tags: ['Kiosk'],
  security: 'deviceCookie',
  responses: { 200: { description: 'the start screen\'s data', name: 'KioskViewResponse', schema: KioskViewResponse, example: VIEW_EXAMPLE } },
  errors: { 401: [KioskCodes.AUTHENTICATION_FAILED], 403: [KioskCodes.QUEUE_UNIT_INACTIVE], 429: [KioskCodes.RATE_LIMITED] },
  errorExamples: KioskErrorExamples,
  schemas: { KioskView, KioskService: KioskServiceSchema },
})

export const issueKioskTicketDocs = routeDetail({
  operationId: 'issueKioskTicket',
  summary: 'Take a ticket at a kiosk',
  description:
    'Issues a ticket for the tapped service at the kiosk\'s location by the public issue\'s rules and write path (numbering, Edge authority, inactive ' +
    'unit or service, idempotency), source KIOSK. The page sends one Idempotency-Key per tap and the same key on a retry: a double tap or a dropped ' +
    'connection gives the same ticket (201 with `Idempotent-Replayed: true`), never two. `priority: true` (the "Priority" choice, contract §8) only where ' +
    'the unit has `kioskPriority`, else 422 on /priority. `language` (contract §18) is one of the unit\'s `languages`, else 422 on /language; the ticket ' +
    'keeps it, and its ticket view, print page and phone page speak it. A closed service (outside its hours) is 409 SERVICE_CLOSED. A service outside the kiosk\'s list is 403 SERVICE_FORBIDDEN; ' +
    'an inactive or unknown one 422 on /serviceId. Checks, in order: declared body size (1 KB) → credential → Origin → rate limit (60 a minute per kiosk) → ' +
    'headers (Content-Type, Idempotency-Key) → body (read only now, declared or chunked; 1 KB) → JSON → schema → idempotency lookup → Edge authority → ' +
    'Queue Unit active → service → write. A request refused before its body is read is answered with `Connection: close`.',
  tags: ['Kiosk'],
  security: 'deviceCookie',
  headers: {
    'Idempotency-Key': {
      description: 'one per tap, reused on a retry: the same key returns the same ticket',
      example: '6f1c2e9a-4b7d-4c1e-9a53-2f0d8b7c6e11',
      required: true,
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX },
    },
  },
  body: {
    name: 'KioskIssueRequest',
    schema: KioskIssueRequest,
    examples: {
      normal: { summary: 'a tap on a service', value: { serviceId: 'svc_accounts' } },
      priority: { summary: 'with "Priority" chosen (units with kioskPriority)', value: { serviceId: 'svc_accounts', priority: true } },
      language: { summary: 'taken on the kiosk\'s Arabic page (contract §18)', value: { serviceId: 'svc_accounts', language: 'ar' } },
    },
  },
  responses: {
    201: {
      description: 'the ticket, its place in line and its phone page',
      name: 'KioskTicketResponse',
      schema: KioskTicketResponse,
      example: TICKET_EXAMPLE,
      headers: {
        Location: { description: 'this ticket in the kiosk API', required: true, schema: { type: 'string' } },
        'Idempotent-Replayed': { description: '`true` when this repeats an earlier tap', schema: { type: 'string', enum: ['true'] } },
      },
    },
  },
  errors: issueErrors,
  errorExamples: KioskErrorExamples,
  schemas: { KioskTicket, TrackedQueueTicket },
})
