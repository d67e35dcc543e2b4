import type { Db } from '../db/open'
import type { Logger } from '../platform/log'
import type { Month } from './model'
import { CommitListeners } from '../platform/listeners'

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

export type PrayerMonthListener = (event: PrayerMonthEvent) => void

const prayerMonthListeners = new CommitListeners<PrayerMonthEvent>('prayer month')

/**
 * Calls `listener` after every committed new revision of any month stored in `db`, in commit
 * order, in this process. Returns the function that unsubscribes it. Display feeds use it to
 * push updates.
 */
export function onPrayerMonth(db: Db, listener: PrayerMonthListener): () => void {
  return prayerMonthListeners.on(db, listener)
}

/** Tells the listeners of `db` about a committed revision. */
export function emitPrayerMonth(db: Db, event: PrayerMonthEvent, log: Logger): void {
  prayerMonthListeners.emit(db, event, log)
}
