import { sqliteTable, text, integer, real, primaryKey } from 'drizzle-orm/sqlite-core'
import { workspaces } from '../structure'

/** Contract §5: pushes per source per rolling minute unless the source sets its own. */
export const DEFAULT_PRAYER_PUSH_RATE_LIMIT = 30

/** A configured Custom Push prayer-schedule source (provisioned). */
export const prayerSources = sqliteTable('prayer_sources', {
  id: text('id').primaryKey(),
  workspaceId: text('workspace_id').notNull().references(() => workspaces.id),
  name: text('name').notNull(),
  timezone: text('timezone').notNull(),
  locationName: text('location_name'),
  city: text('city'),
  country: text('country'),
  latitude: real('latitude'),
  longitude: real('longitude'),
  pushRateLimitPerMinute: integer('push_rate_limit_per_minute').notNull().default(DEFAULT_PRAYER_PUSH_RATE_LIMIT),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/** The stored month per source and period: the current revision only. */
export const prayerMonths = sqliteTable(
  'prayer_months',
  {
    sourceId: text('source_id').notNull().references(() => prayerSources.id),
    period: text('period').notNull(),
    revision: integer('revision').notNull(),
    checksum: text('checksum').notNull(),
    /** The pushed body as JSON text. */
    body: text('body').notNull(),
    dayCount: integer('day_count').notNull(),
    storedAt: integer('stored_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.period] })],
)
