import type { PlatformDeps } from '../platform/deps'
import type { Tickets } from '../tickets'
import type { StaffIntervals } from '../people'

/**
 * What the composition root (src/root/) hands the reports feature: the platform's objects and what it uses of the per-app stores.
 * The root's `AppDeps` satisfies it; the feature names no more than it uses and never imports the root.
 */
export interface ReportDeps extends PlatformDeps {
  /** The clerks' time at the desk (src/people/staff.ts). */
  staff: StaffIntervals
  /** The owner of ticket state (src/tickets), built once by the root. */
  tickets: Tickets
}
