import { sqliteTable, text, integer, primaryKey } from 'drizzle-orm/sqlite-core'
import { queueUnits, locations, services } from './tables'

/** A counter (desk) at a location (provisioned); `open` is runtime state. */
export const counters = sqliteTable('counters', {
  id: text('id').primaryKey(),
  queueUnitId: text('queue_unit_id').notNull().references(() => queueUnits.id),
  locationId: text('location_id').notNull().references(() => locations.id),
  name: text('name').notNull(),
  /** Contract §18: the name per BCP 47 language tag (JSON object), or null when provisioned as one string; `name` is the default language's. */
  names: text('names'),
  /** False once retired in provisioning (`active: false`): gone from desks and boards, its history stays. */
  active: integer('active', { mode: 'boolean' }).notNull().default(true),
  open: integer('open', { mode: 'boolean' }).notNull().default(false),
  /** Local business day (location time zone) on which the counter was last opened; the daily close shuts counters opened on an earlier day. */
  openDay: text('open_day'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

export const counterServices = sqliteTable(
  'counter_services',
  {
    counterId: text('counter_id').notNull().references(() => counters.id),
    serviceId: text('service_id').notNull().references(() => services.id),
  },
  (t) => [primaryKey({ columns: [t.counterId, t.serviceId] })],
)
