import type { Db } from '../db/open'
import { isoOrNull } from '../platform/clock'

export interface DeliveryListing {
  id: string
  webhookId: string
  ticketId: string
  event: string
  status: 'PENDING' | 'DELIVERED' | 'FAILED'
  attempts: number
  nextAttemptAt: string | null
  lastError: string | null
  createdAt: string
  deliveredAt: string | null
}

/** Deliveries, newest first (at most `limit`), optionally only the failed ones. */
export function listDeliveries(db: Db, options: { failedOnly: boolean; limit?: number }): DeliveryListing[] {
  const rows = db.$client.query<Record<string, any>, [number]>(`
    SELECT id, webhook_id, ticket_id, event_type, status, attempts, next_attempt_at, last_error, created_at, delivered_at
    FROM webhook_deliveries ${options.failedOnly ? "WHERE status = 'FAILED'" : ''}
    ORDER BY rowid DESC LIMIT ?`).all(options.limit ?? 1000)
  return rows.map((r) => ({
    id: r.id, webhookId: r.webhook_id, ticketId: r.ticket_id, event: r.event_type, status: r.status,
    attempts: r.attempts, nextAttemptAt: r.status === 'PENDING' ? isoOrNull(r.next_attempt_at) : null,
    lastError: r.last_error, createdAt: isoOrNull(r.created_at)!, deliveredAt: isoOrNull(r.delivered_at),
  }))
}

/**
 * Queues a delivery again (failed or delivered): attempts restart and a new 24-hour retry
 * window opens now. The body, event ID and order among the ticket's events stay as they were.
 */
export function redeliver(db: Db, id: string, now: number): boolean {
  const result = db.$client
    .query("UPDATE webhook_deliveries SET status = 'PENDING', attempts = 0, next_attempt_at = ?1, created_at = ?1, last_error = NULL, delivered_at = NULL WHERE id = ?2")
    .run(now, id)
  return result.changes === 1
}
