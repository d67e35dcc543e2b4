import type { Logger } from './log'

/**
 * In-process "something committed" notifications, one registry per kind of event, built once per
 * app by the composition root (`deps.events`, src/root/deps.ts) and handed to the feature that
 * emits and to those that listen: two apps in one process (tests) never hear each other, and no
 * module keeps listeners of its own (a registry of subscribers, not a cache: it holds no
 * statements and no data).
 * A listener that throws is logged and affects neither the writer nor the other listeners.
 */
export class CommitListeners<E> {
  private readonly listeners = new Set<(event: E) => void>()

  constructor(private readonly what: string) {}

  /** Calls `listener` after every committed event of this app, in commit order. Returns the unsubscribe function. */
  on(listener: (event: E) => void): () => void {
    const subscription = (event: E) => listener(event)
    this.listeners.add(subscription)
    return () => {
      this.listeners.delete(subscription)
    }
  }

  /**
   * Tells the listeners. Writers call it only from `WriteBatcher.afterCommit` (see
   * src/platform/write-batch.ts), so a listener never hears of a change before its COMMIT.
   */
  emit(event: E, log: Logger): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event)
      } catch (error) {
        log({ level: 'error', msg: `${this.what} listener failed`, error: String((error as Error)?.stack ?? error) })
      }
    }
  }
}
