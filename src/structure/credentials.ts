import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core'

/** A tenant: owns widgets, prayer sources, queue units and workspace API keys. */
export const workspaces = sqliteTable('workspaces', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/**
 * Every secret Lobby hands out. One row per secret *version*: rotating a key inserts a new
 * row and gives the old one an `expiresAt` (the grace period), so "kind + owner + name" may
 * have several rows but only one with `supersededAt` null.
 * API keys and display tokens keep only `secretHash` (SHA-256 hex); webhook signing secrets
 * must stay readable to sign, so they keep `secret` and no hash.
 */
export const credentials = sqliteTable(
  'credentials',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['workspace', 'queue', 'display', 'webhook', 'device'] }).notNull(),
    ownerId: text('owner_id').notNull(),
    name: text('name').notNull(),
    secretHash: text('secret_hash'),
    secret: text('secret'),
    /** JSON array of scopes (queue keys only). */
    scopes: text('scopes'),
    /** JSON array of allowed location IDs, null = all (queue keys only). */
    locations: text('locations'),
    /** JSON array of allowed service IDs, null = all (queue keys only). */
    services: text('services'),
    issuePerMinute: integer('issue_per_minute'),
    readPerMinute: integer('read_per_minute'),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at'),
    revokedAt: integer('revoked_at'),
    /** Set when a newer version replaced this one. */
    supersededAt: integer('superseded_at'),
    /** End of the grace period of a rotated-out version; null = no expiry. */
    expiresAt: integer('expires_at'),
  },
  (t) => [
    uniqueIndex('credentials_secret_hash').on(t.secretHash),
    index('credentials_owner').on(t.kind, t.ownerId, t.name),
  ],
)
