import type { PlatformDeps } from '../platform/deps'
import type { CommitListeners } from '../platform/listeners'
import type { QueueChange, Tickets } from '../tickets'

/**
 * What the composition root (src/root/) hands a branch's link to head office: the platform's
 * objects, the ticket owner and the app's queue-change events (a change marks the live floor to
 * be sent). The root's `AppDeps` satisfies it; the feature never imports the root.
 */
export interface HqBranchDeps extends PlatformDeps {
  tickets: Tickets
  events: { queueChanges: Pick<CommitListeners<QueueChange>, 'on'> }
}
