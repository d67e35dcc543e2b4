import type { PlatformDeps } from '../platform/deps'
import type { WidgetStore } from './store'
import type { CommitListeners } from '../platform/listeners'
import type { WidgetSnapshot } from './model'

/**
 * What the composition root (src/root/) hands the widgets feature: the platform's objects and what it uses of the per-app stores.
 * The root's `AppDeps` satisfies it; the feature names no more than it uses and never imports the root.
 */
export interface WidgetDeps extends PlatformDeps {
  /** The widgets' statements (src/widgets/store.ts). */
  widgets: WidgetStore
  /** The app's events (src/root/deps.ts): an accepted snapshot is told to `widgetSnapshots`. */
  events: { widgetSnapshots: CommitListeners<WidgetSnapshot> }
}
