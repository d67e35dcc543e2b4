/*
 * Which role sees which section of the console (contract §17), kept apart from the sections'
 * code (no DOM here) so a unit test can read it. The API refuses the same people (403
 * ROLE_FORBIDDEN): staff, keys and webhooks are administrators' only.
 */
export type ConsoleRole = 'admin' | 'manager'

export const SECTION_ROLES = {
  branch: ['admin', 'manager'],
  devices: ['admin', 'manager'],
  staff: ['admin'],
  keys: ['admin'],
  voice: ['admin', 'manager'],
  // Contract §25: gateways, secrets and the SMS bill are the administrators'.
  notifications: ['admin'],
  audit: ['admin', 'manager'],
} as const satisfies Record<string, readonly ConsoleRole[]>

/** The sections' ids in navigation order. */
export const SECTION_ORDER = ['branch', 'devices', 'staff', 'keys', 'voice', 'notifications', 'audit'] as const satisfies readonly (keyof typeof SECTION_ROLES)[]

/** The ids of the sections `role` sees, in navigation order. */
export function sectionsFor(role: ConsoleRole): string[] {
  return SECTION_ORDER.filter((id) => (SECTION_ROLES[id] as readonly ConsoleRole[]).includes(role))
}

/**
 * The audit log's entity types whose entries an administrator alone reads, whatever unit they
 * name (contract §27): webhook endpoints and their deliveries, keys and display tokens, as the
 * Keys and webhooks section is an administrator's. The admin API leaves them out of a manager's
 * read (src/admin/audit-routes.ts); the Audit section does not offer them to a manager.
 */
export const AUDIT_ADMIN_ONLY_TYPES = ['webhook', 'webhook-delivery', 'queueKey', 'workspaceKey', 'displayToken', 'key'] as const

/** Every entity type the audit log names (docs/admin.md "Audit log"), as the Audit section's filter offers them. */
export const AUDIT_ENTITY_TYPES = [
  'workspace', 'queueUnit', 'location', 'service', 'counter', 'widget', 'prayerSource', 'user', 'device', 'voice-clip', ...AUDIT_ADMIN_ONLY_TYPES,
] as const

/** The entity types `role` may filter the audit log by. */
export function auditTypesFor(role: ConsoleRole): string[] {
  return AUDIT_ENTITY_TYPES.filter((type) => role === 'admin' || !(AUDIT_ADMIN_ONLY_TYPES as readonly string[]).includes(type))
}
