import type { PlatformDeps } from '../platform/deps'
import type { Tickets } from '../tickets'
import type { Credential } from '../platform/credentials'

/**
 * What the composition root (src/root/) hands the devices feature: the platform's objects and what it uses of the per-app stores.
 * The root's `AppDeps` satisfies it; the feature names no more than it uses and never imports the root.
 */
export interface DeviceDeps extends PlatformDeps {
  /**
   * What the desk's admission reads of the clerks' sign-ins: the root's `StaffIntervals`
   * (src/people/staff.ts), named here by what is used, as people uses this feature.
   */
  staff: { deskClerk(queueUnitId: string, counterId: string): { required: boolean; clerk: Credential['clerk'] } }
  /** The owner of ticket state (src/tickets), built once by the root. */
  tickets: Tickets
}
