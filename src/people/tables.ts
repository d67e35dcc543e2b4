import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core'

/**
 * A staff account (contract §16). No password is ever stored: `passwordHash` and `pinHash` are
 * Argon2id (Bun.password) strings, null until the person used their setup link.
 */
export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    /** 1–64 of [a-z0-9._-]; `lobby users …` and the sign-in find the account by it. */
    username: text('username').notNull(),
    displayName: text('display_name').notNull(),
    role: text('role', { enum: ['admin', 'manager', 'clerk'] }).notNull(),
    /** JSON array of queue-unit IDs a manager or clerk works in ([] for an admin, who has all). */
    queueUnits: text('queue_units').notNull().default('[]'),
    state: text('state', { enum: ['active', 'disabled'] }).notNull().default('active'),
    passwordHash: text('password_hash'),
    /** Clerks only: the six-digit PIN of the desk sign-in, hashed like the password. */
    pinHash: text('pin_hash'),
    createdAt: integer('created_at').notNull(),
    passwordSetAt: integer('password_set_at'),
  },
  (t) => [uniqueIndex('users_username').on(t.username)],
)

/**
 * A setup link's code (`/login/setup?code=…`): ≥ 128 random bits, single use, 24 hours. Only
 * its SHA-256 is kept, so a copy of the database cannot be turned into a way in.
 */
export const userSetupCodes = sqliteTable(
  'user_setup_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('user_setup_codes_user').on(t.userId)],
)

/**
 * A signed-in browser: the `lobby_session` cookie's SHA-256 (never the ID itself), its user,
 * when it started (12 h in all), and when it was last used (30 min idle for admin and manager).
 */
export const userSessions = sqliteTable(
  'user_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id),
    createdAt: integer('created_at').notNull(),
    lastSeenAt: integer('last_seen_at').notNull(),
  },
  (t) => [index('user_sessions_user').on(t.userId)],
)

/**
 * Failed sign-ins by username (known or not, so a lockout says nothing about which exist) and
 * address: 5 in 15 minutes lock the username for 15 minutes; 20 in a minute from one address
 * refuse that address. Rows older than the window are deleted as new ones come.
 */
export const signInFailures = sqliteTable(
  'sign_in_failures',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    username: text('username').notNull(),
    /** The caller's address (contract §16: 20 failures a minute from one address are refused). */
    address: text('address').notNull().default('unknown'),
    at: integer('at').notNull(),
  },
  (t) => [
    index('sign_in_failures_username_at').on(t.username, t.at),
    index('sign_in_failures_address_at').on(t.address, t.at),
    index('sign_in_failures_at').on(t.at),
  ],
)

/**
 * A clerk's time at a desk (contract §16): `signed_in` from the desk sign-in to "Sign out",
 * the counter's close, the end of the business day or another sign-in; `break` from "Close
 * counter" with a reason to the counter's next opening or the clerk's next sign-in. An open
 * interval has no `endedAt`; at most one open `signed_in` per counter and per clerk. The staff
 * report (§16) sums them per clerk and the business day (`businessDay`, local to the counter's
 * location) they started in; the end of the day ends them, so none spans two days.
 */
export const staffIntervals = sqliteTable(
  'staff_intervals',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: text('user_id').notNull().references(() => users.id),
    /** Kept beside the ID: the report names the clerk as the ticket events do. */
    username: text('username').notNull(),
    queueUnitId: text('queue_unit_id').notNull(),
    locationId: text('location_id').notNull(),
    counterId: text('counter_id').notNull(),
    /** The desk device the clerk signed in at (null for a break). */
    deviceId: text('device_id'),
    kind: text('kind', { enum: ['signed_in', 'break'] }).notNull(),
    /** A break's reason, one of the unit's `breakReasons`; null for `signed_in`. */
    reason: text('reason'),
    businessDay: text('business_day').notNull(),
    startedAt: integer('started_at').notNull(),
    endedAt: integer('ended_at'),
  },
  (t) => [
    index('staff_intervals_open_counter').on(t.counterId, t.endedAt),
    index('staff_intervals_open_user').on(t.userId, t.endedAt),
    index('staff_intervals_unit_day').on(t.queueUnitId, t.businessDay),
  ],
)
