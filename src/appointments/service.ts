import type { AppointmentDeps } from './deps'
import type { BackgroundTask } from '../platform/lifecycle'
import { ApiError, pointer } from '../platform/errors'
import { isoTime, isoOrNull } from '../platform/clock'
import { decodeActor, type Actor } from '../platform/actor'
import { sha256Hex } from '../platform/idempotency'
import { addDays, localDate, localDateTime, parseOffsetDateTime } from '../platform/time'
import { inReadTransaction } from '../platform/transactions'
import type { WebhookOutbox } from '../webhooks'
import { assertNotEdgeManaged } from '../queue'
import { QueueCodes } from '../queue'
import { locationHoursOf, openWindowsOn, serviceHoursOf } from '../structure'
import type { TicketRow } from '../tickets'
import type { AppointmentStatus } from './tables'
import { AppointmentCodes } from './errors'
import { BOOKING_CODE_ALPHABET, BOOKING_CODE_LENGTH, type AppointmentJson, type AppointmentReportRowJson, type BookAppointmentRequest, type SlotJson } from './model'

/*
 * Contract §21: appointments. Slots come from the service's settings and its opening hours at
 * the location; a booking takes one seat of one slot, counted in the booking's own write (the
 * single SQLite writer decides the last seat). Check-in issues a ticket (source APPOINTMENT)
 * through the tickets owner, ranked before the walk-ins who came after the slot start.
 */

export const DAY_MS = 86_400_000
/** The report's longest range (days), so one request costs a bounded read. */
export const REPORT_MAX_DAYS = 92
/** Rows per pass of the missed and erasure steps. */
const BATCH = 500

/** A service's appointment settings as provisioning stored them (defaults filled, capacity optional). */
export interface AppointmentSettings {
  enabled: boolean
  slotMinutes: number
  capacityPerSlot?: number
  bookAheadDays: number
  checkIn: { earlyMinutes: number; lateMinutes: number }
  retainDays: number
}

export function settingsOf(json: string | null): AppointmentSettings | null {
  if (json === null) return null
  const raw = JSON.parse(json) as Partial<AppointmentSettings>
  return {
    enabled: raw.enabled === true,
    slotMinutes: raw.slotMinutes ?? 15,
    ...(raw.capacityPerSlot === undefined ? {} : { capacityPerSlot: raw.capacityPerSlot }),
    bookAheadDays: raw.bookAheadDays ?? 14,
    checkIn: { earlyMinutes: raw.checkIn?.earlyMinutes ?? 15, lateMinutes: raw.checkIn?.lateMinutes ?? 10 },
    retainDays: raw.retainDays ?? 30,
  }
}

/** What a caller may reach: its units (null: all), and within them its locations and services (null: all). */
export interface AppointmentScope {
  queueUnitIds: string[] | null
  locations: string[] | null
  services: string[] | null
}

/** Who acts, encoded (`type:id`), and the credential (stored on a check-in's ticket). */
export interface AppointmentActor {
  actor: string
  credentialId: string | null
}

export type AppointmentRow = {
  id: string; queueUnitId: string; locationId: string; serviceId: string; startAt: number; endAt: number; localDate: string
  code: string; status: AppointmentStatus; name: string | null; phone: string | null; email: string | null; dedupeKey: string | null
  ticketId: string | null; createdBy: string; createdAt: number; updatedAt: number
  checkedInAt: number | null; cancelledAt: number | null; missedAt: number | null; erasedAt: number | null
}

interface LocationRow { id: string; queueUnitId: string; name: string; names: string | null; timezone: string; active: number; openingHours: string | null; closedDates: string; lastTicketMinutesBeforeClose: number }
interface ServiceRow { id: string; queueUnitId: string; name: string; names: string | null; prefix: string; active: number; openingHours: string | null; appointments: string | null }
interface UnitRow { id: string; name: string; names: string | null; active: number; defaultLanguage: string; languages: string; edgeHolder: string | null; edgeExpiresAt: number | null }

/** A location and service that take appointments, resolved for one caller. */
export interface BookingTarget {
  unit: UnitRow
  location: LocationRow
  service: ServiceRow
  settings: AppointmentSettings
}

/** Why a time cannot be booked (the 422's detail, and the booking page's sentence). */
export type SlotRefusal = 'APPOINTMENTS_DISABLED' | 'IN_THE_PAST' | 'BEYOND_BOOKING_WINDOW' | 'OUTSIDE_HOURS' | 'ALREADY_BOOKED'

const REFUSAL_MESSAGES: Record<SlotRefusal, string> = {
  APPOINTMENTS_DISABLED: 'this service takes no appointments at this location',
  IN_THE_PAST: 'this slot has already started',
  BEYOND_BOOKING_WINDOW: 'this day is beyond the booking window',
  OUTSIDE_HOURS: 'this time is not a slot of the service: outside its opening hours or off the slot grid',
  ALREADY_BOOKED: 'the same name and contact already hold that slot',
}

export function slotUnavailable(reason: SlotRefusal, path = '/startAt'): ApiError {
  return new ApiError(422, AppointmentCodes.SLOT_UNAVAILABLE, `this time cannot be booked: ${REFUSAL_MESSAGES[reason]}`, [{ path, message: reason }])
}

/** An 8-character booking code: crypto random, rejection-sampled so every character is equally likely. */
export function newBookingCode(): string {
  const n = BOOKING_CODE_ALPHABET.length
  const limit = 256 - (256 % n)
  let code = ''
  while (code.length < BOOKING_CODE_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      if (byte < limit && code.length < BOOKING_CODE_LENGTH) code += BOOKING_CODE_ALPHABET[byte % n]
    }
  }
  return code
}

/** The booking page of a code (a capability: never logged in clear, contract §23). */
export function bookingPath(code: string): string {
  return `/b/${code}`
}

/** "The same name, contact and slot is one booking": case, spacing and phone punctuation do not matter. */
export function dedupeKeyOf(serviceId: string, locationId: string, startAt: number, name: string, phone: string | null, email: string | null): string {
  const normal = (s: string) => s.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase()
  return sha256Hex(JSON.stringify([serviceId, locationId, startAt, normal(name), phone === null ? '' : phone.replace(/[^0-9+]/g, ''), email === null ? '' : normal(email)]))
}

export function appointmentJson(row: AppointmentRow): AppointmentJson {
  return {
    id: row.id,
    code: row.code,
    status: row.status,
    queueUnitId: row.queueUnitId,
    locationId: row.locationId,
    serviceId: row.serviceId,
    startAt: isoTime(row.startAt),
    endAt: isoTime(row.endAt),
    localDate: row.localDate,
    name: row.name,
    phone: row.phone,
    email: row.email,
    ticketId: row.ticketId,
    bookingUrl: bookingPath(row.code),
    createdBy: decodeActor(row.createdBy),
    createdAt: isoTime(row.createdAt),
    checkedInAt: isoOrNull(row.checkedInAt),
    cancelledAt: isoOrNull(row.cancelledAt),
    missedAt: isoOrNull(row.missedAt),
    erasedAt: isoOrNull(row.erasedAt),
  }
}

const COLUMNS = `id, queue_unit_id AS queueUnitId, location_id AS locationId, service_id AS serviceId, start_at AS startAt, end_at AS endAt,
  local_date AS localDate, code, status, name, phone, email, dedupe_key AS dedupeKey, ticket_id AS ticketId, created_by AS createdBy,
  created_at AS createdAt, updated_at AS updatedAt, checked_in_at AS checkedInAt, cancelled_at AS cancelledAt, missed_at AS missedAt, erased_at AS erasedAt`

export type AppointmentEvent = 'appointment.booked' | 'appointment.cancelled' | 'appointment.checked_in' | 'appointment.missed'

/** A check-in's answer: the booking and the ticket it got. */
export interface CheckInResult {
  appointment: AppointmentRow
  ticket: TicketRow
}

/**
 * The appointments feature's logic, free of HTTP. Writes run inside a write of `deps.writes`
 * (the routes: `writes.run`, group commit; the lifecycle task: `writes.now`); statements are
 * prepared on first use and belong to this object (the root builds one).
 */
export class AppointmentService {
  private prepared: ReturnType<typeof prepare> | undefined
  constructor(private readonly deps: Pick<AppointmentDeps, 'db' | 'ids' | 'writes' | 'tickets' | 'clock' | 'outbox'>, private readonly codes: () => string = newBookingCode) {}

  private get q() {
    return (this.prepared ??= prepare(this.deps.db.$client))
  }

  private get outbox(): WebhookOutbox {
    return this.deps.outbox
  }

  // ---- structure -----------------------------------------------------------------------

  unit(id: string): UnitRow | null {
    return this.q.unit.get(id) ?? null
  }

  location(id: string): LocationRow | null {
    return this.q.location.get(id) ?? null
  }

  /** The active services of a location that take appointments, in provisioning order. */
  bookableServices(locationId: string): Array<{ service: ServiceRow; settings: AppointmentSettings }> {
    return this.q.servicesAt.all(locationId)
      .map((service) => ({ service, settings: settingsOf(service.appointments) }))
      .filter((s): s is { service: ServiceRow; settings: AppointmentSettings } => s.settings !== null && s.settings.enabled)
  }

  /**
   * The location and service for a caller, checked as ticket issue checks them: unknown,
   * inactive or not offered → 422 VALIDATION_FAILED naming the field; outside the caller's
   * lists → 403 LOCATION_FORBIDDEN / SERVICE_FORBIDDEN; appointments off → 422 SLOT_UNAVAILABLE.
   */
  target(scope: AppointmentScope, locationId: string, serviceId: string): BookingTarget {
    const location = this.q.location.get(locationId) ?? null
    const service = this.q.service.get(serviceId) ?? null
    const inUnit = (unitId: string) => scope.queueUnitIds === null || scope.queueUnitIds.includes(unitId)
    const problems = []
    if (location === null || !inUnit(location.queueUnitId)) problems.push({ path: pointer('locationId'), message: 'no such location' })
    else if (location.active !== 1) problems.push({ path: pointer('locationId'), message: 'location is not active' })
    if (service === null || !inUnit(service.queueUnitId) || (location !== null && service.queueUnitId !== location.queueUnitId)) problems.push({ path: pointer('serviceId'), message: 'no such service' })
    else if (service.active !== 1) problems.push({ path: pointer('serviceId'), message: 'service is not active' })
    if (problems.length === 0 && this.q.offered.get(serviceId, locationId) === null) problems.push({ path: pointer('serviceId'), message: 'service is not offered at this location' })
    if (problems.length > 0) throw new ApiError(422, AppointmentCodes.VALIDATION_FAILED, 'request validation failed', problems)
    if (scope.locations !== null && !scope.locations.includes(locationId)) throw new ApiError(403, AppointmentCodes.LOCATION_FORBIDDEN, 'this caller may not use this location')
    if (scope.services !== null && !scope.services.includes(serviceId)) throw new ApiError(403, AppointmentCodes.SERVICE_FORBIDDEN, 'this caller may not use this service')
    const unit = this.q.unit.get(location!.queueUnitId)!
    if (unit.active !== 1) throw new ApiError(403, AppointmentCodes.QUEUE_UNIT_INACTIVE, 'this Queue Unit is inactive')
    const settings = settingsOf(service!.appointments)
    if (settings === null || !settings.enabled) throw slotUnavailable('APPOINTMENTS_DISABLED', '/serviceId')
    return { unit, location: location!, service: service!, settings }
  }

  /** Seats per slot: the setting, else the service's active counters at the location (contract §21). */
  capacity(target: BookingTarget): number {
    return target.settings.capacityPerSlot ?? this.q.counters.get(target.service.id, target.location.id)!.n
  }

  /** The first and last local dates open for booking at `now` (today and the next bookAheadDays − 1 days). */
  bookingDays(target: BookingTarget, now: number): { first: string; last: string } {
    const first = localDate(now, target.location.timezone)
    return { first, last: addDays(first, target.settings.bookAheadDays - 1) }
  }

  /**
   * Contract §28: the days of the booking window a booking page offers, in order: those with a
   * slot still ahead (full or not). A day the service or its location is closed (no hours that
   * weekday, a closed date) has none and is not offered, nor is today once its last slot began.
   */
  bookableDays(target: BookingTarget, now: number): string[] {
    const { first } = this.bookingDays(target, now)
    const location = locationHoursOf(target.location)
    const serviceHours = serviceHoursOf(target.service)
    const step = target.settings.slotMinutes * 60_000
    const days: string[] = []
    for (let k = 0; k < target.settings.bookAheadDays; k += 1) {
      const date = addDays(first, k)
      const windows = openWindowsOn(location, serviceHours, date, target.location.timezone)
      if (windows.some(([open, close]) => lastSlotStart(open, close, step) > now)) days.push(date)
    }
    return days
  }

  /**
   * The slots of a local date with their free seats: slotMinutes steps from the start of each of
   * the service's open windows that day, each slot wholly inside its window (instants, so a
   * daylight-saving day has the slots its wall clock has). Past slots (started at `now` or
   * before) and days outside the booking window have none.
   */
  slots(target: BookingTarget, date: string, now: number): SlotJson[] {
    const tz = target.location.timezone
    const { first, last } = this.bookingDays(target, now)
    if (date < first || date > last) return []
    const step = target.settings.slotMinutes * 60_000
    const starts: Array<[number, number]> = []
    for (const [open, close] of openWindowsOn(locationHoursOf(target.location), serviceHoursOf(target.service), date, tz)) {
      for (let t = open; t + step <= close; t += step) if (t > now) starts.push([t, t + step])
    }
    if (starts.length === 0) return []
    const capacity = this.capacity(target)
    const taken = new Map(this.q.bookedBetween.all(target.service.id, target.location.id, starts[0]![0], starts[starts.length - 1]![0]).map((r) => [r.startAt, r.n]))
    return starts.map(([startAt, endAt]) => {
      const booked = taken.get(startAt) ?? 0
      return { startAt: isoTime(startAt), endAt: isoTime(endAt), localTime: localDateTime(startAt, tz).time, capacity, booked, free: Math.max(capacity - booked, 0) }
    })
  }

  /** The slot starting at `startAt` (epoch ms), or why it cannot be booked. */
  private slotAt(target: BookingTarget, startAt: number, now: number): { endAt: number; localDate: string } {
    if (startAt <= now) throw slotUnavailable('IN_THE_PAST')
    const date = localDate(startAt, target.location.timezone)
    if (date > this.bookingDays(target, now).last) throw slotUnavailable('BEYOND_BOOKING_WINDOW')
    const slot = this.slots(target, date, now).find((s) => Date.parse(s.startAt) === startAt)
    if (slot === undefined) throw slotUnavailable('OUTSIDE_HOURS')
    return { endAt: Date.parse(slot.endAt), localDate: date }
  }

  private assertSeatFree(target: BookingTarget, startAt: number): void {
    if (this.q.bookedAt.get(target.service.id, target.location.id, startAt)!.n >= this.capacity(target)) {
      throw new ApiError(409, AppointmentCodes.SLOT_FULL, 'every seat of this slot is taken: choose another slot')
    }
  }

  // ---- writes (inside a write of deps.writes) --------------------------------------------

  /**
   * Books one seat (contract §21): the slot checked (422 SLOT_UNAVAILABLE with the reason),
   * the same name, contact and slot found again (`created: false`, no second seat), else the
   * seat counted in this transaction (409 SLOT_FULL) and the booking written with its
   * `appointment.booked` webhook.
   */
  book(target: BookingTarget, request: BookAppointmentRequest, who: AppointmentActor, now: number): { row: AppointmentRow; created: boolean } {
    const startAt = parseStartAt(request.startAt)
    const slot = this.slotAt(target, startAt, now)
    const phone = request.phone?.trim() || null
    const email = request.email?.trim() || null
    const name = request.name.trim()
    if (name.length === 0) throw new ApiError(422, AppointmentCodes.VALIDATION_FAILED, 'request validation failed', [{ path: '/name', message: 'must not be blank' }])
    const dedupeKey = dedupeKeyOf(target.service.id, target.location.id, startAt, name, phone, email)
    const same = this.q.byDedupe.get(dedupeKey) ?? null
    if (same !== null) return { row: same, created: false }
    this.assertSeatFree(target, startAt)
    const row: AppointmentRow = {
      id: this.deps.ids.next('apt_'), queueUnitId: target.unit.id, locationId: target.location.id, serviceId: target.service.id,
      startAt, endAt: slot.endAt, localDate: slot.localDate, code: this.freshCode(), status: 'BOOKED', name, phone, email, dedupeKey,
      ticketId: null, createdBy: who.actor, createdAt: now, updatedAt: now, checkedInAt: null, cancelledAt: null, missedAt: null, erasedAt: null,
    }
    this.q.insert.run(row.id, row.queueUnitId, row.locationId, row.serviceId, row.startAt, row.endAt, row.localDate, row.code, row.name, row.phone, row.email, row.dedupeKey, row.createdBy, now)
    this.announce('appointment.booked', row, who.actor, now)
    return { row, created: true }
  }

  private freshCode(): string {
    for (;;) {
      const code = this.codes()
      if (this.q.byCode.get(code) === null) return code
    }
  }

  /** BOOKED → CANCELLED (the seat is free again); anything else 409 APPOINTMENT_NOT_BOOKED. */
  cancel(row: AppointmentRow, actor: string, now: number): AppointmentRow {
    assertBooked(row)
    this.q.setStatus.run('CANCELLED', now, row.id)
    this.q.cancelled.run(now, row.id)
    const after = this.byId(row.id)!
    this.announce('appointment.cancelled', after, actor, now)
    return after
  }

  /** A BOOKED appointment moved to another free slot of its service (the booking page's "Move"). */
  move(row: AppointmentRow, target: BookingTarget, startAtText: string, actor: string, now: number): AppointmentRow {
    assertBooked(row)
    const startAt = parseStartAt(startAtText)
    if (startAt === row.startAt) return row
    const slot = this.slotAt(target, startAt, now)
    const dedupeKey = row.name === null ? null : dedupeKeyOf(row.serviceId, row.locationId, startAt, row.name, row.phone, row.email)
    if (dedupeKey !== null && this.q.byDedupe.get(dedupeKey) !== null) throw slotUnavailable('ALREADY_BOOKED')
    this.assertSeatFree(target, startAt)
    this.q.moveTo.run(startAt, slot.endAt, slot.localDate, dedupeKey, now, row.id)
    const after = this.byId(row.id)!
    // A move is announced as a new booking of the same appointment (same id, new startAt).
    this.announce('appointment.booked', after, actor, now)
    return after
  }

  /** When the check-in window of an appointment opens and closes (contract §21 checkIn). */
  checkInWindow(row: AppointmentRow): { opensAt: number; closesAt: number } {
    const settings = settingsOf(this.q.service.get(row.serviceId)?.appointments ?? null)
    const early = settings?.checkIn.earlyMinutes ?? 15
    const late = settings?.checkIn.lateMinutes ?? 10
    return { opensAt: row.startAt - early * 60_000, closesAt: row.startAt + late * 60_000 }
  }

  /**
   * Check-in inside the window: a ticket (source APPOINTMENT) through the tickets owner, ranked
   * before the location's walk-ins created after the slot start, and BOOKED → CHECKED_IN with
   * the `appointment.checked_in` webhook. Early: 409 CHECK_IN_TOO_EARLY; late: 409
   * CHECK_IN_TOO_LATE (a kiosk offers a normal ticket instead).
   */
  checkIn(row: AppointmentRow, who: AppointmentActor, now: number, language: string | null = null): CheckInResult {
    assertBooked(row)
    const { opensAt, closesAt } = this.checkInWindow(row)
    if (now < opensAt) {
      throw new ApiError(409, AppointmentCodes.CHECK_IN_TOO_EARLY, `check-in opens ${Math.round((row.startAt - opensAt) / 60_000)} minutes before the appointment`, [{ path: '/startAt', message: `check-in opens at ${isoTime(opensAt)}` }])
    }
    if (now > closesAt) {
      throw new ApiError(409, AppointmentCodes.CHECK_IN_TOO_LATE, `the check-in window closed ${Math.round((closesAt - row.startAt) / 60_000)} minutes after the appointment: take a normal ticket`)
    }
    const unit = this.q.unit.get(row.queueUnitId)!
    if (unit.active !== 1) throw new ApiError(403, QueueCodes.QUEUE_UNIT_INACTIVE, 'this Queue Unit is inactive')
    assertNotEdgeManaged(unit, now)
    const location = this.q.location.get(row.locationId)!
    const service = this.q.service.get(row.serviceId)!
    const ticket = this.deps.tickets.issue({
      queueUnitId: row.queueUnitId,
      location: { id: location.id, timezone: location.timezone },
      service: { id: service.id, prefix: service.prefix },
      source: 'APPOINTMENT',
      externalReference: null,
      priority: false,
      credentialId: who.credentialId,
      actor: who.actor,
      language,
      appointment: { id: row.id, startAt: row.startAt },
    }, now)
    this.q.checkedIn.run(ticket.id, now, row.id)
    const after = this.byId(row.id)!
    this.announce('appointment.checked_in', after, who.actor, now)
    return { appointment: after, ticket }
  }

  /**
   * BOOKED appointments whose check-in window has closed → MISSED, with `appointment.missed`
   * (a lifecycle task runs it every minute). One seek on (status, start_at): only the BOOKED
   * rows that already started are read. Returns how many were marked.
   */
  markMissed(now: number): number {
    let marked = 0
    for (const row of this.q.startedBooked.all(now, BATCH)) {
      if (now <= this.checkInWindow(row).closesAt) continue
      this.q.setStatus.run('MISSED', now, row.id)
      this.q.missed.run(now, row.id)
      this.announce('appointment.missed', this.byId(row.id)!, 'system:appointments', now)
      marked += 1
    }
    return marked
  }

  private announce(type: AppointmentEvent, row: AppointmentRow, actor: string, now: number): void {
    // Contract §25: a customer's phone and e-mail never leave in a webhook (null there, as after erasure).
    const body: AppointmentJson = { ...appointmentJson(row), phone: null, email: null }
    this.outbox.enqueue(row.queueUnitId, type, decodeActor(actor), body, now)
    this.deps.tickets.touch(row.queueUnitId)
  }

  // ---- reads ------------------------------------------------------------------------------

  byId(id: string): AppointmentRow | null {
    return this.q.byId.get(id) ?? null
  }

  byCode(code: string): AppointmentRow | null {
    return this.q.byCode.get(code) ?? null
  }

  /** An appointment the scope may see, or null. */
  visible(scope: AppointmentScope, id: string): AppointmentRow | null {
    const row = this.byId(id)
    if (row === null) return null
    if (scope.queueUnitIds !== null && !scope.queueUnitIds.includes(row.queueUnitId)) return null
    if (scope.locations !== null && !scope.locations.includes(row.locationId)) return null
    if (scope.services !== null && !scope.services.includes(row.serviceId)) return null
    return row
  }

  /** A location's appointments of a local date (all statuses), by start time; optionally one service. */
  list(locationId: string, date: string, serviceId?: string): AppointmentRow[] {
    const rows = this.q.day.all(locationId, date)
    return serviceId === undefined ? rows : rows.filter((r) => r.serviceId === serviceId)
  }

  /** The ticket of a check-in (for the report's wait after check-in, and the pages). */
  ticketOf(row: AppointmentRow): TicketRow | null {
    return row.ticketId === null ? null : this.deps.tickets.byId(row.ticketId)
  }

  /**
   * Per local date, location and service: booked (not cancelled), cancelled, kept (checked in),
   * missed, late (checked in after the slot start) and the wait from check-in to the ticket's
   * first call. Dates `from`..`to` inclusive (at most REPORT_MAX_DAYS).
   */
  report(scope: AppointmentScope, from: string, to: string): AppointmentReportRowJson[] {
    return inReadTransaction(this.deps.db, () => {
      const groups = new Map<string, AppointmentReportRowJson & { waitSum: number }>()
      for (const row of this.q.range.all(from, to)) {
        if (scope.queueUnitIds !== null && !scope.queueUnitIds.includes(row.queueUnitId)) continue
        if (scope.locations !== null && !scope.locations.includes(row.locationId)) continue
        if (scope.services !== null && !scope.services.includes(row.serviceId)) continue
        const key = `${row.localDate}\u0000${row.locationId}\u0000${row.serviceId}`
        let g = groups.get(key)
        if (g === undefined) {
          g = { date: row.localDate, locationId: row.locationId, serviceId: row.serviceId, booked: 0, cancelled: 0, kept: 0, missed: 0, late: 0, waitAfterCheckInSeconds: { count: 0, avg: null, max: null }, waitSum: 0 }
          groups.set(key, g)
        }
        if (row.status === 'CANCELLED') { g.cancelled += 1; continue }
        g.booked += 1
        if (row.status === 'MISSED') g.missed += 1
        if (row.status === 'CHECKED_IN') {
          g.kept += 1
          if (row.checkedInAt !== null && row.checkedInAt > row.startAt) g.late += 1
          const calledAt = row.ticketId === null ? null : this.deps.tickets.byId(row.ticketId)?.calledAt ?? null
          if (calledAt !== null && row.checkedInAt !== null) {
            const wait = Math.max(0, Math.round((calledAt - row.checkedInAt) / 1000))
            const w = g.waitAfterCheckInSeconds
            w.count += 1
            g.waitSum += wait
            w.max = Math.max(w.max ?? 0, wait)
            w.avg = Math.round(g.waitSum / w.count)
          }
        }
      }
      return [...groups.values()]
        .sort((a, b) => a.date.localeCompare(b.date) || a.locationId.localeCompare(b.locationId) || a.serviceId.localeCompare(b.serviceId))
        .map(({ waitSum: _, ...row }) => row)
    })
  }
}

function parseStartAt(text: string): number {
  const startAt = parseOffsetDateTime(text, 'iso8601') ?? parseOffsetDateTime(text, 'rfc3339')
  if (startAt === null) throw new ApiError(422, AppointmentCodes.VALIDATION_FAILED, 'request validation failed', [{ path: '/startAt', message: 'must be an ISO 8601 date-time with offset' }])
  return startAt
}

function assertBooked(row: AppointmentRow): void {
  if (row.status !== 'BOOKED') throw new ApiError(409, AppointmentCodes.APPOINTMENT_NOT_BOOKED, `this appointment is ${row.status}, not BOOKED`)
}

/**
 * Contract §21 privacy: the customer's name, phone and e-mail of appointments that ended more
 * than their service's `retainDays` ago are erased (`erased_at` set, the fields and the dedupe
 * key nulled), at most `limit` rows per call. The retention job calls it in batches.
 */
export function eraseAppointmentContacts(db: AppointmentDeps['db'], now: number, limit = 2_000): number {
  return db.$client.query(`
    UPDATE appointments SET name = NULL, phone = NULL, email = NULL, dedupe_key = NULL, erased_at = ?1, updated_at = ?1
    WHERE id IN (
      SELECT a.id FROM appointments a JOIN services s ON s.id = a.service_id
      WHERE a.erased_at IS NULL
        AND a.end_at < ?1 - coalesce(json_extract(s.appointments, '$.retainDays'), 30) * ${DAY_MS}
      LIMIT ?2)`).run(now, limit).changes
}

function prepare(client: AppointmentDeps['db']['$client']) {
  return {
    unit: client.query<UnitRow, [string]>(`SELECT id, name, names, active, default_language AS defaultLanguage, languages, edge_holder AS edgeHolder, edge_expires_at AS edgeExpiresAt FROM queue_units WHERE id = ?1`),
    location: client.query<LocationRow, [string]>(`SELECT id, queue_unit_id AS queueUnitId, name, names, timezone, active, opening_hours AS openingHours, closed_dates AS closedDates, last_ticket_minutes_before_close AS lastTicketMinutesBeforeClose FROM locations WHERE id = ?1`),
    service: client.query<ServiceRow, [string]>(`SELECT id, queue_unit_id AS queueUnitId, name, names, prefix, active, opening_hours AS openingHours, appointments FROM services WHERE id = ?1`),
    servicesAt: client.query<ServiceRow, [string]>(`SELECT s.id, s.queue_unit_id AS queueUnitId, s.name, s.names, s.prefix, s.active, s.opening_hours AS openingHours, s.appointments
      FROM service_locations sl JOIN services s ON s.id = sl.service_id WHERE sl.location_id = ?1 AND s.active = 1 AND s.appointments IS NOT NULL ORDER BY s.rowid`),
    offered: client.query<{ one: number }, [string, string]>(`SELECT 1 AS one FROM service_locations WHERE service_id = ?1 AND location_id = ?2`),
    counters: client.query<{ n: number }, [string, string]>(`SELECT count(*) AS n FROM counters c JOIN counter_services cs ON cs.counter_id = c.id WHERE cs.service_id = ?1 AND c.location_id = ?2 AND c.active = 1`),
    bookedAt: client.query<{ n: number }, [string, string, number]>(`SELECT count(*) AS n FROM appointments WHERE service_id = ?1 AND location_id = ?2 AND start_at = ?3 AND status IN ('BOOKED', 'CHECKED_IN')`),
    bookedBetween: client.query<{ startAt: number; n: number }, [string, string, number, number]>(`SELECT start_at AS startAt, count(*) AS n FROM appointments
      WHERE service_id = ?1 AND location_id = ?2 AND start_at BETWEEN ?3 AND ?4 AND status IN ('BOOKED', 'CHECKED_IN') GROUP BY start_at`),
    byId: client.query<AppointmentRow, [string]>(`SELECT ${COLUMNS} FROM appointments WHERE id = ?1`),
    byCode: client.query<AppointmentRow, [string]>(`SELECT ${COLUMNS} FROM appointments WHERE code = ?1`),
    byDedupe: client.query<AppointmentRow, [string]>(`SELECT ${COLUMNS} FROM appointments WHERE dedupe_key = ?1`),
    day: client.query<AppointmentRow, [string, string]>(`SELECT ${COLUMNS} FROM appointments WHERE location_id = ?1 AND local_date = ?2 ORDER BY start_at, created_at, id`),
    range: client.query<AppointmentRow, [string, string]>(`SELECT ${COLUMNS} FROM appointments WHERE local_date BETWEEN ?1 AND ?2`),
    startedBooked: client.query<AppointmentRow, [number, number]>(`SELECT ${COLUMNS} FROM appointments WHERE status = 'BOOKED' AND start_at < ?1 ORDER BY start_at LIMIT ?2`),
    insert: client.query<never, [string, string, string, string, number, number, string, string, string | null, string | null, string | null, string | null, string, number]>(`
      INSERT INTO appointments (id, queue_unit_id, location_id, service_id, start_at, end_at, local_date, code, status, name, phone, email, dedupe_key, created_by, created_at, updated_at)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'BOOKED', ?9, ?10, ?11, ?12, ?13, ?14, ?14)`),
    // Leaving BOOKED frees the dedupe key: the same person may book that slot again after a cancellation.
    setStatus: client.query<never, [string, number, string]>(`UPDATE appointments SET status = ?1, updated_at = ?2, dedupe_key = CASE WHEN ?1 = 'CHECKED_IN' THEN dedupe_key ELSE NULL END WHERE id = ?3`),
    cancelled: client.query<never, [number, string]>(`UPDATE appointments SET cancelled_at = ?1 WHERE id = ?2`),
    missed: client.query<never, [number, string]>(`UPDATE appointments SET missed_at = ?1 WHERE id = ?2`),
    checkedIn: client.query<never, [string, number, string]>(`UPDATE appointments SET status = 'CHECKED_IN', ticket_id = ?1, checked_in_at = ?2, updated_at = ?2 WHERE id = ?3`),
    moveTo: client.query<never, [number, number, string, string | null, number, string]>(`UPDATE appointments SET start_at = ?1, end_at = ?2, local_date = ?3, dedupe_key = ?4, updated_at = ?5 WHERE id = ?6`),
  }
}

/** How often BOOKED appointments past their check-in window are marked MISSED. */
export const MISSED_EVERY_MS = 60_000

/**
 * The lifecycle task of contract §21's missed marking: once at start, then every minute, in
 * its own immediate write (`writes.now`, not a request's group commit).
 */
export function missedAppointmentsTask(deps: Pick<AppointmentDeps, 'writes' | 'clock' | 'log'>, service: AppointmentService): BackgroundTask {
  let timer: ReturnType<typeof setInterval> | undefined
  const run = () => {
    try {
      const marked = deps.writes.now(() => service.markMissed(deps.clock.now()))
      if (marked > 0) deps.log({ level: 'info', msg: 'appointments marked missed', count: marked })
    } catch (error) {
      deps.log({ level: 'error', msg: 'marking missed appointments failed', error: String(error) })
    }
  }
  return {
    start: () => {
      timer = setInterval(run, MISSED_EVERY_MS)
    },
    // Its first run waits out the first requests (cold start): check-in checks the window itself.
    startSettled: run,
    beforeStop: () => clearInterval(timer),
  }
}

/** The start of the last slot of `step` ms wholly inside [open, close), or -Infinity when none fits. */
function lastSlotStart(open: number, close: number, step: number): number {
  return close - open < step ? Number.NEGATIVE_INFINITY : open + Math.floor((close - open) / step - 1) * step
}
