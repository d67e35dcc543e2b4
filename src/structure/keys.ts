import { and, eq, isNull } from 'drizzle-orm'
import type { Db } from '../db/open'
import { credentials } from './credentials'
import { hashSecret, SECRET_PREFIX, type CredentialKind } from '../platform/credentials'
import { randomToken, type IdGenerator } from '../platform/ids'
import { isoOrNull } from '../platform/clock'

export const CREDENTIAL_KINDS = ['workspace', 'queue', 'display', 'webhook'] as const satisfies readonly CredentialKind[]

/** A transaction or the database: both run the same Drizzle queries. */
type Tx = Pick<Db, 'select' | 'insert' | 'update'>

/** Properties a queue key carries; other kinds leave them null. */
export interface KeyProperties {
  scopes: string[] | null
  locations: string[] | null
  services: string[] | null
  issuePerMinute: number | null
  readPerMinute: number | null
}

export const NO_PROPERTIES: KeyProperties = { scopes: null, locations: null, services: null, issuePerMinute: null, readPerMinute: null }

/** A new secret: kind prefix + 256 random bits in base32. */
export function newSecret(kind: CredentialKind): string {
  return SECRET_PREFIX[kind] + randomToken(32)
}

/**
 * Stores a new secret version for kind/owner/name. API keys and display tokens keep only
 * the SHA-256 of the secret; webhook signing secrets keep the secret itself, since Lobby must
 * sign with it (the database file is owner-only for that reason).
 */
export function insertCredential(tx: Tx, ids: IdGenerator, kind: CredentialKind, ownerId: string, name: string, props: KeyProperties, now: number): string {
  const secret = newSecret(kind)
  tx.insert(credentials).values({
    id: ids.next('cred_'),
    kind,
    ownerId,
    name,
    secretHash: kind === 'webhook' ? null : hashSecret(secret),
    secret: kind === 'webhook' ? secret : null,
    scopes: props.scopes && JSON.stringify(props.scopes),
    locations: props.locations && JSON.stringify(props.locations),
    services: props.services && JSON.stringify(props.services),
    issuePerMinute: props.issuePerMinute,
    readPerMinute: props.readPerMinute,
    createdAt: now,
  }).run()
  return secret
}

/** Rows of kind/owner/name, newest first. */
function versions(tx: Tx, kind: CredentialKind, ownerId: string, name: string) {
  return tx.select().from(credentials)
    .where(and(eq(credentials.kind, kind), eq(credentials.ownerId, ownerId), eq(credentials.name, name)))
    .all()
    .sort((a, b) => b.createdAt - a.createdAt)
}

/** The version in use (not superseded), if any. */
export function currentVersion(tx: Tx, kind: CredentialKind, ownerId: string, name: string) {
  return tx.select().from(credentials)
    .where(and(eq(credentials.kind, kind), eq(credentials.ownerId, ownerId), eq(credentials.name, name), isNull(credentials.supersededAt)))
    .get()
}

export class KeyNotFoundError extends Error {}

export interface KeyListing {
  kind: CredentialKind
  owner: string
  name: string
  state: 'active' | 'grace' | 'rotated-out' | 'revoked'
  created: string
  lastUsed: string | null
  expires: string | null
}

/** Every credential version with its state; never a secret or a hash. */
export function listKeys(db: Db, now: number): KeyListing[] {
  return db.select().from(credentials).all()
    .sort((a, b) => a.kind.localeCompare(b.kind) || a.ownerId.localeCompare(b.ownerId) || a.name.localeCompare(b.name) || a.createdAt - b.createdAt)
    .map((row) => ({
      kind: row.kind,
      owner: row.ownerId,
      name: row.name,
      state: row.revokedAt !== null ? 'revoked'
        : row.expiresAt !== null && row.expiresAt <= now ? 'rotated-out'
        : row.supersededAt !== null ? 'grace'
        : 'active',
      created: isoOrNull(row.createdAt)!,
      lastUsed: isoOrNull(row.lastUsedAt),
      expires: isoOrNull(row.expiresAt),
    }))
}

/**
 * A new secret for an existing credential name, printed once by the caller. The version it
 * replaces keeps working for `graceSeconds` (0: it stops at once). Properties (scopes,
 * locations, limits) carry over. Rotating a revoked name issues a working key again.
 */
export function rotateKey(db: Db, ids: IdGenerator, kind: CredentialKind, ownerId: string, name: string, graceSeconds: number, now: number) {
  return db.transaction((tx) => {
    const all = versions(tx, kind, ownerId, name)
    const latest = all[0]
    if (latest === undefined) throw new KeyNotFoundError(`no ${kind} credential named "${name}" for ${ownerId}`)
    const current = all.find((row) => row.supersededAt === null)
    const expiresAt = now + graceSeconds * 1000
    if (current !== undefined) {
      tx.update(credentials)
        .set({ supersededAt: now, expiresAt: current.expiresAt === null ? expiresAt : Math.min(current.expiresAt, expiresAt) })
        .where(eq(credentials.id, current.id))
        .run()
    }
    const source = current ?? latest
    const secret = insertCredential(tx, ids, kind, ownerId, name, {
      scopes: source.scopes && JSON.parse(source.scopes),
      locations: source.locations && JSON.parse(source.locations),
      services: source.services && JSON.parse(source.services),
      issuePerMinute: source.issuePerMinute,
      readPerMinute: source.readPerMinute,
    }, now)
    return { kind, owner: ownerId, name, secret, previousWorksUntil: current ? isoOrNull(Math.max(now, expiresAt)) : null }
  }, { behavior: 'immediate' })
}

/** Every version of the credential stops working now. */
export function revokeKey(db: Db, kind: CredentialKind, ownerId: string, name: string, now: number) {
  return db.transaction((tx) => {
    const all = versions(tx, kind, ownerId, name)
    if (all.length === 0) throw new KeyNotFoundError(`no ${kind} credential named "${name}" for ${ownerId}`)
    tx.update(credentials)
      .set({ revokedAt: now })
      .where(and(eq(credentials.kind, kind), eq(credentials.ownerId, ownerId), eq(credentials.name, name), isNull(credentials.revokedAt)))
      .run()
    return { kind, owner: ownerId, name, revoked: all.filter((r) => r.revokedAt === null).length }
  }, { behavior: 'immediate' })
}
