import type { Db } from '../db/open'
import type { Logger } from './log'

/**
 * In-process "something committed" notifications, one registry per kind of event, with the
 * listeners kept per database so two apps in one process (tests) never hear each other (a
 * registry of subscribers, not a cache: it holds no statements and no data).
 * A listener that throws is logged and affects neither the writer nor the other listeners.
 */
export class CommitListeners<E> {
  private readonly byDb = new WeakMap<Db, Set<(event: E) => void>>()

  constructor(private readonly what: string) {}

  /** Calls `listener` after every committed event of `db`, in commit order. Returns the unsubscribe function. */
  on(db: Db, listener: (event: E) => void): () => void {
    let set = this.byDb.get(db)
    if (set === undefined) this.byDb.set(db, (set = new Set()))
    const subscription = (event: E) => listener(event)
    set.add(subscription)
    return () => {
      set.delete(subscription)
    }
  }

  /**
   * Tells the listeners of `db`. Writers call it only from `WriteBatcher.afterCommit` (see
   * src/platform/write-batch.ts), so a listener never hears of a change before its COMMIT.
   */
  emit(db: Db, event: E, log: Logger): void {
    const set = this.byDb.get(db)
    if (set === undefined) return
    for (const listener of [...set]) {
      try {
        listener(event)
      } catch (error) {
        log({ level: 'error', msg: `${this.what} listener failed`, error: String((error as Error)?.stack ?? error) })
      }
    }
  }
}
