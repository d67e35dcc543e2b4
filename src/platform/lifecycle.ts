/** Something a feature runs beside the HTTP server: timers, workers, open connections. */
export interface BackgroundTask {
  /** Called once the server listens. */
  start?(): void
  /** Called when shutdown begins, before the server waits for in-flight work (e.g. close websockets, which Bun would otherwise wait for). */
  beforeStop?(): void
  /** Called after the server stopped accepting and finished in-flight requests. */
  stop?(): Promise<void> | void
}

/**
 * Features register their background work here instead of starting timers on import, so an
 * app driven by `app.handle()` in a test runs none of it, and `serve` starts and stops it all.
 */
export class Lifecycle {
  private readonly tasks: BackgroundTask[] = []

  register(task: BackgroundTask): void {
    this.tasks.push(task)
  }

  start(): void {
    for (const task of this.tasks) task.start?.()
  }

  beforeStop(): void {
    for (const task of this.tasks) task.beforeStop?.()
  }

  async stop(): Promise<void> {
    for (const task of [...this.tasks].reverse()) await task.stop?.()
  }
}
