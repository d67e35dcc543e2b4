import { createHmac, timingSafeEqual } from 'node:crypto'
import type { NotificationsDeps } from './deps'
import { ApiError } from '../platform/errors'
import { encodeActor } from '../platform/actor'
import type { BackgroundTask } from '../platform/lifecycle'
import type { TicketRow } from '../tickets'
import { maskContact, parseEmail, parsePhone, pushEndpointProblem } from './contacts'
import { NotificationCodes } from './errors'
import { REPLY_WORDS, renderTemplate, templateFor } from './model'
import { MessageOutbox, recipientHash } from './outbox'
import { ensureVapidKeys, readChannels, readChannelsOn, type WorkspaceChannels } from './settings'
import { sendEmail, sendSms, SendError } from './channels'
import type { NotificationChannel } from './tables'

/*
 * Contract §25, free of HTTP: a customer's opt-in and its removal, the VAPID public key, SMS
 * replies, appointment reminders, the deletion of contacts on time, and the console's reads and
 * test send. The messages themselves are written by ./outbox.ts (inside each event's own
 * transaction) and sent by ./worker.ts.
 */

/** A ticket holds at most this many contacts (a number, an address and a browser or two). */
export const MAX_CONTACTS_PER_TICKET = 4
/** Contract §25: a ticket's contacts are deleted this long after it ends. */
export const TICKET_CONTACT_RETAIN_MS = 24 * 60 * 60_000
/** Contract §25: an appointment's phone and e-mail are erased this long after it. */
export const APPOINTMENT_CONTACT_RETAIN_MS = 7 * 24 * 60 * 60_000
/** The console's recent deliveries are kept this long (they hold no personal data). */
export const MESSAGE_RETAIN_MS = 30 * 24 * 60 * 60_000

const OPEN_STATUSES = new Set(['WAITING', 'CALLED', 'SERVING'])

export type OptIn =
  | { channel: 'sms'; to: string }
  | { channel: 'email'; to: string }
  | { channel: 'webPush'; subscription: { endpoint: string; keys: { p256dh: string; auth: string } } }

/** A contact checked and ready to store (a number as E.164). */
export interface PreparedContact {
  channel: NotificationChannel
  address: string
  p256dh: string | null
  auth: string | null
}

/** A contact as a page shows it: masked. */
export interface ShownContact {
  channel: NotificationChannel
  shown: string
}

/** A message as the console lists it (no recipient: the row holds none). */
export interface MessageView {
  id: string
  kind: string
  channel: string
  status: string
  attempts: number
  lastError: string | null
  createdAt: number
  sentAt: number | null
  ticketId: string | null
  appointmentId: string | null
}

export class NotificationService {
  readonly outbox: MessageOutbox
  private readonly workspaceOfUnit

  constructor(private readonly deps: NotificationsDeps) {
    this.outbox = new MessageOutbox({
      client: deps.db.$client,
      ids: deps.ids,
      log: deps.log,
      publicOrigin: deps.publicOrigin ?? null,
      observe: (channel, kind, result) => deps.metrics.notification(channel, kind, result),
      parsePhone,
      ticketById: (id) => deps.tickets.byId(id),
    })
    this.workspaceOfUnit = deps.db.$client.query<{ workspaceId: string }, [string]>('SELECT workspace_id AS workspaceId FROM queue_units WHERE id = ?1')
  }

  private channelsOfTicket(ticket: TicketRow): WorkspaceChannels | null {
    const unit = this.workspaceOfUnit.get(ticket.queueUnitId)
    return unit === null ? null : readChannels(this.deps.db, unit.workspaceId)
  }

  /**
   * Checks an opt-in before any write (the push endpoint's host is resolved here, off the write
   * lock) and returns what to store; 422 with the reason in words when it cannot be used.
   */
  async prepare(ticket: TicketRow, input: OptIn): Promise<PreparedContact> {
    const channels = this.channelsOfTicket(ticket)
    const configured = channels === null ? undefined : input.channel === 'sms' ? channels.settings.sms : input.channel === 'email' ? channels.settings.email : channels.settings.webPush
    if (channels === null || configured === undefined) {
      const what = input.channel === 'sms' ? 'send SMS' : input.channel === 'email' ? 'send e-mail' : 'send notifications to browsers'
      throw new ApiError(422, NotificationCodes.CHANNEL_NOT_CONFIGURED, `this branch does not ${what}`)
    }
    if (input.channel === 'sms') {
      const number = parsePhone(input.to, channels.settings.country)
      if (number === null) throw invalid('/to', channels.settings.country === undefined ? 'not a phone number (start it with + and the country code)' : `not a phone number of ${channels.settings.country} (or + and the country code)`)
      return { channel: 'sms', address: number, p256dh: null, auth: null }
    }
    if (input.channel === 'email') {
      const address = parseEmail(input.to)
      if (address === null) throw invalid('/to', 'not an e-mail address')
      return { channel: 'email', address, p256dh: null, auth: null }
    }
    const problem = await pushEndpointProblem(input.subscription.endpoint, channels.settings.webPush?.allowPrivateEndpoints === true)
    if (problem !== null) throw invalid('/subscription/endpoint', problem)
    return { channel: 'webPush', address: input.subscription.endpoint, p256dh: input.subscription.keys.p256dh, auth: input.subscription.keys.auth }
  }

  /** The channels a unit's workspace sends through (web push only with its VAPID key): what the pages offer, nothing when none is set up. */
  channelsOfUnit(queueUnitId: string): NotificationChannel[] {
    const unit = this.workspaceOfUnit.get(queueUnitId)
    const channels = unit === null ? null : readChannels(this.deps.db, unit.workspaceId)
    if (channels === null) return []
    const offered: NotificationChannel[] = []
    if (channels.settings.sms !== undefined) offered.push('sms')
    if (channels.settings.email !== undefined) offered.push('email')
    if (channels.settings.webPush !== undefined && channels.vapid !== null) offered.push('webPush')
    return offered
  }

  /**
   * The join page's optional number and address (contract §25), read as the phone page's opt-in
   * reads them (the number in the workspace's country, kept as E.164): the contacts to store
   * with the new ticket, or one 422 naming each field that cannot be used (`/phone`, `/email`).
   * Synchronous, so the caller stores them in the ticket's own write.
   */
  contactsFromForm(queueUnitId: string, input: { phone?: string | undefined; email?: string | undefined }): PreparedContact[] {
    const phone = input.phone?.trim() ?? ''
    const email = input.email?.trim() ?? ''
    if (phone === '' && email === '') return []
    const unit = this.workspaceOfUnit.get(queueUnitId)
    const channels = unit === null ? null : readChannels(this.deps.db, unit.workspaceId)
    const details: { path: string; message: string }[] = []
    const contacts: PreparedContact[] = []
    if (phone !== '') {
      const number = channels?.settings.sms === undefined ? undefined : parsePhone(phone, channels.settings.country)
      if (number === undefined) details.push({ path: '/phone', message: 'this branch does not send SMS' })
      else if (number === null) details.push({ path: '/phone', message: channels?.settings.country === undefined ? 'not a phone number (start it with + and the country code)' : `not a phone number of ${channels.settings.country} (or + and the country code)` })
      else contacts.push({ channel: 'sms', address: number, p256dh: null, auth: null })
    }
    if (email !== '') {
      const address = channels?.settings.email === undefined ? undefined : parseEmail(email)
      if (address === undefined) details.push({ path: '/email', message: 'this branch does not send e-mail' })
      else if (address === null) details.push({ path: '/email', message: 'not an e-mail address' })
      else contacts.push({ channel: 'email', address, p256dh: null, auth: null })
    }
    if (details.length > 0) throw new ApiError(422, NotificationCodes.VALIDATION_FAILED, 'request validation failed', details)
    return contacts
  }

  /** Stores a prepared contact for an open ticket (inside a write); the same one twice is kept once. */
  optIn(ticket: TicketRow, contact: PreparedContact, now: number): ShownContact[] {
    if (!OPEN_STATUSES.has(ticket.status)) throw new ApiError(409, NotificationCodes.TICKET_ENDED, 'this ticket has ended: there is nothing more to tell')
    const client = this.deps.db.$client
    const existing = this.contactsOf(ticket.id)
    const same = client.query<{ n: number }, [string, string, string]>('SELECT count(*) AS n FROM notification_contacts WHERE ticket_id = ?1 AND channel = ?2 AND address = ?3').get(ticket.id, contact.channel, contact.address)!.n
    if (same === 0) {
      if (existing.length >= MAX_CONTACTS_PER_TICKET) throw new ApiError(422, NotificationCodes.TOO_MANY_CONTACTS, `a ticket can have at most ${MAX_CONTACTS_PER_TICKET} contacts`)
      const workspaceId = this.workspaceOfUnit.get(ticket.queueUnitId)!.workspaceId
      const language = ticket.language ?? client.query<{ l: string }, [string]>('SELECT default_language AS l FROM queue_units WHERE id = ?1').get(ticket.queueUnitId)!.l
      client.query(`INSERT INTO notification_contacts (id, workspace_id, ticket_id, channel, address, p256dh, auth, language, consent_at, created_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)`).run(this.deps.ids.next('ntc_'), workspaceId, ticket.id, contact.channel, contact.address, contact.p256dh, contact.auth, language, now)
    }
    return this.contactsOf(ticket.id)
  }

  /** The ticket's contacts, masked. */
  contactsOf(ticketId: string): ShownContact[] {
    return this.deps.db.$client.query<{ channel: NotificationChannel; address: string }, [string]>('SELECT channel, address FROM notification_contacts WHERE ticket_id = ?1 ORDER BY created_at, id')
      .all(ticketId).map((c) => ({ channel: c.channel, shown: maskContact(c.channel, c.address) }))
  }

  /** The customer removes every contact of the ticket; messages not yet sent to them are dropped. */
  remove(ticketId: string): number {
    const client = this.deps.db.$client
    client.query("UPDATE notification_messages SET status = 'SKIPPED', last_error = 'contact removed by the customer' WHERE status = 'PENDING' AND contact_id IN (SELECT id FROM notification_contacts WHERE ticket_id = ?1)").run(ticketId)
    return client.query('DELETE FROM notification_contacts WHERE ticket_id = ?1').run(ticketId).changes
  }

  /** The VAPID public key of the workspace (the only one on the box with web push when none is named); null: no web push. */
  pushKey(workspaceId: string | null): string | null {
    const client = this.deps.db.$client
    const ids = workspaceId !== null ? [workspaceId] : client.query<{ id: string }, []>('SELECT workspace_id AS id FROM notification_settings ORDER BY created_at').all().map((r) => r.id)
    const keys = ids.map((id) => readChannelsOn(client, id)).filter((c) => c !== null && c.settings.webPush !== undefined && c.vapid !== null)
    return keys.length === 1 ? keys[0]!.vapid!.publicKey : null
  }

  /** The workspace of a ticket's unit. */
  workspaceOf(ticket: TicketRow): string | null {
    return this.workspaceOfUnit.get(ticket.queueUnitId)?.workspaceId ?? null
  }

  /**
   * Which workspace signed an inbound reply (`X-Lobby-Signature: sha256=<hex HMAC of the raw
   * body>` with its `inboundSecret`), or null (401 for the route).
   */
  verifyInbound(raw: Uint8Array, signature: string | null): WorkspaceChannels | null {
    const match = signature === null ? null : /^sha256=([0-9a-f]{64})$/i.exec(signature.trim())
    if (match === null) return null
    const given = Buffer.from(match[1]!.toLowerCase(), 'hex')
    const client = this.deps.db.$client
    for (const { id } of client.query<{ id: string }, []>('SELECT workspace_id AS id FROM notification_settings').all()) {
      const channels = readChannelsOn(client, id)
      const secret = channels?.secrets.inboundSecret
      if (channels === null || secret === undefined) continue
      const expected = createHmac('sha256', secret).update(raw).digest()
      if (timingSafeEqual(expected, given)) return channels
    }
    return null
  }

  /**
   * Contract §25 replies (inside a write): "1" or the language's word for leave cancels the
   * newest open ticket that number opted in with; "2" or "later" asks for more time (§20); any
   * other text gets one help message per ticket. Returns what was done (no number in it).
   */
  reply(channels: WorkspaceChannels, from: string, text: string, now: number): 'left' | 'more_time' | 'help' | 'refused' | 'unknown' {
    const number = parsePhone(from, channels.settings.country)
    if (number === null) return 'unknown'
    // The newest contact of that number whose ticket is still open (the ticket's state from its owner).
    const candidates = this.deps.db.$client.query<{ id: string; ticketId: string; language: string }, [string, string]>(`
      SELECT id, ticket_id AS ticketId, language FROM notification_contacts
      WHERE workspace_id = ?1 AND channel = 'sms' AND address = ?2 ORDER BY created_at DESC, rowid DESC LIMIT 20`).all(channels.workspaceId, number)
    let contact: { id: string; ticketId: string; language: string } | null = null
    let ticket: TicketRow | null = null
    for (const candidate of candidates) {
      const row = this.deps.tickets.byId(candidate.ticketId)
      if (row !== null && OPEN_STATUSES.has(row.status)) {
        contact = candidate
        ticket = row
        break
      }
    }
    if (contact === null || ticket === null) return 'unknown'
    const words = REPLY_WORDS[contact.language.split('-')[0]!] ?? REPLY_WORDS.en!
    const said = text.normalize('NFKC').trim().toLowerCase()
    const actor = encodeActor({ type: 'customer', id: ticket.id })
    const leave = said === '1' || words.leave.includes(said) || REPLY_WORDS.en!.leave.includes(said)
    const later = said === '2' || words.later.includes(said) || REPLY_WORDS.en!.later.includes(said)
    try {
      if (leave) {
        this.deps.tickets.cancel(ticket, actor, now)
        return 'left'
      }
      if (later) {
        this.deps.tickets.moreTime(ticket, actor, now)
        return 'more_time'
      }
    } catch (error) {
      if (error instanceof ApiError) return 'refused'
      throw error
    }
    this.help(channels, ticket, contact, number, now)
    return 'help'
  }

  private help(channels: WorkspaceChannels, ticket: TicketRow, contact: { id: string; language: string }, number: string, now: number): void {
    const text = renderTemplate(templateFor(channels.settings, 'help', contact.language), { number: ticket.ticketNumber })
    this.deps.db.$client.query(`
      INSERT INTO notification_messages (id, workspace_id, dedupe_key, kind, channel, contact_id, ticket_id, recipient_hash, subject, text, status, attempts, next_attempt_at, created_at)
      VALUES (?1, ?2, ?3, 'help', 'sms', ?4, ?5, ?6, ?7, ?8, 'PENDING', 0, ?9, ?9) ON CONFLICT (dedupe_key) DO NOTHING`)
      .run(this.deps.ids.next('ntf_'), channels.workspaceId, `help:${ticket.id}:${contact.id}`, contact.id, ticket.id, recipientHash(channels, number), ticket.ticketNumber, text, now)
  }

  /**
   * Appointment reminders due now (inside a write): for each workspace's `reminderMinutes`, the
   * BOOKED appointments starting within that many minutes that were booked before the reminder's
   * moment (a booking made an hour ahead gets no "tomorrow" reminder). One per appointment,
   * start and reminder (the outbox's key). Returns how many appointments were looked at.
   */
  remind(now: number): number {
    const client = this.deps.db.$client
    let seen = 0
    for (const { id } of client.query<{ id: string }, []>('SELECT workspace_id AS id FROM notification_settings').all()) {
      const channels = readChannelsOn(client, id)
      if (channels === null || (channels.settings.sms === undefined && channels.settings.email === undefined)) continue
      for (const minutes of channels.reminderMinutes) {
        const due = client.query<{ id: string }, [string, number, number]>(`
          SELECT a.id FROM appointments a JOIN queue_units u ON u.id = a.queue_unit_id
          WHERE u.workspace_id = ?1 AND a.status = 'BOOKED' AND a.start_at > ?2 AND a.start_at <= ?2 + ?3 AND a.created_at < a.start_at - ?3
            AND (a.phone IS NOT NULL OR a.email IS NOT NULL)`).all(id, now, minutes * 60_000)
        for (const row of due) {
          this.outbox.appointmentMessage('reminder', row.id, now, minutes)
          seen += 1
        }
      }
    }
    return seen
  }

  /**
   * Contract §25 "deleted on time" (inside a write): a ticket's contacts 24 hours after it ended
   * (or once the ticket is gone), an appointment's phone and e-mail 7 days after it, and the
   * console's delivery rows after 30 days. Returns the rows touched.
   */
  deleteExpired(now: number): number {
    const client = this.deps.db.$client
    // Each ticket with contacts, asked of the tickets' owner: gone, or ended more than 24 hours ago.
    let contacts = 0
    const ticketIds = client.query<{ ticketId: string }, []>('SELECT DISTINCT ticket_id AS ticketId FROM notification_contacts ORDER BY ticket_id LIMIT 2000').all()
    for (const { ticketId } of ticketIds) {
      const ticket = this.deps.tickets.byId(ticketId)
      const ended = ticket === null || (!OPEN_STATUSES.has(ticket.status) && (ticket.completedAt ?? ticket.createdAt) < now - TICKET_CONTACT_RETAIN_MS)
      if (ended) contacts += client.query('DELETE FROM notification_contacts WHERE ticket_id = ?1').run(ticketId).changes
    }
    // Narrows contract §21's `retainDays` for the contact fields only (the name stays until then).
    const appointments = client.query(`
      UPDATE appointments SET phone = NULL, email = NULL, updated_at = ?2
      WHERE id IN (SELECT id FROM appointments WHERE end_at < ?1 AND (phone IS NOT NULL OR email IS NOT NULL) LIMIT 2000)`).run(now - APPOINTMENT_CONTACT_RETAIN_MS, now).changes
    const messages = client.query('DELETE FROM notification_messages WHERE id IN (SELECT id FROM notification_messages WHERE created_at < ?1 AND status <> \'PENDING\' LIMIT 2000)').run(now - MESSAGE_RETAIN_MS).changes
    return contacts + appointments + messages
  }

  // ---- the console ------------------------------------------------------------------------

  /** Recent messages of a workspace, newest first (`failedOnly`: FAILED and SKIPPED). */
  recent(workspaceId: string, failedOnly: boolean, limit = 50): MessageView[] {
    return this.deps.db.$client.query<MessageView, [string, number]>(`
      SELECT id, kind, channel, status, attempts, last_error AS lastError, created_at AS createdAt, sent_at AS sentAt, ticket_id AS ticketId, appointment_id AS appointmentId
      FROM notification_messages WHERE workspace_id = ?1 ${failedOnly ? "AND status IN ('FAILED', 'SKIPPED')" : ''}
      ORDER BY created_at DESC, rowid DESC LIMIT ?2`).all(workspaceId, limit)
  }

  /** The month's SMS count against its cap, and whether the cap stopped sending. */
  usage(workspaceId: string, now: number): { smsThisMonth: number; smsPerMonth: number; capReached: boolean } | null {
    const channels = readChannels(this.deps.db, workspaceId)
    if (channels === null) return null
    const month = new Date(now).toISOString().slice(0, 7)
    const n = this.deps.db.$client.query<{ n: number }, [string, number]>("SELECT count(*) AS n FROM notification_messages WHERE workspace_id = ?1 AND channel = 'sms' AND created_at >= ?2 AND status <> 'SKIPPED'")
      .get(workspaceId, Date.parse(`${month}-01T00:00:00Z`))!.n
    return { smsThisMonth: n, smsPerMonth: channels.limits.smsPerMonth, capReached: channels.capReachedMonth === month }
  }

  /**
   * The console's test send: one message now (an admin waits for its outcome), recorded as kind
   * `test` without its recipient. Returns null when it went, else the reason.
   */
  async testSend(workspaceId: string, channel: 'sms' | 'email', to: string, now: number): Promise<string | null> {
    const channels = readChannels(this.deps.db, workspaceId)
    if (channels === null || (channel === 'sms' ? channels.settings.sms : channels.settings.email) === undefined) {
      throw new ApiError(422, NotificationCodes.CHANNEL_NOT_CONFIGURED, channel === 'sms' ? 'set up the SMS gateway first' : 'set up the SMTP server first')
    }
    const address = channel === 'sms' ? parsePhone(to, channels.settings.country) : parseEmail(to)
    if (address === null) throw invalid('/to', channel === 'sms' ? 'not a phone number' : 'not an e-mail address')
    const id = this.deps.ids.next('ntf_')
    const message = { messageId: id, subject: 'Lobby', text: 'Lobby: this is a test message from your branch.', calendar: null }
    let error: string | null = null
    try {
      if (channel === 'sms') await sendSms(fetch, channels.settings, channels.secrets, address, message)
      else await sendEmail(channels.settings, channels.secrets, address, message)
    } catch (e) {
      error = e instanceof SendError ? e.message : 'send failed'
    }
    await this.deps.writes.run(() => this.deps.db.$client.query(`
      INSERT INTO notification_messages (id, workspace_id, dedupe_key, kind, channel, subject, text, status, attempts, next_attempt_at, last_error, created_at, sent_at)
      VALUES (?1, ?2, ?1, 'test', ?3, 'Lobby', ?4, ?5, 1, ?6, ?7, ?6, ?8)`).run(id, workspaceId, channel, message.text, error === null ? 'SENT' : 'FAILED', now, error, error === null ? now : null))
    this.deps.metrics.notification(channel, 'test', error === null ? 'sent' : 'failed')
    return error
  }

  /** The background half: VAPID keys at start, reminders and deletions every minute. */
  task(): BackgroundTask {
    let timer: ReturnType<typeof setInterval> | undefined
    const run = () => {
      this.deps.writes.run(() => {
        const now = this.deps.clock.now()
        this.remind(now)
        this.deleteExpired(now)
      }).catch((error) => this.deps.log({ level: 'error', msg: 'notification reminders', error: String((error as Error)?.message ?? error).slice(0, 200) }))
    }
    return {
      // Off the cold-start path: the first look a moment after the server listens.
      startSettled: () => {
        this.deps.writes.now(() => ensureVapidKeys(this.deps.db))
        run()
        timer = setInterval(run, 60_000)
      },
      beforeStop: () => clearInterval(timer),
    }
  }
}

function invalid(path: string, message: string): ApiError {
  return new ApiError(422, NotificationCodes.VALIDATION_FAILED, message, [{ path, message }])
}
