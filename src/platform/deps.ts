import type { Db } from '../db/open'
import { systemClock, type Clock } from './clock'
import { randomIds, type IdGenerator } from './ids'
import { jsonLogger, type Logger } from './log'
import { RollingWindowLimiter, type RateLimiter } from './rate-limit'
import { InMemoryNonces, type NonceMemory } from './nonces'
import { CredentialStore } from './credentials'
import { IdempotencyStore } from './idempotency'
import { Lifecycle } from './lifecycle'
import { WriteBatcher } from './write-batch'
import { DatabaseChanges, DEFAULT_CHANGE_POLL_MS } from './db-changes'
import { MetricsSink } from '../ops/metric-hooks'
import { Tickets } from '../tickets/service'
import { WidgetStore } from '../widgets/store'
import { DEFAULT_LIMITS, type Limits } from './limits'
import { ClientAddresses } from './client-address'

/** Everything a feature needs from outside itself, injected so tests control time and IDs. */
export interface AppDeps {
  db: Db
  clock: Clock
  ids: IdGenerator
  log: Logger
  limiter: RateLimiter
  /** Who is calling: the peer, or behind a `--trusted-proxy` the forwarded client (contract §23). */
  clients: ClientAddresses
  nonces: NonceMemory
  credentials: CredentialStore
  idempotency: IdempotencyStore
  /** Background work features register; `serve` starts and stops it. */
  lifecycle: Lifecycle
  /**
   * The one way to write (docs/architecture.md): `run` (group commit: request writes that arrive
   * together share one transaction and one fsync) or `now` (background work); `afterCommit`
   * tells listeners once the write committed.
   */
  writes: WriteBatcher
  /**
   * Moves whenever the database may have changed (a write of this process at once, another
   * process's within `changePollMs`): what in-memory copies of it (keys, the queue read model)
   * compare to know they are stale.
   */
  changes: DatabaseChanges
  /** The owner of ticket state (tickets, their history, calls, live counts); built once per app. */
  tickets: Tickets
  /** The widget feature's statements (push and snapshot reads); built once per app. */
  widgets: WidgetStore
  /** What `/metrics` reports (src/ops): one per app, fed by the write path, tickets and webhooks. */
  metrics: MetricsSink
  /** `--metrics-token`: lets callers other than loopback read `/metrics` (src/ops). */
  metricsToken?: string | null
  /**
   * `--public-origin`: the origin browsers use when a proxy rewrites scheme or host; device
   * pages' state-changing requests must come from it. Absent: the request's own origin.
   */
  publicOrigin?: string | null
  /** Bounds on sockets and bodies (docs/reliability.md "Limits"). */
  limits: Limits
  /** Origins allowed to call the public and operator APIs from a browser (contract §15); empty: CORS off. */
  corsOrigins: readonly string[]
  /** Contract §10: makes a new ticket's tracking code at `now` (absent: its minute and 100 random bits); tests inject their own. */
  trackingCodes?: (now: number) => string
}

export type DepsInput = Pick<AppDeps, 'db'> & Partial<Omit<AppDeps, 'limits'>> & {
  limits?: Partial<Limits>
  /** How often, at most, `changes` asks SQLite about other processes' changes (default 5 ms; tests pass 0 or a fake clock). */
  changePollMs?: number
  /** The monotonic clock of that poll (tests advance one by hand). */
  changePollClock?: () => number
}

export function createDeps(input: DepsInput): AppDeps {
  const log = input.log ?? jsonLogger
  const metrics = input.metrics ?? new MetricsSink(input.db)
  const writes = input.writes ?? new WriteBatcher(input.db, (error) => log({ level: 'error', msg: 'after-commit callback failed', error: String((error as Error)?.stack ?? error) }))
  const changes = input.changes ?? new DatabaseChanges(input.db, writes, input.changePollMs ?? DEFAULT_CHANGE_POLL_MS, input.changePollClock)
  const { changePollMs: _pollMs, changePollClock: _pollClock, ...given } = input
  const deps: Omit<AppDeps, 'tickets' | 'widgets'> & Partial<Pick<AppDeps, 'tickets' | 'widgets'>> = {
    metrics,
    clock: systemClock,
    ids: randomIds,
    log,
    limiter: new RollingWindowLimiter(),
    clients: new ClientAddresses(),
    nonces: new InMemoryNonces(),
    credentials: new CredentialStore(input.db, changes),
    idempotency: new IdempotencyStore(input.db),
    lifecycle: new Lifecycle(),
    corsOrigins: [],
    writes,
    changes,
    ...given,
    limits: { ...DEFAULT_LIMITS, ...input.limits },
  }
  return { ...deps, tickets: deps.tickets ?? new Tickets({ ...deps, onEvent: (type) => metrics.ticketEvent(type.slice('ticket.'.length)) }), widgets: deps.widgets ?? new WidgetStore(input.db) }
}
