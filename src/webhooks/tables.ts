import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core'
import { queueUnits } from '../structure'

/** A provisioned webhook endpoint; its signing secret lives in `credentials` (kind webhook). */
export const webhooks = sqliteTable('webhooks', {
  id: text('id').primaryKey(),
  queueUnitId: text('queue_unit_id').notNull().references(() => queueUnits.id),
  url: text('url').notNull(),
  /** JSON array of event types. */
  events: text('events').notNull(),
  active: integer('active', { mode: 'boolean' }).notNull().default(true),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/** Durable outbox: written in the ticket change's transaction, drained by the worker. */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id').notNull().references(() => webhooks.id),
    ticketId: text('ticket_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The exact body that is signed and sent. */
    body: text('body').notNull(),
    status: text('status', { enum: ['PENDING', 'DELIVERED', 'FAILED'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
    deliveredAt: integer('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_due').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_ticket').on(t.webhookId, t.ticketId, t.createdAt),
  ],
)
