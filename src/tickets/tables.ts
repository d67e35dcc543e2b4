import { sqliteTable, text, integer, real, blob, primaryKey, index, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { queueUnits, locations, services } from '../structure'

/*
 * The tables of ticket state, owned by the tickets feature: nothing outside src/tickets/ reads
 * or writes them (docs/architecture.md). The SQL table names are those of part one, so moving
 * the definitions here changed no migration. The foreign keys point at the provisioned
 * structure (queue units, locations, services), which the tickets feature only reads.
 */

/** Where a ticket came from (contract §3, §20, §21); src/tickets/model.ts re-exports it for the JSON. */
export const TICKET_SOURCES = ['API', 'OPERATOR', 'KIOSK', 'EDGE', 'REMOTE', 'APPOINTMENT'] as const
export type TicketSource = (typeof TICKET_SOURCES)[number]

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
    source: text('source', { enum: TICKET_SOURCES }).notNull(),
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
    /**
     * Contract §18: the language the ticket was taken in (a BCP 47 tag of its unit's
     * `languages`); its print page, QR link and phone page use it. Null: the unit's default.
     */
    language: text('language'),
    /** Contract §20: the service and counter a transferred ticket came from (the last transfer), and its optional note (≤ 200 characters). */
    transferredFromServiceId: text('transferred_from_service_id'),
    transferredFromCounterId: text('transferred_from_counter_id'),
    transferNote: text('transfer_note'),
    /** Contract §20: how many times the customer asked for more time (at most 2). */
    moreTimeCount: integer('more_time_count').notNull().default(0),
    /** Contract §20: when `ticket.approaching` was written for this ticket (once per ticket), or null. */
    approachingAt: integer('approaching_at'),
    /**
     * Contract §21: a ticket issued at an appointment's check-in (source APPOINTMENT): the
     * booking and its slot start. The line calls it before walk-ins created after that start.
     */
    appointmentId: text('appointment_id'),
    appointmentStartAt: integer('appointment_start_at'),
  },
  (t) => [
    uniqueIndex('tickets_number_per_day').on(t.locationId, t.prefix, t.businessDay, t.seq),
    // The waiting line in its lanes (front, then priority or normal), each by rank: the head of
    // every lane of a line is one index seek (call-next, docs/counters.md "Priority").
    index('tickets_waiting_line').on(t.serviceId, t.locationId, t.status, t.front, t.priority, t.queueRank),
    // queue_rank last: the highest / lowest WAITING rank of a location is one seek (store.ts).
    index('tickets_open_by_status').on(t.status, t.locationId, t.queueRank),
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
 * list and state read never scan the ticket history. `avgServiceSeconds` is contract §19's
 * robust moving estimate of recent completions' `completedAt − calledAt` (the time each held
 * its counter; src/tickets/wait.ts `nextServiceAverage`), null until the first completion.
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
    /**
     * Contract §19's spread of the service time: a robust moving estimate of the mean absolute
     * deviation of recent completions from `avgServiceSeconds`, as a share of it (src/tickets/wait.ts
     * `nextServiceSpread`), null until the first completion. With the average it gives the long
     * tail the expected rest of a ticket in progress is read from (estimate.ts `restOfCurrent`).
     */
    serviceSpread: real('service_spread'),
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

/** `issued_h00` … `issued_h23`: tickets issued in each local hour of the business day. */
export const HOUR_COLUMNS = Array.from({ length: 24 }, (_, h) => `issued_h${String(h).padStart(2, '0')}`)

/** `served_h00` … `served_h23`: tickets completed in each local hour (of `completedAt`). */
export const SERVED_HOUR_COLUMNS = Array.from({ length: 24 }, (_, h) => `served_h${String(h).padStart(2, '0')}`)

const hourColumns = (names: string[]) => Object.fromEntries(names.map((name) => [name, integer(name).notNull().default(0)])) as Record<string, ReturnType<typeof integer>>

/**
 * Contract §12 daily roll-up per location, service and business day (the ticket's business
 * day, in the location's time zone), written by `ReportRollups` (rollup-writer.ts) in the transaction
 * of every ticket change, so it can never disagree with the tickets. Durations are whole
 * seconds; `*_p50` / `*_p90` are the nearest-rank percentiles of the day's distributions
 * (`reportDailyDistributions`), kept current with them. The figures stay small rows, so a
 * 365-day report reads a few hundred pages.
 * The rows stay when retention deletes old tickets (contract §13).
 */
export const reportDaily = sqliteTable(
  'report_daily',
  {
    locationId: text('location_id').notNull(),
    serviceId: text('service_id').notNull(),
    businessDay: text('business_day').notNull(),
    queueUnitId: text('queue_unit_id').notNull(),
    issued: integer('issued').notNull().default(0),
    served: integer('served').notNull().default(0),
    noShow: integer('no_show').notNull().default(0),
    cancelled: integer('cancelled').notNull().default(0),
    transferredOut: integer('transferred_out').notNull().default(0),
    /** Tickets called (first call) this day: the waits measured. */
    waitCount: integer('wait_count').notNull().default(0),
    waitSum: integer('wait_sum').notNull().default(0),
    waitMax: integer('wait_max'),
    waitP50: integer('wait_p50'),
    waitP90: integer('wait_p90'),
    /** Of `waitCount`, those whose wait was at most the service's target when they were called. */
    withinTarget: integer('within_target').notNull().default(0),
    serviceCount: integer('service_count').notNull().default(0),
    serviceSum: integer('service_sum').notNull().default(0),
    serviceP50: integer('service_p50'),
    serviceP90: integer('service_p90'),
    ...hourColumns(HOUR_COLUMNS),
    ...hourColumns(SERVED_HOUR_COLUMNS),
  },
  (t) => [
    primaryKey({ columns: [t.locationId, t.serviceId, t.businessDay] }),
    index('report_daily_unit_day').on(t.queueUnitId, t.businessDay),
  ],
)

/** Contract §12 roll-up per counter and business day (see `reportDaily`). */
export const reportCounterDaily = sqliteTable(
  'report_counter_daily',
  {
    counterId: text('counter_id').notNull(),
    businessDay: text('business_day').notNull(),
    queueUnitId: text('queue_unit_id').notNull(),
    locationId: text('location_id').notNull(),
    served: integer('served').notNull().default(0),
    noShow: integer('no_show').notNull().default(0),
    serviceCount: integer('service_count').notNull().default(0),
    serviceSum: integer('service_sum').notNull().default(0),
    serviceP50: integer('service_p50'),
    serviceP90: integer('service_p90'),
    /** Seconds the counter held a ticket: from its call there to it leaving the counter. */
    busySeconds: integer('busy_seconds').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.counterId, t.businessDay] }),
    index('report_counter_daily_unit_day').on(t.queueUnitId, t.businessDay),
  ],
)

/**
 * The distributions behind `report_daily`'s percentiles: sorted (bucket, count) pairs as
 * bytes (rollup-encoding.ts `Histogram`, bucket rule in docs/reports.md). A table of their own: a day's
 * wait distribution is a few kilobytes, which in the figures' rows would make every report
 * read them.
 */
export const reportDailyDistributions = sqliteTable(
  'report_daily_distributions',
  {
    locationId: text('location_id').notNull(),
    serviceId: text('service_id').notNull(),
    businessDay: text('business_day').notNull(),
    queueUnitId: text('queue_unit_id').notNull(),
    waitHist: blob('wait_hist'),
    serviceHist: blob('service_hist'),
  },
  (t) => [
    primaryKey({ columns: [t.locationId, t.serviceId, t.businessDay] }),
    index('report_daily_distributions_unit_day').on(t.queueUnitId, t.businessDay),
  ],
)

/** The service-time distribution behind `report_counter_daily`'s percentiles. */
export const reportCounterDistributions = sqliteTable(
  'report_counter_distributions',
  {
    counterId: text('counter_id').notNull(),
    businessDay: text('business_day').notNull(),
    serviceHist: blob('service_hist'),
  },
  (t) => [primaryKey({ columns: [t.counterId, t.businessDay] })],
)

/**
 * Contract §16 roll-up per clerk, queue unit and business day (the ticket's business day): the
 * tickets a signed-in clerk completed or marked no-show and the service times of those
 * completions, written with every such change (actor type `clerk`) as `reportCounterDaily` is.
 * Signed-in and break time come from the people feature's `staff_intervals`.
 */
export const reportStaffDaily = sqliteTable(
  'report_staff_daily',
  {
    username: text('username').notNull(),
    businessDay: text('business_day').notNull(),
    queueUnitId: text('queue_unit_id').notNull(),
    served: integer('served').notNull().default(0),
    noShow: integer('no_show').notNull().default(0),
    serviceCount: integer('service_count').notNull().default(0),
    serviceSum: integer('service_sum').notNull().default(0),
    serviceP50: integer('service_p50'),
    serviceP90: integer('service_p90'),
  },
  (t) => [
    primaryKey({ columns: [t.username, t.queueUnitId, t.businessDay] }),
    index('report_staff_daily_unit_day').on(t.queueUnitId, t.businessDay),
  ],
)

/** The service-time distribution behind `report_staff_daily`'s percentiles. */
export const reportStaffDistributions = sqliteTable(
  'report_staff_distributions',
  {
    username: text('username').notNull(),
    businessDay: text('business_day').notNull(),
    queueUnitId: text('queue_unit_id').notNull(),
    serviceHist: blob('service_hist'),
  },
  (t) => [primaryKey({ columns: [t.username, t.queueUnitId, t.businessDay] })],
)

/**
 * Contract §20: a customer's rating of a completed visit, once per ticket, within 24 hours of
 * completion. The service, counter and clerk are copied from the ticket at rating time so the
 * feedback report reads one table. `comment` is plain text (≤ 500 characters), shown as text.
 */
export const ticketFeedback = sqliteTable(
  'ticket_feedback',
  {
    ticketId: text('ticket_id').primaryKey().references(() => tickets.id),
    queueUnitId: text('queue_unit_id').notNull(),
    locationId: text('location_id').notNull(),
    serviceId: text('service_id').notNull(),
    counterId: text('counter_id'),
    /** The actor who completed the ticket when it was a clerk (`clerk:<userId>`), else null. */
    clerk: text('clerk'),
    /** The location's local business day of the completion (`YYYY-MM-DD`). */
    businessDay: text('business_day').notNull(),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('ticket_feedback_by_day').on(t.queueUnitId, t.businessDay)],
)
