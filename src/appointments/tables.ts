import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { queueUnits, locations, services } from '../structure'

/*
 * Contract §21: appointments, owned by the appointments feature. A booking holds one seat of
 * one slot of one service at one location; the seats of a slot are counted from this table in
 * the booking's transaction (the single SQLite writer decides the last seat).
 */

/** Contract §21's statuses: BOOKED until cancelled, checked in (a ticket exists) or missed (after its check-in window). */
export const APPOINTMENT_STATUSES = ['BOOKED', 'CANCELLED', 'CHECKED_IN', 'MISSED'] as const
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number]

export const appointments = sqliteTable(
  'appointments',
  {
    id: text('id').primaryKey(),
    queueUnitId: text('queue_unit_id').notNull().references(() => queueUnits.id),
    locationId: text('location_id').notNull().references(() => locations.id),
    serviceId: text('service_id').notNull().references(() => services.id),
    /** The slot's start and end (epoch ms); the slot is local wall-clock time in the location's zone. */
    startAt: integer('start_at').notNull(),
    endAt: integer('end_at').notNull(),
    /** The location's local date of `startAt` (`YYYY-MM-DD`): the day lists and reports read by it. */
    localDate: text('local_date').notNull(),
    /** The 8-character booking code (unambiguous alphabet), the capability of `/b/{code}`. */
    code: text('code').notNull(),
    status: text('status', { enum: APPOINTMENT_STATUSES }).notNull(),
    /** The customer's details; null once erased (`erasedAt`) by the retention job. */
    name: text('name'),
    phone: text('phone'),
    email: text('email'),
    /**
     * "The same name, contact and slot is one booking": a hash of the normalised name, phone,
     * e-mail, service and slot start; unique among BOOKED and CHECKED_IN bookings, so a duplicate
     * submission finds the first instead of taking a second seat.
     */
    dedupeKey: text('dedupe_key'),
    /** The ticket issued at check-in (source APPOINTMENT); no foreign key: ticket retention may delete it first. */
    ticketId: text('ticket_id'),
    /** Who booked (`type:id`, src/platform/actor.ts): a key, a desk, a user, or `customer:<id>` from the booking page. */
    createdBy: text('created_by').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    checkedInAt: integer('checked_in_at'),
    cancelledAt: integer('cancelled_at'),
    missedAt: integer('missed_at'),
    erasedAt: integer('erased_at'),
  },
  (t) => [
    uniqueIndex('appointments_code').on(t.code),
    index('appointments_slot').on(t.serviceId, t.locationId, t.startAt, t.status),
    index('appointments_day').on(t.locationId, t.localDate),
    index('appointments_status_start').on(t.status, t.startAt),
    uniqueIndex('appointments_dedupe').on(t.dedupeKey),
  ],
)
