import { callOrder, type LinePlace, type PriorityPolicy } from './priority'

/*
 * Contract §20 "I need more time": a waiting customer moves behind the next tickets of their
 * line, at most twice per ticket. "The next tickets" are the next in the line's call order
 * (priority.ts `callOrder`, the order the estimates and call-next follow), not its ranks.
 */

/** How many tickets of the call order a "more time" lets go first. */
export const MORE_TIME_STEPS = 3
/** How many times one ticket may ask for more time. */
export const MORE_TIME_LIMIT = 2

/** Where the ticket goes: right behind `afterId` (a ticket of its lane) in its lane, or last in its lane (`afterId` null). */
export interface MoreTimePlan {
  afterId: string | null
  /** Tickets of the line called before it, before and after the move. */
  aheadBefore: number
  aheadAfter: number
}

/**
 * Plans the move of `ticketId` among `waiting` (its line, itself included). The ticket keeps
 * its priority and leaves the front lane; it is placed behind the first ticket of its lane after
 * which the next `MORE_TIME_STEPS` tickets of the call order are all called before it. When no
 * such place exists (fewer are behind it, or its lane cannot go behind them: a priority ticket
 * under FIRST never goes behind normal tickets) it goes last in its lane, which is the end of
 * the line unless its priority keeps it ahead of normal tickets.
 */
export function planMoreTime(waiting: readonly LinePlace[], ticketId: string, policy: PriorityPolicy): MoreTimePlan {
  const order = callOrder(waiting, policy)
  const index = order.findIndex((t) => t.id === ticketId)
  if (index < 0) throw new Error(`ticket ${ticketId} is not in its line`)
  const ticket = order[index]!
  const next = new Set(order.slice(index + 1, index + 1 + MORE_TIME_STEPS).map((t) => t.id))
  const others = waiting.filter((t) => t.id !== ticketId)
  const lane = others
    .filter((t) => !t.front && t.priority === ticket.priority && (ticket.front || t.queueRank > ticket.queueRank))
    .sort((a, b) => a.queueRank - b.queueRank)
  const moved = (rank: number): LinePlace => ({ ...ticket, front: false, queueRank: rank })
  const aheadWith = (rank: number) => {
    const newOrder = callOrder([...others, moved(rank)], policy)
    const at = newOrder.findIndex((t) => t.id === ticketId)
    return { at, passed: newOrder.slice(0, at).filter((t) => next.has(t.id)).length }
  }
  if (next.size === MORE_TIME_STEPS) {
    for (const member of lane) {
      const { at, passed } = aheadWith(member.queueRank + 0.5)
      if (passed === MORE_TIME_STEPS) return { afterId: member.id, aheadBefore: index, aheadAfter: at }
    }
  }
  const last = Math.max(ticket.queueRank, ...others.map((t) => t.queueRank)) + 1
  return { afterId: null, aheadBefore: index, aheadAfter: aheadWith(last).at }
}
