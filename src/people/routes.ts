import { Elysia } from 'elysia'
import { isSecureRequest } from '../access'
import type { PeopleFeatureDeps } from './deps'
import { admitRate, clientAddressOf, rateLimited, RateBuckets } from '../platform/admission'
import { ApiError } from '../platform/errors'
import { readJsonBody } from '../platform/body'
import { json } from '../platform/http'
import { isoTime } from '../platform/clock'
import { assertSchema, compile } from '../platform/validation'
import { PeopleCodes, PeopleErrorExamples } from './errors'
import type { PasswordProblem } from './passwords'
import { AUTH_API, clearedSessionCookie, sessionCookie } from './cookie'
import { assertSessionOrigin, sessionIdOf, type AdmissionPlugin } from '../access'
import { completeSetupDocs, readCurrentSessionDocs, signInDocs, signOutDocs } from './docs'
import { SetupRequest, SignInRequest } from './model'
import {
  PasswordRejected, PeopleService, PinRejected, SESSION_ABSOLUTE_MS, SIGN_IN_ATTEMPTS_PER_ADDRESS, SetupCodeInvalid, SignInFailed, SignInLocked, USER_HOME,
} from './service'
import { loginPage, setupPage } from './pages'

export { SIGN_IN_ATTEMPTS_PER_ADDRESS }

/** A setup costs two Argon2 hashes: 10 a minute from one address. */
export const SETUP_ATTEMPTS_PER_ADDRESS = 10
/** A username and a password, or a code, a password and a PIN: 4 KB is plenty. */
const MAX_BODY = 4096

const checkSignIn = compile(SignInRequest)
const checkSetup = compile(SetupRequest)

/** Each refusal of a password (contract §16, §27): its code, and the message of the code's OpenAPI example. */
const passwordRefusal = (code: keyof typeof PeopleErrorExamples & `PASSWORD_${string}`) => () => {
  const example = PeopleErrorExamples[code]
  return new ApiError(422, PeopleCodes[code], example.message, example.details.map((d) => ({ ...d })))
}
const PASSWORD_ERRORS = {
  'too-short': passwordRefusal('PASSWORD_TOO_SHORT'),
  'too-long': () => new ApiError(422, PeopleCodes.VALIDATION_FAILED, 'request validation failed', [{ path: '/password', message: 'must be at most 256 characters' }]),
  'repeated': passwordRefusal('PASSWORD_REPEATED'),
  'sequence': passwordRefusal('PASSWORD_SEQUENCE'),
  'contains-username': passwordRefusal('PASSWORD_CONTAINS_USERNAME'),
  'contains-workspace': passwordRefusal('PASSWORD_CONTAINS_WORKSPACE'),
  'too-common': passwordRefusal('PASSWORD_TOO_COMMON'),
} as const satisfies Record<PasswordProblem, () => ApiError>

/**
 * People (contract §16): the `/login` and `/login/setup` pages, sessions under
 * `/api/auth/v1/sessions` (the `lobby_session` cookie) and `POST /api/auth/v1/setup`. Nothing
 * here logs a password, a session ID or a setup code; the access log shows `/login/setup`.
 */
export function peopleRoutes(deps: PeopleFeatureDeps, { people, access }: { people: PeopleService; access: AdmissionPlugin }) {
  const noStore = { 'cache-control': 'no-store' }

  return new Elysia({ name: 'lobby.people' })
    .use(access)
    .get('/login', ({ query }) => loginPage(query), { detail: { hide: true } })
    .get('/login/setup', ({ query }) => {
      const target = people.setupTarget(query.code ?? '', deps.clock.now())
      return setupPage(query, target === null ? null : { username: target.username, role: target.role })
    }, { detail: { hide: true } })
    .post(
      `${AUTH_API}/sessions`,
      async ({ request, server }) => {
        const now = deps.clock.now()
        // Contract §23: the body is read only after the address's rate limit.
        const address = clientAddressOf(deps.clients, request, server)
        const body = await readJsonBody(request, MAX_BODY, () => {
          const message = (retry: number) => `too many sign-in attempts from this address; retry after ${retry} s`
          admitRate(deps.limiter, RateBuckets.signInPerAddress, address, SIGN_IN_ATTEMPTS_PER_ADDRESS, now, message)
          const refusedFor = people.addressRefusedFor(address, now)
          if (refusedFor > 0) throw rateLimited(refusedFor, message)
          // A browser always sends Origin on this POST: another site's form may not sign anyone in here.
          if (request.headers.has('origin')) assertSessionOrigin(request, deps.publicOrigin)
        })
        assertSchema(checkSignIn, body, PeopleCodes.VALIDATION_FAILED)
        try {
          const { user, sessionId } = await people.signIn(body.username, body.password, now, sessionIdOf(request), address)
          deps.log({ level: 'info', msg: 'signed in', username: user.username, role: user.role })
          return json(200, { username: user.username, role: user.role, home: USER_HOME[user.role] }, {
            'set-cookie': sessionCookie(sessionId, isSecureRequest(request, deps.publicOrigin)),
            ...noStore,
          })
        } catch (error) {
          if (error instanceof SignInLocked) {
            deps.log({ level: 'warn', msg: 'sign-in refused: username locked' })
            throw new ApiError(429, PeopleCodes.SIGN_IN_LOCKED, `too many failed sign-ins for this username; try again in ${Math.ceil(error.retryAfterSeconds / 60)} minutes`, undefined, {
              'retry-after': String(error.retryAfterSeconds),
            })
          }
          if (error instanceof SignInFailed) {
            deps.log({ level: 'info', msg: 'sign-in failed' })
            throw new ApiError(401, PeopleCodes.SIGN_IN_FAILED, 'wrong username or password')
          }
          throw error
        }
      },
      {
        parse: 'none',
        detail: signInDocs,
      },
    )
    .get(
      `${AUTH_API}/sessions/current`,
      ({ principal: { user, startedAt } }) => {
        return json(200, {
          username: user.username,
          displayName: user.displayName,
          role: user.role,
          home: USER_HOME[user.role],
          queueUnits: user.queueUnits,
          signedInAt: isoTime(startedAt),
          expiresAt: isoTime(startedAt + SESSION_ABSOLUTE_MS),
        }, noStore)
      },
      {
        admitSession: true,
        detail: readCurrentSessionDocs,
      },
    )
    .delete(
      `${AUTH_API}/sessions/current`,
      async ({ request, principal: { user } }) => {
        const ended = await people.signOutEverywhere(user.id)
        deps.log({ level: 'info', msg: 'signed out', username: user.username, sessionsEnded: ended })
        return json(200, { username: user.username, sessionsEnded: ended }, { 'set-cookie': clearedSessionCookie(isSecureRequest(request, deps.publicOrigin)), ...noStore })
      },
      {
        admitSession: true,
        detail: signOutDocs,
      },
    )
    .post(
      `${AUTH_API}/setup`,
      async ({ request, server }) => {
        const now = deps.clock.now()
        const body = await readJsonBody(request, MAX_BODY, () => {
          admitRate(deps.limiter, RateBuckets.setupPerAddress, clientAddressOf(deps.clients, request, server), SETUP_ATTEMPTS_PER_ADDRESS, now,
            (retry) => `too many setup attempts from this address; retry after ${retry} s`)
          if (request.headers.has('origin')) assertSessionOrigin(request, deps.publicOrigin)
        })
        assertSchema(checkSetup, body, PeopleCodes.VALIDATION_FAILED)
        try {
          const user = await people.completeSetup(body.code.trim(), body.password, body.pin, now)
          deps.log({ level: 'info', msg: 'password set with a setup link', username: user.username })
          return json(200, { username: user.username, role: user.role, next: '/login' }, noStore)
        } catch (error) {
          if (error instanceof SetupCodeInvalid) throw new ApiError(400, PeopleCodes.SETUP_CODE_INVALID, 'this setup link is wrong, expired or already used: ask an administrator for a new one')
          if (error instanceof PasswordRejected) throw PASSWORD_ERRORS[error.problem]()
          if (error instanceof PinRejected) throw new ApiError(422, PeopleCodes.PIN_INVALID, 'a clerk\'s PIN is exactly 6 digits (and only a clerk has one)', [{ path: '/pin', message: 'exactly 6 digits, for a clerk only' }])
          throw error
        }
      },
      {
        parse: 'none',
        detail: completeSetupDocs,
      },
    )
}
