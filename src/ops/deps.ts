import type { PlatformDeps } from '../platform/deps'
import type { MetricsSink } from './metric-hooks'

/**
 * What the composition root (src/root/) hands the ops feature: the platform's objects and what it uses of the per-app stores.
 * The root's `AppDeps` satisfies it; the feature names no more than it uses and never imports the root.
 */
export interface OpsDeps extends PlatformDeps {
  /** What `/metrics` reports, fed by the write path, tickets and webhooks. */
  metrics: MetricsSink
  /** `--metrics-token`: lets callers other than loopback read `/metrics`. */
  metricsToken?: string | null
}
