import { sqliteTable, text, integer, primaryKey, index } from 'drizzle-orm/sqlite-core'

/**
 * Idempotency records of successful (2xx) requests only, kept 24 hours.
 * `scope` names who owns the key space (e.g. `ticket:<credentialId>`, `widget:<widgetId>`),
 * `requestHash` is what "same request" means for that route (raw bytes or parsed payload).
 */
export const idempotencyRecords = sqliteTable(
  'idempotency_records',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    /** The original response body, byte for byte. */
    body: text('body').notNull(),
    /** JSON object of response headers worth replaying. */
    headers: text('headers'),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_expiry').on(t.expiresAt)],
)

/**
 * Contract §17: the audit log, append-only: every change to configuration or people made by
 * the console, the CLI or a provisioning file, and a manager's counter changes from /manage
 * (§22). `actor` is `type:id` (src/platform/actor.ts); `entityType`/`entityId` name what
 * changed; `before`/`after` are JSON snapshots with every secret and hash left out (null for a
 * creation or a deletion). Written in the change's own transaction (src/platform/audit.ts).
 */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: integer('at').notNull(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    before: text('before'),
    after: text('after'),
  },
  (t) => [index('audit_log_by_time').on(t.at), index('audit_log_by_entity').on(t.entityType, t.entityId)],
)
