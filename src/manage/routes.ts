import { Elysia } from 'elysia'
import { Type } from '@sinclair/typebox'
import type { ManageDeps } from './deps'
import { ApiError } from '../platform/errors'
import { closingConnection, isJsonContentType, parseJsonBytes, readBodyAfterChecks } from '../platform/body'
import { json } from '../platform/http'
import { localeWithin } from '../platform/names'
import { hashSecret } from '../platform/credentials'
import { assertSchema, compile } from '../platform/validation'
import { CloseCodes } from '../display'
import type { LiveSocket } from '../display'
import { assertSameOrigin } from '../devices'
import { PeopleService, USER_HOME, requireSession, sessionIdOf, type User } from '../people'
import { ManageCodes } from './errors'
import { CloseCounterRequest, NoBody } from './model'
import { closeFloorCounterDocs, floorLiveDocs, listManagedUnitsDocs, openFloorCounterDocs, readFloorDocs } from './docs'
import { FLOOR_ROLES, roleForbidden, type ManageService } from './service'
import { forbiddenPage, manageLangOf, managePage } from './page'

export const MANAGE_API = '/api/manage/v1'

/** An open or close body: `{}` or `{"reason"}`. */
const MAX_BODY = 1024

const checkClose = compile(CloseCounterRequest)
const checkNoBody = compile(NoBody)
const noStore = { 'cache-control': 'no-store' }
const unitParams = Type.Object({ queueUnitId: Type.String({ description: 'the queue unit ID' }) })
const counterParams = Type.Object({ queueUnitId: Type.String({ description: 'the queue unit ID' }), counterId: Type.String({ description: 'the counter ID' }) })

/**
 * The live floor (contract §22): the `/manage` page, its JSON API under /api/manage/v1 (session
 * cookie only; writes also need this server's Origin) and its websocket. Signed out: the page
 * sends the browser to /login, the API answers 401; signed in without the role (a clerk): a
 * page that says so (403), 403 ROLE_FORBIDDEN from the API, and the websocket refused.
 */
export function manageRoutes(deps: ManageDeps, { manage, people }: { manage: ManageService; people: PeopleService }) {
  /** The session's person with the role; a write also carries this server's Origin (checked by requireSession). */
  async function manager(request: Request): Promise<User> {
    let user: User
    try {
      ;({ user } = await requireSession(deps, people, request))
    } catch (error) {
      // Contract §23: refused before the body is read.
      throw closingConnection(error)
    }
    if (!FLOOR_ROLES.has(user.role)) throw closingConnection(roleForbidden())
    return user
  }

  async function counterAction(request: Request, params: { queueUnitId: string; counterId: string }, action: 'open' | 'close') {
    const user = await manager(request)
    const { raw } = await readBodyAfterChecks(request, MAX_BODY, () => {
      if (request.headers.get('content-length') !== '0' && request.body !== null && !isJsonContentType(request)) {
        throw new ApiError(400, ManageCodes.INVALID_REQUEST, 'Content-Type must be application/json', [{ path: 'Content-Type', message: 'must be application/json' }])
      }
    })
    const body = raw.byteLength === 0 ? {} : parseJsonBytes(raw)
    let reason: string | null = null
    if (action === 'close') {
      assertSchema(checkClose, body, ManageCodes.VALIDATION_FAILED)
      reason = (body as { reason?: string }).reason ?? null
    } else {
      assertSchema(checkNoBody, body, ManageCodes.VALIDATION_FAILED)
    }
    const changed = await manage.setCounter(user, params.queueUnitId, params.counterId, action, reason, deps.clock.now())
    deps.log({ level: 'info', msg: `counter ${action} from the live floor`, username: user.username, counterId: params.counterId, ...(reason === null ? {} : { reason }) })
    return json(200, changed, noStore)
  }

  return new Elysia({ name: 'lobby.manage' })
    .decorate('manage', manage)
    .get('/manage', async ({ request, query }) => {
      const lang = manageLangOf(query)
      const found = await people.authenticate(sessionIdOf(request), deps.clock.now())
      if (found === null) {
        return new Response(null, { status: 303, headers: { location: lang === 'ar' ? '/login?lang=ar' : '/login', ...noStore } })
      }
      if (!FLOOR_ROLES.has(found.user.role)) return forbiddenPage(lang, USER_HOME[found.user.role])
      return managePage(lang, typeof query.unit === 'string' ? query.unit : undefined, found.user.username, localeWithin(query.lang, lang))
    }, { detail: { hide: true } })
    .get(`${MANAGE_API}/queue-units`, async ({ request }) => {
      const user = await manager(request)
      return json(200, manage.units(user), noStore)
    }, { detail: listManagedUnitsDocs })
    .get(`${MANAGE_API}/queue-units/:queueUnitId/floor`, async ({ request, params }) => {
      const user = await manager(request)
      const state = manage.floorOf(user, params.queueUnitId)
      return new Response(state.json, { status: 200, headers: { 'content-type': 'application/json', ...noStore } })
    }, { params: unitParams, detail: readFloorDocs })
    .post(`${MANAGE_API}/queue-units/:queueUnitId/counters/:counterId/open`, ({ request, params }) => counterAction(request, params, 'open'), {
      parse: 'none',
      params: counterParams,
      detail: openFloorCounterDocs,
    })
    .post(`${MANAGE_API}/queue-units/:queueUnitId/counters/:counterId/close`, ({ request, params }) => counterAction(request, params, 'close'), {
      parse: 'none',
      params: counterParams,
      detail: closeFloorCounterDocs,
    })
    .ws(`${MANAGE_API}/live`, {
      detail: floorLiveDocs,
      async beforeHandle({ request }) {
        // Refused before the upgrade: signed out 401, no role 403, another site's page 403.
        const { user } = await requireSession(deps, people, request)
        if (!FLOOR_ROLES.has(user.role)) throw roleForbidden()
        assertSameOrigin(request, deps.publicOrigin, 'the live floor opens only from a page of this server (Origin does not match)')
      },
      open(ws) {
        const sessionId = sessionIdOf(ws.data.request)
        const user = sessionId === null ? null : people.sessionUser(sessionId, deps.clock.now())
        if (sessionId === null || user === null || !FLOOR_ROLES.has(user.role)) return ws.close(CloseCodes.TOKEN_INVALID, 'session not valid')
        // Rights as they are now, not as they were at the upgrade (contract §27): a role or a unit
        // taken away closes the socket (4403) at the next re-check, within a second.
        const current = () => people.sessionUser(sessionId, deps.clock.now())
        const still = () => {
          const now = current()
          if (now === null) return false
          return FLOOR_ROLES.has(now.role) ? true : 'forbidden'
        }
        manage.hub.connect(
          ws.raw as unknown as LiveSocket,
          '',
          still,
          // One group per session: one re-check covers all its sockets, and its tabs share the per-credential bound.
          `session:${hashSecret(sessionId)}`,
          (kind, id) => {
            const now = current()
            return kind === 'queue' && now !== null && manage.mayWatch(now, id)
          },
        )
      },
      message(ws, message) {
        manage.hub.message(ws.raw as unknown as LiveSocket, typeof message === 'string' ? message : JSON.stringify(message))
      },
      close(ws) {
        manage.hub.disconnect(ws.raw as unknown as LiveSocket)
      },
    })
}
