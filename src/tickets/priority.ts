/*
 * Contract §8 "Priority": the order in which a queue unit's waiting tickets are called, the one
 * rule behind call-next, the operator overview's call order and the wait estimates.
 *
 * A waiting line has three lanes: the front (tickets requeued or transferred FIRST, the latest
 * put in front first), priority tickets and normal tickets, each by queue rank (its age in line).
 * The front always goes first. Then the unit's policy:
 * - FIRST: a waiting priority ticket before any normal one.
 * - INTERLEAVE (N): the older of the two heads (by rank), except that once the counter made N
 *   normal calls since its last priority call, a waiting priority ticket goes next. So at most
 *   N normal calls come between two priority calls while priority tickets wait, and a priority
 *   ticket never waits longer than it would without priority.
 */

/** The queue unit's `priority` setting (provisioning, contract §8). */
export type PriorityPolicy = { mode: 'FIRST' } | { mode: 'INTERLEAVE'; normalPerPriority: number }

export const DEFAULT_PRIORITY_POLICY: PriorityPolicy = { mode: 'FIRST' }

/** What the rule reads of a waiting ticket. */
export interface LinePlace {
  id: string
  priority: boolean
  front: boolean
  queueRank: number
  createdAt: number
}

/** Line order within a lane: rank, then age, then ID (ranks of waiting tickets are unique per location). */
function sooner(a: LinePlace, b: LinePlace): boolean {
  if (a.queueRank !== b.queueRank) return a.queueRank < b.queueRank
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt
  return a.id < b.id
}

export function byLineOrder(a: LinePlace, b: LinePlace): number {
  return sooner(a, b) ? -1 : sooner(b, a) ? 1 : 0
}

/**
 * The policy's choice between the head of the priority lane and the head of the normal lane
 * (front tickets are chosen before this is asked), for a counter that made `normalCalls`
 * normal calls since its last priority call.
 */
function pick<T extends LinePlace>(priorityHead: T | undefined, normalHead: T | undefined, policy: PriorityPolicy, normalCalls: number): T | null {
  if (priorityHead === undefined) return normalHead ?? null
  if (normalHead === undefined) return priorityHead
  if (policy.mode === 'FIRST') return priorityHead
  if (normalCalls >= policy.normalPerPriority) return priorityHead
  return sooner(priorityHead, normalHead) ? priorityHead : normalHead
}

/**
 * The ticket call-next takes among `waiting` (any order; only the head of each lane matters),
 * for a counter that made `normalCalls` normal calls since its last priority call; null when
 * nothing waits.
 */
export function chooseNext<T extends LinePlace>(waiting: readonly T[], policy: PriorityPolicy, normalCalls: number): T | null {
  let front: T | undefined
  let priorityHead: T | undefined
  let normalHead: T | undefined
  for (const t of waiting) {
    if (t.front) { if (front === undefined || sooner(t, front)) front = t }
    else if (t.priority) { if (priorityHead === undefined || sooner(t, priorityHead)) priorityHead = t }
    else if (normalHead === undefined || sooner(t, normalHead)) normalHead = t
  }
  return front ?? pick(priorityHead, normalHead, policy, normalCalls)
}

/**
 * The counter's count after it called `ticket`: a priority ticket sets it to 0, a normal one
 * adds 1. Every call counts (call-next and calling a specific ticket; a ticket from the front
 * counts by its own flag).
 */
export function normalCallsAfter(normalCalls: number, ticket: { priority: boolean }): number {
  return ticket.priority ? 0 : normalCalls + 1
}

/**
 * `waiting` in the order one counter would call them, one after the other, starting with
 * `normalCalls` (0: a counter that just called a priority ticket). O(n log n).
 */
export function callOrder<T extends LinePlace>(waiting: readonly T[], policy: PriorityPolicy, normalCalls = 0): T[] {
  const sorted = [...waiting].sort(byLineOrder)
  const front = sorted.filter((t) => t.front)
  const priority = sorted.filter((t) => !t.front && t.priority)
  const normal = sorted.filter((t) => !t.front && !t.priority)
  const order: T[] = []
  let count = normalCalls
  for (const t of front) {
    order.push(t)
    count = normalCallsAfter(count, t)
  }
  let p = 0
  let n = 0
  while (p < priority.length || n < normal.length) {
    const next = pick(priority[p], normal[n], policy, count)!
    if (next === priority[p]) p += 1
    else n += 1
    order.push(next)
    count = normalCallsAfter(count, next)
  }
  return order
}

/**
 * How many of `waiting` will be called before `target` (a waiting ticket of the same line, or
 * a ticket about to be issued, which is not in `waiting`): its index in `callOrder`, the line
 * seen as one counter starting at a count of 0. Contract §8: "wait estimates count the tickets
 * that will really be called ahead".
 */
export function callsAhead(waiting: readonly LinePlace[], target: LinePlace, policy: PriorityPolicy): number {
  const line = waiting.some((t) => t.id === target.id) ? waiting : [...waiting, target]
  return callOrder(line, policy).findIndex((t) => t.id === target.id)
}
