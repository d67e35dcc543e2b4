import { sqliteTable, text, integer, primaryKey } from 'drizzle-orm/sqlite-core'
import { workspaces } from './credentials'

/*
 * A service's defaults when provisioning names none, here with the columns they default (the
 * tickets feature reads them through src/tickets/wait.ts, and this file imports nothing of
 * tickets: src/tickets/tables.ts names these tables, so the two must not import each other).
 */

/** Contract §3: a service's average service time before any completion (5 minutes). */
export const DEFAULT_SERVICE_SECONDS = 300

/** Contract §12: a service's wait target when provisioning names none (15 minutes). */
export const DEFAULT_WAIT_TARGET_SECONDS = 900

/** Contract §16: the reasons "Close counter" offers when provisioning names none. */
export const DEFAULT_BREAK_REASONS: readonly string[] = ['Break', 'Lunch', 'Admin work', 'Other']

/** Contract §20: minutes after a no-show during which a desk can bring the ticket back. */
export const DEFAULT_NO_SHOW_GRACE_MINUTES = 30

/** Contract §20: `ticket.approaching` fires at this many tickets ahead when provisioning names none. */
export const DEFAULT_APPROACHING_AHEAD = 3

/** Contract §20: remote joining stops while a service has this many waiting, unless provisioning says otherwise. */
export const DEFAULT_REMOTE_JOIN_MAX_WAITING = 50
/** Contract §20, §27: tickets one client address may take from phones in 10 minutes, unless provisioning says otherwise. */
export const DEFAULT_REMOTE_JOIN_PER_ADDRESS = 3

/** A location's `remoteJoin` as stored (`locations.remote_join`) and exported: every default filled in. */
export interface StoredRemoteJoin {
  enabled: boolean
  maxWaiting: number
  allowedNetworks: string[]
  perAddressPer10Min: number
  guestNetworks: string[]
}

/**
 * `remoteJoin` with its defaults filled in, keys always in this order: what provisioning
 * stores, what the export writes (a row stored before a setting existed reads as its default,
 * so export → apply stays a no-op) and what the join page reads.
 */
export function storedRemoteJoin(given: { enabled: boolean; maxWaiting?: number; allowedNetworks?: string[]; perAddressPer10Min?: number; guestNetworks?: string[] }): StoredRemoteJoin {
  return {
    enabled: given.enabled,
    maxWaiting: given.maxWaiting ?? DEFAULT_REMOTE_JOIN_MAX_WAITING,
    allowedNetworks: given.allowedNetworks ?? [],
    perAddressPer10Min: given.perAddressPer10Min ?? DEFAULT_REMOTE_JOIN_PER_ADDRESS,
    guestNetworks: given.guestNetworks ?? [],
  }
}

/** A branch's queue (provisioned). Edge authority is a lease held by an Edge device. */
export const queueUnits = sqliteTable('queue_units', {
  id: text('id').primaryKey(),
  workspaceId: text('workspace_id').notNull().references(() => workspaces.id),
  name: text('name').notNull(),
  /** Contract §18: the name per BCP 47 language tag (JSON object), or null when provisioned as one string; `name` is the default language's. */
  names: text('names'),
  /** Contract §18: the language names fall back to, and the one `name` is in. */
  defaultLanguage: text('default_language').notNull().default('en'),
  /** Contract §18: JSON array of the languages the unit's kiosk, phone and join pages offer (the default first). */
  languages: text('languages').notNull().default('["en"]'),
  active: integer('active', { mode: 'boolean' }).notNull().default(true),
  edgeHolder: text('edge_holder'),
  /** End of the Edge lease; null with a holder = until released. */
  edgeExpiresAt: integer('edge_expires_at'),
  /**
   * Counts every change to the unit's tickets and counters (display feeds' `stateRevision`);
   * bumped in the same transaction as the change, so it survives restarts and never repeats.
   */
  stateRevision: integer('state_revision').notNull().default(0),
  /** Contract §8 `priority.mode`: FIRST (priority tickets before normal ones) or INTERLEAVE. */
  priorityMode: text('priority_mode', { enum: ['FIRST', 'INTERLEAVE'] }).notNull().default('FIRST'),
  /** INTERLEAVE's N: at most N normal calls at a counter between two priority calls; null for FIRST. */
  normalPerPriority: integer('normal_per_priority'),
  /** Contract §9: the kiosk offers a "Priority" choice. */
  kioskPriority: integer('kiosk_priority', { mode: 'boolean' }).notNull().default(false),
  /** Contract §16: `required`: a desk's operator calls wait for a clerk to sign in there; `optional` (Part two's desks). */
  deskSignIn: text('desk_sign_in', { enum: ['optional', 'required'] }).notNull().default('optional'),
  /** Contract §16: JSON array of the reasons "Close counter" offers. */
  breakReasons: text('break_reasons').notNull().default(JSON.stringify(DEFAULT_BREAK_REASONS)),
  /** Contract §20: a desk may "Bring back" a no-show for this many minutes after it. */
  noShowGraceMinutes: integer('no_show_grace_minutes').notNull().default(DEFAULT_NO_SHOW_GRACE_MINUTES),
  /** Contract §20: `ticket.approaching` is written when a waiting ticket has this many or fewer ahead. */
  approachingAhead: integer('approaching_ahead').notNull().default(DEFAULT_APPROACHING_AHEAD),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

export const locations = sqliteTable('locations', {
  id: text('id').primaryKey(),
  queueUnitId: text('queue_unit_id').notNull().references(() => queueUnits.id),
  name: text('name').notNull(),
  /** Contract §18: the name per BCP 47 language tag (JSON object), or null when provisioned as one string; `name` is the default language's. */
  names: text('names'),
  timezone: text('timezone').notNull(),
  /** Contract §18: weekly opening hours (JSON `{"mon": [["08:30","12:00"]], …}`) in `timezone`; null = always open. */
  openingHours: text('opening_hours'),
  /** Contract §18: JSON array of local dates (`YYYY-MM-DD`) the location is closed. */
  closedDates: text('closed_dates').notNull().default('[]'),
  /** Contract §18: no ticket in the last N minutes before closing. */
  lastTicketMinutesBeforeClose: integer('last_ticket_minutes_before_close').notNull().default(0),
  /**
   * Contract §20, §27: JSON `{"enabled": true, "maxWaiting": 50, "allowedNetworks": ["10.0.0.0/8"],
   * "perAddressPer10Min": 3, "guestNetworks": []}` (`storedRemoteJoin`: defaults filled in by
   * provisioning), or null: no `/join/{locationId}`.
   */
  remoteJoin: text('remote_join'),
  active: integer('active', { mode: 'boolean' }).notNull().default(true),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

export const services = sqliteTable('services', {
  id: text('id').primaryKey(),
  queueUnitId: text('queue_unit_id').notNull().references(() => queueUnits.id),
  name: text('name').notNull(),
  /** Contract §18: the name per BCP 47 language tag (JSON object), or null when provisioned as one string; `name` is the default language's. */
  names: text('names'),
  prefix: text('prefix').notNull(),
  /** Contract §18: weekly hours narrowing the location's (JSON, as `locations.openingHours`); null = the location's. */
  openingHours: text('opening_hours'),
  active: integer('active', { mode: 'boolean' }).notNull().default(true),
  defaultServiceSeconds: integer('default_service_seconds').notNull().default(DEFAULT_SERVICE_SECONDS),
  /** Contract §12: a called ticket whose wait is at most this many seconds counts as within target. */
  waitTargetSeconds: integer('wait_target_seconds').notNull().default(DEFAULT_WAIT_TARGET_SECONDS),
  /**
   * Contract §21: JSON `{"enabled", "slotMinutes", "capacityPerSlot", "bookAheadDays",
   * "checkIn": {"earlyMinutes", "lateMinutes"}, "retainDays"}` with provisioning's defaults
   * filled in except `capacityPerSlot` (absent: the number of the service's active counters at
   * the location, counted when slots are read), or null: no appointments.
   */
  appointments: text('appointments'),
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
