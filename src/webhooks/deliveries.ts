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

const DELIVERY_COLUMNS = 'id, webhook_id, ticket_id, event_type, status, attempts, next_attempt_at, last_error, created_at, delivered_at'

function deliveryOf(r: Record<string, any>): DeliveryListing {
  return {
    id: r.id, webhookId: r.webhook_id, ticketId: r.ticket_id, event: r.event_type, status: r.status,
    attempts: r.attempts, nextAttemptAt: r.status === 'PENDING' ? isoOrNull(r.next_attempt_at) : null,
    lastError: r.last_error, createdAt: isoOrNull(r.created_at)!, deliveredAt: isoOrNull(r.delivered_at),
  }
}

/** Deliveries, newest first (at most `limit`), optionally only the failed ones. */
export function listDeliveries(db: Db, options: { failedOnly: boolean; limit?: number }): DeliveryListing[] {
  const rows = db.$client.query<Record<string, any>, [number]>(`
    SELECT ${DELIVERY_COLUMNS}
    FROM webhook_deliveries ${options.failedOnly ? "WHERE status = 'FAILED'" : ''}
    ORDER BY rowid DESC LIMIT ?`).all(options.limit ?? 1000)
  return rows.map(deliveryOf)
}

/** One delivery, or null. */
export function readDelivery(db: Db, id: string): DeliveryListing | null {
  const row = db.$client.query<Record<string, any>, [string]>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?1`).get(id)
  return row === null ? null : deliveryOf(row)
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

/**
 * Queues every FAILED delivery again, as `redeliver` does one by one, in one transaction.
 * Returns how many; they keep their order among each ticket's events.
 */
export function redeliverFailed(db: Db, now: number): number {
  return db.$client
    .query("UPDATE webhook_deliveries SET status = 'PENDING', attempts = 0, next_attempt_at = ?1, created_at = ?1, last_error = NULL, delivered_at = NULL WHERE status = 'FAILED'")
    .run(now).changes
}

/** How many deliveries wait to be sent (or retried) and how many were given up. */
export function deliveryBacklog(db: Db): { pending: number; failed: number } {
  const rows = db.$client
    .query<{ status: string; n: number }, []>("SELECT status, count(*) AS n FROM webhook_deliveries WHERE status IN ('PENDING', 'FAILED') GROUP BY status")
    .all()
  const of = (status: string) => rows.find((r) => r.status === status)?.n ?? 0
  return { pending: of('PENDING'), failed: of('FAILED') }
}

/**
 * Retention (contract §13): deletes up to `limit` deliveries created (or last re-queued) before
 * `cutoff` that are no longer pending, in rowid order from `afterRowid`, in one transaction.
 */
export function deleteDeliveriesCreatedBefore(db: Db, cutoff: number, afterRowid: number, limit: number): { deleted: number; afterRowid: number; done: boolean } {
  const client = db.$client
  return client.transaction(() => {
    const rows = client
      .query<{ rowid: number }, [number, number, number]>(
        "SELECT rowid FROM webhook_deliveries WHERE rowid > ?1 AND created_at < ?2 AND status <> 'PENDING' ORDER BY rowid LIMIT ?3",
      )
      .all(afterRowid, cutoff, limit)
    const remove = client.query<unknown, [number]>('DELETE FROM webhook_deliveries WHERE rowid = ?1')
    for (const row of rows) remove.run(row.rowid)
    return { deleted: rows.length, afterRowid: rows.at(-1)?.rowid ?? afterRowid, done: rows.length < limit }
  }).immediate()
}
