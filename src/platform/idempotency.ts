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
