import { Elysia } from 'elysia'
import type { AppDeps } from '../root/deps'
import type { AppServices } from '../root/services'
import { adminDeviceRoutes } from './devices-routes'
import { adminStaffRoutes } from './staff-routes'
import { adminKeyRoutes } from './keys-routes'
import { adminWebhookRoutes } from './webhooks-routes'
import { adminVoiceRoutes } from './voice-routes'

/**
 * The console API's sections beside the branch settings (contract §17): devices, staff, keys
 * and webhooks, voice clips, each its own plugin under `/api/admin/v1`, composed here so the
 * app registers them in one place.
 */
export function adminSectionRoutes(deps: AppDeps, services: Pick<AppServices, 'devices' | 'people'>) {
  return new Elysia({ name: 'lobby.admin.sections' })
    .use(adminDeviceRoutes(deps, { devices: services.devices, people: services.people }))
    .use(adminStaffRoutes(deps, { people: services.people }))
    .use(adminKeyRoutes(deps, { people: services.people }))
    .use(adminWebhookRoutes(deps, { people: services.people }))
    .use(adminVoiceRoutes(deps, { people: services.people }))
}
