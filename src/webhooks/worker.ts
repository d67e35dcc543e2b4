import type { Db } from '../db/open'
import type { Clock } from '../platform/clock'
import type { Logger } from '../platform/log'
import { webhooks } from './tables'
import { signatureHeader } from './signature'
import { signingSecret } from './outbox'
import { eq } from 'drizzle-orm'

export const RETRY_WINDOW_MS = 24 * 60 * 60_000
const BASE_DELAY_MS = 5_000
const MAX_DELAY_MS = 60 * 60_000
const REQUEST_TIMEOUT_MS = 10_000
const BATCH = 50
const CONCURRENCY = 8

/**
 * Delay before attempt `attempts + 1`: exponential from 5 s, capped at one hour, with "equal
 * jitter" (half fixed, half random) so endpoints coming back are not hit by every retry at once.
 */
export function backoffDelay(attempts: number, random: () => number): number {
  const exp = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1))
  return Math.round(exp / 2 + (exp / 2) * random())
}

interface DueDelivery {
  rowid: number
  id: string
  webhook_id: string
  ticket_id: string
  event_type: string
  body: string
  attempts: number
  created_at: number
}

export interface WorkerOptions {
  db: Db
  clock: Clock
  log: Logger
  random?: () => number
  fetch?: typeof fetch
  /** Told each delivery given up as FAILED (`lobby_webhook_deliveries_failed_total`). */
  onGivenUp?: () => void
}

/**
 * Drains the outbox: at least once (a delivery is marked only after the endpoint's 2xx), in
 * order per endpoint and ticket (a delivery waits while an older one of the same ticket is
 * pending), retried with backoff for 24 hours, then FAILED. Runs beside the API, never in a
 * request: a slow or dead endpoint costs a timer and a socket, not a request's latency.
 */
export class WebhookWorker {
  private timer: ReturnType<typeof setTimeout> | null = null
  private running: Promise<void> | null = null
  private stopped = true
  private readonly random: () => number
  private readonly fetcher: typeof fetch

  constructor(private readonly options: WorkerOptions) {
    this.random = options.random ?? Math.random
    this.fetcher = options.fetch ?? fetch
  }

  /** Deliveries due now whose older siblings (same endpoint and ticket) are all done. */
  private due(now: number): DueDelivery[] {
    return this.options.db.$client.query<DueDelivery, [number, number]>(`
      SELECT d.rowid, d.id, d.webhook_id, d.ticket_id, d.event_type, d.body, d.attempts, d.created_at
      FROM webhook_deliveries d
      WHERE d.status = 'PENDING' AND d.next_attempt_at <= ?1
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
                        WHERE e.webhook_id = d.webhook_id AND e.ticket_id = d.ticket_id
                          AND e.status = 'PENDING' AND e.rowid < d.rowid)
      ORDER BY d.rowid LIMIT ?2`).all(now, BATCH)
  }

  /** One pass: attempts every due delivery once. Tests call it directly with a manual clock. */
  async tick(): Promise<number> {
    const batch = this.due(this.options.clock.now())
    let index = 0
    const lane = async () => {
      while (index < batch.length) await this.attempt(batch[index++]!)
    }
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, batch.length) }, lane))
    return batch.length
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const { db, clock, log } = this.options
    const hook = db.select({ url: webhooks.url, active: webhooks.active }).from(webhooks).where(eq(webhooks.id, delivery.webhook_id)).get()
    const secret = signingSecret(db, delivery.webhook_id)
    let error: string | null = null
    if (!hook || !hook.active) error = 'endpoint inactive'
    else if (secret === null) error = 'no signing secret (revoked)'
    else {
      try {
        const response = await this.fetcher(hook.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Lobby-Webhooks/1',
            'lobby-event': delivery.event_type,
            'lobby-delivery': delivery.id,
            'lobby-signature': signatureHeader(secret, Math.floor(clock.now() / 1000), delivery.body),
          },
          body: delivery.body,
          redirect: 'manual',
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        })
        await response.body?.cancel().catch(() => {})
        if (response.status < 200 || response.status >= 300) error = `HTTP ${response.status}`
      } catch (e) {
        error = (e as Error).name === 'TimeoutError' ? 'timeout' : String((e as Error).message ?? e).slice(0, 200)
      }
    }
    const now = clock.now()
    const attempts = delivery.attempts + 1
    if (error === null) {
      db.$client.query("UPDATE webhook_deliveries SET status = 'DELIVERED', attempts = ?, delivered_at = ?, last_error = NULL WHERE id = ?")
        .run(attempts, now, delivery.id)
      return
    }
    const next = now + backoffDelay(attempts, this.random)
    const giveUp = next - delivery.created_at > RETRY_WINDOW_MS
    db.$client.query('UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ?')
      .run(giveUp ? 'FAILED' : 'PENDING', attempts, next, error, delivery.id)
    if (giveUp) this.options.onGivenUp?.()
    log({ level: giveUp ? 'error' : 'warn', msg: giveUp ? 'webhook delivery failed' : 'webhook delivery will retry', delivery: delivery.id, webhook: delivery.webhook_id, attempts, error })
  }

  /** Polls in the background until `stop()`. */
  start(intervalMs = 500): void {
    this.stopped = false
    const loop = async () => {
      if (this.stopped) return
      this.running = this.tick().then(() => {}, (e) => this.options.log({ level: 'error', msg: 'webhook worker', error: String(e) }))
      await this.running
      this.running = null
      if (!this.stopped) this.timer = setTimeout(loop, intervalMs)
    }
    this.timer = setTimeout(loop, 0)
  }

  /** Stops polling and waits for a pass in progress (each attempt is bounded by its timeout). */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    if (this.running) await this.running
  }
}
