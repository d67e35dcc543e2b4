import { routeDetail } from '../platform/openapi'
import { PhoneCodes, PhoneErrorExamples } from './errors'
import { PhoneStatusResponse } from './model'

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
    'Once it is COMPLETED, NO_SHOW or CANCELLED: `{"state":"ENDED","language":…}`; once its business day is over: `{"state":"EXPIRED","language":…}`, and nothing more. ' +
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
          peopleAhead: 2, estimatedWaitSeconds: 900, noCounterOpen: false, counterName: null, counterNames: null, callCount: 0,
        },
        version: '1a2b3c4d5e6f',
      },
    },
  },
  errors: { 404: [PhoneCodes.TICKET_NOT_FOUND], 429: [PhoneCodes.RATE_LIMITED] },
  errorExamples: PhoneErrorExamples,
})
