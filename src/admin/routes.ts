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
import type { AdmissionPlugin } from '../access'
import type { DeviceService } from '../devices'
import type { BranchService } from './branch-service'
import type { AdminServices } from '.'

/**
 * Every admin route: the page, then the API's sections (branch, audit log, devices, staff,
 * keys and webhooks, voice clips, notifications), each its own plugin, each route declaring whom it admits (`admitConsole`, src/access/).
 */
export function adminRoutes(deps: AdminDeps, services: { people: PeopleService; branch: BranchService; devices: DeviceService; admin: AdminServices; notifications: NotificationService; access: AdmissionPlugin }) {
  const { access, admin } = services
  return new Elysia({ name: 'lobby.admin' })
    .use(adminPageRoutes(deps, services))
    .use(branchRoutes(deps, services))
    .use(auditRoutes(deps, services))
    .use(adminDeviceRoutes(deps, { access, adminDevices: admin.devices }))
    .use(adminStaffRoutes(deps, { access, adminStaff: admin.staff }))
    .use(adminKeyRoutes(deps, { access, adminKeys: admin.keys }))
    .use(adminWebhookRoutes(deps, { access, adminWebhooks: admin.webhooks }))
    .use(adminVoiceRoutes(deps, { access, adminVoice: admin.voice }))
    .use(adminNotificationRoutes(deps, { access, notifications: services.notifications }))
}
