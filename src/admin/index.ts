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
import { adminDeviceRoutes } from './devices-routes'
import { adminStaffRoutes } from './staff-routes'
import { adminKeyRoutes } from './keys-routes'
import { adminWebhookRoutes } from './webhooks-routes'
import { adminVoiceRoutes } from './voice-routes'
import { adminNotificationRoutes } from './notifications-routes'
import type { NotificationService } from '../notifications'

export { ADMIN_API } from './branch-routes'
export { BranchService, revisionOf, relativeDetails, ENTITY_KINDS, type EntityKind } from './branch-service'
export { AdminCodes, type AdminCode } from './errors'
export { requireConsoleCaller, requireAdministrator, assertUnitAccess, type ConsoleCaller } from './access'
export { auditQuery } from './audit-routes'

/**
 * Every admin route: the page, then the API's sections (branch, audit log, devices, staff,
 * keys and webhooks, voice clips), each its own plugin, all asking `access.ts` who the caller is.
 */
export function adminRoutes(deps: AppDeps, services: { people: PeopleService; branch: BranchService; devices: DeviceService; notifications: NotificationService }) {
  const { people, devices } = services
  return new Elysia({ name: 'lobby.admin' })
    .use(adminPageRoutes(deps, services))
    .use(branchRoutes(deps, services))
    .use(auditRoutes(deps, services))
    .use(adminDeviceRoutes(deps, { devices, people }))
    .use(adminStaffRoutes(deps, { people }))
    .use(adminKeyRoutes(deps, { people }))
    .use(adminWebhookRoutes(deps, { people }))
    .use(adminVoiceRoutes(deps, { people }))
    .use(adminNotificationRoutes(deps, { people, notifications: services.notifications }))
}
