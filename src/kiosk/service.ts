import type { KioskDeps } from './deps'
import { DEFAULT_ISSUE_PER_MINUTE, DEFAULT_READ_PER_MINUTE, mayUseService } from '../access'
import type { Credential } from '../platform/credentials'
import { ApiError, pointer } from '../platform/errors'
import { isoTime } from '../platform/clock'
import { locationHoursOf, serviceHoursOf, type IssueOutcome, type QueueService } from '../queue'
import { openStateAt } from '../structure'
import { canonicalLanguageTag, matchLanguage, namesObject, resolveName, storedName, type LocalizedName } from '../platform/names'
import type { Device } from '../devices'
import { type TicketRow, trackedTicketJson, waitWhenClosed } from '../tickets'
import { KioskCodes } from './errors'
import type { KioskIssueRequest, KioskTicket, KioskView } from './model'

/**
 * A kiosk as the Queue feature's caller (contract §7): its queue unit, its one location and
 * its service list (null = every service there), allowed to list services and issue tickets.
 * `name` carries a `/`, which no key name may, so a kiosk never shares a rate window or an
 * Idempotency-Key scope with a queue key or another device.
 */
export function kioskCredential(device: Device): Credential {
  return {
    id: device.credentialId,
    kind: 'device',
    ownerId: device.queueUnitId!,
    name: `device/${device.name}`,
    scopes: ['services:read', 'tickets:write'],
    locations: [device.locationId!],
    services: device.services,
    issuePerMinute: DEFAULT_ISSUE_PER_MINUTE,
    readPerMinute: DEFAULT_READ_PER_MINUTE,
  }
}

/** Contract §23: a kiosk prints its own ticket for 10 minutes after issue (a reprint after a paper jam), never later. */
export const PRINT_WINDOW_MS = 10 * 60_000

interface Place {
  unitName: LocalizedName
  unitActive: boolean
  kioskPriority: boolean
  defaultLanguage: string
  languages: string[]
  locationName: LocalizedName
  timezone: string
  locationActive: boolean
  /** The location's stored hours (contract §18), as `locationHoursOf` reads them. */
  hours: { openingHours: string | null; closedDates: string; lastTicketMinutesBeforeClose: number }
}

interface PlaceRow {
  unitName: string
  unitNames: string | null
  unitActive: number
  kioskPriority: number
  defaultLanguage: string
  languages: string
  locationName: string
  locationNames: string | null
  timezone: string
  locationActive: number
  openingHours: string | null
  closedDates: string
  lastTicketMinutesBeforeClose: number
}

function prepareKioskStatements(deps: KioskDeps) {
  return {
    placeStmt: deps.db.$client.query<PlaceRow, [string, string]>(
      `SELECT u.name AS unitName, u.names AS unitNames, u.active AS unitActive, u.kiosk_priority AS kioskPriority,
              u.default_language AS defaultLanguage, u.languages AS languages,
              l.name AS locationName, l.names AS locationNames, l.timezone AS timezone, l.active AS locationActive,
              l.opening_hours AS openingHours, l.closed_dates AS closedDates, l.last_ticket_minutes_before_close AS lastTicketMinutesBeforeClose
       FROM queue_units u INNER JOIN locations l ON l.queue_unit_id = u.id WHERE u.id = ?1 AND l.id = ?2`,
    ),
    serviceHoursStmt: deps.db.$client.query<{ id: string; openingHours: string | null }, [string]>(
      'SELECT id, opening_hours AS openingHours FROM services WHERE queue_unit_id = ?1',
    ),
  }
}

/**
 * The kiosk's logic (contract §9), free of HTTP: what its start screen lists, the ticket issue
 * (the public issue's own write path, source KIOSK) and a ticket as the kiosk shows and prints
 * it. Ticket state is read through `deps.tickets`; the names of the unit, location and services
 * come from the provisioned structure.
 */
export class KioskService {
  private prepared: ReturnType<typeof prepareKioskStatements> | undefined

  constructor(private readonly deps: KioskDeps, private readonly queue: QueueService) {}

  /** Prepared on first use (not while the server starts). */
  private get parts(): ReturnType<typeof prepareKioskStatements> {
    return (this.prepared ??= prepareKioskStatements(this.deps))
  }

  private place(device: Device): Place {
    const row = this.parts.placeStmt.get(device.queueUnitId!, device.locationId!)
    if (row === null) throw new ApiError(403, KioskCodes.QUEUE_UNIT_INACTIVE, 'this kiosk\'s queue unit or location no longer exists')
    return {
      unitName: storedName(row.unitName, row.unitNames),
      unitActive: row.unitActive === 1,
      kioskPriority: row.kioskPriority === 1,
      defaultLanguage: row.defaultLanguage,
      languages: JSON.parse(row.languages) as string[],
      locationName: storedName(row.locationName, row.locationNames),
      timezone: row.timezone,
      locationActive: row.locationActive === 1,
      hours: { openingHours: row.openingHours, closedDates: row.closedDates, lastTicketMinutesBeforeClose: row.lastTicketMinutesBeforeClose },
    }
  }

  /**
   * Contract §18: the unit's language a kiosk asked for (`ar-EG` is served by `ar`, any case),
   * or 422 on /language. Absent: null (the unit's default, stored as null like every other source).
   */
  private languageOf(place: Place, asked: string | undefined): string | null {
    if (asked === undefined) return null
    const canonical = canonicalLanguageTag(asked)
    const found = canonical === null ? null : matchLanguage(canonical, place.languages)
    if (found === null) {
      throw new ApiError(422, KioskCodes.VALIDATION_FAILED, 'request validation failed', [{ path: pointer('language'), message: `must be one of this kiosk's languages: ${place.languages.join(', ')}` }])
    }
    return found
  }

  /** Contract §21: whether an active service of the location takes appointments (the kiosk then offers "I have an appointment"). */
  private appointmentsAt(locationId: string): boolean {
    this.appointmentsStmt ??= this.deps.db.$client.query<{ one: number }, [string]>(
      "SELECT 1 AS one FROM service_locations sl JOIN services s ON s.id = sl.service_id WHERE sl.location_id = ?1 AND s.active = 1 AND json_extract(s.appointments, '$.enabled') = 1 LIMIT 1")
    return this.appointmentsStmt.get(locationId) !== null
  }

  private appointmentsStmt: import('bun:sqlite').Statement<{ one: number }, [string]> | undefined

  /** The start screen: every active service of its location within its list, with people waiting and the estimate. */
  view(device: Device, now: number): KioskView {
    const place = this.place(device)
    const caller = kioskCredential(device)
    const lines = !place.unitActive || !place.locationActive ? [] : this.deps.tickets
      .lines(device.queueUnitId!, true)
      .filter((line) => line.locationId === device.locationId && mayUseService(caller, line.id))
    // Contract §18: each service's hours within its location's; read only when something is listed.
    const serviceHours = lines.length === 0 ? new Map<string, string | null>() : new Map(this.parts.serviceHoursStmt.all(device.queueUnitId!).map((s) => [s.id, s.openingHours]))
    const locationHours = locationHoursOf(place.hours)
    const services = lines
      .map((line) => {
        const state = openStateAt(locationHours, serviceHoursOf({ openingHours: serviceHours.get(line.id) ?? null }), now, place.timezone)
        const forPriority = place.kioskPriority ? this.deps.tickets.placeForNew(device.queueUnitId!, line.id, line.locationId, true) : null
        return {
          id: line.id,
          name: line.name,
          names: namesObject(line.names ?? line.name, place.defaultLanguage),
          prefix: line.prefix,
          open: state.open,
          opensAt: state.opensAt === null ? null : isoTime(state.opensAt),
          waiting: line.waiting,
          // Contract §19: closed, the time until it opens plus the estimate.
          estimatedWaitSeconds: waitWhenClosed(line.estimatedWaitSeconds, state, now),
          noCounterOpen: line.noCounterOpen,
          priorityEstimatedWaitSeconds: forPriority === null ? null : waitWhenClosed(forPriority.estimatedWaitSeconds, state, now),
          peopleAhead: line.peopleAhead,
          priorityPeopleAhead: forPriority === null ? null : forPriority.ahead,
          counterFree: line.counterFree,
        }
      })
    // The branch is open while any listed service is; closed, it opens with its earliest service.
    const open = services.some((s) => s.open)
    const openings = services.map((s) => s.opensAt).filter((at): at is string => at !== null).sort()
    const unitName = resolveName(place.unitName, null, place.defaultLanguage)
    const locationName = resolveName(place.locationName, null, place.defaultLanguage)
    return {
      generatedAt: isoTime(now),
      branchName: unitName,
      defaultLanguage: place.defaultLanguage,
      languages: place.languages,
      open,
      opensAt: open ? null : openings[0] ?? null,
      queueUnit: { id: device.queueUnitId!, name: unitName, names: namesObject(place.unitName, place.defaultLanguage), active: place.unitActive },
      location: { id: device.locationId!, name: locationName, names: namesObject(place.locationName, place.defaultLanguage), timezone: place.timezone, active: place.locationActive },
      priorityChoice: place.kioskPriority,
      appointments: lines.length > 0 && this.appointmentsAt(device.locationId!),
      services,
    }
  }

  /**
   * Issues a ticket for the tapped service at the kiosk's location by the public issue's rules
   * and write path (`QueueService.issueIdempotent`: idempotency lookup → Edge authority →
   * location and service → write), source KIOSK. Must run inside `deps.writes.run`.
   */
  issue(device: Device, idempotencyKey: string, request: KioskIssueRequest, now: number): IssueOutcome {
    const priority = request.priority === true
    const place = this.place(device)
    // Contract §8: "Priority" only where the unit offers it (read in this write: a change of
    // provisioning counts from the next tap).
    if (priority && !place.kioskPriority) {
      throw new ApiError(422, KioskCodes.VALIDATION_FAILED, 'request validation failed', [{ path: pointer('priority'), message: 'this kiosk offers no Priority choice (kioskPriority is off)' }])
    }
    const language = this.languageOf(place, request.language)
    return this.queue.issueIdempotent(kioskCredential(device), idempotencyKey, {
      locationId: device.locationId!,
      serviceId: request.serviceId,
      ...(priority ? { priority } : {}),
      ...(language !== null ? { language } : {}),
    }, now, 'KIOSK')
  }

  /** A ticket of the kiosk's location and services, or null. */
  visibleTicket(device: Device, ticketId: string): TicketRow | null {
    return this.queue.visibleTicket(kioskCredential(device), ticketId)
  }

  /**
   * Contract §23 "Printing": a kiosk prints only a ticket it issued itself (source KIOSK, or
   * APPOINTMENT when it checked the appointment in, contract §21; its own credential), and only
   * within `PRINT_WINDOW_MS` of issue; contract §20, a desk likewise its own walk-ins (source
   * OPERATOR, its credential). `missing` for any other ticket (another device's, the API's: as
   * if it did not exist), `expired` for its own ticket after the window.
   */
  printableTicket(device: Device, ticketId: string, now: number): TicketRow | 'missing' | 'expired' {
    const row = this.visibleTicket(device, ticketId)
    const sources: readonly string[] = device.role === 'desk' ? ['OPERATOR'] : ['KIOSK', 'APPOINTMENT']
    if (row === null || !sources.includes(row.source) || row.credentialId !== device.credentialId) return 'missing'
    if (now - row.createdAt > PRINT_WINDOW_MS) return 'expired'
    return row
  }

  /**
   * The ticket as the kiosk's ticket screen and print page show it: names in the ticket's
   * language (contract §18: the one it was taken in, else the unit's default), people ahead,
   * estimate.
   */
  ticketView(device: Device, row: TicketRow): KioskTicket {
    const place = this.place(device)
    const line = this.deps.tickets.lines(row.queueUnitId, false).find((l) => l.id === row.serviceId && l.locationId === row.locationId)
    const inLine = this.deps.tickets.placeInLine(row)
    const language = row.language ?? place.defaultLanguage
    return {
      ticket: trackedTicketJson(row),
      language,
      branchName: resolveName(place.unitName, language, place.defaultLanguage),
      serviceName: line === undefined ? row.serviceId : resolveName(line.names ?? line.name, language, place.defaultLanguage),
      locationName: resolveName(place.locationName, language, place.defaultLanguage),
      timezone: place.timezone,
      peopleAhead: inLine?.ahead ?? 0,
      estimatedWaitSeconds: inLine?.estimatedWaitSeconds ?? 0,
      noCounterOpen: inLine?.noCounterOpen ?? false,
      counterFree: inLine?.counterFree ?? false,
      printPath: `/kiosk/tickets/${encodeURIComponent(row.id)}/print`,
      appointmentAt: row.appointmentStartAt === null ? null : isoTime(row.appointmentStartAt),
    }
  }
}
