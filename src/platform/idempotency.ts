import { codePointLength } from './validation'
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/open'
import { idempotencyRecords } from './tables'

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000

export interface StoredResponse {
  requestHash: string
  status: number
  body: string
  headers: Record<string, string>
}

/** Bun's native hasher, not node:crypto, whose import costs ~11 ms at every start. */
export function sha256Hex(data: Uint8Array | string): string {
  return new Bun.CryptoHasher('sha256').update(data).digest('hex')
}

/**
 * Idempotency records in SQLite (they must survive a restart), for successful responses only.
 * `find` ignores expired rows; `prune` deletes them (the server runs it periodically).
 * `save` is meant to run inside the caller's write transaction, so the effect and its record
 * commit together.
 */
export class IdempotencyStore {
  private readonly findStmt
  private readonly saveStmt

  constructor(private readonly db: Db) {
    this.findStmt = db
      .select()
      .from(idempotencyRecords)
      .where(
        and(
          eq(idempotencyRecords.scope, sql.placeholder('scope')),
          eq(idempotencyRecords.key, sql.placeholder('key')),
        ),
      )
      .prepare()
    this.saveStmt = db
      .insert(idempotencyRecords)
      .values({
        scope: sql.placeholder('scope'),
        key: sql.placeholder('key'),
        requestHash: sql.placeholder('requestHash'),
        status: sql.placeholder('status'),
        body: sql.placeholder('body'),
        headers: sql.placeholder('headers'),
        createdAt: sql.placeholder('now'),
        expiresAt: sql.placeholder('expiresAt'),
      })
      .onConflictDoUpdate({
        // Only an expired record can be in the way: a live one was found first.
        target: [idempotencyRecords.scope, idempotencyRecords.key],
        set: {
          requestHash: sql`excluded.request_hash`,
          status: sql`excluded.status`,
          body: sql`excluded.body`,
          headers: sql`excluded.headers`,
          createdAt: sql`excluded.created_at`,
          expiresAt: sql`excluded.expires_at`,
        },
      })
      .prepare()
  }

  find(scope: string, key: string, now: number): StoredResponse | null {
    const row = this.findStmt.get({ scope, key })
    if (row === undefined || row.expiresAt <= now) return null
    return {
      requestHash: row.requestHash,
      status: row.status,
      body: row.body,
      headers: row.headers === null ? {} : (JSON.parse(row.headers) as Record<string, string>),
    }
  }

  save(scope: string, key: string, response: StoredResponse, now: number): void {
    this.saveStmt.run({
      scope,
      key,
      requestHash: response.requestHash,
      status: response.status,
      body: response.body,
      headers: JSON.stringify(response.headers),
      now,
      expiresAt: now + IDEMPOTENCY_TTL_MS,
    })
  }

  prune(now: number): number {
    return this.db.$client.query('DELETE FROM idempotency_records WHERE expires_at <= ?').run(now).changes
  }
}

/**
 * How one API reads `Idempotency-Key` (docs/api-differences.md: the APIs differ, by contract).
 * `required`: a missing key is a problem; `min`/`max` count code points; `pattern` (when set)
 * must match; `missing` and `invalid` are the detail messages the API has always given.
 */
export interface IdempotencyKeyPolicy {
  readonly required: boolean
  readonly min: number
  readonly max: number
  readonly pattern?: RegExp
  readonly missing: string
  readonly invalid: string
}

/** The key (null when absent) and, when it breaks the policy, the `Idempotency-Key` detail to report. */
export interface IdempotencyKeyReading {
  key: string | null
  problem: { path: 'Idempotency-Key'; message: string } | null
}

/**
 * The one reader of `Idempotency-Key` (the admission kit): the header of `request` (or a value
 * already taken from it) checked against the API's policy. The caller reports `problem` in its
 * own envelope (its code, and with its other header details where it lists them together).
 */
export function readIdempotencyKeyHeader(source: Request | string | null, policy: IdempotencyKeyPolicy): IdempotencyKeyReading {
  const key = source instanceof Request ? source.headers.get('idempotency-key') : source
  if (key === null) return { key, problem: policy.required ? { path: 'Idempotency-Key', message: policy.missing } : null }
  const length = codePointLength(key)
  const fits = length >= policy.min && length <= policy.max && (policy.pattern === undefined || policy.pattern.test(key))
  return { key, problem: fits ? null : { path: 'Idempotency-Key', message: policy.invalid } }
}
