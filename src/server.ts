import type { Server } from 'bun'
import type { AnyElysia } from 'elysia'
import { makeOwnerOnly, openDatabase, removeDatabaseFiles, type Durability } from './db/open'
import { migrateDatabase } from './root/migrate'
import { createApp } from './app'
import { createDeps, type AppDeps } from './root/deps'
import { registerServerTasks } from './root/tasks'
import type { FloorSnapshot, ManageService } from './manage'
import { jsonLogger, writeStdoutText, type Logger } from './platform/log'
import { lockDatabase, type DatabaseLock } from './platform/db-lock'
import { bodyBudget } from './platform/body'
import type { Limits } from './platform/limits'
import type { ReplicationTarget } from './replication'
import { ClientAddresses, type Cidr } from './platform/client-address'
import type { PeopleService } from './people'

export interface ServeOptions {
  port: number
  host: string
  dbPath: string
  durability: Durability
  tls?: { cert: string; key: string }
  /** Closed tickets older than this many days are deleted by the daily retention job (default 400). */
  retainDays?: number
  /** Lets callers other than loopback read `/metrics` with this bearer token. */
  metricsToken?: string | null
  /** `--public-origin`: see AppDeps.publicOrigin. */
  publicOrigin?: string
  /** Overrides of the default limits (docs/reliability.md "Limits"). */
  limits?: Partial<Limits>
  /** Origins allowed to call the public and operator APIs from a browser (contract §15). */
  corsOrigins?: readonly string[]
  /** `--frame-ancestors`: origins besides this server's allowed to frame the boards (contract §27). */
  frameAncestors?: readonly string[]
  /** `--trusted-proxy`: requests from these ranges are attributed by `X-Forwarded-For` (contract §23). */
  trustedProxies?: readonly Cidr[]
  /** `--replicate-to`: copy tickets, their events and the roll-ups to this head-office PostgreSQL (contract §14). */
  replicateTo?: ReplicationTarget
  /** `--hq` (or the replication connection): follow head office's profiles and tell it the floor (contract §26). */
  hq?: ReplicationTarget
  log?: Logger
  /** How long `stop()` waits for in-flight requests before closing them (default STOP_GRACE_MS). */
  stopGraceMs?: number
  /**
   * Where the first administrator's setup link is printed (contract §24; default: stdout, a
   * plain line, never the structured log, which may be shipped elsewhere).
   */
  announce?: (text: string) => void
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
/**
 * How long stopping waits for in-flight requests before closing their connections (contract
 * §23: SIGTERM ends the process within 2 seconds). Phone polls are answered and websockets
 * closed at once (`beforeStop`), so only a request still working after this is cut.
 */
export const STOP_GRACE_MS = 1_500

/**
 * TLS 1.2 cipher suites: forward-secret (ECDHE) with an AEAD only, the modern list of
 * docs/decisions.md. TLS 1.3 suites are all forward-secret and stay as Bun gives them.
 */
export const TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':')

/** A server that could not start: the database is served already, or the port is taken. One line, exit 2. */
export class ServeError extends Error {}

/** The URL to reach a server bound to `host`: a wildcard address is reached on loopback from this machine. */
function urlFor(scheme: string, host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host
  return `${scheme}://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`
}

export interface RunningServer {
  /** Where this machine reaches the server (loopback for a wildcard address). */
  url: string
  deps: AppDeps
  /** Stop accepting, finish in-flight requests, stop background jobs, close the database. */
  stop(): Promise<void>
}

/**
 * Checks the port, locks the database, opens and migrates it, then serves the app until
 * `stop()`. The order matters: a port in use is refused before the database is created or
 * migrated, and a database this start created is removed again when the start fails.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const log = options.log ?? jsonLogger
  probePort(options)
  // Before the database is even opened (and perhaps migrated): one server per database.
  let lock: DatabaseLock
  try {
    lock = lockDatabase(options.dbPath)
  } catch (error) {
    throw new ServeError((error as Error).message)
  }
  let db: ReturnType<typeof openDatabase> | undefined
  try {
    for (const change of makeOwnerOnly(options.dbPath)) {
      if (change.error === undefined) log({ level: 'info', msg: 'database made owner-only', path: change.path, was: change.was, now: '0600' })
      else log({ level: 'warn', msg: 'database could not be made owner-only', path: change.path, mode: change.was, error: change.error })
    }
    db = openDatabase(options.dbPath, { durability: options.durability })
    return await serveOn(db, lock, options, log)
  } catch (error) {
    db?.$client.close()
    if (lock.created) removeDatabaseFiles(options.dbPath)
    lock.release()
    throw error
  }
}

/**
 * Contract §24: while no administrator can sign in, every start prints a fresh single-use
 * setup link for a first one (24 hours). The log says that it did, never the link.
 */
/** The live floor of a unit, from the app's manage service (contract §22): what head office's live view is told. */
function floorOf(app: AnyElysia): (queueUnitId: string) => FloorSnapshot | null {
  const manage = (app.decorator as { manage?: ManageService }).manage
  return (queueUnitId) => manage?.floor.state(queueUnitId)?.snapshot ?? null
}

function announceFirstAdmin(app: AnyElysia, now: number, origin: string, announce: (text: string) => void, log: Logger): void {
  const people = (app.decorator as { people?: PeopleService }).people
  if (people === undefined) return
  const link = people.firstAdminSetup(now)
  if (link === null) return
  announce(`\nLobby has no administrator yet. Open this link within 24 hours to set one up (username "${link.username}"):\n\n  ${origin}${link.setupPath}\n\nIt works once; a new one is printed at each start until an administrator has a password.\n\n`)
  log({ level: 'info', msg: 'first administrator: setup link printed on stdout', username: link.username, expiresAt: link.expiresAt })
}

/** The one-line error of a listen that failed, or null for any other failure. */
function listenError(error: unknown, options: Pick<ServeOptions, 'port' | 'host'>): ServeError | null {
  const code = (error as NodeJS.ErrnoException)?.code
  if (code === 'EADDRINUSE') return new ServeError(`port ${options.port} on ${options.host} is already in use; choose another --port or stop what listens there`)
  if (code === 'EACCES') return new ServeError(`not allowed to listen on port ${options.port} on ${options.host}`)
  return null
}

/**
 * Binds the port for a moment and lets it go: a port in use (or not allowed) is refused before
 * anything touches the database. The real listen still reports a port taken in between.
 */
function probePort(options: Pick<ServeOptions, 'port' | 'host'>): void {
  if (options.port === 0) return
  try {
    Bun.listen({ hostname: options.host, port: options.port, socket: { data() {} } }).stop(true)
  } catch (error) {
    throw listenError(error, options) ?? error
  }
}

async function serveOn(db: ReturnType<typeof openDatabase>, lock: DatabaseLock, options: ServeOptions, log: Logger): Promise<RunningServer> {
  const migration = migrateDatabase(db.$client, { log })
  if (migration.applied.length > 0) log({ level: 'info', msg: 'migrations applied', applied: migration.applied })
  const deps = createDeps({
    db,
    log,
    metricsToken: options.metricsToken ?? null,
    publicOrigin: options.publicOrigin ?? null,
    ...(options.limits ? { limits: options.limits } : {}),
    corsOrigins: options.corsOrigins ?? [],
    boardFrameAncestors: options.frameAncestors ?? [],
    clients: new ClientAddresses(options.trustedProxies ?? []),
  })
  bodyBudget.limit = deps.limits.bodyBytesInFlight
  const app = (options.buildApp ?? createApp)(deps)
  // Registered before the server listens (the replicator's module is loaded only when
  // replicating): nothing may wait between listening and starting the background tasks (the
  // daily close catches up before the first request).
  await registerServerTasks(deps, {
    ...(options.retainDays !== undefined ? { retainDays: options.retainDays } : {}),
    ...(options.replicateTo !== undefined ? { replicateTo: options.replicateTo } : {}),
    ...(options.hq !== undefined ? { hq: options.hq, floor: floorOf(app) } : {}),
  })

  try {
    app.listen({
      port: options.port,
      hostname: options.host,
      // Elysia asks for SO_REUSEPORT by default: a second server on the same port would then
      // share it silently. Off: a port in use is an error.
      reusePort: false,
      maxRequestBodySize: BACKSTOP_MAX_BODY,
      // Bun reads a whole websocket message before the app sees it: bound it here (1009 beyond).
      websocket: { maxPayloadLength: deps.limits.socketMessageBytes },
      ...(options.tls ? { tls: { cert: Bun.file(options.tls.cert), key: Bun.file(options.tls.key), ciphers: TLS12_CIPHERS } } : {}),
    })
  } catch (error) {
    throw listenError(error, options) ?? error
  }
  const server = app.server as Server<unknown>

  deps.lifecycle.start()
  const scheme = options.tls ? 'https' : 'http'
  const port = server.port ?? options.port
  const url = urlFor(scheme, options.host, port)
  const wildcard = options.host === '0.0.0.0' || options.host === '::'
  // The log names the address actually bound; a wildcard says so, with the local URL beside it.
  log({
    level: 'info',
    msg: 'listening',
    url: wildcard ? `${scheme}://${options.host === '::' ? '[::]' : options.host}:${port}` : url,
    ...(wildcard ? { on: 'every network interface', localUrl: url } : {}),
    db: options.dbPath,
    durability: options.durability,
    ...(options.replicateTo ? { replicateTo: options.replicateTo.display } : {}),
    ...(options.hq ? { hq: options.hq.display } : {}),
  })

  announceFirstAdmin(app, deps.clock.now(), options.publicOrigin ?? url, options.announce ?? writeStdoutText, log)

  return {
    url,
    deps,
    async stop() {
      // Websockets first: Bun's stop waits for them too, and screens simply reconnect.
      deps.lifecycle.beforeStop()
      // Without `true`, Bun stops accepting and resolves once in-flight requests are done;
      // past the grace, what is still open is closed (the process must end within 2 s).
      const graceMs = options.stopGraceMs ?? STOP_GRACE_MS
      let graceTimer: ReturnType<typeof setTimeout> | undefined
      const graceful = server.stop().then(() => true)
      const inTime = await Promise.race([graceful, new Promise<false>((resolve) => (graceTimer = setTimeout(() => resolve(false), graceMs)))])
      clearTimeout(graceTimer)
      if (!inTime) {
        log({ level: 'warn', msg: 'requests still open at shutdown were closed', graceMs })
        await server.stop(true)
      }
      // Elysia runs each request's after-response hooks (the access log line) on a later turn
      // than its answer: let the last ones run before the process ends.
      await new Promise<void>((resolve) => setImmediate(resolve))
      await deps.lifecycle.stop()
      db.$client.close()
      lock.release()
      log({ level: 'info', msg: 'stopped' })
    },
  }
}
