import { routeDetail } from '../platform/openapi'
import { PeopleCodes, PeopleErrorExamples } from './errors'
import { CurrentSessionResponse, SessionResponse, SetupRequest, SetupResponse, SignInRequest, SignOutResponse } from './model'

/*
 * The OpenAPI details of the auth API (src/people/routes.ts, contract §16): sign-in, the current
 * session, sign-out and setup, with examples and the error codes of each route by status.
 */

export const signInDocs = routeDetail({
  operationId: 'signIn',
  summary: 'Sign in',
  description:
    'Checks a username and password and starts a session: the cookie `lobby_session=lbs_…; HttpOnly; SameSite=Strict; Path=/` (`Secure` under TLS), a new ID at every sign-in ' +
    '(a session the browser carried ends). Wrong username or password: 401 SIGN_IN_FAILED, the same answer and about the same time for an unknown user. ' +
    '5 failures for one username in 15 minutes lock it for 15 minutes (429 SIGN_IN_LOCKED with Retry-After; the right password is refused too). ' +
    '20 failures a minute from one address (or 60 attempts of any outcome): 429 RATE_LIMITED. A session ends after 30 minutes idle (admin, manager) or 12 hours in all. ' +
    'Checks, in order: declared body size (4 KB) → attempts and failures per address → Origin (when sent) → Content-Type → body (read only now) → JSON → schema → lock → password.',
  tags: ['Auth'],
  public: true,
  body: { name: 'SignInRequest', schema: SignInRequest, examples: { manager: { summary: 'a manager signs in', value: { username: 'amira.h', password: 'correct horse battery' } } } },
  responses: {
    200: {
      description: 'signed in; the cookie is set',
      headers: { 'Set-Cookie': { description: 'lobby_session=lbs_…; HttpOnly; SameSite=Strict; Path=/ (+ Secure under TLS)', required: true, schema: { type: 'string' } } },
      name: 'SessionResponse',
      schema: SessionResponse,
      example: { username: 'amira.h', role: 'manager', home: '/manage' },
    },
  },
  errors: {
    400: [PeopleCodes.INVALID_REQUEST, PeopleCodes.INVALID_JSON],
    401: [PeopleCodes.SIGN_IN_FAILED],
    403: [PeopleCodes.ORIGIN_FORBIDDEN],
    413: [PeopleCodes.PAYLOAD_TOO_LARGE],
    422: [PeopleCodes.VALIDATION_FAILED],
    429: [PeopleCodes.SIGN_IN_LOCKED, PeopleCodes.RATE_LIMITED],
  },
  errorExamples: PeopleErrorExamples,
})

export const readCurrentSessionDocs = routeDetail({
  operationId: 'readCurrentSession',
  summary: 'Who is signed in',
  description: 'The person of the session cookie. 401 once the session ended (signed out, 30 minutes idle for an admin or manager, 12 hours, the account disabled or reset).',
  tags: ['Auth'],
  security: 'sessionCookie',
  responses: {
    200: {
      description: 'the signed-in person',
      name: 'CurrentSessionResponse',
      schema: CurrentSessionResponse,
      example: {
        username: 'amira.h', displayName: 'Amira Haddad', role: 'manager', home: '/manage', queueUnits: ['qu_main'],
        signedInAt: '2026-11-25T09:30:00.000Z', expiresAt: '2026-11-25T21:30:00.000Z',
      },
    },
  },
  errors: { 401: [PeopleCodes.AUTHENTICATION_FAILED] },
  errorExamples: PeopleErrorExamples,
})

export const signOutDocs = routeDetail({
  operationId: 'signOut',
  summary: 'Sign out',
  description: 'Ends every session of the signed-in person at once and clears the cookie. Needs this server\'s Origin (403 ORIGIN_FORBIDDEN).',
  tags: ['Auth'],
  security: 'sessionCookie',
  responses: {
    200: {
      description: 'signed out everywhere; the cookie is cleared',
      headers: { 'Set-Cookie': { description: 'lobby_session=; Max-Age=0', required: true, schema: { type: 'string' } } },
      name: 'SignOutResponse',
      schema: SignOutResponse,
      example: { username: 'amira.h', sessionsEnded: 2 },
    },
  },
  errors: { 401: [PeopleCodes.AUTHENTICATION_FAILED], 403: [PeopleCodes.ORIGIN_FORBIDDEN] },
  errorExamples: PeopleErrorExamples,
})

export const completeSetupDocs = routeDetail({
  operationId: 'completeSetup',
  summary: 'Set a password with a setup link',
  description:
    'Sets the password (and a clerk\'s six-digit PIN) of the account a setup link opens; the link is used up, and every session of the account ends. ' +
    'A password has at least 10 characters and is not among the 100,000 most common, one repeated character or a run (abcdefghij, 1234567890), nor contains the username or a workspace\'s name (contract §27; the 422 says which). The code is 256 random bits, valid 24 hours. ' +
    'More than 10 attempts a minute from one address: 429.',
  tags: ['Auth'],
  public: true,
  body: {
    name: 'SetupRequest',
    schema: SetupRequest,
    examples: {
      clerk: { summary: 'a clerk sets a password and a PIN', value: { code: 'k3v7q2x9m4c8w5n6b2z7h3j8r4t6y2p9d5f3g7s2a4e6u8i2o3l5', password: 'correct horse battery', pin: '482913' } },
    },
  },
  responses: {
    200: { description: 'the password is set; sign in now', name: 'SetupResponse', schema: SetupResponse, example: { username: 'omar.k', role: 'clerk', next: '/login' } },
  },
  errors: {
    400: [PeopleCodes.INVALID_REQUEST, PeopleCodes.INVALID_JSON, PeopleCodes.SETUP_CODE_INVALID],
    403: [PeopleCodes.ORIGIN_FORBIDDEN],
    413: [PeopleCodes.PAYLOAD_TOO_LARGE],
    422: [
      PeopleCodes.VALIDATION_FAILED, PeopleCodes.PASSWORD_TOO_SHORT, PeopleCodes.PASSWORD_REPEATED, PeopleCodes.PASSWORD_SEQUENCE,
      PeopleCodes.PASSWORD_CONTAINS_USERNAME, PeopleCodes.PASSWORD_CONTAINS_WORKSPACE, PeopleCodes.PASSWORD_TOO_COMMON, PeopleCodes.PIN_INVALID,
    ],
    429: [PeopleCodes.RATE_LIMITED],
  },
  errorExamples: PeopleErrorExamples,
})
