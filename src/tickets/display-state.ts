import type { Db } from '../db/open'
import type { Clock } from '../platform/clock'
import { isoTime } from '../platform/clock'
import { inReadTransaction } from '../platform/transactions'
import type { TicketStatus } from './model'
import type { QueueLines, LineNowServing } from './lines'
import type { Tickets } from './service'

/** How many calls `recentCalls` lists (docs/display.md). */
export const RECENT_CALLS = 10

export interface QueueDisplayLocation {
  id: string
  name: string
  timezone: string
}

export interface QueueDisplayService {
  id: string
  name: string
  prefix: string
  locationId: string
  waiting: number
  estimatedWaitSeconds: number
  nowServing: Omit<LineNowServing, 'counterNames'> | null
}

export interface QueueDisplayCall {
  number: string
  serviceId: string
  locationId: string
  counterName: string
  /** When this call (or recall) was made. */
  calledAt: string
  /** The ticket's status now. */
  status: TicketStatus
  /** Contract §8: a priority ticket. */
  priority: boolean
}

/** The queue-state body of docs/display.md. */
export interface QueueDisplayState {
  queueUnitId: string
  name: string
  stateRevision: number
  generatedAt: string
  locations: QueueDisplayLocation[]
  services: QueueDisplayService[]
  recentCalls: QueueDisplayCall[]
}

interface UnitRow { id: string; workspaceId: string; name: string; stateRevision: number }
interface LocationRow { id: string; name: string; timezone: string }
interface CallRow { number: string; serviceId: string; locationId: string; counterName: string; at: number; status: TicketStatus; priority: number }

/** The display feeds' queue reads, on statements prepared once per app (by `Tickets`). */
export class QueueDisplayReader {
  private readonly unit
  private readonly locations
  private readonly calls
  private readonly callsAt

  constructor(private readonly db: Db, private readonly lines: QueueLines) {
    this.unit = db.$client.query<UnitRow, [string]>(
      'SELECT id, workspace_id AS workspaceId, name, state_revision AS stateRevision FROM queue_units WHERE id = ?1',
    )
    this.locations = db.$client.query<LocationRow, [string]>(
      'SELECT id, name, timezone FROM locations WHERE queue_unit_id = ?1 AND active = 1 ORDER BY id',
    )
    // The unit's latest calls and recalls, newest first; ticket_calls holds the current
    // business days only (the daily close clears earlier ones), read by its (unit, id) index.
    const callColumns = `
      SELECT t.ticket_number AS number, t.service_id AS serviceId, c.location_id AS locationId, k.name AS counterName,
             c.at AS at, t.status AS status, t.priority AS priority
      FROM ticket_calls c
      JOIN tickets t ON t.id = c.ticket_id
      JOIN counters k ON k.id = c.counter_id
      JOIN locations l ON l.id = c.location_id AND l.active = 1`
    this.calls = db.$client.query<CallRow, [string, number]>(`${callColumns} WHERE c.queue_unit_id = ?1 ORDER BY c.id DESC LIMIT ?2`)
    this.callsAt = db.$client.query<CallRow, [string, string, number]>(
      `${callColumns} WHERE c.queue_unit_id = ?1 AND c.location_id = ?2 ORDER BY c.id DESC LIMIT ?3`,
    )
  }

  /** See `queueDisplayState`. */
  state(queueUnitId: string, workspaceId: string, now: number, locationId?: string): QueueDisplayState | null {
    // One read transaction: the revision and the data it stands for come from one snapshot.
    return inReadTransaction(this.db, () => {
      const unit = this.unit.get(queueUnitId)
      if (unit === null || unit.workspaceId !== workspaceId) return null
      const allLocations = this.locations.all(queueUnitId)
      const shown = locationId === undefined ? allLocations : allLocations.filter((l) => l.id === locationId)
      if (locationId !== undefined && shown.length === 0) return null
      const services = this.lines
        .lines(queueUnitId, true)
        .filter((line) => locationId === undefined || line.locationId === locationId)
        .map((line) => ({
          id: line.id,
          name: line.name,
          prefix: line.prefix,
          locationId: line.locationId,
          waiting: line.waiting,
          estimatedWaitSeconds: line.estimatedWaitSeconds,
          nowServing: line.nowServing === null ? null : {
            number: line.nowServing.number,
            counterName: line.nowServing.counterName,
            status: line.nowServing.status,
            calledAt: line.nowServing.calledAt,
            priority: line.nowServing.priority,
          },
        }))
      const calls = locationId === undefined
        ? this.calls.all(queueUnitId, RECENT_CALLS)
        : this.callsAt.all(queueUnitId, locationId, RECENT_CALLS)
      return {
        queueUnitId: unit.id,
        name: unit.name,
        stateRevision: unit.stateRevision,
        generatedAt: isoTime(now),
        locations: shown.map((l) => ({ id: l.id, name: l.name, timezone: l.timezone })),
        services,
        recentCalls: calls.map((c) => ({
          number: c.number,
          serviceId: c.serviceId,
          locationId: c.locationId,
          counterName: c.counterName,
          calledAt: isoTime(c.at),
          status: c.status,
          priority: c.priority === 1,
        })),
      }
    })
  }
}

/**
 * The live state of a queue unit for screens (docs/display.md, contract §6): every active
 * service at every active location of the unit (no key restriction: display tokens see the
 * whole unit of their workspace) with waiting, estimate and now serving; the last 10 calls
 * (recalls included), newest first; and the unit's `stateRevision`, all read in one snapshot.
 * With `locationId`, only that location's entries. Null when the unit is unknown or belongs to
 * another workspace, or when `locationId` is not an active location of the unit.
 * O(services × locations + 10) per call, never a scan of the ticket history.
 */
export function queueDisplayState(
  deps: { tickets: Tickets; clock: Clock },
  queueUnitId: string,
  workspaceId: string,
  locationId?: string,
): QueueDisplayState | null {
  return deps.tickets.displayState(queueUnitId, workspaceId, deps.clock.now(), locationId)
}
