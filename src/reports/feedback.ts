import type { TicketFeedback } from '../tickets'
import type { FeedbackReportData, FeedbackRatingRow, FeedbackCommentRow } from './model'
import { parseRange } from './service'

/** Who reads the feedback report: its units (null: every unit), and a key's location and service lists (null: all). */
export interface FeedbackScope {
  queueUnitIds: string[] | null
  locations: string[] | null
  services: string[] | null
}

const round2 = (n: number) => Math.round(n * 100) / 100
const clerkName = (stored: string | null) => (stored === null ? null : stored.slice('clerk:'.length))

/**
 * Contract §20 `GET reports/feedback`: the customers' ratings of the business days in the range,
 * read from `ticket_feedback` (each row keeps the ticket's service, counter, clerk and day as
 * they were when it was rated). One `ratings` row per day, location, service, counter and clerk
 * with the count, the sum and the average (2 decimals); the pages add rows up by service, counter
 * or clerk with the sums, so no average of averages. `comments`: every rating with a comment, by
 * day and time, its text exactly as given (the pages show it as text).
 */
export class FeedbackReport {
  constructor(private readonly feedback: TicketFeedback) {}

  read(scope: FeedbackScope, query: { from?: unknown; to?: unknown }): FeedbackReportData {
    const range = parseRange(query.from, query.to)
    const groups = new Map<string, FeedbackRatingRow>()
    const comments: FeedbackCommentRow[] = []
    for (const r of this.feedback.between(scope.queueUnitIds, range.from, range.to)) {
      if (scope.locations !== null && !scope.locations.includes(r.locationId)) continue
      if (scope.services !== null && !scope.services.includes(r.serviceId)) continue
      const clerk = clerkName(r.clerk)
      const key = JSON.stringify([r.businessDay, r.locationId, r.serviceId, r.counterId, clerk])
      let row = groups.get(key)
      if (row === undefined) {
        row = { date: r.businessDay, locationId: r.locationId, serviceId: r.serviceId, counterId: r.counterId, clerk, count: 0, ratingSum: 0, average: 0 }
        groups.set(key, row)
      }
      row.count += 1
      row.ratingSum += r.rating
      row.average = round2(row.ratingSum / row.count)
      if (r.comment !== null) {
        comments.push({ date: r.businessDay, locationId: r.locationId, serviceId: r.serviceId, counterId: r.counterId, clerk, rating: r.rating, comment: r.comment, ratedAt: new Date(r.createdAt).toISOString() })
      }
    }
    const ratings = [...groups.values()].sort((a, b) => {
      const ka = [a.date, a.locationId, a.serviceId, a.counterId ?? '', a.clerk ?? '']
      const kb = [b.date, b.locationId, b.serviceId, b.counterId ?? '', b.clerk ?? '']
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1
      return 0
    })
    return { ratings, comments }
  }
}
