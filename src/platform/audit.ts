import type { Database } from 'bun:sqlite'
import { encodeActor, decodeActor, type Actor } from './actor'

/*
 * Contract §17's audit log: one row per change, appended in the change's own transaction so a
 * change and its entry land or fail together. Snapshots pass through `withoutSecrets`: a field
 * whose name says it is a secret (a key, a hash, a PIN, a password, a code) never reaches the
 * table, whatever the caller hands in, and a URL's user-info (`https://user:pass@host/…`, a
 * webhook's basic-auth credentials) is cut from every text (contract §27). `readAudit` cuts it
 * again from what it reads, so an entry written before that rule never shows it either.
 */

export interface AuditEntry {
  actor: Actor
  /** What was done, `<entity>.<verb>`: `service.create`, `counter.update`, `counter.open`, `key.revoke`, `provision.apply`… */
  action: string
  entity: { type: string; id: string }
  before?: unknown
  after?: unknown
}

export interface AuditRecord {
  id: number
  at: string
  actor: Actor
  action: string
  entity: { type: string; id: string }
  before: unknown
  after: unknown
}

/** Field names that never enter the log, at any depth (case-insensitive match on the whole name or its ending). */
const SECRET_FIELD = /(secret|hash|password|pin|token|setupcode|pairingcode|trackingcode|bookingcode|session)$/i

/**
 * A URL's user-info: after `scheme://`, everything up to an `@` that comes before the host ends
 * (no `/`, `?`, `#` or space between). `https://x.example/doc@2` has none: its `@` is in the path.
 */
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi

/** `text` with every URL in it written without user-info: `https://u:p@host/x` → `https://host/x` (contract §27). */
export function withoutUserInfo(text: string): string {
  return text.replace(URL_USER_INFO, '$1')
}

/** A deep copy of `value` whose texts carry no URL user-info (what `readAudit` shows everyone). */
export function withoutUrlUserInfo(value: unknown): unknown {
  if (typeof value === 'string') return withoutUserInfo(value)
  if (Array.isArray(value)) return value.map(withoutUrlUserInfo)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, v]) => [key, withoutUrlUserInfo(v)]))
}

/** A deep copy of `value` without any field whose name marks a secret, and without URL user-info. */
export function withoutSecrets(value: unknown): unknown {
  if (typeof value === 'string') return withoutUserInfo(value)
  if (Array.isArray(value)) return value.map(withoutSecrets)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (!SECRET_FIELD.test(key)) out[key] = withoutSecrets(v)
  }
  return out
}

const snapshot = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(withoutSecrets(value)))

/**
 * Appends one entry. Call inside the transaction of the change (a synchronous Drizzle/bun:sqlite
 * transaction); `sqlite` is the raw client so every feature can call it without the schema.
 */
export function appendAudit(sqlite: Database, entry: AuditEntry, at: number): void {
  sqlite.query(
    'INSERT INTO audit_log (at, actor, action, entity_type, entity_id, before, after) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)',
  ).run(at, encodeActor(entry.actor), entry.action, entry.entity.type, entry.entity.id, snapshot(entry.before), snapshot(entry.after))
}

export interface AuditQuery {
  /** Only entries at or after this instant (ms). */
  since?: number
  /** Only entries before this id (paging newest first). */
  beforeId?: number
  entityType?: string
  action?: string
  /** At most this many (default 100, at most 1000). */
  limit?: number
  /**
   * Only entries of these queue units: those whose snapshot (after, else before) carries one of
   * them as `queueUnitId` (how the configuration's entries name their unit, src/provisioning/audit.ts).
   */
  queueUnitIds?: string[]
  /** Never entries of these entity types (a manager's read: webhook and key entries are admins', contract §27). */
  withoutEntityTypes?: string[]
}

/** Entries newest first, filtered; their snapshots without URL user-info, whenever they were written. */
export function readAudit(sqlite: Database, query: AuditQuery = {}): AuditRecord[] {
  const limit = Math.min(Math.max(query.limit ?? 100, 1), 1000)
  const rows = sqlite.query<{ id: number; at: number; actor: string; action: string; entity_type: string; entity_id: string; before: string | null; after: string | null }, [number, number, string | null, string | null, number, string | null, string | null]>(
    `SELECT id, at, actor, action, entity_type, entity_id, before, after FROM audit_log
     WHERE at >= ?1 AND id < ?2 AND (?3 IS NULL OR entity_type = ?3) AND (?4 IS NULL OR action = ?4)
       AND (?6 IS NULL OR coalesce(json_extract(after, '$.queueUnitId'), json_extract(before, '$.queueUnitId')) IN (SELECT value FROM json_each(?6)))
       AND (?7 IS NULL OR entity_type NOT IN (SELECT value FROM json_each(?7)))
     ORDER BY id DESC LIMIT ?5`,
  ).all(query.since ?? 0, query.beforeId ?? Number.MAX_SAFE_INTEGER, query.entityType ?? null, query.action ?? null, limit, query.queueUnitIds === undefined ? null : JSON.stringify(query.queueUnitIds),
    query.withoutEntityTypes === undefined ? null : JSON.stringify(query.withoutEntityTypes))
  return rows.map((r) => ({
    id: r.id,
    at: new Date(r.at).toISOString(),
    actor: decodeActor(r.actor),
    action: r.action,
    entity: { type: r.entity_type, id: r.entity_id },
    before: r.before === null ? null : withoutUrlUserInfo(JSON.parse(r.before)),
    after: r.after === null ? null : withoutUrlUserInfo(JSON.parse(r.after)),
  }))
}
