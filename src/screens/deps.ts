import type { PlatformDeps } from '../platform/deps'

/**
 * What the composition root (src/root/) hands the screens feature: the platform's objects.
 * The root's `AppDeps` satisfies it; the feature names no more than it uses and never imports the root.
 */
export type ScreenDeps = PlatformDeps
