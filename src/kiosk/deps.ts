import type { PlatformDeps } from '../platform/deps'
import type { StaffIntervals } from '../people'
import type { Tickets } from '../tickets'
import type { ConfigurationRead } from '../structure'

/**
 * What the composition root (src/root/) hands the kiosk feature: the platform's objects and what it uses of the per-app stores.
 * The root's `AppDeps` satisfies it; the feature names no more than it uses and never imports the root.
 */
export interface KioskDeps extends PlatformDeps {
  /** The owner of ticket state (src/tickets), built once by the root. */
  tickets: Tickets
  /** The clerks' time at the desk (src/people/staff.ts). */
  staff: StaffIntervals
  /** The one cached read of the configuration tables (src/structure/configuration.ts). */
  configuration: ConfigurationRead
}
