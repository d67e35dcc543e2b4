import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

/**
 * A branch's side of head office's profiles (contract §26), one row per queue unit that follows
 * one: the revision applied (its content: what the console's HQ_MANAGED check reads), the last
 * revision refused and why, and whether head office has been told (`reported`: 0 until the
 * write-back to `lobby.hq_branch_applies` committed, so a branch that was offline tells it later).
 */
export const hqApplied = sqliteTable('hq_applied', {
  queueUnitId: text('queue_unit_id').primaryKey(),
  profileId: text('profile_id'),
  profileName: text('profile_name'),
  revision: integer('revision'),
  /** The applied revision's content (JSON), null before the first applied. */
  content: text('content'),
  appliedAt: integer('applied_at'),
  errorRevision: integer('error_revision'),
  error: text('error'),
  errorAt: integer('error_at'),
  reported: integer('reported').notNull().default(0),
  updatedAt: integer('updated_at').notNull(),
})
