import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

/**
 * Head-office replication's durable state (contract §14), one row per head-office database
 * (`target`: the connection string without its password or query, e.g.
 * `postgres://lobby_branch_riyadh@ho.example:5432/headoffice`). `cursor` is the last
 * `ticket_events.id` head office has committed: advanced only after PostgreSQL's COMMIT of the
 * batch that carried it, so a crash in between re-sends that batch (harmless: upserts).
 * `lobby status` reads the row most recently updated.
 */
export const replicationState = sqliteTable('replication_state', {
  target: text('target').primaryKey(),
  cursor: integer('cursor').notNull().default(0),
  /** Rows (tickets, events, roll-ups) head office has committed from this branch, in all. */
  rowsSent: integer('rows_sent').notNull().default(0),
  lastSuccessAt: integer('last_success_at'),
  /** The last failure, password removed; null once a batch went through again. */
  lastError: text('last_error'),
  lastErrorAt: integer('last_error_at'),
  updatedAt: integer('updated_at').notNull(),
})
