import { Elysia } from 'elysia'
import type { DeskDeps } from './deps'
import { json } from '../platform/http'
import { routeDetail } from '../platform/openapi'
import { DEVICES_API } from '../devices'
import { Scopes, type AdmissionPlugin } from '../access'
import { devicePage } from '../devices/pages'
import { CounterCodes, CounterErrorExamples } from '../counters'
import { ApiError } from '../platform/errors'
import { admitRate, clientAddressOf, rateLimited, RateBuckets } from '../platform/admission'
import { readJsonBody } from '../platform/body'
import { assertSchema, compile } from '../platform/validation'
import { SIGN_IN_ATTEMPTS_PER_ADDRESS, SignInFailed, SignInLocked } from '../people'
import type { DeskService } from './service'
import { DeskSignInRequest, DeskViewResponse } from './model'
import { DeskClerkCodes } from './errors'
import { signInClerkDocs, signOutClerkDocs } from './docs'

/** A username and a PIN: 1 KB is plenty. */
const MAX_SIGN_IN_BODY = 1024
const checkSignIn = compile(DeskSignInRequest)

const DESK_TICKET = {
  id: 'tkt_01JD6Z8K4Q2M7W3X9B5C1V0N8R', ticketId: 'tkt_01JD6Z8K4Q2M7W3X9B5C1V0N8R', ticketNumber: 'A007', status: 'CALLED', source: 'API',
  queueUnitId: 'qu_main', locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: null,
  createdAt: '2026-11-25T09:30:00.000Z', calledAt: '2026-11-25T09:41:12.345Z', servingAt: null, completedAt: null, priority: false,
  transfer: { fromServiceId: 'svc_loans', fromCounterId: 'cnt_4', note: 'Wants to open a savings account' },
}
const DESK_EXAMPLE = {
  data: {
    generatedAt: '2026-11-25T09:42:00.000Z',
    defaultLanguage: 'en',
    queueUnit: { id: 'qu_main', name: 'Main branch', names: { en: 'Main branch', ar: 'الفرع الرئيسي' }, active: true },
    counter: {
      id: 'cnt_1', name: 'Counter 1', names: { en: 'Counter 1', ar: 'الشباك ١' }, open: true,
      locationId: 'loc_hall', locationName: 'Main hall', locationNames: { en: 'Main hall', ar: 'القاعة الرئيسية' }, timezone: 'Europe/Berlin',
    },
    services: [{ id: 'svc_accounts', name: 'Accounts', names: { en: 'Accounts', ar: 'الحسابات' }, prefix: 'A', active: true, waiting: 0, estimatedWaitSeconds: 300, noCounterOpen: false, peopleAhead: 0, counterFree: false, tickets: [] }],
    ticket: DESK_TICKET,
    servedToday: 14,
    transferTargets: [{ id: 'svc_loans', name: 'Loans', names: { en: 'Loans', ar: 'القروض' } }],
    serviceNames: { svc_accounts: 'Accounts', svc_loans: 'Loans' },
    serviceNamesByLanguage: { svc_accounts: { en: 'Accounts', ar: 'الحسابات' }, svc_loans: { en: 'Loans', ar: 'القروض' } },
    clerk: { username: 'samir.k', displayName: 'Samir Khoury' },
    deskSignIn: 'optional',
    breakReasons: ['Break', 'Lunch', 'Admin work', 'Other'],
    breakReasonNames: { Break: { en: 'Break', ar: 'استراحة' }, Lunch: { en: 'Lunch', ar: 'غداء' }, 'Admin work': { en: 'Admin work', ar: 'عمل إداري' }, Other: { en: 'Other', ar: 'أخرى' } },
    noShows: [{
      ticket: { ...DESK_TICKET, id: 'tkt_01JD6Z9N3M5Q8R2T4V6X8Z0B2D', ticketId: 'tkt_01JD6Z9N3M5Q8R2T4V6X8Z0B2D', ticketNumber: 'A005', status: 'NO_SHOW', completedAt: '2026-11-25T09:38:00.000Z', transfer: null },
      until: '2026-11-25T10:08:00.000Z',
    }],
    counterNamesByLanguage: { cnt_1: { en: 'Counter 1', ar: 'الشباك ١' }, cnt_4: { en: 'Counter 4', ar: 'الشباك ٤' } },
    appointments: [{ id: 'apt_01JD6ZB2P1F0S9E8D7C6B5A4Z3', serviceId: 'svc_accounts', startAt: '2026-11-25T10:00:00.000Z', name: 'Amal Haddad', status: 'BOOKED' }],
  },
}

/**
 * The counter desk (contract §8): the `/desk` page and the one read it needs beyond the
 * operator API, `GET /api/devices/v1/desk` (its counter, the waiting lines of its services,
 * the ticket it holds, today's served count). The desk's actions are the operator API's own
 * routes, called with the device cookie.
 */
export function deskRoutes(deps: DeskDeps, { desk, access }: { desk: DeskService; access: AdmissionPlugin }) {
  return new Elysia({ name: 'lobby.desk' })
    .use(access)
    .get('/desk', ({ query }) => devicePage('desk', query), { detail: { hide: true } })
    .get(
      `${DEVICES_API}/desk`,
      ({ principal: caller, now }) => {
        desk.counters.queue.assertQueueUnitActive(caller)
        return json(200, { data: desk.view(caller, caller.counters![0]!, now) }, { 'cache-control': 'no-store' })
      },
      {
        // Only a paired desk: a Queue key has no counter of its own to show.
        admitOperator: { scope: Scopes.COUNTER_OPERATE, bucket: 'operate', desksOnly: 'the desk view is for a paired desk (device cookie)' },
        detail: routeDetail({
          operationId: 'readDeskView',
          summary: 'What a paired desk shows',
          description:
            'For a paired desk (device cookie): its counter (name, location, open), each of its services at its location with the waiting count and the first 10 ' +
            'waiting tickets in call order, the ticket it holds, today\'s served count and the services a ticket may be transferred to; the clerk signed in at the desk ' +
            '(contract §16), the unit\'s `deskSignIn` and the `breakReasons` "Close counter" offers; contract §20: `noShows`, the counter\'s no-shows that may still be ' +
            'brought back (within the unit\'s `noShowGraceMinutes`, with `until`), and `counterNamesByLanguage` for "Transferred from Accounts, Counter 1" (a ticket\'s `transfer`). Names (contract §18): each `name` is in the unit\'s `defaultLanguage`; ' +
            '`names` beside it (unit, counter, `locationNames`, services, transfer targets, `serviceNamesByLanguage`) holds every language given, a plain name as `{"<defaultLanguage>": name}`. ' +
            'Checks: credential → rate limit (the operator window) → Queue Unit active → counter (404 when retired).',
          tags: ['Devices'],
          security: 'deviceCookie',
          responses: { 200: { description: 'the desk', name: 'DeskViewResponse', schema: DeskViewResponse, example: DESK_EXAMPLE } },
          errors: { 401: [CounterCodes.AUTHENTICATION_FAILED], 403: [CounterCodes.QUEUE_UNIT_INACTIVE], 404: [CounterCodes.COUNTER_NOT_FOUND], 429: [CounterCodes.RATE_LIMITED] },
          errorExamples: CounterErrorExamples,
        }),
      },
    )
    .post(
      `${DEVICES_API}/desk/clerk`,
      async ({ request, server, principal: device }) => {
        const now = deps.clock.now()
        const address = clientAddressOf(deps.clients, request, server)
        // The device and its Origin (admission), then the address's attempts are checked from the
        // headers; the body (a PIN) is read only after them (contract §23).
        const raw = await readJsonBody(request, MAX_SIGN_IN_BODY, () => {
          const message = (retry: number) => `too many sign-in attempts from this address; retry after ${retry} s`
          admitRate(deps.limiter, RateBuckets.signInPerAddress, address, SIGN_IN_ATTEMPTS_PER_ADDRESS, now, message)
          const refusedFor = desk.addressRefusedFor(address, now)
          if (refusedFor > 0) throw rateLimited(refusedFor, message)
        })
        const body = raw
        assertSchema(checkSignIn, body, DeskClerkCodes.VALIDATION_FAILED)
        try {
          const clerk = await desk.signIn(device, body.username, body.pin, now, address)
          deps.log({ level: 'info', msg: 'clerk signed in at a desk', username: clerk.username, device: device.name })
          return json(200, { data: { username: clerk.username, displayName: clerk.displayName } }, { 'cache-control': 'no-store' })
        } catch (error) {
          // As at /login: no username in these lines (a PIN typed into the username field must not reach a log).
          if (error instanceof SignInLocked) {
            deps.log({ level: 'warn', msg: 'desk sign-in refused: PIN locked', device: device.name })
            throw new ApiError(429, DeskClerkCodes.SIGN_IN_LOCKED, `too many wrong PINs for this clerk; try again in ${Math.ceil(error.retryAfterSeconds / 60)} minutes`, undefined, {
              'retry-after': String(error.retryAfterSeconds),
            })
          }
          if (error instanceof SignInFailed) {
            deps.log({ level: 'info', msg: 'desk sign-in failed', device: device.name })
            throw new ApiError(401, DeskClerkCodes.SIGN_IN_FAILED, 'wrong username or PIN')
          }
          throw error
        }
      },
      {
        parse: 'none',
        admitDevice: { roles: ['desk'], body: MAX_SIGN_IN_BODY },
        detail: signInClerkDocs,
      },
    )
    .delete(
      `${DEVICES_API}/desk/clerk`,
      async ({ principal: device }) => {
        const signedOut = await desk.signOut(device, deps.clock.now())
        if (signedOut !== null) deps.log({ level: 'info', msg: 'clerk signed out at a desk', username: signedOut, device: device.name })
        return json(200, { data: { signedOut } }, { 'cache-control': 'no-store' })
      },
      {
        admitDevice: { roles: ['desk'] },
        detail: signOutClerkDocs,
      },
    )
}
