import { ApiError } from '../platform/errors'
import type { TicketEventType } from '../webhooks/outbox'
import type { TicketStatus } from './model'
import { TicketCodes } from './errors'

/** The operator's ticket actions (contract §3), named as in their URLs. */
export const TICKET_ACTIONS = ['call', 'recall', 'start', 'complete', 'no-show', 'cancel', 'requeue', 'transfer'] as const
export type TicketAction = (typeof TICKET_ACTIONS)[number]

/** The `type` of a `ticket_events` row; the webhook event is `ticket.<type>`. */
export type TicketEventName = 'created' | 'called' | 'recalled' | 'serving' | 'completed' | 'no_show' | 'cancelled' | 'requeued' | 'transferred'

export interface TransitionRule {
  from: readonly TicketStatus[]
  to: TicketStatus
  event: TicketEventName
  webhook: TicketEventType
}

/**
 * Contract §3 "Transitions", the only moves an operator may make:
 * WAITING→CALLED (call) · CALLED→CALLED (recall) · CALLED→SERVING (start) ·
 * SERVING→COMPLETED (complete) · CALLED→NO_SHOW (no-show) · WAITING→CANCELLED (cancel) ·
 * CALLED→WAITING (requeue) · CALLED/SERVING→WAITING in another service (transfer).
 */
export const TRANSITIONS: Record<TicketAction, TransitionRule> = {
  call: { from: ['WAITING'], to: 'CALLED', event: 'called', webhook: 'ticket.called' },
  recall: { from: ['CALLED'], to: 'CALLED', event: 'recalled', webhook: 'ticket.recalled' },
  start: { from: ['CALLED'], to: 'SERVING', event: 'serving', webhook: 'ticket.serving' },
  complete: { from: ['SERVING'], to: 'COMPLETED', event: 'completed', webhook: 'ticket.completed' },
  'no-show': { from: ['CALLED'], to: 'NO_SHOW', event: 'no_show', webhook: 'ticket.no_show' },
  cancel: { from: ['WAITING'], to: 'CANCELLED', event: 'cancelled', webhook: 'ticket.cancelled' },
  requeue: { from: ['CALLED'], to: 'WAITING', event: 'requeued', webhook: 'ticket.requeued' },
  transfer: { from: ['CALLED', 'SERVING'], to: 'WAITING', event: 'transferred', webhook: 'ticket.transferred' },
}

/**
 * Contract §3: the daily close at the location's local midnight is a system transition of
 * every ticket still open: WAITING→CANCELLED, CALLED→NO_SHOW, SERVING→COMPLETED.
 */
export const DAILY_CLOSE: Record<'WAITING' | 'CALLED' | 'SERVING', TransitionRule> = {
  WAITING: { from: ['WAITING'], to: 'CANCELLED', event: 'cancelled', webhook: 'ticket.cancelled' },
  CALLED: { from: ['CALLED'], to: 'NO_SHOW', event: 'no_show', webhook: 'ticket.no_show' },
  SERVING: { from: ['SERVING'], to: 'COMPLETED', event: 'completed', webhook: 'ticket.completed' },
}

/** Statuses a ticket is still open in (waiting, or at a counter). */
export const OPEN_STATUSES = ['WAITING', 'CALLED', 'SERVING'] as const

/**
 * The rule of `action` for a ticket in `from`, or 409 INVALID_TRANSITION naming from and to in
 * the message and in `details` (`/from` and `/to`, each with the status as its message).
 */
export function assertTransition(action: TicketAction, from: TicketStatus): TransitionRule {
  const rule = TRANSITIONS[action]
  if (rule.from.includes(from)) return rule
  throw new ApiError(
    409,
    TicketCodes.INVALID_TRANSITION,
    `cannot ${action} a ${from} ticket: ${from} → ${rule.to} is not a transition (${action} needs ${rule.from.join(' or ')})`,
    [
      { path: '/from', message: from },
      { path: '/to', message: rule.to },
    ],
  )
}
