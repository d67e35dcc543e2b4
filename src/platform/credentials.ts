import type { Db } from '../db/open'
import { ApiError, CommonCodes } from './errors'

export type CredentialKind = 'workspace' | 'queue' | 'display' | 'webhook' | 'device'

export const SECRET_PREFIX: Record<CredentialKind, string> = {
  workspace: 'lbw_',
  queue: 'lbq_',
  display: 'lbd_',
  webhook: 'lbh_',
  device: 'lbv_',
}

/** What a route learns about the caller once a secret is found and valid. */
export interface Credential {
  id: string
  kind: CredentialKind
  ownerId: string
  name: string
  scopes: string[] | null
  locations: string[] | null
  services: string[] | null
  issuePerMinute: number | null
  readPerMinute: number | null
  /**
   * The counters the caller may operate; absent or null = any counter its locations and
   * services allow. Set for a paired desk (contract §7: bound to one counter).
   */
  counters?: string[] | null
  /**
   * The clerk signed in at this desk (contract §16), or absent: what the desk does is theirs
   * (`actorOf`, src/platform/actor.ts), and a unit with `deskSignIn: required` refuses a desk
   * without one.
   */
  clerk?: { userId: string; username: string; displayName: string } | null
}

/**
 * API keys and display tokens are stored and found only by this hash. Bun's native hasher, not
 * node:crypto, whose import costs ~11 ms at every start.
 */
export function hashSecret(secret: string): string {
  return new Bun.CryptoHasher('sha256').update(secret).digest('hex')
}

/**
 * Which secret the request presents. `Authorization: Bearer <secret>` always; the
 * `x-service-api-key` header only where the route allows it (workspace routes). Sending both
 * is 400 MULTIPLE_CREDENTIALS. Returns null when none is presented.
 */
export function presentedSecret(request: Request, options: { allowApiKeyHeader: boolean }): string | null {
  const authorization = request.headers.get('authorization')
  const apiKeyHeader = options.allowApiKeyHeader ? request.headers.get('x-service-api-key') : null
  if (authorization !== null && apiKeyHeader !== null) {
    throw new ApiError(400, CommonCodes.MULTIPLE_CREDENTIALS, 'send the key in Authorization or x-service-api-key, not both')
  }
  // Two x-service-api-key headers arrive joined by ", " as well (a key has no comma).
  if (apiKeyHeader !== null && apiKeyHeader.includes(',')) {
    throw new ApiError(400, CommonCodes.MULTIPLE_CREDENTIALS, 'send one x-service-api-key header with one key')
  }
  if (apiKeyHeader !== null) return apiKeyHeader.trim() || null
  if (authorization === null) return null
  // Two Authorization headers reach us joined by ", " (a bearer token has no comma). The
  // workspace routes (contract §4, §5) name that MULTIPLE_CREDENTIALS; elsewhere it is no valid key.
  if (options.allowApiKeyHeader && authorization.includes(',')) {
    throw new ApiError(400, CommonCodes.MULTIPLE_CREDENTIALS, 'send one Authorization header with one key')
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
  return match ? match[1]! : null
}

/** The columns `authenticate` reads. */
interface CredentialRow {
  id: string
  kind: CredentialKind
  ownerId: string
  name: string
  scopes: string | null
  locations: string | null
  services: string | null
  issuePerMinute: number | null
  readPerMinute: number | null
  lastUsedAt: number | null
  revokedAt: number | null
  expiresAt: number | null
}

/** `last used` is written at most this often per credential, so a busy key costs no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000

/** At most this many secrets are remembered; past it the cache starts again empty (a key costs one lookup then). */
const MAX_CACHED_SECRETS = 10_000

/** A found credential as remembered: the row's checks and the `Credential` handed to routes, built once. */
interface CachedCredential {
  kind: CredentialKind
  revokedAt: number | null
  expiresAt: number | null
  lastUsedAt: number | null
  credential: Credential
}

/** What `authenticate` needs to know whether its cache is still the database (src/platform/db-changes.ts). */
export interface ChangeGeneration {
  current(): number
}

/**
 * Finds credentials by the hash of their secret and remembers them, by secret, until the
 * database changes: `changes.current()` moves after every write of this process and, within
 * a few milliseconds (`DEFAULT_CHANGE_POLL_MS`), after a change by another process (keys
 * rotated or revoked by the CLI), and the whole cache is dropped then. So a busy key costs a
 * map lookup per request instead of a SHA-256 and a statement, and a revoked key stops working
 * within that bound. Unknown secrets are not remembered (a caller trying keys cannot fill the
 * cache); expiry is checked on every request against the clock.
 */
export class CredentialStore {
  private readonly byHash
  private readonly touch
  private readonly cache = new Map<string, CachedCredential>()
  private cachedAt = -1

  constructor(private readonly db: Db, private readonly changes: ChangeGeneration = { current: () => Number.NaN }) {
    // Raw, not drizzle: mapping the row through drizzle's column objects cost more than the
    // lookup itself on every authenticated request.
    this.byHash = db.$client.query<CredentialRow, [string]>(`
      SELECT id, kind, owner_id AS ownerId, name, scopes, locations, services,
        issue_per_minute AS issuePerMinute, read_per_minute AS readPerMinute,
        last_used_at AS lastUsedAt, revoked_at AS revokedAt, expires_at AS expiresAt
      FROM credentials WHERE secret_hash = ?1`)
    // The provisioning feature's `credentials` table, by name: platform imports no feature.
    this.touch = db.$client.query<never, { id: string; now: number }>('UPDATE credentials SET last_used_at = $now WHERE id = $id')
  }

  /** The valid credential of `kind` with this secret, or null (unknown, revoked, expired, other kind). */
  authenticate(secret: string | null, kind: CredentialKind, now: number): Credential | null {
    if (secret === null || !secret.startsWith(SECRET_PREFIX[kind])) return null
    const found = this.find(secret)
    if (found === null || found.kind !== kind) return null
    if (found.revokedAt !== null) return null
    if (found.expiresAt !== null && found.expiresAt <= now) return null
    if (found.lastUsedAt === null || now - found.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
      found.lastUsedAt = now
      this.recordUse(found.credential.id, now)
    }
    return found.credential
  }

  /** The remembered row of `secret`, or the database's (then remembered); null when no credential has it. */
  private find(secret: string): CachedCredential | null {
    const generation = this.changes.current()
    if (generation !== this.cachedAt) {
      this.cache.clear()
      this.cachedAt = generation
    }
    const cached = this.cache.get(secret)
    if (cached !== undefined) return cached
    const row = this.byHash.get(hashSecret(secret))
    if (row === null) return null
    const entry: CachedCredential = {
      kind: row.kind,
      revokedAt: row.revokedAt,
      expiresAt: row.expiresAt,
      lastUsedAt: row.lastUsedAt,
      credential: Object.freeze({
        id: row.id,
        kind: row.kind,
        ownerId: row.ownerId,
        name: row.name,
        scopes: parseList(row.scopes),
        locations: parseList(row.locations),
        services: parseList(row.services),
        issuePerMinute: row.issuePerMinute,
        readPerMinute: row.readPerMinute,
      }),
    }
    // A generation of NaN (no change tracker) never equals itself: nothing is kept.
    if (generation === generation) {
      if (this.cache.size >= MAX_CACHED_SECRETS) this.cache.clear()
      this.cache.set(secret, entry)
    }
    return entry
  }

  /**
   * Writes `last used`. Inside a caller's read transaction (`inReadTransaction`) the write
   * waits until that transaction ended, so it never has to upgrade the caller's snapshot; it
   * is best effort there: a write that fails (busy database) is tried again by the next request,
   * since `last used` is still old.
   */
  private recordUse(id: string, now: number): void {
    if (!this.db.$client.inTransaction) {
      this.touch.run({ id, now })
      return
    }
    queueMicrotask(() => {
      try {
        this.touch.run({ id, now })
      } catch {}
    })
  }
}

function parseList(json: string | null): string[] | null {
  return json === null ? null : (JSON.parse(json) as string[])
}
