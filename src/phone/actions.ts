import type { PhoneDeps } from './deps'
import { ApiError } from '../platform/errors'
import { encodeActor } from '../platform/actor'
import type { TicketRow } from '../tickets'
import { PhoneCodes } from './errors'
import { feedbackOpen, type PhoneService } from './service'
import { ticketNotFound } from './live'

/** Contract §20: the longest comment, in code points (contract §2). */
export const MAX_COMMENT = 500

/** A rating as the route checked its shape: `rating` 1–5, `comment` plain text or absent. */
export interface FeedbackInput {
  rating: number
  comment?: string
}

/**
 * What a customer may do from the phone page (contract §20), free of HTTP. Each runs inside a
 * write of `deps.writes` (the route runs it in `writes.run`) and reads the ticket again there,
 * so a desk's call a moment earlier wins: the customer's move is then refused in words.
 * The actor is the customer, `customer:<ticket ID>` (contract §16 Attribution).
 */
export class PhoneActions {
  constructor(private readonly deps: PhoneDeps, private readonly phone: PhoneService) {}

  private ticket(code: string): TicketRow {
    const row = this.phone.ticketOf(code)
    if (row === null) throw ticketNotFound()
    return row
  }

  private actor(row: TicketRow): string {
    return encodeActor({ type: 'customer', id: row.id })
  }

  /** "Leave the queue": WAITING→CANCELLED through the tickets owner's cancel (event and webhook `ticket.cancelled`). */
  leave(code: string, now: number): TicketRow {
    const row = this.ticket(code)
    return this.deps.tickets.cancel(row, this.actor(row), now)
  }

  /** "I need more time": behind the next 3 tickets of its line, at most twice (`Tickets.moreTime`). */
  moreTime(code: string, now: number): TicketRow {
    const row = this.ticket(code)
    return this.deps.tickets.moreTime(row, this.actor(row), now)
  }

  /**
   * The rating of a completed visit: once per ticket (409 FEEDBACK_ALREADY_GIVEN), only a
   * COMPLETED ticket (409 TICKET_NOT_COMPLETED), within 24 hours of its completion (409
   * FEEDBACK_WINDOW_CLOSED). The comment is stored as given (trimmed; empty is none) and
   * every page shows it as text.
   */
  feedback(code: string, input: FeedbackInput, now: number): void {
    const row = this.ticket(code)
    if (row.status !== 'COMPLETED') {
      throw new ApiError(409, PhoneCodes.TICKET_NOT_COMPLETED, `only a completed visit can be rated; this ticket is ${row.status}`)
    }
    const feedback = this.deps.tickets.feedback
    if (feedback.of(row.id) !== null) throw new ApiError(409, PhoneCodes.FEEDBACK_ALREADY_GIVEN, 'this visit was rated already')
    if (!feedbackOpen(row, now)) throw new ApiError(409, PhoneCodes.FEEDBACK_WINDOW_CLOSED, 'a visit can be rated within 24 hours of its end')
    const comment = input.comment?.trim() ?? ''
    feedback.record(row, input.rating, comment === '' ? null : comment, now)
    // The phones waiting on this ticket's unit hear of it: its page shows "Thank you".
    this.deps.tickets.touch(row.queueUnitId)
  }
}
