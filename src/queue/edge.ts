import { eq } from 'drizzle-orm'
import type { Db } from '../db/open'
import { ApiError } from '../platform/errors'
import { isoOrNull } from '../platform/clock'
import { queueUnits } from '../structure'
import { QueueCodes } from './errors'

/** The Edge-authority columns of a queue unit row. */
export interface EdgeColumns {
  edgeHolder: string | null
  edgeExpiresAt: number | null
}

export interface EdgeLease {
  holder: string
  /** Milliseconds since the epoch; null = until released. */
  expiresAt: number | null
}

/**
 * The lease in force at `now`, or null. A lease whose `expiresAt` is reached has ended on its
 * own: at `expiresAt` exactly the Queue Unit is no longer Edge-managed.
 */
export function activeEdgeLease(unit: EdgeColumns, now: number): EdgeLease | null {
  if (unit.edgeHolder === null) return null
  if (unit.edgeExpiresAt !== null && unit.edgeExpiresAt <= now) return null
  return { holder: unit.edgeHolder, expiresAt: unit.edgeExpiresAt }
}

/**
 * public-api.md "States and transitions": while an Edge holds authority, ticket issue (and,
 * contract §3, every queue mutation) is refused with 409 QUEUE_UNIT_EDGE_MANAGED.
 */
export function assertNotEdgeManaged(unit: EdgeColumns, now: number): void {
  const lease = activeEdgeLease(unit, now)
  if (lease === null) return
  throw new ApiError(
    409,
    QueueCodes.QUEUE_UNIT_EDGE_MANAGED,
    lease.expiresAt === null
      ? 'an Edge holds queue authority for this Queue Unit; queue changes go through the Edge'
      : `an Edge holds queue authority for this Queue Unit until ${isoOrNull(lease.expiresAt)}; queue changes go through the Edge`,
  )
}

/** A take or release the CLI cannot do: unknown unit, or a lease held by another Edge. */
export class EdgeAuthorityError extends Error {}

export interface EdgeAuthorityState {
  queueUnitId: string
  edgeManaged: boolean
  holder: string | null
  expiresAt: string | null
  /** Who held a lease in force just before this change (null: nobody). */
  previousHolder: string | null
}

/** Longest lease a TTL may ask for: a year. */
export const MAX_EDGE_TTL_SECONDS = 365 * 86_400

/** Holder names: 1–200 characters, no control characters, not only spaces. */
export function isValidHolderName(holder: string): boolean {
  return /^[^\u0000-\u001f\u007f]{1,200}$/u.test(holder) && holder.trim().length > 0
}

function unitRow(db: Pick<Db, 'select'>, queueUnitId: string) {
  const row = db.select({ id: queueUnits.id, edgeHolder: queueUnits.edgeHolder, edgeExpiresAt: queueUnits.edgeExpiresAt })
    .from(queueUnits).where(eq(queueUnits.id, queueUnitId)).get()
  if (row === undefined) throw new EdgeAuthorityError(`no queue unit "${queueUnitId}"`)
  return row
}

/**
 * An Edge takes Queue authority: `holder` names it; with `ttlSeconds` the lease ends on its own
 * that many seconds from now, without it the lease lasts until released. The same holder may
 * renew (the new TTL replaces the old one); another holder's lease in force must be released
 * first. The server reads the columns on every request, so the change applies at once.
 */
export function takeEdgeAuthority(db: Db, queueUnitId: string, holder: string, ttlSeconds: number | null, now: number): EdgeAuthorityState {
  if (!isValidHolderName(holder)) throw new EdgeAuthorityError('holder must be 1 to 200 characters without control characters')
  if (ttlSeconds !== null && (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_EDGE_TTL_SECONDS)) {
    throw new EdgeAuthorityError(`ttl must be a whole number of seconds from 1 to ${MAX_EDGE_TTL_SECONDS}`)
  }
  return db.transaction((tx) => {
    const unit = unitRow(tx, queueUnitId)
    const current = activeEdgeLease(unit, now)
    if (current !== null && current.holder !== holder) {
      throw new EdgeAuthorityError(
        `queue unit "${queueUnitId}" is held by Edge "${current.holder}"` +
          (current.expiresAt === null ? '' : ` until ${isoOrNull(current.expiresAt)}`) +
          '; release it first',
      )
    }
    const expiresAt = ttlSeconds === null ? null : now + ttlSeconds * 1000
    tx.update(queueUnits).set({ edgeHolder: holder, edgeExpiresAt: expiresAt }).where(eq(queueUnits.id, queueUnitId)).run()
    return { queueUnitId, edgeManaged: true, holder, expiresAt: isoOrNull(expiresAt), previousHolder: current?.holder ?? null }
  }, { behavior: 'immediate' })
}

/** The Edge gives authority back; releasing a unit nobody holds is not an error. */
export function releaseEdgeAuthority(db: Db, queueUnitId: string, now: number): EdgeAuthorityState {
  return db.transaction((tx) => {
    const unit = unitRow(tx, queueUnitId)
    const current = activeEdgeLease(unit, now)
    tx.update(queueUnits).set({ edgeHolder: null, edgeExpiresAt: null }).where(eq(queueUnits.id, queueUnitId)).run()
    return { queueUnitId, edgeManaged: false, holder: null, expiresAt: null, previousHolder: current?.holder ?? null }
  }, { behavior: 'immediate' })
}
