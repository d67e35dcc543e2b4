import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

/**
 * Every copy Lobby made of its database: `lobby backup` and the automatic copy before a
 * migration. `lobby status` reports the newest ("last backup"); the file may since have been
 * moved or deleted, which status says (`exists`).
 */
export const opsBackups = sqliteTable('ops_backups', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  kind: text('kind', { enum: ['backup', 'pre-migration'] }).notNull(),
  path: text('path').notNull(),
  bytes: integer('bytes').notNull(),
  createdAt: integer('created_at').notNull(),
})
