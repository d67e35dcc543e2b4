/*
 * The administration console's door (contract §17): what the CLI and other features use of it.
 * The root builds its services once and mounts its routes from ./routes.ts (`adminRoutes`).
 */
import type { AdminDevices } from './devices-service'
import type { AdminKeys } from './keys-service'
import type { AdminStaff } from './staff-service'
import type { AdminVoice } from './voice-service'
import type { AdminWebhooks } from './webhooks-service'

export { ADMIN_API } from './branch-routes'
export { BranchService, revisionOf, relativeDetails, ENTITY_KINDS, type EntityKind } from './branch-service'
export { AdminCodes, type AdminCode } from './errors'
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

export { devicePairEntry, deviceRevokeEntry } from './devices-service'
