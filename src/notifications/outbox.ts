import { createHmac } from 'node:crypto'
import type { Database } from 'bun:sqlite'
import type { IdGenerator } from '../platform/ids'
import type { Logger } from '../platform/log'
import { resolveName, storedName } from '../platform/names'
import type { OutboxEvent } from '../webhooks'
import type { TicketRow } from '../tickets'
import { calendarFile } from '../appointments'
import { renderTemplate, templateFor, type TemplateKind } from './model'
import { readChannelsOn, type WorkspaceChannels } from './settings'
import type { NotificationChannel, NotificationKind } from './tables'

/*
 * Contract §25 "Delivery": the messages an event makes, written to `notification_messages` in
 * the event's own transaction (the webhook outbox's tap, src/webhooks/outbox.ts), so a message
 * exists exactly when its change does and survives a restart or a kill -9; the worker
 * (./worker.ts) sends it later, never on the request path. The SMS limits are counted here,
 * inside the write lock: a message over a limit is written SKIPPED with the reason.
 */

/** One recipient of a message: a ticket's contact or an appointment's own phone or e-mail. */
interface Recipient {
  channel: NotificationChannel
  contactId: string | null
  /** SMS: the E.164 number, only to key the per-number count (never stored beside the message). */
  number: string | null
  language: string
}

interface TicketFacts {
  id: string
  workspaceId: string
  queueUnitId: string
  ticketNumber: string
  trackingCode: string | null
  language: string | null
  defaultLanguage: string
  approachingAhead: number
  noShowGraceMinutes: number
  calledAt: number | null
  serviceName: string
  serviceNames: string | null
  locationName: string
  locationNames: string | null
  counterName: string | null
  counterNames: string | null
}

interface AppointmentFacts {
  id: string
  workspaceId: string
  code: string
  status: string
  phone: string | null
  email: string | null
  startAt: number
  endAt: number
  timezone: string
  defaultLanguage: string
  serviceName: string
  serviceNames: string | null
  locationName: string
  locationNames: string | null
}

/** The sender's result counters, told once per message written (skipped ones too). */
export type NotificationObserver = (channel: string, kind: string, result: string) => void

/** The phone number's key for "10 per number a day": keyed per workspace, so the hash alone names no one. */
export function recipientHash(channels: WorkspaceChannels, number: string): string {
  return createHmac('sha256', channels.vapid?.privateKey ?? channels.workspaceId).update(number).digest('hex')
}

const DAY_MS = 86_400_000

export interface MessageOutboxDeps {
  client: Database
  ids: IdGenerator
  log: Logger
  /** The public origin of links in messages (`--public-origin`); none: messages carry no link. */
  publicOrigin: string | null
  observe: NotificationObserver
  /** A ticket as its owner has it (`Tickets.byId`). */
  ticketById: (id: string) => TicketRow | null
  /** Parses a stored phone number in the workspace's country (./contacts.ts). */
  parsePhone: (raw: string, country: string | undefined) => string | null
}

/** Writes the messages of events and of appointment reminders, inside the caller's transaction. */
export class MessageOutbox {
  private readonly ticketStmt
  private readonly appointmentStmt
  private readonly contactsStmt
  private readonly insertStmt
  private readonly countTicketSms
  private readonly countNumberSms
  private readonly countMonthSms
  private readonly hasMessage

  constructor(private readonly deps: MessageOutboxDeps) {
    const c = deps.client
    // The ticket itself comes from its owner (src/tickets); its unit, service, location and counter from here.
    this.ticketStmt = c.query<Omit<TicketFacts, 'id' | 'ticketNumber' | 'trackingCode' | 'language' | 'calledAt' | 'queueUnitId'>, [string, string, string, string | null]>(`
      SELECT u.workspace_id AS workspaceId, u.default_language AS defaultLanguage, u.approaching_ahead AS approachingAhead, u.no_show_grace_minutes AS noShowGraceMinutes,
             s.name AS serviceName, s.names AS serviceNames, l.name AS locationName, l.names AS locationNames,
             (SELECT c.name FROM counters c WHERE c.id = ?4) AS counterName, (SELECT c.names FROM counters c WHERE c.id = ?4) AS counterNames
      FROM queue_units u, services s, locations l WHERE u.id = ?1 AND s.id = ?2 AND l.id = ?3`)
    this.appointmentStmt = c.query<AppointmentFacts, [string]>(`
      SELECT a.id, u.workspace_id AS workspaceId, a.code, a.status, a.phone, a.email, a.start_at AS startAt, a.end_at AS endAt, l.timezone,
             u.default_language AS defaultLanguage, s.name AS serviceName, s.names AS serviceNames, l.name AS locationName, l.names AS locationNames
      FROM appointments a JOIN queue_units u ON u.id = a.queue_unit_id JOIN services s ON s.id = a.service_id JOIN locations l ON l.id = a.location_id
      WHERE a.id = ?1`)
    this.contactsStmt = c.query<{ id: string; channel: NotificationChannel; address: string; language: string }, [string]>(
      'SELECT id, channel, address, language FROM notification_contacts WHERE ticket_id = ?1 ORDER BY created_at, id')
    this.insertStmt = c.query(`
      INSERT INTO notification_messages (id, workspace_id, dedupe_key, kind, channel, contact_id, ticket_id, appointment_id, recipient_hash, subject, text, calendar,
                                         status, attempts, next_attempt_at, last_error, created_at)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 0, ?14, ?15, ?14)
      ON CONFLICT (dedupe_key) DO NOTHING`)
    this.countTicketSms = c.query<{ n: number }, [string]>("SELECT count(*) AS n FROM notification_messages WHERE ticket_id = ?1 AND channel = 'sms' AND status <> 'SKIPPED'")
    this.countNumberSms = c.query<{ n: number }, [string, number]>("SELECT count(*) AS n FROM notification_messages WHERE recipient_hash = ?1 AND created_at > ?2 AND status <> 'SKIPPED'")
    this.countMonthSms = c.query<{ n: number }, [string, number]>("SELECT count(*) AS n FROM notification_messages WHERE workspace_id = ?1 AND channel = 'sms' AND created_at >= ?2 AND status <> 'SKIPPED'")
    // An earlier confirmation or move of the same appointment at another start.
    this.hasMessage = c.query<{ n: number }, [string, string]>("SELECT count(*) AS n FROM notification_messages WHERE appointment_id = ?1 AND kind IN ('confirmed', 'moved') AND substr(dedupe_key, 1, length(?2)) <> ?2")
  }

  /** The tap: never throws (a notification must not undo a ticket's change); a failure is logged without data. */
  onEvent = (event: OutboxEvent): void => {
    try {
      this.handle(event)
    } catch (error) {
      this.deps.log({ level: 'error', msg: 'notification outbox', event: event.type, error: String((error as Error)?.message ?? error).slice(0, 200) })
    }
  }

  private handle(event: OutboxEvent): void {
    switch (event.type) {
      case 'ticket.approaching': return this.ticketMessage('approaching', event.ticketId, event.now)
      case 'ticket.called': return this.ticketMessage('called', event.ticketId, event.now)
      // The daily close's CALLED→NO_SHOW at midnight is no missed turn to come back for: nothing is sent.
      case 'ticket.no_show': return event.actor.type === 'system' ? undefined : this.ticketMessage('no_show', event.ticketId, event.now)
      case 'appointment.booked':
      case 'appointment.cancelled': {
        const id = (event.data as { id: string }).id
        return this.appointmentMessage(event.type === 'appointment.cancelled' ? 'cancelled' : 'confirmed', id, event.now)
      }
      default:
    }
  }

  private ticketMessage(kind: 'approaching' | 'called' | 'no_show', ticketId: string, now: number): void {
    const contacts = this.contactsStmt.all(ticketId)
    if (contacts.length === 0) return
    const row = this.deps.ticketById(ticketId)
    if (row === null) return
    const place = this.ticketStmt.get(row.queueUnitId, row.serviceId, row.locationId, row.counterId)
    if (place === null) return
    const t: TicketFacts = { ...place, id: row.id, queueUnitId: row.queueUnitId, ticketNumber: row.ticketNumber, trackingCode: row.trackingCode, language: row.language, calledAt: row.calledAt }
    const channels = readChannelsOn(this.deps.client, t.workspaceId)
    if (channels === null) return
    // A called ticket can be called again after a requeue: each call is its own event.
    const event = kind === 'called' ? `${t.calledAt ?? now}` : '1'
    for (const contact of contacts) {
      const language = contact.language
      const vars = {
        number: t.ticketNumber,
        ahead: t.approachingAhead,
        minutes: t.noShowGraceMinutes,
        service: resolveName(storedName(t.serviceName, t.serviceNames), language, t.defaultLanguage),
        location: resolveName(storedName(t.locationName, t.locationNames), language, t.defaultLanguage),
        counter: t.counterName === null ? '' : resolveName(storedName(t.counterName, t.counterNames), language, t.defaultLanguage),
        link: this.link(t.trackingCode === null ? null : `/t/${t.trackingCode}`),
      }
      const recipient: Recipient = { channel: contact.channel, contactId: contact.id, number: contact.channel === 'sms' ? contact.address : null, language }
      this.write(channels, kind, recipient, { ticketId, appointmentId: null }, `${kind}:${ticketId}:${event}:${contact.id}`, vars, null, now)
    }
  }

  /**
   * An appointment's message to its own phone and e-mail. A booking announced again with a new
   * start is a move (src/appointments announces a move as `appointment.booked`).
   */
  appointmentMessage(kind: 'confirmed' | 'cancelled' | 'reminder', appointmentId: string, now: number, reminderMinutes?: number): void {
    const a = this.appointmentStmt.get(appointmentId)
    if (a === null || (a.phone === null && a.email === null)) return
    const channels = readChannelsOn(this.deps.client, a.workspaceId)
    if (channels === null) return
    const language = a.defaultLanguage
    let messageKind: TemplateKind = kind
    let event = kind === 'reminder' ? `${a.startAt}:${reminderMinutes}` : `${a.startAt}`
    if (kind === 'confirmed') {
      if (this.hasMessage.get(a.id, `confirmed:${a.id}:${a.startAt}:`)!.n > 0) messageKind = 'moved'
    }
    if (kind === 'cancelled') event = 'cancelled'
    const locale = new Intl.Locale(language, { numberingSystem: 'latn' }).toString()
    const vars = {
      code: a.code,
      service: resolveName(storedName(a.serviceName, a.serviceNames), language, a.defaultLanguage),
      location: resolveName(storedName(a.locationName, a.locationNames), language, a.defaultLanguage),
      date: new Intl.DateTimeFormat(locale, { timeZone: a.timezone, dateStyle: 'medium' }).format(a.startAt),
      time: new Intl.DateTimeFormat(locale, { timeZone: a.timezone, timeStyle: 'short' }).format(a.startAt),
      link: this.link(`/b/${a.code}`),
    }
    const calendar = messageKind === 'confirmed' || messageKind === 'moved'
      ? calendarFile({ uid: `${a.id}@lobby`, stamp: now, start: a.startAt, end: a.endAt, summary: vars.service, location: vars.location, description: `Booking code ${a.code}`, ...(vars.link === '' ? {} : { url: vars.link }) })
      : null
    const targets: Recipient[] = []
    if (a.phone !== null) {
      const number = this.deps.parsePhone(a.phone, channels.settings.country)
      if (number !== null) targets.push({ channel: 'sms', contactId: null, number, language })
    }
    if (a.email !== null) targets.push({ channel: 'email', contactId: null, number: null, language })
    for (const recipient of targets) {
      this.write(channels, messageKind, recipient, { ticketId: null, appointmentId: a.id }, `${kind}:${a.id}:${event}:${recipient.channel}`, vars, recipient.channel === 'email' ? calendar : null, now)
    }
  }

  private link(path: string | null): string {
    return path === null || this.deps.publicOrigin === null ? '' : `${this.deps.publicOrigin}${path}`
  }

  private write(
    channels: WorkspaceChannels, kind: TemplateKind, recipient: Recipient, subject: { ticketId: string | null; appointmentId: string | null },
    dedupeKey: string, vars: Record<string, string | number>, calendar: string | null, now: number,
  ): void {
    const configured = recipient.channel === 'sms' ? channels.settings.sms : recipient.channel === 'email' ? channels.settings.email : channels.settings.webPush
    if (configured === undefined) return
    const text = renderTemplate(templateFor(channels.settings, kind, recipient.language), vars)
    const title = `${String(vars.number ?? vars.code ?? '')} ${String(vars.location ?? '')}`.trim()
    let skipped: string | null = null
    let hash: string | null = null
    if (recipient.channel === 'sms' && recipient.number !== null) {
      hash = recipientHash(channels, recipient.number)
      skipped = this.smsLimit(channels, subject.ticketId, hash, now)
    }
    const id = this.deps.ids.next('ntf_')
    const result = this.insertStmt.run(
      id, channels.workspaceId, dedupeKey, kind, recipient.channel, recipient.contactId, subject.ticketId, subject.appointmentId, hash,
      title, text, calendar, skipped === null ? 'PENDING' : 'SKIPPED', now, skipped,
    )
    if (result.changes > 0 && skipped !== null) this.deps.observe(recipient.channel, kind, 'skipped')
  }

  /** Why an SMS may not be sent now (contract §25 limits), or null. Reaching the monthly cap marks the month (the console warns). */
  private smsLimit(channels: WorkspaceChannels, ticketId: string | null, hash: string, now: number): string | null {
    const { limits } = channels
    if (ticketId !== null && this.countTicketSms.get(ticketId)!.n >= limits.smsPerTicket) return `limit: ${limits.smsPerTicket} SMS per ticket`
    if (this.countNumberSms.get(hash, now - DAY_MS)!.n >= limits.smsPerNumberPerDay) return `limit: ${limits.smsPerNumberPerDay} SMS per number a day`
    const month = new Date(now).toISOString().slice(0, 7)
    const monthStart = Date.parse(`${month}-01T00:00:00Z`)
    if (this.countMonthSms.get(channels.workspaceId, monthStart)!.n >= limits.smsPerMonth) {
      if (channels.capReachedMonth !== month) {
        this.deps.client.query('UPDATE notification_settings SET cap_reached_month = ?2 WHERE workspace_id = ?1').run(channels.workspaceId, month)
        this.deps.log({ level: 'warn', msg: 'monthly SMS cap reached: SMS stop until next month', workspace: channels.workspaceId, cap: limits.smsPerMonth })
      }
      return `limit: monthly cap of ${limits.smsPerMonth} SMS reached`
    }
    return null
  }
}

export type { NotificationKind }
