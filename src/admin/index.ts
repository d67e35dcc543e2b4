/*
 * The administration console's door (contract §17): the admin API's plugins, the /admin page,
 * and what the CLI and other features use of it. The root builds `BranchService` once.
 */
import { Elysia } from 'elysia'
import type { AdminDeps } from './deps'
import type { PeopleService } from '../people'
import { branchRoutes } from './branch-routes'
import { auditRoutes } from './audit-routes'
import type { BranchService } from './branch-service'
import type { DeviceService } from '../devices'
import { adminPageRoutes } from './page'
import { adminDeviceRoutes } from './devices-routes'
import { adminStaffRoutes } from './staff-routes'
import { adminKeyRoutes } from './keys-routes'
import { adminWebhookRoutes } from './webhooks-routes'
import { adminVoiceRoutes } from './voice-routes'
import type { AdminDevices } from './devices-service'
import type { AdminKeys } from './keys-service'
import type { AdminStaff } from './staff-service'
import type { AdminVoice } from './voice-service'
import type { AdminWebhooks } from './webhooks-service'

export { ADMIN_API } from './branch-routes'
export { BranchService, revisionOf, relativeDetails, ENTITY_KINDS, type EntityKind } from './branch-service'
export { AdminCodes, type AdminCode } from './errors'
export { requireConsoleCaller, requireAdministrator, assertUnitAccess, type ConsoleCaller } from './access'
export { auditQuery } from './audit-routes'
export { AdminDevices } from './devices-service'
export { AdminKeys } from './keys-service'
export { AdminStaff } from './staff-service'
export { AdminVoice } from './voice-service'
export { AdminWebhooks } from './webhooks-service'

/** The console's sections' services, each built once by the composition root (src/root/services.ts). */
export interface AdminServices {
  devices: AdminDevices
  keys: AdminKeys
  staff: AdminStaff
  voice: AdminVoice
  webhooks: AdminWebhooks
}

/**
 * Every admin route: the page, then the API's sections (branch, audit log, devices, staff,
 * keys and webhooks, voice clips), each its own plugin, all asking `access.ts` who the caller is.
 */
export function adminRoutes(deps: AdminDeps, services: { people: PeopleService; branch: BranchService; devices: DeviceService; admin: AdminServices }) {
  const { people, admin } = services
  return new Elysia({ name: 'lobby.admin' })
    .use(adminPageRoutes(deps, services))
    .use(branchRoutes(deps, services))
    .use(auditRoutes(deps, services))
    .use(adminDeviceRoutes(deps, { people, adminDevices: admin.devices }))
    .use(adminStaffRoutes(deps, { people, adminStaff: admin.staff }))
    .use(adminKeyRoutes(deps, { people, adminKeys: admin.keys }))
    .use(adminWebhookRoutes(deps, { people, adminWebhooks: admin.webhooks }))
    .use(adminVoiceRoutes(deps, { people, adminVoice: admin.voice }))
}
export { devicePairEntry, deviceRevokeEntry } from './devices-service'
