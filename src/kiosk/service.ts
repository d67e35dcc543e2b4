import type { KioskDeps } from './deps'
import { DEFAULT_ISSUE_PER_MINUTE, DEFAULT_READ_PER_MINUTE, mayUseService } from '../access'
import type { Credential } from '../platform/credentials'
import { ApiError, pointer } from '../platform/errors'
import { isoTime } from '../platform/clock'
import { type IssueOutcome, type QueueService } from '../queue'
import { openStateAt, type LocationConfiguration, type UnitConfiguration } from '../structure'
import { canonicalLanguageTag, matchLanguage, namesObject, resolveName } from '../platform/names'
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

/** The kiosk's unit and location, as the configuration read holds them. */
interface Place {
  unit: UnitConfiguration
  location: LocationConfiguration
}

/**
 * The kiosk's logic (contract §9), free of HTTP: what its start screen lists, the ticket issue
 * (the public issue's own write path, source KIOSK) and a ticket as the kiosk shows and prints
 * it. Ticket state is read through `deps.tickets`; the names of the unit, location and services
 * come from the provisioned structure.
 */
export class KioskService {
  constructor(private readonly deps: KioskDeps, private readonly queue: QueueService) {}

  private place(device: Device): Place {
    const unit = this.deps.configuration.unit(device.queueUnitId!)
    const location = unit?.locations.get(device.locationId!)
    if (unit === null || location === undefined) throw new ApiError(403, KioskCodes.QUEUE_UNIT_INACTIVE, 'this kiosk\'s queue unit or location no longer exists')
    return { unit, location }
  }

  /**
   * Contract §18: the unit's language a kiosk asked for (`ar-EG` is served by `ar`, any case),
   * or 422 on /language. Absent: null (the unit's default, stored as null like every other source).
   */
  private languageOf(place: Place, asked: string | undefined): string | null {
    if (asked === undefined) return null
    const canonical = canonicalLanguageTag(asked)
    const found = canonical === null ? null : matchLanguage(canonical, place.unit.languages)
    if (found === null) {
      throw new ApiError(422, KioskCodes.VALIDATION_FAILED, 'request validation failed', [{ path: pointer('language'), message: `must be one of this kiosk's languages: ${place.unit.languages.join(', ')}` }])
    }
    return found
  }

  /** Contract §21: whether an active service of the location takes appointments (the kiosk then offers "I have an appointment"). */
  private appointmentsAt({ unit, location }: Place): boolean {
    return location.serviceIds.some((id) => {
      const service = unit.services.get(id)
      return service !== undefined && service.active && service.appointmentsEnabled
    })
  }

  /** The start screen: every active service of its location within its list, with people waiting and the estimate. */
  view(device: Device, now: number): KioskView {
    const place = this.place(device)
    const { unit, location } = place
    const caller = kioskCredential(device)
    const lines = !unit.active || !location.active ? [] : this.deps.tickets
      .lines(device.queueUnitId!, true)
      .filter((line) => line.locationId === device.locationId && mayUseService(caller, line.id))
    const services = lines
      .map((line) => {
        // Contract §18: each service's hours within its location's.
        const state = openStateAt(location.hours, unit.services.get(line.id)?.hours ?? null, now, location.timezone)
        const forPriority = unit.kioskPriority ? this.deps.tickets.placeForNew(device.queueUnitId!, line.id, line.locationId, true) : null
        return {
          id: line.id,
          name: line.name,
          names: namesObject(line.names ?? line.name, unit.defaultLanguage),
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
    const unitName = resolveName(unit.name, null, unit.defaultLanguage)
    const locationName = resolveName(location.name, null, unit.defaultLanguage)
    return {
      generatedAt: isoTime(now),
      branchName: unitName,
      defaultLanguage: unit.defaultLanguage,
      languages: [...unit.languages],
      open,
      opensAt: open ? null : openings[0] ?? null,
      queueUnit: { id: device.queueUnitId!, name: unitName, names: namesObject(unit.name, unit.defaultLanguage), active: unit.active },
      location: { id: device.locationId!, name: locationName, names: namesObject(location.name, unit.defaultLanguage), timezone: location.timezone, active: location.active },
      priorityChoice: unit.kioskPriority,
      appointments: lines.length > 0 && this.appointmentsAt(place),
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
    if (priority && !place.unit.kioskPriority) {
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
    const { unit, location } = this.place(device)
    const line = this.deps.tickets.lines(row.queueUnitId, false).find((l) => l.id === row.serviceId && l.locationId === row.locationId)
    const inLine = this.deps.tickets.placeInLine(row)
    const language = row.language ?? unit.defaultLanguage
    return {
      ticket: trackedTicketJson(row),
      language,
      branchName: resolveName(unit.name, language, unit.defaultLanguage),
      serviceName: line === undefined ? row.serviceId : resolveName(line.names ?? line.name, language, unit.defaultLanguage),
      locationName: resolveName(location.name, language, unit.defaultLanguage),
      timezone: location.timezone,
      peopleAhead: inLine?.ahead ?? 0,
      estimatedWaitSeconds: inLine?.estimatedWaitSeconds ?? 0,
      noCounterOpen: inLine?.noCounterOpen ?? false,
      counterFree: inLine?.counterFree ?? false,
      printPath: `/kiosk/tickets/${encodeURIComponent(row.id)}/print`,
      appointmentAt: row.appointmentStartAt === null ? null : isoTime(row.appointmentStartAt),
    }
  }
}
