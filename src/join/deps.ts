import type { PlatformDeps } from '../platform/deps'
import type { Tickets } from '../tickets'
import type { ConfigurationRead } from '../structure'

/**
 * What the composition root (src/root/) hands the join feature: the platform's objects and what it uses of the per-app stores.
 * The root's `AppDeps` satisfies it; the feature names no more than it uses and never imports the root.
 */
export interface JoinDeps extends PlatformDeps {
  /** The owner of ticket state (src/tickets), built once by the root. */
  tickets: Tickets
  /** The one cached read of the configuration tables (src/structure/configuration.ts). */
  configuration: ConfigurationRead
}
