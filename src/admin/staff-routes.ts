import { Elysia } from 'elysia'
import type { AdmissionPlugin } from '../access'
import type { AdminDeps } from './deps'
import { ApiError } from '../platform/errors'
import { ruled } from '../platform/detail-rules'
import { compile } from '../platform/validation'
import type { SetupLink, User } from '../people'
import { ADMIN_API } from './branch-routes'
import { absoluteUrl, auditedWrite, jsonAfterAdmission, ok, qrOf } from './section-kit'
import { AdminCodes as C } from './errors'
import { type AdminStaff, StaffRefused } from './staff-service'
import { AddUserRequest, addUserDocs, ChangeUserRequest, changeUserDocs, disableUserDocs, listUsersDocs, resetUserDocs } from './staff-model'

const MAX_BODY = 16_384
const checkAdd = compile(AddUserRequest)
const checkChange = compile(ChangeUserRequest)

/** A refusal of the people service as the console answers it. */
function answer(error: unknown): never {
  if (error instanceof StaffRefused) {
    const r = error.refusal
    if (r.kind === 'not-found') throw new ApiError(404, C.USER_NOT_FOUND, r.message)
    if (r.kind === 'exists') throw new ApiError(409, C.USER_EXISTS, r.message, [ruled('/username', 'taken', 'taken', { kind: 'user' })])
    throw new ApiError(422, C.VALIDATION_FAILED, r.message, [ruled(`/${r.field}`, r.message, r.rule, r.params)])
  }
  throw error
}

/**
 * The console's staff section (contract §17, §16), administrators only: list, add (the setup
 * link and its QR code, in the answer only), change a role, units or name, disable, reset.
 * The same rules as `lobby users` (the same service). A setup link is never logged or audited.
 */
export function adminStaffRoutes(deps: AdminDeps, { access, adminStaff: staff }: { access: AdmissionPlugin; adminStaff: AdminStaff }) {

  const linkAnswer = (request: Request, link: SetupLink) => {
    const setupUrl = absoluteUrl(deps, request, link.setupPath)
    return { username: link.username, setupPath: link.setupPath, setupUrl, qrSvg: qrOf(setupUrl, `Set up ${link.username}`), expiresAt: link.expiresAt }
  }
  const notSelf = (user: User, username: string, what: string, path: string) => {
    if (user.username === username) throw new ApiError(422, C.VALIDATION_FAILED, `you cannot ${what} your own account: ask another administrator`, [ruled(path, 'your own account', 'ownAccount')])
  }

  return new Elysia({ name: 'lobby.admin.staff' })
    .use(access)
    .get(`${ADMIN_API}/users`, async ({ request, principal }) => {
      return ok(200, { data: staff.list() })
    }, { admitConsole: { who: 'admin' }, detail: listUsersDocs })
    .post(`${ADMIN_API}/users`, async ({ request, principal }) => {
      const body = await jsonAfterAdmission(request, MAX_BODY, checkAdd)
      const user = principal.user
      const now = deps.clock.now()
      const { link } = await auditedWrite(deps, user, () => {
        const made = staff.add(body, now)
        return { result: made, audit: { action: 'user.create', entity: { type: 'user', id: body.username }, after: made.after } }
      }).catch(answer)
      deps.log({ level: 'info', msg: 'user added', by: user.username, username: body.username, role: body.role })
      return ok(201, { data: linkAnswer(request, link) })
    }, { admitConsole: { who: 'admin', body: MAX_BODY }, parse: 'none', detail: addUserDocs })
    .patch(`${ADMIN_API}/users/:username`, async ({ request, params, principal }) => {
      const body = await jsonAfterAdmission(request, MAX_BODY, checkChange)
      const user = principal.user
      if (body.role !== undefined && body.role !== 'admin') notSelf(user, params.username, 'change the role of', '/role')
      const { after } = await auditedWrite(deps, user, () => {
        const changed = staff.change(params.username, body)
        return { result: changed, audit: { action: 'user.update', entity: { type: 'user', id: params.username }, before: changed.before, after: changed.after } }
      }).catch(answer)
      deps.log({ level: 'info', msg: 'user changed', by: user.username, username: params.username, role: after.role })
      return ok(200, { data: after })
    }, { admitConsole: { who: 'admin', body: MAX_BODY }, parse: 'none', detail: changeUserDocs })
    .post(`${ADMIN_API}/users/:username/disable`, async ({ request, params, principal }) => {
      const user = principal.user
      notSelf(user, params.username, 'disable', '/username')
      const { result } = await auditedWrite(deps, user, () => {
        const done = staff.disable(params.username)
        return { result: done, audit: { action: 'user.disable', entity: { type: 'user', id: params.username }, before: done.before, after: { state: 'disabled', sessionsEnded: done.result.sessionsEnded } } }
      }).catch(answer)
      deps.log({ level: 'info', msg: 'user disabled', by: user.username, username: params.username, sessionsEnded: result.sessionsEnded })
      return ok(200, { data: result })
    }, { admitConsole: { who: 'admin' }, detail: disableUserDocs })
    .post(`${ADMIN_API}/users/:username/reset`, async ({ request, params, principal }) => {
      const user = principal.user
      const now = deps.clock.now()
      const { link } = await auditedWrite(deps, user, () => {
        const done = staff.reset(params.username, now)
        return { result: done, audit: { action: 'user.reset', entity: { type: 'user', id: params.username }, before: done.before, after: done.after } }
      }).catch(answer)
      deps.log({ level: 'info', msg: 'user reset', by: user.username, username: params.username })
      return ok(200, { data: linkAnswer(request, link) })
    }, { admitConsole: { who: 'admin' }, detail: resetUserDocs })
}
