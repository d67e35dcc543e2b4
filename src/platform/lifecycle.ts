/** Something a feature runs beside the HTTP server: timers, workers, open connections. */
export interface BackgroundTask {
  /** Called once the server listens, before it answers its first request. */
  start?(): void
  /**
   * Called `SETTLE_MS` after `start`, off the first requests' path (cold start): a first run
   * that need not come before serving (a look that a timer repeats anyway). Not called when
   * stopping began first.
   */
  startSettled?(): void
  /** Called when shutdown begins, before the server waits for in-flight work (e.g. close websockets, which Bun would otherwise wait for). */
  beforeStop?(): void
  /** Called after the server stopped accepting and finished in-flight requests. */
  stop?(): Promise<void> | void
}

/**
 * How long after `start` the tasks' `startSettled` run: past the first requests a client makes
 * once the port answers (a board's reload, a health check), short beside every timer's period.
 */
export const SETTLE_MS = 250

/**
 * Features register their background work here instead of starting timers on import, so an
 * app driven by `app.handle()` in a test runs none of it, and `serve` starts and stops it all.
 */
export class Lifecycle {
  private readonly tasks: BackgroundTask[] = []
  private settleTimer: ReturnType<typeof setTimeout> | undefined

  register(task: BackgroundTask): void {
    this.tasks.push(task)
  }

  start(settleMs: number = SETTLE_MS): void {
    for (const task of this.tasks) task.start?.()
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined
      for (const task of this.tasks) task.startSettled?.()
    }, settleMs)
  }

  beforeStop(): void {
    clearTimeout(this.settleTimer)
    this.settleTimer = undefined
    for (const task of this.tasks) task.beforeStop?.()
  }

  async stop(): Promise<void> {
    for (const task of [...this.tasks].reverse()) await task.stop?.()
  }
}
