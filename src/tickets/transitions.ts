import { ApiError } from '../platform/errors'
import type { Actor } from '../platform/actor'
import type { TicketStatus } from './model'
import type { TicketRow } from './store'
import { TicketCodes } from './errors'

/** The webhook events of a ticket's changes (contract §3 Webhooks): each transition's row names its own. */
export const TICKET_EVENT_TYPES = [
  'ticket.created', 'ticket.called', 'ticket.recalled', 'ticket.serving', 'ticket.completed',
  'ticket.no_show', 'ticket.cancelled', 'ticket.requeued', 'ticket.transferred',
  // Contract §20: a no-show brought back; a waiting ticket near its turn (once per ticket).
  'ticket.reinstated', 'ticket.approaching',
] as const
export type TicketEventType = (typeof TICKET_EVENT_TYPES)[number]

/** Where a change's webhook event is written, in its own transaction: the root's `WebhookOutbox` (src/webhooks), handed in. */
export interface TicketOutbox {
  enqueue(queueUnitId: string, type: TicketEventType, actor: Actor, ticket: { id: string }, now: number): number
}

/** The operator's ticket actions (contract §3), named as in their URLs. */
export const TICKET_ACTIONS = ['call', 'recall', 'start', 'complete', 'no-show', 'cancel', 'requeue', 'transfer', 'reinstate'] as const
export type TicketAction = (typeof TICKET_ACTIONS)[number]

/** The `type` of a `ticket_events` row; the webhook event is `ticket.<type>`. */
export type TicketEventName = 'created' | 'called' | 'recalled' | 'serving' | 'completed' | 'no_show' | 'cancelled' | 'requeued' | 'transferred' | 'reinstated'

export interface TransitionRule {
  from: readonly TicketStatus[]
  to: TicketStatus
  event: TicketEventName
  webhook: TicketEventType
}

/** The columns a transition may change besides `status`. */
export type TicketChanges = Partial<Pick<TicketRow, 'serviceId' | 'counterId' | 'callCount' | 'queueRank' | 'front' | 'calledAt' | 'servingAt' | 'completedAt' | 'transferredFromServiceId' | 'transferredFromCounterId' | 'transferNote'>>

/** What a transition's column changes are computed from besides the ticket before it. */
export interface TransitionInput {
  /** The moment of the change (or of the event, when the roll-ups' rebuild replays it). */
  at: number
  /** `call` only: the counter that calls. */
  counterId?: string | null
  /** `transfer` only: the service the ticket joins. */
  toServiceId?: string
  /** `requeue`, `transfer` and `reinstate`: the ticket's place in the line it joins (read by the writer). */
  place?: { queueRank: number; front: boolean }
  /** `transfer` only (contract §20): the note for the receiving desk (≤ 200 characters), or null. */
  transferNote?: string | null
}

/**
 * A figure a change adds to the report roll-ups (contract §12; src/tickets/rollup-rules.ts
 * turns each into the rows it adds to, docs/reports.md says what each means):
 * - `issued`: one issue, in the local hour of `createdAt`;
 * - `firstWait`: the wait (first call − createdAt) and within-target, on the first call only;
 * - `served`: one completion (service and counter), with its service time when measured;
 * - `noShow`: one no-show (service and counter); `cancelled`: one cancellation;
 * - `transferredOut`: one ticket leaving its service;
 * - `releasesCounter`: the counter's busy time from the call there to now, when measured;
 * - `noShowTakenBack` (contract §20 reinstate): the no-show is no longer the ticket's outcome:
 *   −1 no-show on its service's day and on the counter it was marked at (a clerk's own figure
 *   keeps the no-show they marked).
 * The daily close (actor `system:daily-close`) measures nothing: no service time, no busy time.
 */
export type RollupFigure = 'issued' | 'firstWait' | 'served' | 'noShow' | 'cancelled' | 'transferredOut' | 'releasesCounter' | 'noShowTakenBack'

/** Everything one kind of ticket change does besides the moves every change makes (event, waiting counts, now serving, webhook). */
export interface TransitionEffect extends TransitionRule {
  /** The columns it sets besides `status`. */
  columns: (before: Pick<TicketRow, 'callCount' | 'serviceId' | 'counterId'>, input: TransitionInput) => TicketChanges
  /** Listed in the display feeds' recent calls (`ticket_calls`). */
  listsCall: boolean
  /** Moves the calling counter's count of normal calls since its last priority call (contract §8 INTERLEAVE). */
  countsCall: boolean
  /** Its `completedAt − servingAt` feeds the line's average service time (not when the daily close makes it). */
  measuresService: boolean
  /** What it adds to the report roll-ups. */
  rollups: readonly RollupFigure[]
}

/**
 * Contract §3 "Transitions", the only moves an operator may make, and everything each one
 * changes: the one table the writer (`TicketWriter`), the daily close (`Tickets.closeDay`) and
 * the roll-ups (`rollupEffects`, live and in `rebuildReportRollups`) read.
 * WAITING→CALLED (call) · CALLED→CALLED (recall) · CALLED→SERVING (start) ·
 * SERVING→COMPLETED (complete) · CALLED→NO_SHOW (no-show) · WAITING→CANCELLED (cancel) ·
 * CALLED→WAITING (requeue) · CALLED/SERVING→WAITING in another service (transfer) ·
 * NO_SHOW→WAITING within the unit's noShowGraceMinutes (reinstate, contract §20; the window is
 * checked by the caller, src/counters/service.ts).
 */
export const TRANSITION_EFFECTS: Record<TicketAction, TransitionEffect> = {
  call: {
    from: ['WAITING'], to: 'CALLED', event: 'called', webhook: 'ticket.called',
    // A call takes the ticket off the front lane: its place there is used up.
    columns: (before, { at, counterId }) => ({ counterId: counterId ?? null, calledAt: at, callCount: before.callCount + 1, front: false }),
    listsCall: true, countsCall: true, measuresService: false, rollups: ['firstWait'],
  },
  recall: {
    from: ['CALLED'], to: 'CALLED', event: 'recalled', webhook: 'ticket.recalled',
    // calledAt stays the first call's: the counter's hold and the wait are measured from it.
    columns: (before) => ({ callCount: before.callCount + 1 }),
    listsCall: true, countsCall: false, measuresService: false, rollups: [],
  },
  start: {
    from: ['CALLED'], to: 'SERVING', event: 'serving', webhook: 'ticket.serving',
    columns: (_, { at }) => ({ servingAt: at }),
    listsCall: false, countsCall: false, measuresService: false, rollups: [],
  },
  complete: {
    from: ['SERVING'], to: 'COMPLETED', event: 'completed', webhook: 'ticket.completed',
    columns: (_, { at }) => ({ completedAt: at }),
    listsCall: false, countsCall: false, measuresService: true, rollups: ['served', 'releasesCounter'],
  },
  'no-show': {
    from: ['CALLED'], to: 'NO_SHOW', event: 'no_show', webhook: 'ticket.no_show',
    columns: (_, { at }) => ({ completedAt: at }),
    listsCall: false, countsCall: false, measuresService: false, rollups: ['noShow', 'releasesCounter'],
  },
  cancel: {
    from: ['WAITING'], to: 'CANCELLED', event: 'cancelled', webhook: 'ticket.cancelled',
    columns: (_, { at }) => ({ completedAt: at }),
    listsCall: false, countsCall: false, measuresService: false, rollups: ['cancelled'],
  },
  requeue: {
    from: ['CALLED'], to: 'WAITING', event: 'requeued', webhook: 'ticket.requeued',
    // Leaves its counter; FIRST or LAST in its line.
    columns: (_, { place }) => ({ counterId: null, calledAt: null, ...place }),
    listsCall: false, countsCall: false, measuresService: false, rollups: ['releasesCounter'],
  },
  transfer: {
    from: ['CALLED', 'SERVING'], to: 'WAITING', event: 'transferred', webhook: 'ticket.transferred',
    // Number and priority kept; leaves its counter, calledAt and servingAt back to null.
    // Contract §20: it remembers where it came from (the last transfer) and the note, for the receiving desk.
    columns: (before, { toServiceId, place, transferNote }) => ({
      ...(toServiceId === undefined ? {} : { serviceId: toServiceId }),
      counterId: null, calledAt: null, servingAt: null, ...place,
      ...(toServiceId === undefined ? {} : { transferredFromServiceId: before.serviceId, transferredFromCounterId: before.counterId, transferNote: transferNote ?? null }),
    }),
    listsCall: false, countsCall: false, measuresService: false, rollups: ['transferredOut', 'releasesCounter'],
  },
  reinstate: {
    from: ['NO_SHOW'], to: 'WAITING', event: 'reinstated', webhook: 'ticket.reinstated',
    // Contract §20 "Bring back": waits again, FIRST or LAST; no longer at a counter, no longer ended.
    columns: (_, { place }) => ({ counterId: null, calledAt: null, completedAt: null, ...place }),
    listsCall: false, countsCall: false, measuresService: false, rollups: ['noShowTakenBack'],
  },
}

/** The rules of the operator's transitions (from, to, event, webhook): `TRANSITION_EFFECTS` read as rules. */
export const TRANSITIONS: Record<TicketAction, TransitionRule> = TRANSITION_EFFECTS

/** A ticket issue as the roll-ups count it (it is no transition: it has no status before). */
export const ISSUE_EFFECT = { event: 'created', webhook: 'ticket.created', rollups: ['issued'] } as const satisfies Pick<TransitionEffect, 'event' | 'webhook' | 'rollups'>

/** The transition that writes each event type (a `ticket_events` row's `type`) but the issue's. */
export const ACTION_OF_EVENT = Object.fromEntries(TICKET_ACTIONS.map((action) => [TRANSITION_EFFECTS[action].event, action])) as Record<Exclude<TicketEventName, 'created'>, TicketAction>

/** What a change of event type `event` adds to the roll-ups (from `TRANSITION_EFFECTS`, or the issue's). */
export function rollupFiguresOf(event: TicketEventName): readonly RollupFigure[] {
  return event === 'created' ? ISSUE_EFFECT.rollups : TRANSITION_EFFECTS[ACTION_OF_EVENT[event]].rollups
}

/**
 * Contract §3: the daily close at the location's local midnight is a system transition of
 * every ticket still open: WAITING→CANCELLED, CALLED→NO_SHOW, SERVING→COMPLETED, the effects of
 * cancel, no-show and complete, made by the system (`system:daily-close`, which measures nothing).
 */
export const DAILY_CLOSE: Record<'WAITING' | 'CALLED' | 'SERVING', Extract<TicketAction, 'cancel' | 'no-show' | 'complete'>> = {
  WAITING: 'cancel',
  CALLED: 'no-show',
  SERVING: 'complete',
}

/** Statuses a ticket is still open in (waiting, or at a counter). */
export const OPEN_STATUSES = ['WAITING', 'CALLED', 'SERVING'] as const

/**
 * The effect of `action` for a ticket in `from`, or 409 INVALID_TRANSITION naming from and to
 * in the message and in `details` (`/from` and `/to`, each with the status as its message).
 */
export function assertTransition(action: TicketAction, from: TicketStatus): TransitionEffect {
  const rule = TRANSITION_EFFECTS[action]
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
