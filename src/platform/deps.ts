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
import { DEFAULT_LIMITS, type Limits } from './limits'

/** Everything a feature needs from outside itself, injected so tests control time and IDs. */
export interface AppDeps {
  db: Db
  clock: Clock
  ids: IdGenerator
  log: Logger
  limiter: RateLimiter
  nonces: NonceMemory
  credentials: CredentialStore
  idempotency: IdempotencyStore
  /** Background work features register; `serve` starts and stops it. */
  lifecycle: Lifecycle
  /** Group commit: request writes that arrive together share one transaction and one fsync. */
  writes: WriteBatcher
  /** Bounds on sockets and bodies (docs/reliability.md "Limits"). */
  limits: Limits
}

export type DepsInput = Pick<AppDeps, 'db'> & Partial<Omit<AppDeps, 'limits'>> & { limits?: Partial<Limits> }

export function createDeps(input: DepsInput): AppDeps {
  const log = input.log ?? jsonLogger
  return {
    clock: systemClock,
    ids: randomIds,
    log,
    limiter: new RollingWindowLimiter(),
    nonces: new InMemoryNonces(),
    credentials: new CredentialStore(input.db),
    idempotency: new IdempotencyStore(input.db),
    lifecycle: new Lifecycle(),
    writes: new WriteBatcher(input.db, (error) => log({ level: 'error', msg: 'after-commit callback failed', error: String((error as Error)?.stack ?? error) })),
    ...input,
    limits: { ...DEFAULT_LIMITS, ...input.limits },
  }
}
