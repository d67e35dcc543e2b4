import type { PlatformDeps } from '../platform/deps'
import type { Tickets } from '../tickets'
import type { MetricsSink } from '../ops'

/**
 * What the composition root (src/root/) hands the notifications feature: the platform's objects,
 * the ticket owner (a message's ticket is read through `Tickets.byId`) and the metrics sink
 * (`lobby_notifications_total`). The root's `AppDeps` satisfies it.
 */
export interface NotificationsDeps extends PlatformDeps {
  tickets: Tickets
  metrics: MetricsSink
}
