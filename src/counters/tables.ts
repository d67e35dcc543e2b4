import { sqliteTable, text, integer, primaryKey, index } from 'drizzle-orm/sqlite-core'
import { queueUnits, locations, services } from '../queue/tables'

/** A counter (desk) at a location (provisioned); `open` is runtime state. */
export const counters = sqliteTable('counters', {
  id: text('id').primaryKey(),
  queueUnitId: text('queue_unit_id').notNull().references(() => queueUnits.id),
  locationId: text('location_id').notNull().references(() => locations.id),
  name: text('name').notNull(),
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

/** Append-only history of every ticket transition. */
export const ticketEvents = sqliteTable(
  'ticket_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ticketId: text('ticket_id').notNull(),
    type: text('type').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    counterId: text('counter_id'),
    /** Who made it: a credential ID, or `system` for the daily close. */
    actor: text('actor').notNull(),
    at: integer('at').notNull(),
    /** Extra facts as JSON (e.g. transfer's from/to service). */
    detail: text('detail'),
  },
  (t) => [index('ticket_events_ticket').on(t.ticketId, t.id)],
)

/**
 * Every call and recall of a ticket at a counter: the display feeds' "recent calls", read
 * newest first per queue unit (or location). Rows of finished business days are removed by the
 * daily close; the full history stays in `ticket_events`.
 */
export const ticketCalls = sqliteTable(
  'ticket_calls',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    queueUnitId: text('queue_unit_id').notNull(),
    locationId: text('location_id').notNull(),
    ticketId: text('ticket_id').notNull(),
    counterId: text('counter_id').notNull(),
    /** The ticket's business day. */
    businessDay: text('business_day').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [
    index('ticket_calls_unit').on(t.queueUnitId, t.id),
    index('ticket_calls_location').on(t.locationId, t.businessDay),
    index('ticket_calls_ticket').on(t.ticketId, t.id),
  ],
)
