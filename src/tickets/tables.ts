import { sqliteTable, text, integer, primaryKey, index, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { queueUnits, locations, services } from '../queue/tables'

/*
 * The tables of ticket state, owned by the tickets feature: nothing outside src/tickets/ reads
 * or writes them (docs/architecture.md). The SQL table names are those of part one, so moving
 * the definitions here changed no migration. The foreign keys point at the provisioned
 * structure (queue units, locations, services), which the tickets feature only reads.
 */

/**
 * Tickets. `seq` is the day's number for (location, prefix, businessDay); the unique index
 * makes a duplicate number impossible even if two writers raced.
 * `queueRank` orders the waiting line: smaller is called first (requeue FIRST gets a rank
 * below every waiting ticket, LAST one above). Ranks of the WAITING tickets of a location are
 * unique (each is one past the largest or one below the smallest, under the write lock).
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
    /** Contract §8: a priority ticket (walk-in flag, kiosk choice); kept for the ticket's life, transfers included. */
    priority: integer('priority', { mode: 'boolean' }).notNull().default(false),
    /**
     * The ticket waits at the front of the line (requeued or transferred FIRST): called before
     * every other ticket, priority ones included (contract §8). Meaningful only while WAITING;
     * every move into WAITING sets it.
     */
    front: integer('front', { mode: 'boolean' }).notNull().default(false),
    queueRank: integer('queue_rank').notNull(),
    createdAt: integer('created_at').notNull(),
    calledAt: integer('called_at'),
    servingAt: integer('serving_at'),
    completedAt: integer('completed_at'),
    /**
     * Contract §10: the ticket's phone-page capability (`/t/{code}`), ≥ 96 random bits,
     * URL-safe. Null only for tickets issued before this column existed (they have no page).
     */
    trackingCode: text('tracking_code'),
  },
  (t) => [
    uniqueIndex('tickets_number_per_day').on(t.locationId, t.prefix, t.businessDay, t.seq),
    // The waiting line in its lanes (front, then priority or normal), each by rank: the head of
    // every lane of a line is one index seek (call-next, docs/counters.md "Priority").
    index('tickets_waiting_line').on(t.serviceId, t.locationId, t.status, t.front, t.priority, t.queueRank),
    index('tickets_open_by_status').on(t.status, t.locationId),
    index('tickets_counter_open').on(t.counterId, t.status),
    uniqueIndex('tickets_tracking_code').on(t.trackingCode),
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

/**
 * Per counter, the normal tickets it called since its last priority call: the INTERLEAVE rule's
 * count (contract §8: at most N normal calls at a counter between two priority calls while
 * priority tickets wait). Written by every call at the counter, in the call's transaction, so
 * it survives restarts; a counter with no row has made none.
 */
export const counterCallStreaks = sqliteTable('counter_call_streaks', {
  counterId: text('counter_id').primaryKey(),
  normalCalls: integer('normal_calls').notNull().default(0),
})
