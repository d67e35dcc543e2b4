/*
 * The provisioned structure's door: the configuration tables (workspaces and their credentials,
 * queue units, locations, services, counters), the one cached configuration read over them
 * (`ConfigurationRead`), the opening-hours rules, and key minting. It sits
 * below tickets and every feature that reads the structure (docs/architecture.md), and imports
 * only platform. Nothing else of src/structure/ is imported from outside
 * (test/platform/imports.test.ts); src/schema.ts gathers its tables for drizzle-kit.
 */
export { counterServices, counters } from './counters'
export { credentials, workspaces } from './credentials'
export { CREDENTIAL_KINDS, KeyNotFoundError, NO_PROPERTIES, insertCredential, listKeys, revokeKey, rotateKey, type KeyProperties } from './keys'
export { MAX_LAST_TICKET_MINUTES, closedDatesErrors, locationHoursOf, openStateAt, openWindowsOn, serviceHoursOf, weeklyHoursErrors, type OpenState, type LocationHours, type WeeklyHours } from './opening-hours'
export { DEFAULT_APPROACHING_AHEAD, DEFAULT_BREAK_REASONS, DEFAULT_NO_SHOW_GRACE_MINUTES, DEFAULT_REMOTE_JOIN_PER_ADDRESS, DEFAULT_SERVICE_SECONDS, DEFAULT_WAIT_TARGET_SECONDS, locations, queueUnits, serviceLocations, services, storedRemoteJoin } from './tables'
export { breakReasonId, breakReasonsOf, breakReasonName, type BreakReason, type BreakReasonItem } from './break-reasons'
export { ConfigurationRead, type CounterConfiguration, type LocationConfiguration, type ServiceConfiguration, type UnitConfiguration } from './configuration'
