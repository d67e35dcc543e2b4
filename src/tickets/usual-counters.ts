import type { Db } from '../db/open'
import { addDays, localDate, zonedInstant } from '../platform/time'

/*
 * Contract §19 "the counters usually open at that hour of that weekday (from the last 4 weeks)":
 * a small roll-up per location and local day, built once from the tickets of the same weekday
 * of the last four weeks and kept in memory until the day changes (never a scan per request).
 *
 * The schema keeps no history of counters opening and closing (`counters.open` is the state
 * now), so a counter's presence is read from what it did: per slot of SLOT_MINUTES of the day,
 * - present: it held a ticket (from its call to the ticket leaving it) during the slot;
 * - away: it held none while a ticket of a service it serves waited at least
 *   AWAY_EVIDENCE_MINUTES inside the slot (an open counter holding nothing calls a waiting ticket
 *   at once). The first rule, a wait through the whole slot, missed most breaks: a 20-minute
 *   break starts when the counter's ticket is done, so it covers one whole slot at most, and at
 *   an ordinary hour somebody waiting through all of it was rare (bench/sim/analysis.md);
 * - neither: nobody waited and it did nothing, which says nothing about it.
 * Over the four days: `PRESENT` when it was present on at least two of them and not away on
 * more, `AWAY` when it was away on at least two and on more days than present, else `UNKNOWN`.
 * Slots count from the local midnight instant of the day (on a daylight-saving day the slots
 * after the change are an hour off; the estimate is "about" minutes, and it is two days a year).
 */

export const SLOT_MINUTES = 10
export const SLOTS_PER_DAY = (24 * 60) / SLOT_MINUTES
/** How many of the same weekday before today the roll-up reads. */
export const USUAL_WEEKS = 4

/** How long a ticket must have waited inside a slot for a counter that held nothing in it to count as away. */
export const AWAY_EVIDENCE_MINUTES = 5

export const UNKNOWN = 0
export const PRESENT = 1
export const AWAY = 2

/** A location's usual counters on one local day. */
export interface UsualDay {
  /** The local midnight of the day the roll-up is for (ms). */
  midnight: number
  /** Per counter ID: per slot of the day, UNKNOWN, PRESENT or AWAY. */
  slots: ReadonlyMap<string, Uint8Array>
  /**
   * Per service: per slot, the priority tickets usually issued in it (the mean over the days
   * read that had tickets). A priority ticket issued later is still called before waiting normal
   * ones (contract §8), so the estimate of a normal ticket counts the ones usually to come.
   */
  priorityArrivals: ReadonlyMap<string, Float32Array>
}

/** The slot of the day `ms` falls in (may be < 0 or ≥ SLOTS_PER_DAY outside the day). */
export function slotOf(day: UsualDay, ms: number): number {
  return Math.floor((ms - day.midnight) / (SLOT_MINUTES * 60_000))
}

/** The counters of `counterIds` usually present in the slot of `now` (contract §19's "usual at that hour"). */
export function usuallyPresent(day: UsualDay, counterIds: readonly string[], now: number): string[] {
  const slot = slotOf(day, now)
  return counterIds.filter((id) => day.slots.get(id)?.[slot] === PRESENT)
}

interface HistoryRow { counterId: string | null; serviceId: string; businessDay: string; priority: number; createdAt: number; calledAt: number | null; completedAt: number | null }

/** The roll-up of one location's history days (pure; see the top of this file). */
export function usualDayOf(
  midnight: number,
  days: readonly { midnight: number; tickets: readonly HistoryRow[] }[],
  servicesOf: ReadonlyMap<string, readonly string[]>,
): UsualDay {
  const slotMs = SLOT_MINUTES * 60_000
  const present = new Map<string, Uint8Array>()
  const away = new Map<string, Uint8Array>()
  const count = (map: Map<string, Uint8Array>, id: string) => {
    let a = map.get(id)
    if (a === undefined) map.set(id, (a = new Uint8Array(SLOTS_PER_DAY)))
    return a
  }
  const priorityArrivals = new Map<string, Float32Array>()
  const daysWithTickets = Math.max(days.filter((d) => d.tickets.length > 0).length, 1)
  for (const day of days) {
    for (const t of day.tickets) {
      const slot = Math.floor((t.createdAt - day.midnight) / slotMs)
      if (t.priority !== 1 || slot < 0 || slot >= SLOTS_PER_DAY) continue
      let a = priorityArrivals.get(t.serviceId)
      if (a === undefined) priorityArrivals.set(t.serviceId, (a = new Float32Array(SLOTS_PER_DAY)))
      a[slot]! += 1 / daysWithTickets
    }
    const held = new Map<string, Uint8Array>()
    const waitedThrough = new Map<string, Uint8Array>()
    for (const t of day.tickets) {
      if (t.calledAt === null) continue
      // Waited at least AWAY_EVIDENCE_MINUTES inside a slot.
      const wait = count(waitedThrough, t.serviceId)
      const last = Math.min(Math.floor((t.calledAt - day.midnight) / slotMs), SLOTS_PER_DAY - 1)
      for (let s = Math.max(Math.floor((t.createdAt - day.midnight) / slotMs), 0); s <= last; s++) {
        const start = day.midnight + s * slotMs
        if (Math.min(start + slotMs, t.calledAt) - Math.max(start, t.createdAt) >= AWAY_EVIDENCE_MINUTES * 60_000) wait[s] = 1
      }
      if (t.counterId === null) continue
      const end = t.completedAt ?? t.calledAt
      const hold = count(held, t.counterId)
      for (let s = Math.max(Math.floor((t.calledAt - day.midnight) / slotMs), 0); s <= Math.min(Math.floor((end - day.midnight) / slotMs), SLOTS_PER_DAY - 1); s++) hold[s] = 1
    }
    for (const [counterId, services] of servicesOf) {
      const hold = held.get(counterId)
      const p = count(present, counterId)
      const a = count(away, counterId)
      for (let s = 0; s < SLOTS_PER_DAY; s++) {
        if (hold?.[s] === 1) p[s]!++
        else if (services.some((id) => waitedThrough.get(id)?.[s] === 1)) a[s]!++
      }
    }
  }
  const slots = new Map<string, Uint8Array>()
  for (const counterId of servicesOf.keys()) {
    const p = present.get(counterId)!
    const a = away.get(counterId)!
    const state = new Uint8Array(SLOTS_PER_DAY)
    for (let s = 0; s < SLOTS_PER_DAY; s++) {
      if (p[s]! >= 2 && p[s]! >= a[s]!) state[s] = PRESENT
      else if (a[s]! >= 2 && a[s]! > p[s]!) state[s] = AWAY
    }
    slots.set(counterId, state)
  }
  return { midnight, slots, priorityArrivals }
}

/**
 * The roll-up per location, built on the first estimate of a local day and kept for that day:
 * one read of the location's tickets of USUAL_WEEKS days (the same weekday, 7, 14, 21 and 28
 * days before), by the tickets' per-day number index.
 */
export class UsualCounters {
  private readonly historyStmt
  private readonly countersStmt
  private readonly cache = new Map<string, { date: string; day: UsualDay }>()

  constructor(db: Db) {
    // (location, prefix, business day) leads the unique index tickets_number_per_day: one range per prefix and day.
    this.historyStmt = db.$client.query<HistoryRow, [string, string]>(`
      SELECT t.counter_id AS counterId, t.service_id AS serviceId, t.business_day AS businessDay, t.priority AS priority, t.created_at AS createdAt,
        t.called_at AS calledAt, t.completed_at AS completedAt
      FROM tickets t
      WHERE t.location_id = ?1
        AND t.prefix IN (SELECT s.prefix FROM services s INNER JOIN service_locations sl ON sl.service_id = s.id WHERE sl.location_id = ?1)
        AND t.business_day IN (SELECT value FROM json_each(?2))`)
    this.countersStmt = db.$client.query<{ counterId: string; serviceId: string }, [string]>(
      'SELECT c.id AS counterId, cs.service_id AS serviceId FROM counters c INNER JOIN counter_services cs ON cs.counter_id = c.id WHERE c.location_id = ?1 AND c.active = 1',
    )
  }

  /** The location's roll-up for the local day of `now`. */
  dayAt(locationId: string, timezone: string, now: number): UsualDay {
    const date = localDate(now, timezone)
    const cached = this.cache.get(locationId)
    if (cached !== undefined && cached.date === date) return cached.day
    const dates = Array.from({ length: USUAL_WEEKS }, (_, k) => addDays(date, -7 * (k + 1)))
    const byDay = new Map(dates.map((d) => [d, [] as HistoryRow[]]))
    for (const row of this.historyStmt.all(locationId, JSON.stringify(dates))) byDay.get(row.businessDay)?.push(row)
    const servicesOf = new Map<string, string[]>()
    for (const row of this.countersStmt.all(locationId)) {
      const list = servicesOf.get(row.counterId)
      if (list === undefined) servicesOf.set(row.counterId, [row.serviceId])
      else list.push(row.serviceId)
    }
    const day = usualDayOf(
      zonedInstant(date, '00:00', timezone),
      dates.map((d) => ({ midnight: zonedInstant(d, '00:00', timezone), tickets: byDay.get(d)! })),
      servicesOf,
    )
    this.cache.set(locationId, { date, day })
    return day
  }
}
