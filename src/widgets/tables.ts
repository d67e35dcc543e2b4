import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'
import { workspaces } from '../structure'

/** public-api.md Limits: pushes per widget per rolling minute unless the widget sets its own. */
export const DEFAULT_WIDGET_PUSH_RATE_LIMIT = 120

/** Configuration of a display widget (provisioned). */
export const widgets = sqliteTable('widgets', {
  id: text('id').primaryKey(),
  workspaceId: text('workspace_id').notNull().references(() => workspaces.id),
  type: text('type', { enum: ['ANNOUNCEMENTS', 'TODAYS_SCHEDULE', 'EVENTS', 'TRANSPORT_BOARD'] }).notNull(),
  name: text('name').notNull(),
  pushSource: text('push_source', { enum: ['ACTIVE', 'INACTIVE'] }).notNull(),
  pushRateLimitPerMinute: integer('push_rate_limit_per_minute').notNull().default(DEFAULT_WIDGET_PUSH_RATE_LIMIT),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/**
 * The current data snapshot of a widget. One row per widget, replaced whole in one statement,
 * so a reader sees either the old snapshot with its revision or the new one, never half.
 */
export const widgetSnapshots = sqliteTable('widget_snapshots', {
  widgetId: text('widget_id').primaryKey().references(() => widgets.id),
  dataRevision: integer('data_revision').notNull(),
  /** Last accepted `source.sequence`; survives restarts. Null when no push carried one. */
  lastSequence: integer('last_sequence'),
  schemaVersion: integer('schema_version').notNull(),
  itemCount: integer('item_count').notNull(),
  /** The accepted `data` object as JSON text. */
  data: text('data').notNull(),
  acceptedAt: integer('accepted_at').notNull(),
})
