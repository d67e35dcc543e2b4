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
import { DEFAULT_LIMITS, type Limits } from './limits'
import { ClientAddresses } from './client-address'

/**
 * What the platform gives every feature, injected so tests control time and IDs. It names no
 * feature: the app's services (tickets, widgets, metrics, …) are added by the composition root
 * (`AppDeps` in src/root/deps.ts).
 */
export interface PlatformDeps {
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
  /** Background work the composition root registers; `serve` starts and stops it. */
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
  /**
   * `--public-origin`: the origin browsers use when a proxy rewrites scheme or host; device
   * pages' state-changing requests must come from it. Absent: the request's own origin.
   */
  publicOrigin?: string | null
  /** Bounds on sockets and bodies (docs/reliability.md "Limits"). */
  limits: Limits
  /** Origins allowed to call the public and operator APIs from a browser (contract §15); empty: CORS off. */
  corsOrigins: readonly string[]
  /**
   * `--frame-ancestors`: origins besides this server's own allowed to frame the boards
   * (/screens/…; the signage players); empty: boards are framed by this origin only (contract §27).
   */
  boardFrameAncestors: readonly string[]
}

export type PlatformInput = Pick<PlatformDeps, 'db'> & Partial<Omit<PlatformDeps, 'limits'>> & {
  limits?: Partial<Limits>
  /** How often, at most, `changes` asks SQLite about other processes' changes (default 5 ms; tests pass 0 or a fake clock). */
  changePollMs?: number
  /** The monotonic clock of that poll (tests advance one by hand). */
  changePollClock?: () => number
}

/** The platform's objects; what `input` gives is kept as given (tests inject their own). */
export function createPlatformDeps(input: PlatformInput): PlatformDeps {
  const log = input.log ?? jsonLogger
  const writes = input.writes ?? new WriteBatcher(input.db, (error) => log({ level: 'error', msg: 'after-commit callback failed', error: String((error as Error)?.stack ?? error) }))
  const changes = input.changes ?? new DatabaseChanges(input.db, writes, input.changePollMs ?? DEFAULT_CHANGE_POLL_MS, input.changePollClock)
  const { changePollMs: _pollMs, changePollClock: _pollClock, ...given } = input
  // Each default is built only when not given: `createApp` hands a built set back in (serve
  // builds its deps first), and the stores prepare statements when built.
  return {
    clock: systemClock,
    ids: randomIds,
    log,
    limiter: input.limiter ?? new RollingWindowLimiter(),
    clients: input.clients ?? new ClientAddresses(),
    nonces: input.nonces ?? new InMemoryNonces(),
    credentials: input.credentials ?? new CredentialStore(input.db, changes),
    idempotency: input.idempotency ?? new IdempotencyStore(input.db),
    lifecycle: input.lifecycle ?? new Lifecycle(),
    corsOrigins: [],
    boardFrameAncestors: [],
    writes,
    changes,
    ...given,
    limits: { ...DEFAULT_LIMITS, ...input.limits },
  }
}
