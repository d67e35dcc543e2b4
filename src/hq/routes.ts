import { Elysia } from 'elysia'
import { ApiError } from '../platform/errors'
import { cookieValue, json } from '../platform/http'
import { isJsonContentType, parseJsonBytes, readBodyAfterChecks } from '../platform/body'
import { routeDetail, type RouteDoc } from '../platform/openapi'
import { HqCodes, HqErrorExamples } from './errors'
import { HQ_SESSION_PATTERN, reportCsv, type HqService, type HqUser } from './service'
import * as M from './model'

/** Head office's JSON API (contract §26). */
export const HQ_API = '/api/hq/v1'
export const HQ_SESSION_COOKIE = 'lobby_hq_session'

const MAX_BODY = 256 * 1024
const noStore = { 'cache-control': 'no-store' }
const DATE = /^\d{4}-\d{2}-\d{2}$/

export interface HqHttpOptions {
  /** The origin browsers use (`--public-origin`); else the request's own. */
  publicOrigin: string | null
}

function originOf(request: Request, publicOrigin: string | null): string {
  if (publicOrigin !== null) return publicOrigin
  const url = new URL(request.url)
  return url.origin
}

export function sessionCookie(id: string, secure: boolean): string {
  return `${HQ_SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/${secure ? '; Secure' : ''}`
}

async function jsonBody(request: Request): Promise<unknown> {
  const { raw } = await readBodyAfterChecks(request, MAX_BODY, () => {
    if (!isJsonContentType(request)) throw new ApiError(400, HqCodes.INVALID_REQUEST, 'Content-Type must be application/json', [{ path: 'Content-Type', message: 'must be application/json' }])
  })
  return parseJsonBytes(raw)
}

const doc = (d: Omit<RouteDoc, 'tags' | 'errorExamples'> & { tags?: string[] }) =>
  routeDetail({ tags: ['Head office'], errorExamples: HqErrorExamples, ...d })
const signedIn = { 401: [HqCodes.AUTHENTICATION_FAILED] } as const
const changes = { ...signedIn, 403: [HqCodes.ORIGIN_FORBIDDEN, HqCodes.FORBIDDEN] } as const

/**
 * `/api/hq/v1`: sessions and setup, profiles and their revisions, branches and their profile,
 * the chain live and its daily figures. The session comes first (from the cookie), then the
 * Origin rule for a change, then the role, then the body.
 */
export function hqRoutes(hq: HqService, options: HqHttpOptions) {
  const caller = async (request: Request, write: boolean): Promise<HqUser> => {
    const user = await hq.authenticate(cookieValue(request, HQ_SESSION_COOKIE, HQ_SESSION_PATTERN))
    if (user === null) throw new ApiError(401, HqCodes.AUTHENTICATION_FAILED, 'not signed in (or the session ended): sign in at /hq/login')
    if (write) {
      if (request.headers.get('origin') !== originOf(request, options.publicOrigin)) {
        throw new ApiError(403, HqCodes.ORIGIN_FORBIDDEN, 'a signed-in browser may change things only from a page of this server (Origin does not match)')
      }
      if (user.role !== 'hq-admin') throw new ApiError(403, HqCodes.FORBIDDEN, 'an hq-viewer may look, not change: ask an hq-admin')
    }
    return user
  }
  const secure = (request: Request) => originOf(request, options.publicOrigin).startsWith('https:')

  return new Elysia({ name: 'lobby.hq' })
    .post(`${HQ_API}/sessions`, async ({ request }) => {
      const body = (await jsonBody(request)) as Record<string, unknown> | null
      const { sessionId, user } = await hq.signIn(body?.username, body?.password)
      return json(200, { ...user, home: '/hq' }, { ...noStore, 'set-cookie': sessionCookie(sessionId, secure(request)) })
    }, {
      detail: doc({
        operationId: 'signInHq', summary: 'Sign in to head office', public: true,
        body: { name: 'HqSignIn', schema: M.SignInBody, examples: { admin: { summary: 'an HQ admin', value: { username: 'nadia', password: 'correct horse battery' } } } },
        responses: { 200: { description: 'signed in; the cookie lobby_hq_session is set', name: 'HqSignedIn', schema: { ...M.HqUserJson, properties: { ...M.HqUserJson.properties, home: { type: 'string' } }, required: [...M.HqUserJson.required, 'home'] }, example: { username: 'nadia', displayName: 'Nadia', role: 'hq-admin', home: '/hq' } } },
        errors: { 400: [HqCodes.INVALID_REQUEST], 401: [HqCodes.SIGN_IN_FAILED], 429: [HqCodes.SIGN_IN_LOCKED] },
      }),
    })
    .get(`${HQ_API}/sessions/current`, async ({ request }) => json(200, await caller(request, false), noStore), {
      detail: doc({
        operationId: 'readHqSession', summary: 'Who is signed in', security: 'hqSession',
        responses: { 200: { description: 'the signed-in HQ user', name: 'HqUser', schema: M.HqUserJson, example: { username: 'nadia', displayName: 'Nadia', role: 'hq-admin' } } },
        errors: signedIn,
      }),
    })
    .delete(`${HQ_API}/sessions/current`, async ({ request }) => {
      await hq.signOut(cookieValue(request, HQ_SESSION_COOKIE, HQ_SESSION_PATTERN))
      return new Response(null, { status: 204, headers: { 'set-cookie': `${HQ_SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0` } })
    }, {
      detail: doc({ operationId: 'signOutHq', summary: 'Sign out', public: true, responses: { 204: { description: 'signed out (also when no session was there)' } } }),
    })
    .post(`${HQ_API}/setup`, async ({ request }) => {
      // As the branch's setup (contract §16): a browser's request must come from this server's pages.
      if (request.headers.has('origin') && request.headers.get('origin') !== originOf(request, options.publicOrigin)) {
        throw new ApiError(403, HqCodes.ORIGIN_FORBIDDEN, 'a signed-in browser may change things only from a page of this server (Origin does not match)')
      }
      const body = (await jsonBody(request)) as Record<string, unknown> | null
      return json(200, await hq.completeSetup(body?.code, body?.password), noStore)
    }, {
      detail: doc({
        operationId: 'completeHqSetup', summary: 'Set a password with a setup link', public: true,
        body: { name: 'HqSetup', schema: M.SetupBody, examples: { setup: { summary: 'the code of `lobby hq users add`', value: { code: 'abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrst', password: 'correct horse battery' } } } },
        responses: { 200: { description: 'the password is set', name: 'HqSetupDone', schema: { type: 'object', required: ['username'], additionalProperties: false, properties: { username: { type: 'string' } } }, example: { username: 'nadia' } } },
        errors: { 400: [HqCodes.INVALID_REQUEST, HqCodes.SETUP_CODE_INVALID], 403: [HqCodes.ORIGIN_FORBIDDEN], 422: [HqCodes.VALIDATION_FAILED, HqCodes.PASSWORD_TOO_SHORT, HqCodes.PASSWORD_TOO_COMMON, HqCodes.PASSWORD_REPEATED, HqCodes.PASSWORD_SEQUENCE, HqCodes.PASSWORD_CONTAINS_USERNAME] },
      }),
    })
    .get(`${HQ_API}/profiles`, async ({ request }) => {
      await caller(request, false)
      return json(200, { data: await hq.listProfiles() }, noStore)
    }, { detail: doc({ operationId: 'listProfiles', summary: 'Profiles', security: 'hqSession', responses: { 200: { description: 'every profile with its draft', name: 'ProfileList', schema: M.ProfileList, example: { data: [] } } }, errors: signedIn }) })
    .post(`${HQ_API}/profiles`, async ({ request }) => {
      const user = await caller(request, true)
      return json(201, await hq.createProfile(await jsonBody(request), user.username), noStore)
    }, {
      detail: doc({
        operationId: 'createProfile', summary: 'A new profile (a draft)', security: 'hqSession',
        body: { name: 'CreateProfile', schema: M.CreateProfileBody, examples: { retail: { summary: 'services, hours, break reasons', value: { id: 'prof_retail', name: 'Retail', content: { services: [{ id: 'svc_accounts', name: { en: 'Accounts', ar: 'الحسابات' }, prefix: 'A', waitTargetSeconds: 600 }], breakReasons: ['Break', 'Lunch'] } } } } },
        responses: { 201: { description: 'the profile', name: 'Profile', schema: M.ProfileJson } },
        errors: { ...changes, 400: [HqCodes.INVALID_REQUEST], 422: [HqCodes.VALIDATION_FAILED] },
      }),
    })
    .get(`${HQ_API}/profiles/:profileId`, async ({ request, params }) => {
      await caller(request, false)
      return json(200, await hq.readProfile(params.profileId), noStore)
    }, { detail: doc({ operationId: 'readProfile', summary: 'A profile', security: 'hqSession', params: { profileId: { description: 'the profile', example: 'prof_retail' } }, responses: { 200: { description: 'the profile', name: 'Profile', schema: M.ProfileJson } }, errors: { ...signedIn, 404: [HqCodes.NOT_FOUND] } }) })
    .put(`${HQ_API}/profiles/:profileId`, async ({ request, params }) => {
      const user = await caller(request, true)
      return json(200, await hq.updateProfile(params.profileId, await jsonBody(request), user.username), noStore)
    }, {
      detail: doc({
        operationId: 'updateProfile', summary: 'Change a profile\'s draft', security: 'hqSession',
        description: 'Replaces the draft\'s name and content; branches see nothing of it until it is published. `draftVersion` is the one loaded (409 EDIT_CONFLICT with `error.current` otherwise).',
        params: { profileId: { description: 'the profile', example: 'prof_retail' } },
        body: { name: 'UpdateProfile', schema: M.UpdateProfileBody, examples: { rename: { summary: 'a new wait target', value: { name: 'Retail', draftVersion: 1, content: { services: [{ id: 'svc_accounts', name: 'Accounts', prefix: 'A', waitTargetSeconds: 480 }] } } } } },
        responses: { 200: { description: 'the profile', name: 'Profile', schema: M.ProfileJson } },
        errors: { ...changes, 400: [HqCodes.INVALID_REQUEST], 404: [HqCodes.NOT_FOUND], 409: [HqCodes.EDIT_CONFLICT], 422: [HqCodes.VALIDATION_FAILED] },
        errorProperties: { current: { ...M.ProfileJson, description: 'EDIT_CONFLICT only: the profile as it is now' } },
      }),
    })
    .post(`${HQ_API}/profiles/:profileId/revisions`, async ({ request, params }) => {
      const user = await caller(request, true)
      return json(201, await hq.publish(params.profileId, user.username), noStore)
    }, {
      detail: doc({
        operationId: 'publishProfile', summary: 'Publish the draft as the next revision', security: 'hqSession',
        description: 'The draft becomes an immutable, numbered revision; every branch following the profile applies it within 30 seconds (or refuses it and says why).',
        params: { profileId: { description: 'the profile', example: 'prof_retail' } },
        responses: { 201: { description: 'the new revision', name: 'ProfileRevision', schema: M.RevisionJson, example: { profileId: 'prof_retail', revision: 4, publishedAt: '2026-12-02T08:00:00.000Z' } } },
        errors: { ...changes, 404: [HqCodes.NOT_FOUND], 409: [HqCodes.NOTHING_TO_PUBLISH] },
      }),
    })
    .get(`${HQ_API}/profiles/:profileId/revisions`, async ({ request, params }) => {
      await caller(request, false)
      return json(200, { data: await hq.revisions(params.profileId) }, noStore)
    }, { detail: doc({ operationId: 'listProfileRevisions', summary: 'A profile\'s revisions, newest first', security: 'hqSession', params: { profileId: { description: 'the profile', example: 'prof_retail' } }, responses: { 200: { description: 'its revisions', name: 'ProfileRevisionList', schema: M.RevisionList } }, errors: { ...signedIn, 404: [HqCodes.NOT_FOUND] } }) })
    .get(`${HQ_API}/branches`, async ({ request }) => {
      await caller(request, false)
      return json(200, { data: await hq.listBranches() }, noStore)
    }, { detail: doc({ operationId: 'listBranches', summary: 'Branches and their rollout', security: 'hqSession', responses: { 200: { description: 'every branch head office knows, by queue unit ID', name: 'BranchList', schema: M.BranchList } }, errors: signedIn }) })
    .put(`${HQ_API}/branches/:queueUnitId/profile`, async ({ request, params }) => {
      const user = await caller(request, true)
      return json(200, await hq.assign(params.queueUnitId, await jsonBody(request), user.username), noStore)
    }, {
      detail: doc({
        operationId: 'assignProfile', summary: 'The profile a branch follows', security: 'hqSession',
        params: { queueUnitId: { description: 'the branch (its queue unit ID)', example: 'qu_riyadh' } },
        body: { name: 'AssignProfile', schema: M.AssignBody, examples: { retail: { summary: 'follow Retail', value: { profileId: 'prof_retail' } } } },
        responses: { 200: { description: 'the branch', name: 'Branch', schema: M.BranchJson } },
        errors: { ...changes, 400: [HqCodes.INVALID_REQUEST], 404: [HqCodes.NOT_FOUND], 422: [HqCodes.VALIDATION_FAILED] },
      }),
    })
    .get(`${HQ_API}/live`, async ({ request }) => {
      await caller(request, false)
      return json(200, await hq.live(), noStore)
    }, { detail: doc({ operationId: 'readChainLive', summary: 'Every branch now', description: 'Waiting, longest wait, counters open, lines over target and when the branch was last heard (it tells every few seconds).', security: 'hqSession', responses: { 200: { description: 'the chain', name: 'ChainLive', schema: M.LiveList } }, errors: signedIn }) })
    .get(`${HQ_API}/live/:queueUnitId`, async ({ request, params }) => {
      await caller(request, false)
      return json(200, await hq.liveBranch(params.queueUnitId), noStore)
    }, { detail: doc({ operationId: 'readBranchLive', summary: 'One branch\'s lines now', security: 'hqSession', params: { queueUnitId: { description: 'the branch', example: 'qu_riyadh' } }, responses: { 200: { description: 'its lines', name: 'BranchLive', schema: M.LiveBranchDetail } }, errors: { ...signedIn, 404: [HqCodes.NOT_FOUND] } }) })
    .get(`${HQ_API}/reports/daily`, async ({ request }) => {
      await caller(request, false)
      const query = new URL(request.url).searchParams
      const from = query.get('from') ?? ''
      const to = query.get('to') ?? ''
      const problems = [['from', from], ['to', to]].filter(([, v]) => !DATE.test(v!) || Number.isNaN(Date.parse(v!))).map(([k]) => ({ path: k!, message: 'required: a date YYYY-MM-DD' }))
      if (problems.length === 0 && from > to) problems.push({ path: 'to', message: 'must not be before from' })
      if (problems.length > 0) throw new ApiError(422, HqCodes.VALIDATION_FAILED, 'request validation failed', problems)
      const rows = await hq.daily({ from, to, ...(query.get('queueUnitId') ? { queueUnitId: query.get('queueUnitId')! } : {}), ...(query.get('serviceId') ? { serviceId: query.get('serviceId')! } : {}) })
      if (query.get('format') === 'csv') {
        return new Response(reportCsv(rows), { headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="lobby-chain-${from}-${to}.csv"`, ...noStore } })
      }
      return json(200, { data: rows }, noStore)
    }, {
      detail: doc({
        operationId: 'readChainDaily', summary: 'Daily figures across branches', security: 'hqSession',
        description: 'Contract §12\'s figures by day, branch, location and service, read from the roll-ups the branches replicate. `format=csv` answers text/csv with `lobby report`\'s column names.',
        query: {
          from: { description: 'first business day', example: '2026-12-01', required: true },
          to: { description: 'last business day', example: '2026-12-02', required: true },
          queueUnitId: { description: 'one branch only', example: 'qu_riyadh' },
          serviceId: { description: 'one service only', example: 'svc_accounts' },
          format: { description: '`json` (default) or `csv`', example: 'json', schema: { type: 'string', enum: ['json', 'csv'] } },
        },
        responses: { 200: { description: 'the rows', name: 'ChainDaily', schema: M.ReportList } },
        errors: { ...signedIn, 422: [HqCodes.VALIDATION_FAILED] },
      }),
    })
}
