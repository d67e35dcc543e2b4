import type { PlatformDeps } from '../platform/deps'
import type { CommitListeners } from '../platform/listeners'
import type { PrayerMonthEvent } from './events'

/**
 * What the composition root (src/root/) hands the prayer feature: the platform's objects and what it uses of the per-app stores.
 * The root's `AppDeps` satisfies it; the feature names no more than it uses and never imports the root.
 */
export interface PrayerDeps extends PlatformDeps {
  /** The app's events (src/root/deps.ts): a stored month's new revision is told to `prayerMonths`. */
  events: { prayerMonths: CommitListeners<PrayerMonthEvent> }
}
