import { routeDetail } from '../platform/openapi'
import { DeskClerkCodes, DeskClerkErrorExamples } from './errors'
import { DeskClerkResponse, DeskSignInRequest, DeskSignOutResponse } from './model'

/*
 * The OpenAPI details of the desk's clerk routes (contract §16): a clerk signs in at a paired
 * desk with username and PIN, and signs out.
 */

export const signInClerkDocs = routeDetail({
  operationId: 'signInDeskClerk',
  summary: 'A clerk signs in at this desk',
  description:
    'For a paired desk (device cookie): the clerk\'s username and six-digit PIN. The device and the PIN are the two factors: without a paired desk a PIN is refused (401). ' +
    'Only an active clerk whose queue units include the desk\'s may sign in; anything else, an unknown user included, is 401 SIGN_IN_FAILED, the same answer after ' +
    'about the same time. 5 wrong PINs for one clerk in 15 minutes lock their PIN for 15 minutes (429 SIGN_IN_LOCKED with Retry-After; the right PIN is refused too). ' +
    '20 failed sign-ins a minute from one address (or 60 attempts of any outcome): 429 RATE_LIMITED. Signing in ends the clerk\'s sign-in at another desk and a break of ' +
    'theirs, and signs out another clerk signed in at this counter; from now on what the desk does is this clerk\'s (`actor` `clerk`). ' +
    'Checks, in order: declared body size (1 KB) → device cookie → Origin → attempts and failures per address → Content-Type → body (read only now) → JSON → schema → lock → PIN.',
  tags: ['Devices'],
  security: 'deviceCookie',
  body: { name: 'DeskSignInRequest', schema: DeskSignInRequest, examples: { clerk: { summary: 'a clerk signs in', value: { username: 'samir.k', pin: '482913' } } } },
  responses: { 200: { description: 'signed in', name: 'DeskClerkResponse', schema: DeskClerkResponse, example: { data: { username: 'samir.k', displayName: 'Samir Khoury' } } } },
  errors: {
    400: [DeskClerkCodes.INVALID_REQUEST, DeskClerkCodes.INVALID_JSON],
    401: [DeskClerkCodes.AUTHENTICATION_FAILED, DeskClerkCodes.SIGN_IN_FAILED],
    403: [DeskClerkCodes.ORIGIN_FORBIDDEN],
    404: [DeskClerkCodes.COUNTER_NOT_FOUND],
    413: [DeskClerkCodes.PAYLOAD_TOO_LARGE],
    422: [DeskClerkCodes.VALIDATION_FAILED],
    429: [DeskClerkCodes.SIGN_IN_LOCKED, DeskClerkCodes.RATE_LIMITED],
  },
  errorExamples: DeskClerkErrorExamples,
})

export const signOutClerkDocs = routeDetail({
  operationId: 'signOutDeskClerk',
  summary: 'The clerk signs out of this desk',
  description:
    'For a paired desk (device cookie): the clerk signed in at its counter signs out (closing the counter and the end of the business day do too). ' +
    'Signing out when nobody is signed in changes nothing (`signedOut: null`). Checks: device cookie → Origin.',
  tags: ['Devices'],
  security: 'deviceCookie',
  responses: { 200: { description: 'signed out', name: 'DeskSignOutResponse', schema: DeskSignOutResponse, example: { data: { signedOut: 'samir.k' } } } },
  errors: { 401: [DeskClerkCodes.AUTHENTICATION_FAILED], 403: [DeskClerkCodes.ORIGIN_FORBIDDEN] },
  errorExamples: DeskClerkErrorExamples,
})
