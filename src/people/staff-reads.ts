import type { Database } from 'bun:sqlite'

/** A clerk's time of one kind on one business day, summed over its intervals in the units read. */
export interface StaffTimeRow {
  date: string
  username: string
  kind: 'signed_in' | 'break'
  /** A break's reason (one of the unit's `breakReasons` when it was taken); null for `signed_in`. */
  reason: string | null
  seconds: number
}

/**
 * What the staff report (contract §16, src/reports/) reads of the people feature: display
 * names by username, and the time clerks spent signed in and on break by business day, summed
 * from `staff_intervals` (the desk sign-in writes them). Statements prepared once per owner.
 */
export class StaffReads {
  private readonly namesStmt
  private readonly timeStmt

  constructor(client: Database) {
    this.namesStmt = client.query<{ username: string; displayName: string }, [string]>(
      'SELECT username, display_name AS displayName FROM users WHERE username IN (SELECT value FROM json_each(?1))',
    )
    // An open interval (no end yet) counts up to `now`; whole seconds, rounded down, never below
    // 0. The end of the business day ends every interval (src/people/tables.ts), so each belongs
    // to the one day it started in. Units as a JSON array, null: every unit.
    this.timeStmt = client.query<StaffTimeRow, [string | null, string, string, number]>(`
      SELECT business_day AS date, username, kind, reason,
        sum(max(0, (coalesce(ended_at, ?4) - started_at) / 1000)) AS seconds
      FROM staff_intervals
      WHERE (?1 IS NULL OR queue_unit_id IN (SELECT value FROM json_each(?1))) AND business_day BETWEEN ?2 AND ?3
      GROUP BY business_day, username, kind, reason
      ORDER BY business_day, username, kind, reason`)
  }

  /** The display names of the given usernames that have an account (an unknown one is left out). */
  displayNames(usernames: readonly string[]): Map<string, string> {
    if (usernames.length === 0) return new Map()
    return new Map(this.namesStmt.all(JSON.stringify(usernames)).map((r) => [r.username, r.displayName]))
  }

  /** Seconds signed in and on break (per reason) per clerk and business day in the range of the units (null: every unit). */
  time(queueUnitIds: readonly string[] | null, from: string, to: string, now: number): StaffTimeRow[] {
    return this.timeStmt.all(queueUnitIds === null ? null : JSON.stringify(queueUnitIds), from, to, now)
  }
}
