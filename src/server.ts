import type { Server } from 'bun'
import type { AnyElysia } from 'elysia'
import { openDatabase, type Durability } from './db/open'
import { migrateDatabase } from './db/migrate'
import { DailyClose } from './counters/daily-close'
import { createApp } from './app'
import { createDeps, type AppDeps } from './platform/deps'
import { jsonLogger, type Logger } from './platform/log'
import { WebhookWorker } from './webhooks/worker'

export interface ServeOptions {
  port: number
  host: string
  dbPath: string
  durability: Durability
  tls?: { cert: string; key: string }
  /** `--public-origin`: see AppDeps.publicOrigin. */
  publicOrigin?: string
  log?: Logger
  /** Builds the app from deps; tests pass one that adds routes of their own. */
  buildApp?: (deps: AppDeps) => AnyElysia
}

/**
 * Bun's own limit is only a backstop, far above every route's: Bun refuses a larger declared
 * `Content-Length` with a bare 413 before the app runs, so below it the app answers every
 * oversized body itself, in the envelope (the platform refuses any declared body over 1 MiB,
 * routes their own limits while streaming).
 */
const BACKSTOP_MAX_BODY = 1024 * 1024 * 1024
const PRUNE_EVERY_MS = 10 * 60_000

export interface RunningServer {
  url: string
  deps: AppDeps
  /** Stop accepting, finish in-flight requests, stop background jobs, close the database. */
  stop(): Promise<void>
}

/** Opens and migrates the database, then serves the app until `stop()`. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const log = options.log ?? jsonLogger
  const db = openDatabase(options.dbPath, { durability: options.durability })
  const migration = migrateDatabase(db.$client)
  if (migration.applied.length > 0) log({ level: 'info', msg: 'migrations applied', applied: migration.applied })
  const deps = createDeps({ db, log, publicOrigin: options.publicOrigin ?? null })
  const app = (options.buildApp ?? createApp)(deps)

  deps.idempotency.prune(deps.clock.now())
  const pruneTimer = setInterval(() => deps.idempotency.prune(deps.clock.now()), PRUNE_EVERY_MS)
  const webhookWorker = new WebhookWorker({ db, clock: deps.clock, log })
  deps.lifecycle.register({ start: () => webhookWorker.start(), stop: () => webhookWorker.stop() })
  // The daily close runs with the server (once at start, then on its timer), not when routes are built.
  deps.lifecycle.register(new DailyClose(deps).task())

  app.listen({
    port: options.port,
    hostname: options.host,
    maxRequestBodySize: BACKSTOP_MAX_BODY,
    ...(options.tls ? { tls: { cert: Bun.file(options.tls.cert), key: Bun.file(options.tls.key) } } : {}),
  })
  const server = app.server as Server<unknown>
  deps.lifecycle.start()
  const url = `${options.tls ? 'https' : 'http'}://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${server.port}`
  log({ level: 'info', msg: 'listening', url, db: options.dbPath, durability: options.durability })

  return {
    url,
    deps,
    async stop() {
      clearInterval(pruneTimer)
      // Websockets first: Bun's stop waits for them too, and screens simply reconnect.
      deps.lifecycle.beforeStop()
      // Without `true`, Bun stops accepting and resolves once in-flight requests are done.
      await server.stop()
      await deps.lifecycle.stop()
      db.$client.close()
      log({ level: 'info', msg: 'stopped' })
    },
  }
}
