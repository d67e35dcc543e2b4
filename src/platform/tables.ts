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
