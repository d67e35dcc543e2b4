// Retention's deletes over ticket state (tickets, ticket_events, ticket_calls, ticket_sequences),
// kept here with every other statement over those tables (docs/architecture.md).
import type { Db } from '../db/open'

export interface TicketRetentionBatch {
  tickets: number
  events: number
  calls: number
  /** Contract §20: customers' ratings of the deleted tickets (deleted first: ticket_feedback.ticket_id references tickets.id). */
  feedback: number
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
 * so the live counts stay true), with their history (`ticket_events`), calls and ratings (`ticket_feedback`, contract §20). Tickets are
 * visited in rowid order from `afterRowid`, so the batches of one run read the table once.
 * The batch that finds nothing more also deletes the number counters (`ticket_sequences`) of
 * business days that ended over a day before the cutoff (a day is local to its location, at
 * most 14 hours from UTC). Report roll-ups (service_stats) are not touched. With
 * `replicatedThrough` (the head-office replication cursor), tickets with a later event are kept.
 */
export function deleteTicketsCreatedBefore(db: Db, cutoff: number, afterRowid: number, limit: number, replicatedThrough: number | null = null): TicketRetentionBatch {
  const client = db.$client
  return client.transaction((): TicketRetentionBatch => {
    // NOT INDEXED: a walk along the rowid from `afterRowid`. Left to itself the planner takes the
    // status index, visits every closed ticket and sorts them for each batch (1,000,000 tickets:
    // 700 s instead of seconds).
    // While head office replication runs (contract §14), a ticket with an event it has not
    // received yet stays until it has: the event id is the replication cursor's sequence.
    const unreplicated = replicatedThrough === null ? '' : ' AND NOT EXISTS (SELECT 1 FROM ticket_events e WHERE e.ticket_id = tickets.id AND e.id > ?4)'
    const params: number[] = replicatedThrough === null ? [afterRowid, cutoff, limit] : [afterRowid, cutoff, limit, replicatedThrough]
    const rows = client
      .query<{ rowid: number; id: string }, number[]>(
        `SELECT rowid, id FROM tickets NOT INDEXED WHERE rowid > ?1 AND created_at < ?2 AND status IN ${FINAL_STATUSES}${unreplicated} ORDER BY rowid LIMIT ?3`,
      )
      .all(...params)
    let events = 0
    let calls = 0
    let feedback = 0
    const deleteFeedback = client.query<unknown, [string]>('DELETE FROM ticket_feedback WHERE ticket_id = ?1')
    const deleteEvents = client.query<unknown, [string]>('DELETE FROM ticket_events WHERE ticket_id = ?1')
    const deleteCalls = client.query<unknown, [string]>('DELETE FROM ticket_calls WHERE ticket_id = ?1')
    const deleteTicket = client.query<unknown, [number]>('DELETE FROM tickets WHERE rowid = ?1')
    for (const row of rows) {
      events += deleteEvents.run(row.id).changes
      calls += deleteCalls.run(row.id).changes
      feedback += deleteFeedback.run(row.id).changes
      deleteTicket.run(row.rowid)
    }
    const done = rows.length < limit
    let sequences = 0
    if (done) {
      const lastDay = new Date(cutoff - DAY_MS).toISOString().slice(0, 10)
      sequences = client.query<unknown, [string]>('DELETE FROM ticket_sequences WHERE business_day < ?1').run(lastDay).changes
    }
    return { tickets: rows.length, events, calls, feedback, sequences, afterRowid: rows.at(-1)?.rowid ?? afterRowid, done }
  }).immediate()
}
