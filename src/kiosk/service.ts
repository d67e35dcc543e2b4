import type { AppDeps } from '../root/deps'
import type { Credential } from '../platform/credentials'
import { ApiError, pointer } from '../platform/errors'
import { isoTime } from '../platform/clock'
import { DEFAULT_ISSUE_PER_MINUTE, DEFAULT_READ_PER_MINUTE, mayUseService } from '../queue/access'
import type { IssueOutcome, QueueService } from '../queue/service'
import type { Device } from '../devices/service'
import { type TicketRow, trackedTicketJson } from '../tickets'
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
  unitName: string
  unitActive: boolean
  kioskPriority: boolean
  locationName: string
  timezone: string
  locationActive: boolean
}

/**
 * The kiosk's logic (contract §9), free of HTTP: what its start screen lists, the ticket issue
 * (the public issue's own write path, source KIOSK) and a ticket as the kiosk shows and prints
 * it. Ticket state is read through `deps.tickets`; the names of the unit, location and services
 * come from the provisioned structure.
 */
export class KioskService {
  private readonly placeStmt

  constructor(private readonly deps: AppDeps, private readonly queue: QueueService) {
    this.placeStmt = deps.db.$client.query<{ unitName: string; unitActive: number; kioskPriority: number; locationName: string; timezone: string; locationActive: number }, [string, string]>(
      `SELECT u.name AS unitName, u.active AS unitActive, u.kiosk_priority AS kioskPriority, l.name AS locationName, l.timezone AS timezone, l.active AS locationActive
       FROM queue_units u INNER JOIN locations l ON l.queue_unit_id = u.id WHERE u.id = ?1 AND l.id = ?2`,
    )
  }

  private place(device: Device): Place {
    const row = this.placeStmt.get(device.queueUnitId!, device.locationId!)
    if (row === null) throw new ApiError(403, KioskCodes.QUEUE_UNIT_INACTIVE, 'this kiosk\'s queue unit or location no longer exists')
    return { unitName: row.unitName, unitActive: row.unitActive === 1, kioskPriority: row.kioskPriority === 1, locationName: row.locationName, timezone: row.timezone, locationActive: row.locationActive === 1 }
  }

  /** The start screen: every active service of its location within its list, with people waiting and the estimate. */
  view(device: Device, now: number): KioskView {
    const place = this.place(device)
    const caller = kioskCredential(device)
    const services = !place.unitActive || !place.locationActive ? [] : this.deps.tickets
      .lines(device.queueUnitId!, true)
      .filter((line) => line.locationId === device.locationId && mayUseService(caller, line.id))
      .map((line) => ({
        id: line.id,
        name: line.name,
        prefix: line.prefix,
        waiting: line.waiting,
        estimatedWaitSeconds: line.estimatedWaitSeconds,
        priorityEstimatedWaitSeconds: place.kioskPriority ? this.deps.tickets.placeForNew(device.queueUnitId!, line.id, line.locationId, true).estimatedWaitSeconds : null,
      }))
    return {
      generatedAt: isoTime(now),
      branchName: place.unitName,
      queueUnit: { id: device.queueUnitId!, name: place.unitName, active: place.unitActive },
      location: { id: device.locationId!, name: place.locationName, timezone: place.timezone, active: place.locationActive },
      priorityChoice: place.kioskPriority,
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
    // Contract §8: "Priority" only where the unit offers it (read in this write: a change of
    // provisioning counts from the next tap).
    if (priority && !this.place(device).kioskPriority) {
      throw new ApiError(422, KioskCodes.VALIDATION_FAILED, 'request validation failed', [{ path: pointer('priority'), message: 'this kiosk offers no Priority choice (kioskPriority is off)' }])
    }
    return this.queue.issueIdempotent(kioskCredential(device), idempotencyKey, { locationId: device.locationId!, serviceId: request.serviceId, ...(priority ? { priority } : {}) }, now, 'KIOSK')
  }

  /** A ticket of the kiosk's location and services, or null. */
  visibleTicket(device: Device, ticketId: string): TicketRow | null {
    return this.queue.visibleTicket(kioskCredential(device), ticketId)
  }

  /**
   * Contract §23 "Printing": a kiosk prints only a ticket it issued itself (source KIOSK, its
   * own credential), and only within `PRINT_WINDOW_MS` of issue. `missing` for any other ticket
   * (another kiosk's, the API's, a desk's: as if it did not exist), `expired` for its own
   * ticket after the window.
   */
  printableTicket(device: Device, ticketId: string, now: number): TicketRow | 'missing' | 'expired' {
    const row = this.visibleTicket(device, ticketId)
    if (row === null || row.source !== 'KIOSK' || row.credentialId !== device.credentialId) return 'missing'
    if (now - row.createdAt > PRINT_WINDOW_MS) return 'expired'
    return row
  }

  /** The ticket as the kiosk's ticket screen and print page show it: names, people ahead, estimate. */
  ticketView(device: Device, row: TicketRow): KioskTicket {
    const place = this.place(device)
    const line = this.deps.tickets.lines(row.queueUnitId, false).find((l) => l.id === row.serviceId && l.locationId === row.locationId)
    const inLine = this.deps.tickets.placeInLine(row)
    return {
      ticket: trackedTicketJson(row),
      branchName: place.unitName,
      serviceName: line?.name ?? row.serviceId,
      locationName: place.locationName,
      timezone: place.timezone,
      peopleAhead: inLine?.ahead ?? 0,
      estimatedWaitSeconds: inLine?.estimatedWaitSeconds ?? 0,
      printPath: `/kiosk/tickets/${encodeURIComponent(row.id)}/print`,
    }
  }
}
