import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core'

/**
 * A paired browser (contract §7). Its secret is a `credentials` row of kind `device`
 * (`lbv_…`, stored hashed) with the same name; this row says what the device is for: its role
 * and its binding. A revoked device keeps its row (the list shows it as revoked).
 */
export const devices = sqliteTable(
  'devices',
  {
    /** The `credentials` row holding the secret's hash. */
    credentialId: text('credential_id').primaryKey(),
    /** Unique among devices; `lobby devices revoke --name` finds it by this. */
    name: text('name').notNull(),
    role: text('role', { enum: ['desk', 'kiosk', 'display', 'reports'] }).notNull(),
    workspaceId: text('workspace_id').notNull(),
    queueUnitId: text('queue_unit_id'),
    locationId: text('location_id'),
    counterId: text('counter_id'),
    /** JSON array of service IDs (kiosk only); null = every service of the location. */
    services: text('services'),
    pairedAt: integer('paired_at').notNull(),
  },
  (t) => [index('devices_name').on(t.name)],
)

/**
 * A pairing code printed by `lobby devices pair`: six digits, single use, valid until
 * `expiresAt`. It carries the role and binding the device will get. Codes are short-lived
 * and useless once used, so they are kept as written (a six-digit code has no entropy a hash
 * could protect); used and expired codes are deleted when a new code is made.
 */
export const pairingCodes = sqliteTable('pairing_codes', {
  code: text('code').primaryKey(),
  role: text('role', { enum: ['desk', 'kiosk', 'display', 'reports'] }).notNull(),
  workspaceId: text('workspace_id').notNull(),
  queueUnitId: text('queue_unit_id'),
  locationId: text('location_id'),
  counterId: text('counter_id'),
  services: text('services'),
  /** `--name`, or null: the device's name then comes from the pairing request or the binding. */
  name: text('name'),
  createdAt: integer('created_at').notNull(),
  expiresAt: integer('expires_at').notNull(),
})
