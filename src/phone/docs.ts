import { routeDetail } from '../platform/openapi'
import { PhoneCodes, PhoneErrorExamples } from './errors'
import { PhoneFeedbackBody, PhoneStatusResponse } from './model'

/*
 * The OpenAPI details of the phone's status read (src/phone/routes.ts): its long poll, an
 * example status and its error codes.
 */

export const readTicketByTrackingCodeDocs = routeDetail({
  operationId: 'readTicketByTrackingCode',
  summary: 'A ticket\'s status by its tracking code',
  description:
    'For the phone page `/t/{code}` (contract §10); no credential: the code (120 random bits) is the capability. While the ticket is open: its number, ' +
    'service, location, branch, status, the counter it is called to, the people ahead (a count) and the approximate wait; nothing about any other ticket. ' +
    'Once it is COMPLETED, NO_SHOW or CANCELLED: `{"state":"ENDED","language":…,"outcome":…,"feedback":…}` (contract §20: the page says a missed turn in words, and offers the rating of a completed visit for 24 hours, past its business day);  once its business day is over: `{"state":"EXPIRED","language":…}`, and nothing more. ' +
    'Contract §18: `language` is the one the ticket was taken in (else the unit\'s default); the `…Name` fields are in it, the `…Names` objects carry every ' +
    'language for a page whose reader switched. ' +
    'With `since` equal to the current `version` the answer waits for the next change (a long poll, at most 20 s). 600 reads a minute per address.',
  tags: ['Phone'],
  public: true,
  params: { code: { description: 'the tracking code of the ticket\'s phone page (24 characters of a-z2-7)', example: 'k3v9q2m7x4c8h6b5n2r7t3w4' } },
  query: { since: { description: 'the `version` last seen: the answer waits (up to 20 s) until the status differs', example: '1a2b3c4d5e6f', required: false } },
  responses: {
    200: {
      description: 'the status',
      name: 'PhoneStatusResponse',
      schema: PhoneStatusResponse,
      example: {
        data: {
          state: 'WAITING', language: 'ar', defaultLanguage: 'en', languages: ['en', 'ar'], ticketNumber: 'A003',
          serviceName: 'الحسابات', serviceNames: { en: 'Accounts', ar: 'الحسابات' },
          locationName: 'القاعة الرئيسية', locationNames: { en: 'Main hall', ar: 'القاعة الرئيسية' },
          branchName: 'الفرع الرئيسي', branchNames: { en: 'Main branch', ar: 'الفرع الرئيسي' },
          peopleAhead: 2, estimatedWaitSeconds: 900, noCounterOpen: false, counterFree: false, counterName: null, counterNames: null, callCount: 0, approachingAhead: 3, transferred: false, moreTimeLeft: 2,
        },
        version: '1a2b3c4d5e6f',
      },
    },
  },
  errors: { 404: [PhoneCodes.TICKET_NOT_FOUND], 429: [PhoneCodes.RATE_LIMITED] },
  errorExamples: PhoneErrorExamples,
})

const code = { code: { description: 'the tracking code of the ticket\'s phone page', example: 'k3v9q2m7x4c8h6b5n2r7t3w4' } }
const changeRules =
  'No credential: the tracking code is the capability; as a state-changing call from a browser it must carry `Origin` equal to the server\'s origin ' +
  '(403 ORIGIN_FORBIDDEN, contract §7). 30 changes a minute per address (429 with `Retry-After`). The actor of the change is ' +
  '`{"type":"customer","id":<ticket ID>}` (contract §16). Answers the ticket\'s phone status after the change.'
const statusAfter = (description: string) => ({
  200: { description, name: 'PhoneStatusResponse', schema: PhoneStatusResponse, example: { data: { state: 'ENDED', language: 'en', outcome: 'CANCELLED', feedback: null }, version: '1a2b3c4d5e6f' } },
})

export const leaveQueueDocs = routeDetail({
  operationId: 'leaveQueueByTrackingCode',
  summary: 'Leave the queue (the customer cancels a waiting ticket)',
  description:
    'Contract §20: WAITING→CANCELLED through the ticket\'s cancel transition: its history gets a `cancelled` event and the webhook `ticket.cancelled` is sent as for any cancellation. ' +
    'The phone page asks for a confirmation first. A ticket that is no longer WAITING (called a moment ago, already closed) is 409 INVALID_TRANSITION. ' + changeRules,
  tags: ['Phone'],
  public: true,
  params: code,
  responses: statusAfter('the ticket is cancelled'),
  errors: { 403: [PhoneCodes.ORIGIN_FORBIDDEN], 404: [PhoneCodes.TICKET_NOT_FOUND], 409: [PhoneCodes.INVALID_TRANSITION], 429: [PhoneCodes.RATE_LIMITED] },
  errorExamples: PhoneErrorExamples,
})

export const moreTimeDocs = routeDetail({
  operationId: 'askMoreTimeByTrackingCode',
  summary: 'I need more time: move behind the next 3 tickets of the line',
  description:
    'Contract §20: a WAITING ticket moves behind the next 3 tickets of its line in the order they will really be called (contract §8); with fewer behind it, it goes last. ' +
    'At most twice per ticket (409 MORE_TIME_LIMIT_REACHED); only while WAITING (409 TICKET_NOT_WAITING). The status stays WAITING; the history gets a `more_time` event ' +
    '(detail: `aheadBefore`, `aheadAfter`, `moreTimeCount`). No webhook: no status changes (docs/queue.md). Boards, desks and phones update at once. ' + changeRules,
  tags: ['Phone'],
  public: true,
  params: code,
  responses: {
    200: {
      description: 'the ticket\'s new place',
      name: 'PhoneStatusResponse',
      schema: PhoneStatusResponse,
      example: {
        data: {
          state: 'WAITING', language: 'en', defaultLanguage: 'en', languages: ['en'], ticketNumber: 'A003', serviceName: 'Accounts', serviceNames: { en: 'Accounts' },
          locationName: 'Main hall', locationNames: { en: 'Main hall' }, branchName: 'Main branch', branchNames: { en: 'Main branch' }, peopleAhead: 5, estimatedWaitSeconds: 1500,
          noCounterOpen: false, counterFree: false, counterName: null, counterNames: null, callCount: 0, approachingAhead: 3, transferred: false, moreTimeLeft: 1,
        },
        version: '1a2b3c4d5e6f',
      },
    },
  },
  errors: { 403: [PhoneCodes.ORIGIN_FORBIDDEN], 404: [PhoneCodes.TICKET_NOT_FOUND], 409: [PhoneCodes.TICKET_NOT_WAITING, PhoneCodes.MORE_TIME_LIMIT_REACHED], 429: [PhoneCodes.RATE_LIMITED] },
  errorExamples: PhoneErrorExamples,
})

export const giveFeedbackDocs = routeDetail({
  operationId: 'rateVisitByTrackingCode',
  summary: 'Rate a completed visit (1–5, optional comment)',
  description:
    'Contract §20: once per ticket (409 FEEDBACK_ALREADY_GIVEN), for a COMPLETED ticket (409 TICKET_NOT_COMPLETED), within 24 hours of its completion (409 FEEDBACK_WINDOW_CLOSED). ' +
    'The comment is plain text, at most 500 characters (code points): stored as given (trimmed) and always shown as text, never as HTML. ' +
    'The rating keeps the ticket\'s service, counter, the clerk who completed it (if a clerk did) and its business day for `reports/feedback`. ' + changeRules,
  tags: ['Phone'],
  public: true,
  params: code,
  body: {
    name: 'PhoneFeedbackBody',
    schema: PhoneFeedbackBody,
    examples: { rated: { summary: 'five stars with a comment', value: { rating: 5, comment: 'Quick and friendly, thank you.' } }, plain: { summary: 'a rating alone', value: { rating: 3 } } },
  },
  responses: {
    200: { description: 'the rating is stored', name: 'PhoneStatusResponse', schema: PhoneStatusResponse, example: { data: { state: 'ENDED', language: 'en', outcome: 'COMPLETED', feedback: 'GIVEN' }, version: '1a2b3c4d5e6f' } },
  },
  errors: {
    400: [PhoneCodes.INVALID_JSON], 403: [PhoneCodes.ORIGIN_FORBIDDEN], 404: [PhoneCodes.TICKET_NOT_FOUND], 409: [PhoneCodes.TICKET_NOT_COMPLETED, PhoneCodes.FEEDBACK_ALREADY_GIVEN, PhoneCodes.FEEDBACK_WINDOW_CLOSED],
    413: [PhoneCodes.PAYLOAD_TOO_LARGE], 422: [PhoneCodes.VALIDATION_FAILED], 429: [PhoneCodes.RATE_LIMITED],
  },
  errorExamples: PhoneErrorExamples,
})
