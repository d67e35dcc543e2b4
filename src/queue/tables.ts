import { sqliteTable, text, integer, primaryKey, index, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { workspaces } from '../provisioning/tables'

/** A branch's queue (provisioned). Edge authority is a lease held by an Edge device. */
export const queueUnits = sqliteTable('queue_units', {
  id: text('id').primaryKey(),
  workspaceId: text('workspace_id').notNull().references(() => workspaces.id),
  name: text('name').notNull(),
  active: integer('active', { mode: 'boolean' }).notNull().default(true),
  edgeHolder: text('edge_holder'),
  /** End of the Edge lease; null with a holder = until released. */
  edgeExpiresAt: integer('edge_expires_at'),
  /**
   * Counts every change to the unit's tickets and counters (display feeds' `stateRevision`);
   * bumped in the same transaction as the change, so it survives restarts and never repeats.
   */
  stateRevision: integer('state_revision').notNull().default(0),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

export const locations = sqliteTable('locations', {
  id: text('id').primaryKey(),
  queueUnitId: text('queue_unit_id').notNull().references(() => queueUnits.id),
  name: text('name').notNull(),
  timezone: text('timezone').notNull(),
  active: integer('active', { mode: 'boolean' }).notNull().default(true),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

export const services = sqliteTable('services', {
  id: text('id').primaryKey(),
  queueUnitId: text('queue_unit_id').notNull().references(() => queueUnits.id),
  name: text('name').notNull(),
  prefix: text('prefix').notNull(),
  active: integer('active', { mode: 'boolean' }).notNull().default(true),
  defaultServiceSeconds: integer('default_service_seconds').notNull().default(300),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/** Where a service is offered. */
export const serviceLocations = sqliteTable(
  'service_locations',
  {
    serviceId: text('service_id').notNull().references(() => services.id),
    locationId: text('location_id').notNull().references(() => locations.id),
  },
  (t) => [primaryKey({ columns: [t.serviceId, t.locationId] })],
)

/**
 * Tickets. `seq` is the day's number for (location, prefix, businessDay); the unique index
 * makes a duplicate number impossible even if two writers raced.
 * `queueRank` orders the waiting line: smaller is called first (requeue FIRST gets a rank
 * below every waiting ticket, LAST one above).
 */
export const tickets = sqliteTable(
  'tickets',
  {
    id: text('id').primaryKey(),
    queueUnitId: text('queue_unit_id').notNull().references(() => queueUnits.id),
    locationId: text('location_id').notNull().references(() => locations.id),
    serviceId: text('service_id').notNull().references(() => services.id),
    prefix: text('prefix').notNull(),
    businessDay: text('business_day').notNull(),
    seq: integer('seq').notNull(),
    ticketNumber: text('ticket_number').notNull(),
    status: text('status', {
      enum: ['WAITING', 'CALLED', 'SERVING', 'COMPLETED', 'NO_SHOW', 'CANCELLED'],
    }).notNull(),
    source: text('source', { enum: ['API', 'OPERATOR', 'KIOSK', 'EDGE'] }).notNull(),
    externalReference: text('external_reference'),
    credentialId: text('credential_id'),
    counterId: text('counter_id'),
    callCount: integer('call_count').notNull().default(0),
    queueRank: integer('queue_rank').notNull(),
    createdAt: integer('created_at').notNull(),
    calledAt: integer('called_at'),
    servingAt: integer('serving_at'),
    completedAt: integer('completed_at'),
  },
  (t) => [
    uniqueIndex('tickets_number_per_day').on(t.locationId, t.prefix, t.businessDay, t.seq),
    index('tickets_waiting_line').on(t.serviceId, t.locationId, t.status, t.queueRank),
    index('tickets_open_by_status').on(t.status, t.locationId),
    index('tickets_counter_open').on(t.counterId, t.status),
  ],
)

/** Last number handed out per location, prefix and local business day. */
export const ticketSequences = sqliteTable(
  'ticket_sequences',
  {
    locationId: text('location_id').notNull(),
    prefix: text('prefix').notNull(),
    businessDay: text('business_day').notNull(),
    lastSeq: integer('last_seq').notNull(),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.prefix, t.businessDay] })],
)

/**
 * Live counts per service and location, kept in step with ticket writes so the services
 * list and state read never scan the ticket history. `avgServiceSeconds` is a moving
 * average of recent `completedAt − servingAt`, null until the first completion.
 */
export const serviceStats = sqliteTable(
  'service_stats',
  {
    serviceId: text('service_id').notNull(),
    locationId: text('location_id').notNull(),
    waiting: integer('waiting').notNull().default(0),
    /** Stored unrounded (SQLite keeps the fraction in this column); reads round to whole seconds. */
    avgServiceSeconds: integer('avg_service_seconds'),
    /** Completions folded into `avgServiceSeconds` (the first ones weigh as a plain mean). */
    completedCount: integer('completed_count').notNull().default(0),
    /** Ticket most recently called (CALLED or SERVING), or null. */
    nowServingTicketId: text('now_serving_ticket_id'),
  },
  (t) => [primaryKey({ columns: [t.serviceId, t.locationId] })],
)
