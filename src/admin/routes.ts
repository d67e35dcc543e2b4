/*
 * The administration console's routes (contract §17): the page, then the API's sections, which
 * the composition root mounts (src/app.ts).
 */
import { Elysia } from 'elysia'
import { branchRoutes } from './branch-routes'
import { auditRoutes } from './audit-routes'
import { adminPageRoutes } from './page'
import { adminDeviceRoutes } from './devices-routes'
import { adminStaffRoutes } from './staff-routes'
import { adminKeyRoutes } from './keys-routes'
import { adminWebhookRoutes } from './webhooks-routes'
import { adminVoiceRoutes } from './voice-routes'
import { adminNotificationRoutes } from './notifications-routes'
import type { NotificationService } from '../notifications'
import type { AdminDeps } from './deps'
import type { PeopleService } from '../people'
import type { DeviceService } from '../devices'
import type { BranchService } from './branch-service'
import type { AdminServices } from '.'

/**
 * Every admin route: the page, then the API's sections (branch, audit log, devices, staff,
 * keys and webhooks, voice clips, notifications), each its own plugin, all asking `access.ts` who the caller is.
 */
export function adminRoutes(deps: AdminDeps, services: { people: PeopleService; branch: BranchService; devices: DeviceService; admin: AdminServices; notifications: NotificationService }) {
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
    .use(adminNotificationRoutes(deps, { people, notifications: services.notifications }))
}
