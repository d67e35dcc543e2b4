import { Elysia } from 'elysia'
import type { AdminDeps } from './deps'
import { readJsonBody } from '../platform/body'
import { json } from '../platform/http'
import { assertUnitAccess } from './console-caller'
import type { AdmissionPlugin, ConsoleCaller } from '../access'
import { createUnitDocs, createWorkspaceDocs, ENTITY_DOCS, listUnitsDocs, listWorkspacesDocs, patchUnitDocs, patchWorkspaceDocs, readUnitDocs, updateUnitDocs } from './docs'
import type { BranchService, EntityKind } from './branch-service'

/** The admin API's root (contract §17). */
export const ADMIN_API = '/api/admin/v1'

/** A unit with 300 counters' names in 20 languages fits; a body is one entity. */
const MAX_BODY = 64 * 1024
const noStore = { 'cache-control': 'no-store' }
const PATH = { location: 'locations', service: 'services', counter: 'counters' } as const satisfies Record<EntityKind, string>

/** The request's JSON body, read only after the caller was admitted (the checks come first). */
const jsonBody = (request: Request): Promise<unknown> => readJsonBody(request, MAX_BODY)

/** Every console caller (an admin or a manager), or only an administrator (`admitConsole`, src/access/). */
const CONSOLE = { admitConsole: { who: 'console' } } as const
const ADMINS = { admitConsole: { who: 'admin' } } as const

/**
 * The Branch section's API: `/api/admin/v1/workspaces[/{workspaceId}]` (administrators) and
 * `/api/admin/v1/queue-units[/{unitId}[/locations|services|counters[/{id}]]]`.
 * Every route admits the session first (`admitConsole`), then the unit, then reads a body.
 */
export function branchRoutes(deps: AdminDeps, { branch, access }: { branch: BranchService; access: AdmissionPlugin }) {
  /** The admitted console caller, for one unit: 403 UNIT_FORBIDDEN unless it is one of theirs. */
  const admit = (caller: ConsoleCaller, unitId?: string) => {
    if (unitId !== undefined) assertUnitAccess(caller, unitId)
    return caller
  }

  /** A save of the unit's settings: PUT replaces them, PATCH merges what it names (contract §24); the same admission, body and log. */
  const saveUnit = (how: 'updateUnit' | 'patchUnit') => async ({ request, params, principal }: { request: Request; params: { unitId: string }; principal: ConsoleCaller }) => {
    const caller = admit(principal, params.unitId)
    const body = await jsonBody(request)
    const saved = branch[how](params.unitId, body, caller.actor)
    deps.log({ level: 'info', msg: 'admin: queue unit settings saved', username: caller.user.username, queueUnitId: params.unitId })
    return json(200, saved, noStore)
  }

  return new Elysia({ name: 'lobby.admin.branch' })
    .use(access)
    // Contract §24: from an empty database an administrator makes the workspace and its units here.
    .get(`${ADMIN_API}/workspaces`, async ({ request, principal }) => {
      return json(200, { data: branch.listWorkspaces() }, noStore)
    }, { ...ADMINS, detail: listWorkspacesDocs })
    .post(`${ADMIN_API}/workspaces`, async ({ request, principal }) => {
      const caller = principal
      const body = await jsonBody(request)
      const saved = branch.createWorkspace(body, caller.actor)
      deps.log({ level: 'info', msg: 'admin: workspace created', username: caller.user.username, workspaceId: saved.id })
      return json(201, saved, noStore)
    }, { ...ADMINS, parse: 'none', detail: createWorkspaceDocs })
    .patch(`${ADMIN_API}/workspaces/:workspaceId`, async ({ request, params, principal }) => {
      const caller = principal
      const body = await jsonBody(request)
      const saved = branch.patchWorkspace(params.workspaceId, body, caller.actor)
      deps.log({ level: 'info', msg: 'admin: workspace saved', username: caller.user.username, workspaceId: params.workspaceId })
      return json(200, saved, noStore)
    }, { ...ADMINS, parse: 'none', detail: patchWorkspaceDocs })
    .get(`${ADMIN_API}/queue-units`, async ({ request, principal }) => {
      const caller = admit(principal)
      return json(200, { data: branch.listUnits(caller.units) }, noStore)
    }, { ...CONSOLE, detail: listUnitsDocs })
    .post(`${ADMIN_API}/queue-units`, async ({ request, principal }) => {
      const caller = principal
      const body = await jsonBody(request)
      const saved = branch.createUnit(body, caller.actor)
      deps.log({ level: 'info', msg: 'admin: queue unit created', username: caller.user.username, queueUnitId: saved.id })
      return json(201, saved, noStore)
    }, { ...ADMINS, parse: 'none', detail: createUnitDocs })
    .get(`${ADMIN_API}/queue-units/:unitId`, async ({ request, params, principal }) => {
      admit(principal, params.unitId)
      return json(200, branch.readUnit(params.unitId), noStore)
    }, { ...CONSOLE, detail: readUnitDocs })
    .put(`${ADMIN_API}/queue-units/:unitId`, saveUnit('updateUnit'), { ...CONSOLE, parse: 'none', detail: updateUnitDocs })
    .patch(`${ADMIN_API}/queue-units/:unitId`, saveUnit('patchUnit'), { ...CONSOLE, parse: 'none', detail: patchUnitDocs })
    .use(entityRoutes('location'))
    .use(entityRoutes('service'))
    .use(entityRoutes('counter'))

  /** List, read, create, update and delete of one kind of entity. */
  function entityRoutes(kind: EntityKind) {
    const docs = ENTITY_DOCS[kind]
    const collection = `${ADMIN_API}/queue-units/:unitId/${PATH[kind]}`
    type Params = { unitId: string; id: string }
    /** A save: PUT replaces the entity, PATCH merges what it names (contract §24); the same admission, body and log. */
    const save = (how: 'update' | 'patch') => async ({ request, params, principal }: { request: Request; params: unknown; principal: ConsoleCaller }) => {
      const p = params as Params
      const caller = admit(principal, p.unitId)
      const body = await jsonBody(request)
      const saved = branch[how](p.unitId, kind, p.id, body, caller.actor)
      deps.log({ level: 'info', msg: `admin: ${kind} saved`, username: caller.user.username, queueUnitId: p.unitId, id: p.id })
      return json(200, saved, noStore)
    }
    return new Elysia({ name: `lobby.admin.branch.${kind}` })
      .use(access)
      .get(collection, async ({ request, params, principal }) => {
        const p = params as Params
        admit(principal, p.unitId)
        return json(200, { data: branch.list(p.unitId, kind) }, noStore)
      }, { ...CONSOLE, detail: docs.list })
      .post(collection, async ({ request, params, principal }) => {
        const p = params as Params
        const caller = admit(principal, p.unitId)
        const body = await jsonBody(request)
        const saved = branch.create(p.unitId, kind, body, caller.actor)
        deps.log({ level: 'info', msg: `admin: ${kind} created`, username: caller.user.username, queueUnitId: p.unitId, id: saved.id })
        return json(201, saved, noStore)
      }, { ...CONSOLE, parse: 'none', detail: docs.create })
      .get(`${collection}/:id`, async ({ request, params, principal }) => {
        const p = params as Params
        admit(principal, p.unitId)
        return json(200, branch.read(p.unitId, kind, p.id), noStore)
      }, { ...CONSOLE, detail: docs.read })
      .put(`${collection}/:id`, save('update'), { ...CONSOLE, parse: 'none', detail: docs.update })
      .patch(`${collection}/:id`, save('patch'), { ...CONSOLE, parse: 'none', detail: docs.patch })
      .delete(`${collection}/:id`, async ({ request, params, query, principal }) => {
        const p = params as Params
        const caller = admit(principal, p.unitId)
        const done = branch.remove(p.unitId, kind, p.id, query.revision, caller.actor)
        deps.log({ level: 'info', msg: `admin: ${kind} ${done.outcome}`, username: caller.user.username, queueUnitId: p.unitId, id: p.id })
        return json(200, done, noStore)
      }, { ...CONSOLE, detail: docs.remove })
  }
}