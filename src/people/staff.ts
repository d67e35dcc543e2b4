import type { Db } from '../db/open'
import { addDays, localDate, zonedInstant } from '../platform/time'

/** The clerk signed in at a desk (contract §16), as the desk's credential and view carry them. */
export interface DeskClerk {
  userId: string
  username: string
  displayName: string
}

/** A counter as the intervals need it: where it is, and its location's time zone (the business day). */
export interface IntervalCounter {
  id: string
  queueUnitId: string
  locationId: string
  timezone: string
}

/** What a desk request needs to know of its counter's clerk: who, and whether the unit requires one. */
export interface DeskClerkState {
  required: boolean
  clerk: DeskClerk | null
}

/** The daily close's look, apart: it runs before the server serves, where nothing else here is needed. */
function prepareOpenDays(db: Db) {
  return db.$client.query<{ locationId: string; day: string }, []>(
    'SELECT location_id AS locationId, min(business_day) AS day FROM staff_intervals WHERE ended_at IS NULL GROUP BY location_id',
  )
}

function prepareIntervals(db: Db) {
  const sql = db.$client
  return {
    // One indexed lookup (staff_intervals_open_counter) beside the unit's row: a disabled
    // account no longer counts as signed in.
    deskStmt: sql.query<{ deskSignIn: string; userId: string | null; username: string | null; displayName: string | null }, [string, string]>(
      `SELECT q.desk_sign_in AS deskSignIn, u.id AS userId, u.username AS username, u.display_name AS displayName
       FROM queue_units q
       LEFT JOIN staff_intervals s ON s.counter_id = ?2 AND s.ended_at IS NULL AND s.kind = 'signed_in'
       LEFT JOIN users u ON u.id = s.user_id AND u.state = 'active'
       WHERE q.id = ?1
       ORDER BY s.started_at DESC LIMIT 1`,
    ),
    endUserStmt: sql.query<{ counterId: string; queueUnitId: string }, [string, number]>(
      'UPDATE staff_intervals SET ended_at = ?2 WHERE user_id = ?1 AND ended_at IS NULL RETURNING counter_id AS counterId, queue_unit_id AS queueUnitId',
    ),
    endCounterSignInStmt: sql.query<{ userId: string; username: string }, [string, number]>(
      `UPDATE staff_intervals SET ended_at = ?2 WHERE counter_id = ?1 AND kind = 'signed_in' AND ended_at IS NULL RETURNING user_id AS userId, username`,
    ),
    endCounterBreaksStmt: sql.query<never, [string, number]>(
      `UPDATE staff_intervals SET ended_at = ?2 WHERE counter_id = ?1 AND kind = 'break' AND ended_at IS NULL`,
    ),
    insertStmt: sql.query<never, [string, string, string, string, string, string | null, string, string | null, string, number]>(
      `INSERT INTO staff_intervals (user_id, username, queue_unit_id, location_id, counter_id, device_id, kind, reason, business_day, started_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`,
    ),
    openBeforeStmt: sql.query<{ id: number; businessDay: string; startedAt: number }, [string, string]>(
      'SELECT id, business_day AS businessDay, started_at AS startedAt FROM staff_intervals WHERE location_id = ?1 AND ended_at IS NULL AND business_day < ?2',
    ),
    endOneStmt: sql.query<never, [number, number]>('UPDATE staff_intervals SET ended_at = ?2 WHERE id = ?1'),
  }
}

/**
 * A clerk's time at the desk, `staff_intervals` (src/people/tables.ts): sign-in, sign-out, breaks
 * and the end of the day. Every method that writes is synchronous and runs inside the caller's
 * write (`deps.writes`), beside the change that causes it (a sign-in, a counter's close or
 * opening, the daily close), so an interval never disagrees with the counter. Raw statements,
 * prepared once, on first use: `deskClerk` runs on every desk request.
 */
export class StaffIntervals {
  private prepared: ReturnType<typeof prepareIntervals> | undefined
  private openDaysStmt: ReturnType<typeof prepareOpenDays> | undefined

  constructor(private readonly db: Db) {}

  /** Prepared on first use (not while the server starts). */
  private get parts(): ReturnType<typeof prepareIntervals> {
    return (this.prepared ??= prepareIntervals(this.db))
  }

  /** Who is signed in at `counterId`, and whether its unit (`queueUnitId`) requires a clerk there. */
  deskClerk(queueUnitId: string, counterId: string): DeskClerkState {
    const row = this.parts.deskStmt.get(queueUnitId, counterId)
    if (row === null) return { required: false, clerk: null }
    return {
      required: row.deskSignIn === 'required',
      clerk: row.userId === null ? null : { userId: row.userId, username: row.username!, displayName: row.displayName! },
    }
  }

  /**
   * `clerk` signs in at `counter` from desk `deviceId`: their open intervals end wherever they
   * are (another desk's sign-in, a break), so does any other clerk's sign-in here; a new
   * `signed_in` starts. Returns the queue units whose desks changed (for the live feeds).
   */
  signIn(clerk: DeskClerk, counter: IntervalCounter, deviceId: string, now: number): Set<string> {
    const touched = new Set([counter.queueUnitId])
    for (const ended of this.parts.endUserStmt.all(clerk.userId, now)) touched.add(ended.queueUnitId)
    this.parts.endCounterSignInStmt.all(counter.id, now)
    this.parts.insertStmt.run(clerk.userId, clerk.username, counter.queueUnitId, counter.locationId, counter.id, deviceId, 'signed_in', null, localDate(now, counter.timezone), now)
    return touched
  }

  /** The clerk signed in at `counterId` signs out ("Sign out", or the counter's close); returns who did, or null. */
  signOut(counterId: string, now: number): { userId: string; username: string } | null {
    return this.parts.endCounterSignInStmt.all(counterId, now)[0] ?? null
  }

  /** The counter closes: its clerk signs out and, with a reason, starts a break there. Returns who signed out. */
  counterClosed(counter: IntervalCounter, reason: string | null, now: number): { userId: string; username: string } | null {
    const clerk = this.signOut(counter.id, now)
    if (clerk !== null && reason !== null) {
      this.parts.insertStmt.run(clerk.userId, clerk.username, counter.queueUnitId, counter.locationId, counter.id, null, 'break', reason, localDate(now, counter.timezone), now)
    }
    return clerk
  }

  /** The counter opens again: the breaks taken there end. */
  counterOpened(counterId: string, now: number): void {
    this.parts.endCounterBreaksStmt.run(counterId, now)
  }

  /** A person's every open interval ends now (`lobby users disable` / `reset`). */
  endAllOf(userId: string, now: number): number {
    return this.parts.endUserStmt.all(userId, now).length
  }

  /** Per location, the earliest business day with an interval still open (the daily close's "what is due"). */
  openDays(): { locationId: string; day: string }[] {
    return (this.openDaysStmt ??= prepareOpenDays(this.db)).all()
  }

  /**
   * The daily close of a location (contract §16): every interval still open from a business day
   * before `today` ends at the end of its day (the location's local midnight), not at the
   * moment the close ran, so none spans two days and downtime adds no time. Returns how many.
   */
  closeDay(locationId: string, timezone: string, today: string, now: number): number {
    const open = this.parts.openBeforeStmt.all(locationId, today)
    for (const interval of open) this.parts.endOneStmt.run(interval.id, Math.max(interval.startedAt, dayEnd(interval.businessDay, timezone, now)))
    return open.length
  }
}

/**
 * The end of business day `day` in `timezone`: the first instant of the next local day (its
 * midnight; where a daylight-saving change skips midnight, as America/Santiago's in September,
 * the 01:00 it jumps to), never later than `now`.
 */
export function dayEnd(day: string, timezone: string, now: number): number {
  return Math.min(zonedInstant(addDays(day, 1), '00:00', timezone), now)
}
