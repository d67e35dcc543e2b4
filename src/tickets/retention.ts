// Retention's deletes over ticket state (tickets, ticket_events, ticket_calls, ticket_sequences),
// kept here with every other statement over those tables (docs/architecture.md).
import type { Db } from '../db/open'

export interface TicketRetentionBatch {
  tickets: number
  events: number
  calls: number
  /** Per-day number counters of finished days, removed with the last batch. */
  sequences: number
  /** Where the next batch starts (tickets' rowid); pass it back in. */
  afterRowid: number
  /** Every ticket older than the cutoff is gone. */
  done: boolean
}

const FINAL_STATUSES = "('COMPLETED', 'NO_SHOW', 'CANCELLED')"
const DAY_MS = 86_400_000

/**
 * Deletes, in one immediate transaction, up to `limit` tickets created before `cutoff` that are
 * closed (COMPLETED, NO_SHOW, CANCELLED: an open ticket is never deleted, whatever its age,
 * so the live counts stay true), with their history (`ticket_events`) and calls. Tickets are
 * visited in rowid order from `afterRowid`, so the batches of one run read the table once.
 * The batch that finds nothing more also deletes the number counters (`ticket_sequences`) of
 * business days that ended over a day before the cutoff (a day is local to its location, at
 * most 14 hours from UTC). Report roll-ups (service_stats) are not touched.
 */
export function deleteTicketsCreatedBefore(db: Db, cutoff: number, afterRowid: number, limit: number): TicketRetentionBatch {
  const client = db.$client
  return client.transaction((): TicketRetentionBatch => {
    // NOT INDEXED: a walk along the rowid from `afterRowid`. Left to itself the planner takes the
    // status index, visits every closed ticket and sorts them for each batch (1,000,000 tickets:
    // 700 s instead of seconds).
    const rows = client
      .query<{ rowid: number; id: string }, [number, number, number]>(
        `SELECT rowid, id FROM tickets NOT INDEXED WHERE rowid > ?1 AND created_at < ?2 AND status IN ${FINAL_STATUSES} ORDER BY rowid LIMIT ?3`,
      )
      .all(afterRowid, cutoff, limit)
    let events = 0
    let calls = 0
    const deleteEvents = client.query<unknown, [string]>('DELETE FROM ticket_events WHERE ticket_id = ?1')
    const deleteCalls = client.query<unknown, [string]>('DELETE FROM ticket_calls WHERE ticket_id = ?1')
    const deleteTicket = client.query<unknown, [number]>('DELETE FROM tickets WHERE rowid = ?1')
    for (const row of rows) {
      events += deleteEvents.run(row.id).changes
      calls += deleteCalls.run(row.id).changes
      deleteTicket.run(row.rowid)
    }
    const done = rows.length < limit
    let sequences = 0
    if (done) {
      const lastDay = new Date(cutoff - DAY_MS).toISOString().slice(0, 10)
      sequences = client.query<unknown, [string]>('DELETE FROM ticket_sequences WHERE business_day < ?1').run(lastDay).changes
    }
    return { tickets: rows.length, events, calls, sequences, afterRowid: rows.at(-1)?.rowid ?? afterRowid, done }
  }).immediate()
}
