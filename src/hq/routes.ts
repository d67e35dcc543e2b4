import { Elysia } from 'elysia'
import { ApiError } from '../platform/errors'
import { cookieValue, json } from '../platform/http'
import { readJsonBody } from '../platform/body'
import { HqCodes } from './errors'
import { HQ_SESSION_PATTERN, reportCsv, type HqService, type HqUser } from './service'
import * as D from './docs'

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

/** The request's JSON body (the one reader, src/platform/body.ts), after the headers' checks. */
const jsonBody = (request: Request): Promise<unknown> => readJsonBody(request, MAX_BODY)

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
    }, { detail: D.signInHqDocs })
    .get(`${HQ_API}/sessions/current`, async ({ request }) => json(200, await caller(request, false), noStore), {
      detail: D.readHqSessionDocs,
    })
    .delete(`${HQ_API}/sessions/current`, async ({ request }) => {
      await hq.signOut(cookieValue(request, HQ_SESSION_COOKIE, HQ_SESSION_PATTERN))
      return new Response(null, { status: 204, headers: { 'set-cookie': `${HQ_SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0` } })
    }, { detail: D.signOutHqDocs })
    .post(`${HQ_API}/setup`, async ({ request }) => {
      // As the branch's setup (contract §16): a browser's request must come from this server's pages.
      if (request.headers.has('origin') && request.headers.get('origin') !== originOf(request, options.publicOrigin)) {
        throw new ApiError(403, HqCodes.ORIGIN_FORBIDDEN, 'a signed-in browser may change things only from a page of this server (Origin does not match)')
      }
      const body = (await jsonBody(request)) as Record<string, unknown> | null
      return json(200, await hq.completeSetup(body?.code, body?.password), noStore)
    }, { detail: D.completeHqSetupDocs })
    .get(`${HQ_API}/profiles`, async ({ request }) => {
      await caller(request, false)
      return json(200, { data: await hq.listProfiles() }, noStore)
    }, { detail: D.listProfilesDocs })
    .post(`${HQ_API}/profiles`, async ({ request }) => {
      const user = await caller(request, true)
      return json(201, await hq.createProfile(await jsonBody(request), user.username), noStore)
    }, { detail: D.createProfileDocs })
    .get(`${HQ_API}/profiles/:profileId`, async ({ request, params }) => {
      await caller(request, false)
      return json(200, await hq.readProfile(params.profileId), noStore)
    }, { detail: D.readProfileDocs })
    .put(`${HQ_API}/profiles/:profileId`, async ({ request, params }) => {
      const user = await caller(request, true)
      return json(200, await hq.updateProfile(params.profileId, await jsonBody(request), user.username), noStore)
    }, { detail: D.updateProfileDocs })
    .post(`${HQ_API}/profiles/:profileId/revisions`, async ({ request, params }) => {
      const user = await caller(request, true)
      return json(201, await hq.publish(params.profileId, user.username), noStore)
    }, { detail: D.publishProfileDocs })
    .get(`${HQ_API}/profiles/:profileId/revisions`, async ({ request, params }) => {
      await caller(request, false)
      return json(200, { data: await hq.revisions(params.profileId) }, noStore)
    }, { detail: D.listProfileRevisionsDocs })
    .get(`${HQ_API}/branches`, async ({ request }) => {
      await caller(request, false)
      return json(200, { data: await hq.listBranches() }, noStore)
    }, { detail: D.listBranchesDocs })
    .put(`${HQ_API}/branches/:queueUnitId/profile`, async ({ request, params }) => {
      const user = await caller(request, true)
      return json(200, await hq.assign(params.queueUnitId, await jsonBody(request), user.username), noStore)
    }, { detail: D.assignProfileDocs })
    .get(`${HQ_API}/live`, async ({ request }) => {
      await caller(request, false)
      return json(200, await hq.live(), noStore)
    }, { detail: D.readChainLiveDocs })
    .get(`${HQ_API}/live/:queueUnitId`, async ({ request, params }) => {
      await caller(request, false)
      return json(200, await hq.liveBranch(params.queueUnitId), noStore)
    }, { detail: D.readBranchLiveDocs })
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
    }, { detail: D.readChainDailyDocs })
}
