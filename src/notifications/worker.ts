import type { Db } from '../db/open'
import type { Clock } from '../platform/clock'
import type { Logger } from '../platform/log'
import { sendEmail, sendPush, sendSms, SendError, type OutgoingMessage } from './channels'
import { parsePhone, pushEndpointProblem } from './contacts'
import { readChannels, type WorkspaceChannels } from './settings'
import type { NotificationObserver } from './outbox'

/** Contract §25: a message is retried with backoff for an hour, then marked FAILED. */
export const RETRY_WINDOW_MS = 60 * 60_000
const BASE_DELAY_MS = 5_000
const MAX_DELAY_MS = 10 * 60_000
const BATCH = 50
const CONCURRENCY = 4

/** Delay before attempt `attempts + 1`: exponential from 5 s, capped at 10 minutes, half of it random. */
export function retryDelay(attempts: number, random: () => number): number {
  const exp = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1))
  return Math.round(exp / 2 + (exp / 2) * random())
}

interface DueMessage {
  id: string
  workspaceId: string
  kind: string
  channel: 'sms' | 'email' | 'webPush'
  contactId: string | null
  ticketId: string | null
  appointmentId: string | null
  subject: string
  text: string
  calendar: string | null
  attempts: number
  createdAt: number
}

interface Target {
  address: string
  p256dh: string | null
  auth: string | null
}

export interface NotificationWorkerOptions {
  db: Db
  clock: Clock
  log: Logger
  observe: NotificationObserver
  random?: () => number
  /** The SMS gateway's and the push service's HTTP client (tests hand one that trusts their own certificate). */
  fetch?: typeof fetch
  /** Push endpoints' host resolution (tests: their own). */
  resolve?: (host: string) => Promise<string[]>
  publicOrigin?: string | null
}

/**
 * Drains `notification_messages`: at least once (a message is marked SENT only after the
 * gateway, the SMTP server or the push service took it; a kill -9 in between sends it again
 * with the same `messageId`), retried with backoff for an hour, then FAILED. Runs beside the
 * API, never in a request. A push subscription answered 404/410 is deleted.
 */
export class NotificationWorker {
  private timer: ReturnType<typeof setTimeout> | null = null
  private running: Promise<void> | null = null
  private stopped = true
  private readonly random: () => number
  private readonly fetcher: typeof fetch
  private readonly dueStmt
  private readonly contactStmt
  private readonly appointmentStmt

  constructor(private readonly options: NotificationWorkerOptions) {
    this.random = options.random ?? Math.random
    this.fetcher = options.fetch ?? fetch
    const c = options.db.$client
    this.dueStmt = c.query<DueMessage, [number, number]>(`
      SELECT id, workspace_id AS workspaceId, kind, channel, contact_id AS contactId, ticket_id AS ticketId, appointment_id AS appointmentId,
             subject, text, calendar, attempts, created_at AS createdAt
      FROM notification_messages WHERE status = 'PENDING' AND next_attempt_at <= ?1 ORDER BY next_attempt_at, rowid LIMIT ?2`)
    this.contactStmt = c.query<Target, [string]>('SELECT address, p256dh, auth FROM notification_contacts WHERE id = ?1')
    this.appointmentStmt = c.query<{ phone: string | null; email: string | null }, [string]>('SELECT phone, email FROM appointments WHERE id = ?1')
  }

  /** One pass: attempts every due message once. Tests call it directly with a manual clock. */
  async tick(): Promise<number> {
    const batch = this.dueStmt.all(this.options.clock.now(), BATCH)
    let index = 0
    const lane = async () => {
      while (index < batch.length) await this.attempt(batch[index++]!)
    }
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, batch.length) }, lane))
    return batch.length
  }

  /** Where the message goes now: its contact, or its appointment's phone or e-mail; null when removed. */
  private target(message: DueMessage, channels: WorkspaceChannels): Target | null {
    if (message.contactId !== null) return this.contactStmt.get(message.contactId)
    if (message.appointmentId === null) return null
    const row = this.appointmentStmt.get(message.appointmentId)
    if (row === null) return null
    if (message.channel === 'sms') {
      const number = row.phone === null ? null : parsePhone(row.phone, channels.settings.country)
      return number === null ? null : { address: number, p256dh: null, auth: null }
    }
    return row.email === null ? null : { address: row.email, p256dh: null, auth: null }
  }

  private async attempt(message: DueMessage): Promise<void> {
    const { db, clock, log, observe } = this.options
    const channels = readChannels(db, message.workspaceId)
    const target = channels === null ? null : this.target(message, channels)
    if (channels === null || target === null) {
      this.finish(message.id, 'SKIPPED', message.attempts, channels === null ? 'notifications removed' : 'contact removed')
      observe(message.channel, message.kind, 'skipped')
      return
    }
    const outgoing: OutgoingMessage = { messageId: message.id, subject: message.subject, text: message.text, calendar: message.calendar }
    let error: SendError | null = null
    try {
      if (message.channel === 'sms') await sendSms(this.fetcher, channels.settings, channels.secrets, target.address, outgoing)
      else if (message.channel === 'email') await sendEmail(channels.settings, channels.secrets, target.address, outgoing)
      else {
        const problem = await pushEndpointProblem(target.address, channels.settings.webPush?.allowPrivateEndpoints === true, this.options.resolve)
        if (problem !== null) throw new SendError(problem, true)
        await sendPush(this.fetcher, channels.settings, channels.vapid, { endpoint: target.address, keys: { p256dh: target.p256dh ?? '', auth: target.auth ?? '' } }, outgoing, null)
      }
    } catch (e) {
      error = e instanceof SendError ? e : new SendError(String((e as Error)?.message ?? e).slice(0, 160))
    }
    const attempts = message.attempts + 1
    if (error === null) {
      this.finish(message.id, 'SENT', attempts, null)
      observe(message.channel, message.kind, 'sent')
      return
    }
    if (error.gone && message.contactId !== null) {
      // Contract §25: a subscription the push service no longer knows is deleted, with its pending messages.
      db.$client.query('DELETE FROM notification_contacts WHERE id = ?1').run(message.contactId)
      this.finish(message.id, 'FAILED', attempts, error.message)
      db.$client.query("UPDATE notification_messages SET status = 'SKIPPED', last_error = 'subscription gone' WHERE contact_id = ?1 AND status = 'PENDING'").run(message.contactId)
      observe(message.channel, message.kind, 'failed')
      return
    }
    const now = clock.now()
    const next = now + retryDelay(attempts, this.random)
    const giveUp = next - message.createdAt > RETRY_WINDOW_MS
    db.$client.query('UPDATE notification_messages SET status = ?2, attempts = ?3, next_attempt_at = ?4, last_error = ?5 WHERE id = ?1')
      .run(message.id, giveUp ? 'FAILED' : 'PENDING', attempts, next, error.message)
    observe(message.channel, message.kind, giveUp ? 'failed' : 'retry')
    log({ level: giveUp ? 'error' : 'warn', msg: giveUp ? 'notification failed' : 'notification will retry', message: message.id, channel: message.channel, kind: message.kind, attempts, error: error.message })
  }

  private finish(id: string, status: 'SENT' | 'FAILED' | 'SKIPPED', attempts: number, error: string | null): void {
    const now = this.options.clock.now()
    this.options.db.$client.query('UPDATE notification_messages SET status = ?2, attempts = ?3, last_error = ?4, sent_at = CASE WHEN ?2 = \'SENT\' THEN ?5 ELSE sent_at END WHERE id = ?1')
      .run(id, status, attempts, error, now)
  }

  /** Polls in the background until `stop()`. */
  start(intervalMs = 500): void {
    this.stopped = false
    const loop = async () => {
      if (this.stopped) return
      this.running = this.tick().then(() => {}, (e) => this.options.log({ level: 'error', msg: 'notification worker', error: String((e as Error)?.message ?? e).slice(0, 200) }))
      await this.running
      this.running = null
      if (!this.stopped) this.timer = setTimeout(loop, intervalMs)
    }
    this.timer = setTimeout(loop, 0)
  }

  /** Stops polling and waits for a pass in progress (each send is bounded by its timeout). */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    if (this.running) await this.running
  }
}
