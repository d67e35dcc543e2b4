import { Elysia } from 'elysia'
import { assertSameOrigin, sessionIdOf, type Admission, type AdmissionPlugin } from '../access'
import { Type } from '@sinclair/typebox'
import type { ManageDeps } from './deps'
import { assertJsonContentType, closingConnection, parseJsonBytes, readBodyAfterChecks } from '../platform/body'
import { json } from '../platform/http'
import { localeWithin } from '../platform/names'
import { hashSecret } from '../platform/credentials'
import { assertSchema, compile } from '../platform/validation'
import { CloseCodes } from '../display'
import type { LiveSocket } from '../display'
import { PeopleService, USER_HOME, type User } from '../people'
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
export function manageRoutes(deps: ManageDeps, { manage, people, access, admission }: { manage: ManageService; people: PeopleService; access: AdmissionPlugin; admission: Admission }) {
  /**
   * The session's person (admitted by `admitSession: 'closing'`, a write with this server's
   * Origin) with the role; refused before the body is read (contract §23), so with `Connection: close`.
   */
  function manager(user: User): User {
    if (!FLOOR_ROLES.has(user.role)) throw closingConnection(roleForbidden())
    return user
  }

  async function counterAction(request: Request, params: { queueUnitId: string; counterId: string }, action: 'open' | 'close', session: User) {
    const user = manager(session)
    const { raw } = await readBodyAfterChecks(request, MAX_BODY, () => {
      if (request.headers.get('content-length') !== '0' && request.body !== null) assertJsonContentType(request)
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
    .use(access)
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
    .get(`${MANAGE_API}/queue-units`, ({ principal }) => {
      const user = manager(principal.user)
      return json(200, manage.units(user), noStore)
    }, { admitSession: 'closing', detail: listManagedUnitsDocs })
    .get(`${MANAGE_API}/queue-units/:queueUnitId/floor`, ({ params, principal }) => {
      const user = manager(principal.user)
      const state = manage.floorOf(user, params.queueUnitId)
      return new Response(state.json, { status: 200, headers: { 'content-type': 'application/json', ...noStore } })
    }, { params: unitParams, admitSession: 'closing', detail: readFloorDocs })
    .post(`${MANAGE_API}/queue-units/:queueUnitId/counters/:counterId/open`, ({ request, params, principal }) => counterAction(request, params, 'open', principal.user), {
      parse: 'none',
      admitSession: 'closing',
      params: counterParams,
      detail: openFloorCounterDocs,
    })
    .post(`${MANAGE_API}/queue-units/:queueUnitId/counters/:counterId/close`, ({ request, params, principal }) => counterAction(request, params, 'close', principal.user), {
      parse: 'none',
      admitSession: 'closing',
      params: counterParams,
      detail: closeFloorCounterDocs,
    })
    .ws(`${MANAGE_API}/live`, {
      detail: floorLiveDocs,
      async beforeHandle({ request }) {
        // Refused before the upgrade: signed out 401, no role 403, another site's page 403.
        const { user } = await admission.session(request)
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
