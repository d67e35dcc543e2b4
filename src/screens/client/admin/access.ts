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
  audit: ['admin', 'manager'],
} as const satisfies Record<string, readonly ConsoleRole[]>

/** The sections' ids in navigation order. */
export const SECTION_ORDER = ['branch', 'devices', 'staff', 'keys', 'voice', 'audit'] as const satisfies readonly (keyof typeof SECTION_ROLES)[]

/** The ids of the sections `role` sees, in navigation order. */
export function sectionsFor(role: ConsoleRole): string[] {
  return SECTION_ORDER.filter((id) => (SECTION_ROLES[id] as readonly ConsoleRole[]).includes(role))
}
