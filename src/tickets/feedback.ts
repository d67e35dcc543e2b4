// Contract §20: the customers' ratings of completed visits (`ticket_feedback`), kept here with
// every other statement over ticket tables (docs/architecture.md). One row per ticket.
import type { Database, Statement } from 'bun:sqlite'
import type { TicketRow } from './store'

/** A rating as stored: the ticket's service, counter, clerk and business day copied at rating time. */
export interface TicketFeedbackRow {
  ticketId: string
  queueUnitId: string
  locationId: string
  serviceId: string
  counterId: string | null
  /** The completing event's actor when it was a clerk (`clerk:<username>`), else null. */
  clerk: string | null
  businessDay: string
  rating: number
  comment: string | null
  createdAt: number
}

export class TicketFeedback {
  private readonly byTicketStmt: Statement<TicketFeedbackRow, [string]>
  private readonly insertStmt: Statement<unknown, [string, string, string, string, string | null, string | null, string, number, string | null, number]>
  private readonly completedByStmt: Statement<{ actor: string }, [string]>
  private readonly rangeStmt: Statement<TicketFeedbackRow, [string, string, string | null]>

  constructor(client: Database) {
    const columns = `ticket_id AS ticketId, queue_unit_id AS queueUnitId, location_id AS locationId, service_id AS serviceId, counter_id AS counterId,
      clerk, business_day AS businessDay, rating, comment, created_at AS createdAt`
    this.byTicketStmt = client.query(`SELECT ${columns} FROM ticket_feedback WHERE ticket_id = ?1`)
    this.insertStmt = client.query(`INSERT INTO ticket_feedback (ticket_id, queue_unit_id, location_id, service_id, counter_id, clerk, business_day, rating, comment, created_at)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`)
    this.completedByStmt = client.query("SELECT actor FROM ticket_events WHERE ticket_id = ?1 AND type = 'completed' ORDER BY id DESC LIMIT 1")
    // ?3: a JSON array of queue unit IDs, or null for every unit.
    this.rangeStmt = client.query(`SELECT ${columns} FROM ticket_feedback
      WHERE business_day BETWEEN ?1 AND ?2 AND (?3 IS NULL OR queue_unit_id IN (SELECT value FROM json_each(?3)))
      ORDER BY business_day, created_at, ticket_id`)
  }

  /** The ticket's rating, or null. */
  of(ticketId: string): TicketFeedbackRow | null {
    return this.byTicketStmt.get(ticketId) ?? null
  }

  /**
   * Stores the rating of a COMPLETED ticket (the caller checked it may be given: once, within
   * its window), inside the caller's write. The clerk is the completing event's actor when that
   * was a clerk at a desk (contract §16 Attribution); a desk without one, or the daily close, leaves it null.
   */
  record(ticket: TicketRow, rating: number, comment: string | null, now: number): TicketFeedbackRow {
    const actor = this.completedByStmt.get(ticket.id)?.actor ?? null
    const row: TicketFeedbackRow = {
      ticketId: ticket.id, queueUnitId: ticket.queueUnitId, locationId: ticket.locationId, serviceId: ticket.serviceId, counterId: ticket.counterId,
      clerk: actor !== null && actor.startsWith('clerk:') ? actor : null,
      businessDay: ticket.businessDay, rating, comment, createdAt: now,
    }
    this.insertStmt.run(row.ticketId, row.queueUnitId, row.locationId, row.serviceId, row.counterId, row.clerk, row.businessDay, row.rating, row.comment, row.createdAt)
    return row
  }

  /** Ratings of business days `from`…`to` (inclusive) in `queueUnitIds` (null: every unit), by day then time. */
  between(queueUnitIds: string[] | null, from: string, to: string): TicketFeedbackRow[] {
    return this.rangeStmt.all(from, to, queueUnitIds === null ? null : JSON.stringify(queueUnitIds))
  }
}
