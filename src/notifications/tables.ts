import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { workspaces } from '../structure'

/*
 * Contract §25: notifications, owned by this feature. Three tables:
 * - `notification_settings`: one row per workspace: the channels and limits as provisioned (no
 *   secret), the secrets apart (never exported, audited or shown), and the VAPID key pair made
 *   at first start.
 * - `notification_contacts`: a customer's opt-in for one ticket (a number, an address or a push
 *   subscription). An appointment's contacts are its own `phone` and `email` (src/appointments),
 *   so a contact lives only with its ticket or booking and goes with it.
 * - `notification_messages`: the durable outbox. One row per message (event, channel and
 *   recipient), written in the event's own transaction, drained by the worker.
 */

export const notificationSettings = sqliteTable('notification_settings', {
  workspaceId: text('workspace_id').primaryKey().references(() => workspaces.id),
  /** JSON: the workspace's `notifications` object as provisioned, without its secrets. */
  settings: text('settings').notNull(),
  /** JSON `{smsHeaders?, inboundSecret?, smtpPassword?}`: never exported, logged or shown. */
  secrets: text('secrets').notNull(),
  /** RFC 8292 VAPID key pair (base64url), made once; the private half never leaves the box. */
  vapidPublicKey: text('vapid_public_key'),
  vapidPrivateKey: text('vapid_private_key'),
  /** The month (`YYYY-MM`, UTC) whose SMS cap was reached; the console warns while it is this month. */
  capReachedMonth: text('cap_reached_month'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

export const NOTIFICATION_CHANNELS = ['sms', 'email', 'webPush'] as const
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number]

export const notificationContacts = sqliteTable(
  'notification_contacts',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull(),
    /** The ticket the customer opted in for (no foreign key: ticket retention may delete it first; ours go sooner). */
    ticketId: text('ticket_id').notNull(),
    channel: text('channel', { enum: NOTIFICATION_CHANNELS }).notNull(),
    /** E.164 number, e-mail address, or the push subscription's endpoint: personal data, never logged. */
    address: text('address').notNull(),
    /** Web push only: the subscription's keys (RFC 8291). */
    p256dh: text('p256dh'),
    auth: text('auth'),
    /** The language messages are written in (the ticket's when opted in). */
    language: text('language').notNull(),
    /** When the customer ticked the consent box (or allowed push). */
    consentAt: integer('consent_at').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('notification_contacts_ticket').on(t.ticketId),
    uniqueIndex('notification_contacts_unique').on(t.ticketId, t.channel, t.address),
  ],
)

export const NOTIFICATION_KINDS = ['approaching', 'called', 'no_show', 'confirmed', 'reminder', 'cancelled', 'moved', 'help', 'test'] as const
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]
export const MESSAGE_STATUSES = ['PENDING', 'SENT', 'FAILED', 'SKIPPED'] as const
export type MessageStatus = (typeof MESSAGE_STATUSES)[number]

export const notificationMessages = sqliteTable(
  'notification_messages',
  {
    /** The `messageId` (`ntf_…`) the gateway can deduplicate on; the same in every retry. */
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull(),
    /**
     * One message per event, channel and recipient: `kind:subject:event:contact`. A second
     * write of the same event (a replay, a restart mid-way) meets this key and adds nothing.
     */
    dedupeKey: text('dedupe_key').notNull(),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    channel: text('channel', { enum: NOTIFICATION_CHANNELS }).notNull(),
    /** A ticket's contact (`notification_contacts.id`), or null for an appointment's own phone/e-mail. */
    contactId: text('contact_id'),
    ticketId: text('ticket_id'),
    appointmentId: text('appointment_id'),
    /**
     * SMS only: a keyed SHA-256 of the number (not the number), so "10 per number a day" counts
     * across tickets and bookings without keeping the number beside the message.
     */
    recipientHash: text('recipient_hash'),
    /** The rendered message: no personal data (numbers, counters, times, the booking code). */
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    /** The `.ics` of an appointment's confirmation (an e-mail's text/calendar part). */
    calendar: text('calendar'),
    status: text('status', { enum: MESSAGE_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    /** Why the last attempt failed or why it was skipped (never an address). */
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
    sentAt: integer('sent_at'),
  },
  (t) => [
    uniqueIndex('notification_messages_dedupe').on(t.dedupeKey),
    index('notification_messages_due').on(t.status, t.nextAttemptAt),
    index('notification_messages_ticket').on(t.ticketId, t.channel),
    index('notification_messages_recent').on(t.workspaceId, t.createdAt),
    index('notification_messages_recipient').on(t.recipientHash, t.createdAt),
  ],
)
