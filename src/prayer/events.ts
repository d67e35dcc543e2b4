import type { Month } from './model'

/** A new revision of a month was stored (never sent for a replay). */
export interface PrayerMonthEvent {
  sourceId: string
  workspaceId: string
  period: string
  revision: number
  checksum: string
  /** Milliseconds since the Unix epoch. */
  storedAt: number
  dayCount: number
  month: Month
}

/**
 * Told after every committed new revision of any month, in commit order, in this process:
 * subscribed on the app's one registry, `deps.events.prayerMonths` (src/root/deps.ts). Display
 * feeds use it to push updates.
 */
export type PrayerMonthListener = (event: PrayerMonthEvent) => void
