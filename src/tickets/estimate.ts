/*
 * Contract §19 "Wait estimates customers can trust": the one estimator behind every
 * `estimatedWaitSeconds` (services list, kiosk, phone, print, board, desk).
 *
 * The model, per location (every line of it at once, because counters are shared):
 * - Who serves: the OPEN counters of the location, each with the services it serves, free after
 *   the expected rest of the ticket it holds (the mean rest of a service of its average and
 *   spread that has lasted the time since its call, `restOfCurrent`; none: free now) and its
 *   INTERLEAVE count. The average is of the time a completion held its counter from its call
 *   (wait.ts), so the walk to the counter is in it.
 * - The usual day (usual-counters.ts, contract §19's "usually open at that hour"): an open
 *   counter takes no ticket in a slot of the day it was usually away in on the same weekday of
 *   the last four weeks (its break, its closing), nor, once it is free, in the slot just before
 *   such an absence (it leaves when the ticket it holds is done), and a closed counter comes at
 *   the first slot it is usually present in (back from a break, the lunch-time counter).
 * - Who waits: every WAITING ticket of the location, in its line's lanes (front, priority,
 *   normal; src/tickets/priority.ts).
 * - The replay: the counter free first takes the ticket the real call rule (`chooseNext`, the
 *   rule call-next uses) picks over the heads of all the lines it serves, with its own
 *   normal-call count, and is busy for that service's average; again until every ticket has a
 *   call time. A counter shared between services thus gives each line exactly the turns the
 *   call rule gives it, not a guessed share. O(waiting tickets × (counters + lines per counter)).
 * - A ticket's estimate is its call time in the replay; a new ticket's is the call time of a
 *   ticket added at the end of its lane. Nobody ahead and a counter free now: 0 ("You're next").
 * - A line no open counter serves: `noCounterOpen`; its counters that usually come today come as
 *   above, and when none does the replay lends it one counter of its own, busy for one average
 *   (contract §19: "else one").
 * The reads and the caching per state revision are in lines.ts (`QueueLines.estimates`).
 */
import { byLineOrder, chooseNext, normalCallsAfter, type LinePlace, type PriorityPolicy } from './priority'
import { AWAY, PRESENT, SLOT_MINUTES, SLOTS_PER_DAY } from './usual-counters'
import { expectedRest } from './wait'

/** The least a counter holding a ticket is assumed to still need, however long it has served. */
export const REST_FLOOR_SECONDS = 15

export interface WaitEstimate {
  estimatedWaitSeconds: number
  /** No open counter serves the line: the estimate assumed one (contract §19). */
  noCounterOpen: boolean
  /** Contract §28: an open counter of the line's service holds nothing now (the wait verdict's "a counter is free"). */
  counterFree: boolean
}

/** Contract §28: an open counter serving `serviceId` holds nothing now (free: no rest of a current ticket). */
export function counterFreeFor(now: LocationNow, serviceId: string): boolean {
  return now.counters.some((c) => c.restSeconds <= 0 && c.serviceIds.includes(serviceId))
}

/**
 * The expected rest of a counter's current ticket (CALLED or SERVING), from when it was called
 * there (`calledAt`, ms), the average of the ticket's service (which counts from the call,
 * wait.ts) and its log-spread `sigma` (wait.ts `logSigmaOfSpread`): the mean rest of a service
 * of that average and spread that has already lasted the time since the call (wait.ts
 * `expectedRest`), never under REST_FLOOR; 0 when it holds nothing. A service with a long tail
 * that has run past its average is likely a long one: its rest is not the floor.
 */
export function restOfCurrent(held: { calledAt: number | null } | null, averageSeconds: number, now: number, sigma = 0): number {
  if (held === null) return 0
  const since = held.calledAt === null ? 0 : Math.max(now - held.calledAt, 0) / 1000
  return Math.max(expectedRest(averageSeconds, sigma, since), REST_FLOOR_SECONDS)
}

/** An open counter as the replay sees it. */
export interface ReplayCounter {
  id: string
  /** The services it serves (at its location). */
  serviceIds: readonly string[]
  /** Seconds until it is free of what it holds now (0: free). */
  restSeconds: number
  /** Its normal calls since its last priority call (the INTERLEAVE rule's count). */
  normalCalls: number
}

/** A waiting ticket of the location. */
export interface ReplayTicket extends LinePlace {
  serviceId: string
  /** Seconds from now it is issued: only the priority tickets the replay expects to come (0 or absent: waiting now). */
  arrivesAt?: number
}

/** One location's state for the replay. */
export interface LocationNow {
  waiting: readonly ReplayTicket[]
  /** The open counters. */
  counters: readonly ReplayCounter[]
  /** Average service seconds per service of the location. */
  averageSeconds: ReadonlyMap<string, number>
  policy: PriorityPolicy
  /**
   * Contract §19's usual counters (usual-counters.ts): the location's roll-up for today and the
   * closed counters, with the seconds from local midnight to now. Without it, the open counters
   * stay open and the closed ones stay closed.
   */
  usual?: {
    slots: ReadonlyMap<string, Uint8Array>
    closed: readonly { id: string; serviceIds: readonly string[] }[]
    secondsSinceMidnight: number
    /** Per service and slot, the priority tickets usually issued (usual-counters.ts). */
    priorityArrivals?: ReadonlyMap<string, Float32Array>
  }
}

interface Lanes { front: ReplayTicket[]; priority: ReplayTicket[]; normal: ReplayTicket[]; f: number; p: number; n: number }

const averageOf = (now: LocationNow, serviceId: string) => Math.max(now.averageSeconds.get(serviceId) ?? 0, 0)

/**
 * Seconds from now until each waiting ticket (and `extra`, a ticket not yet issued, when given)
 * is called, by replaying the location's counters over its lines (see the top of this file).
 * Tickets of a line no open counter serves get a counter of their own, busy for one average
 * (their IDs are in `noCounter`). Stops once `extra` is called when it is given.
 */
export function replayCalls(now: LocationNow, extra?: ReplayTicket): { callsAt: Map<string, number>; noCounter: Set<string> } {
  // The usual day: a counter does not take a ticket in a slot it is usually away (a break, its
  // closing), and a closed counter comes at the first slot after now it is usually present in.
  const slotSeconds = SLOT_MINUTES * 60
  const usual = now.usual
  const nowSlot = usual === undefined ? 0 : Math.floor(usual.secondsSinceMidnight / slotSeconds)
  const slotAt = (at: number) => Math.floor((usual!.secondsSinceMidnight + at) / slotSeconds)
  const slotStart = (slot: number) => slot * slotSeconds - usual!.secondsSinceMidnight
  // Once usually away, a counter is back at the next slot it is usually PRESENT in, not at the
  // next slot nothing is known of: after a counter's usual closing (or in a break the roll-up saw
  // only partly) the slots are UNKNOWN, and assuming it back there promised the lunch peak's
  // 14:30 a counter that had gone home (bench/sim/analysis.md).
  const available = (slots: Uint8Array | undefined, at: number) => {
    if (slots === undefined) return at
    let slot = slotAt(at)
    if (slot >= SLOTS_PER_DAY) return at
    // Leaving: a counter that becomes free in the slot just before its usual absence does not
    // start another ticket there. That slot reads as present because the ticket it held when its
    // break or closing came ran into it, but it leaves once that ticket is done (at the lunch
    // peak this took 3 of 20 days over the MAE bar, bench/sim/analysis.md). Free now (`at` 0),
    // it is evidently staying.
    const leaving = at > 0 && slots[slot] !== AWAY && slot + 1 < SLOTS_PER_DAY && slots[slot + 1] === AWAY
    if (leaving) slot++
    else if (slot <= nowSlot || slots[slot] !== AWAY) return at
    while (slot < SLOTS_PER_DAY && slots[slot] !== PRESENT) slot++
    return slotStart(slot)
  }
  const tickets = extra === undefined ? [...now.waiting] : [...now.waiting, extra]
  const real = tickets.length
  tickets.push(...expectedPriorityArrivals(now, slotSeconds, nowSlot, slotStart))
  const lanes = new Map<string, Lanes>()
  for (const t of tickets.sort(byLineOrder)) {
    let lane = lanes.get(t.serviceId)
    if (lane === undefined) lanes.set(t.serviceId, (lane = { front: [], priority: [], normal: [], f: 0, p: 0, n: 0 }))
    ;(t.front ? lane.front : t.priority ? lane.priority : lane.normal).push(t)
  }
  const counters = now.counters.map((c) => {
    const slots = usual?.slots.get(c.id)
    return { serviceIds: c.serviceIds, slots, freeAt: available(slots, Math.max(c.restSeconds, 0)), normalCalls: c.normalCalls }
  })
  const open = new Set(counters.flatMap((c) => c.serviceIds))
  for (const c of usual?.closed ?? []) {
    const slots = usual!.slots.get(c.id)
    if (slots === undefined) continue
    let first = nowSlot + 1
    while (first < SLOTS_PER_DAY && slots[first] !== PRESENT) first++
    if (first < SLOTS_PER_DAY) counters.push({ serviceIds: c.serviceIds, slots, freeAt: slotStart(first), normalCalls: 0 })
  }
  const served = new Set(counters.flatMap((c) => c.serviceIds))
  const noCounter = new Set<string>()
  for (const [serviceId, lane] of lanes) {
    if (!open.has(serviceId)) for (const t of [...lane.front, ...lane.priority, ...lane.normal]) noCounter.add(t.id)
    if (served.has(serviceId) || [...lane.front, ...lane.priority, ...lane.normal].every((t) => t.arrivesAt !== undefined)) continue
    // No counter of it is open or usually comes today: one of its own, busy for one average.
    counters.push({ serviceIds: [serviceId], slots: undefined, freeAt: Math.max(averageOf(now, serviceId), REST_FLOOR_SECONDS), normalCalls: 0 })
  }
  const callsAt = new Map<string, number>()
  // The heads of the lanes of `serviceIds`, each with the earliest it can be taken.
  const heads: ReplayTicket[] = []
  const headsOf = (serviceIds: readonly string[]) => {
    heads.length = 0
    for (const id of serviceIds) {
      const lane = lanes.get(id)
      if (lane === undefined) continue
      if (lane.f < lane.front.length) heads.push(lane.front[lane.f]!)
      if (lane.p < lane.priority.length) heads.push(lane.priority[lane.p]!)
      if (lane.n < lane.normal.length) heads.push(lane.normal[lane.n]!)
    }
    return heads
  }
  /** When the counter can next take a ticket: when it is free, or when the first one it could take arrives. */
  const readyAt = (counter: (typeof counters)[number]) => {
    let ready = Number.POSITIVE_INFINITY
    for (const head of headsOf(counter.serviceIds)) ready = Math.min(ready, Math.max(counter.freeAt, head.arrivesAt ?? 0))
    return ready
  }
  for (let left = real; left > 0;) {
    // The counter ready first (ties: the first listed).
    let chosen = -1
    let chosenAt = Number.POSITIVE_INFINITY
    for (let i = 0; i < counters.length; i++) {
      const at = readyAt(counters[i]!)
      if (at < chosenAt) [chosen, chosenAt] = [i, at]
    }
    if (chosen === -1) break
    const counter = counters[chosen]!
    const at = available(counter.slots, chosenAt)
    if (at > chosenAt) {
      // Usually away by then: it comes back later, and another counter may be ready first.
      counter.freeAt = at
      continue
    }
    counter.freeAt = at
    const next = chooseNext(headsOf(counter.serviceIds).filter((h) => (h.arrivesAt ?? 0) <= at), now.policy, counter.normalCalls)!
    const lane = lanes.get(next.serviceId)!
    if (next.front) lane.f++
    else if (next.priority) lane.p++
    else lane.n++
    counter.freeAt = available(counter.slots, at + averageOf(now, next.serviceId))
    counter.normalCalls = normalCallsAfter(counter.normalCalls, next)
    if (next.arrivesAt !== undefined) continue
    left--
    callsAt.set(next.id, at)
    if (extra !== undefined && next.id === extra.id) break
  }
  return { callsAt, noCounter }
}

/**
 * The priority tickets usually issued from now to the end of the day at the location's served
 * services (contract §8 calls them before waiting normal ones): one each time the expected count
 * since now passes k + ½, at the instant it does, at the back of its priority lane.
 */
function expectedPriorityArrivals(now: LocationNow, slotSeconds: number, nowSlot: number, slotStart: (slot: number) => number): ReplayTicket[] {
  const arrivals = now.usual?.priorityArrivals
  if (arrivals === undefined) return []
  const served = new Set(now.counters.flatMap((c) => c.serviceIds))
  for (const c of now.usual!.closed) for (const id of c.serviceIds) served.add(id)
  const expected: ReplayTicket[] = []
  for (const [serviceId, perSlot] of arrivals) {
    if (!served.has(serviceId)) continue
    let count = 0
    let next = 0.5
    for (let slot = nowSlot; slot < SLOTS_PER_DAY; slot++) {
      const rate = perSlot[slot]! / slotSeconds
      if (rate <= 0) continue
      const start = Math.max(slotStart(slot), 0)
      const end = slotStart(slot + 1)
      const inSlot = rate * (end - start)
      while (count + inSlot >= next) {
        const at = start + (next - count) / rate
        expected.push({ id: `\u0000expected:${serviceId}:${expected.length}`, serviceId, priority: true, front: false, queueRank: Number.POSITIVE_INFINITY, createdAt: at, arrivesAt: at })
        next += 1
      }
      count += inSlot
    }
  }
  return expected
}

/** The ID the replay gives a ticket about to be issued (no real ticket ID is empty). */
export const NEW_TICKET_ID = ''

/** The estimate for a ticket issued now at the end of its lane (`priority` or not) of `serviceId`. */
export function estimateForNew(now: LocationNow, serviceId: string, priority: boolean): WaitEstimate {
  // Behind every waiting ticket of its lane, before every one still to come (their createdAt is their arrival, ≥ 0).
  const extra: ReplayTicket = { id: NEW_TICKET_ID, serviceId, priority, front: false, queueRank: Number.POSITIVE_INFINITY, createdAt: Number.NEGATIVE_INFINITY }
  const { callsAt, noCounter } = replayCalls(now, extra)
  return { estimatedWaitSeconds: Math.round(callsAt.get(NEW_TICKET_ID) ?? 0), noCounterOpen: noCounter.has(NEW_TICKET_ID), counterFree: counterFreeFor(now, serviceId) }
}
