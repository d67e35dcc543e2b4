/*
 * The administration console's door (contract §17): the admin API's plugins, the /admin page,
 * and what the CLI and other features use of it. The root builds `BranchService` once.
 */
import { Elysia } from 'elysia'
import type { AppDeps } from '../root/deps'
import type { PeopleService } from '../people'
import { branchRoutes } from './branch-routes'
import { auditRoutes } from './audit-routes'
import type { BranchService } from './branch-service'
import type { DeviceService } from '../devices/service'
import { adminPageRoutes } from './page'

export { ADMIN_API } from './branch-routes'
export { BranchService, revisionOf, relativeDetails, ENTITY_KINDS, type EntityKind } from './branch-service'
export { AdminCodes, type AdminCode } from './errors'
export { requireConsoleCaller, requireAdministrator, assertUnitAccess, type ConsoleCaller } from './access'
export { auditQuery } from './audit-routes'

/** Every admin route: the page, the Branch section and the audit log (other sections plug in here). */
export function adminRoutes(deps: AppDeps, services: { people: PeopleService; branch: BranchService; devices: DeviceService }) {
  return new Elysia({ name: 'lobby.admin' })
    .use(adminPageRoutes(deps, services))
    .use(branchRoutes(deps, services))
    .use(auditRoutes(deps, services))
}
