/*
 * Who a request may be, as admission hands it to a route (besides a key's `Credential`,
 * src/platform/credentials.ts): a paired device and a signed-in person. Their features own
 * them (src/devices/, src/people/) and re-export these types; they are declared here, below
 * both, so that admission, which every feature's routes use, imports no feature.
 */

export const DEVICE_ROLES = ['desk', 'kiosk', 'display', 'reports'] as const
export type DeviceRole = (typeof DEVICE_ROLES)[number]

/** What a device is bound to; which fields are set depends on the role. */
export interface DeviceBinding {
  workspaceId: string
  queueUnitId: string | null
  locationId: string | null
  counterId: string | null
  services: string[] | null
}

/** A paired device, as a request authenticated by its cookie sees it. */
export interface Device extends DeviceBinding {
  credentialId: string
  name: string
  role: DeviceRole
}

export const USER_ROLES = ['admin', 'manager', 'clerk'] as const
export type UserRole = (typeof USER_ROLES)[number]
export type UserState = 'active' | 'disabled'

export interface User {
  id: string
  username: string
  displayName: string
  role: UserRole
  queueUnits: string[]
  state: UserState
}

/** A signed-in person's session, as the session cookie admits it. */
export interface Session {
  user: User
  sessionId: string
  startedAt: number
}
