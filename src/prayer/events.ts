import type { Db } from '../db/open'
import type { Logger } from '../platform/log'
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

export type PrayerMonthListener = (event: PrayerMonthEvent) => void

// Listeners per database, so two apps in one process (tests) never hear each other.
const listenersByDb = new WeakMap<Db, Set<PrayerMonthListener>>()

/**
 * Calls `listener` after every committed new revision of any month stored in `db`, in commit
 * order, in this process. Returns the function that unsubscribes it. Display feeds use it to
 * push updates; a listener that throws is logged and does not affect the push or the others.
 */
export function onPrayerMonth(db: Db, listener: PrayerMonthListener): () => void {
  let listeners = listenersByDb.get(db)
  if (listeners === undefined) {
    listeners = new Set()
    listenersByDb.set(db, listeners)
  }
  const set = listeners
  const subscription: PrayerMonthListener = (event) => listener(event)
  set.add(subscription)
  return () => {
    set.delete(subscription)
  }
}

/** Tells the listeners of `db` about a committed revision. */
export function emitPrayerMonth(db: Db, event: PrayerMonthEvent, log: Logger): void {
  const listeners = listenersByDb.get(db)
  if (listeners === undefined) return
  for (const listener of [...listeners]) {
    try {
      listener(event)
    } catch (error) {
      log({ level: 'error', msg: 'prayer month listener failed', sourceId: event.sourceId, period: event.period, error: String((error as Error)?.stack ?? error) })
    }
  }
}
