import { decodeActor } from '../platform/actor'
import type { TicketRow } from './store'
import { rollupFiguresOf, type TicketEventName } from './transitions'

/*
 * Contract §12 report roll-ups: `report_daily` (location, service, business day),
 * `report_counter_daily` (counter, business day) and, contract §16, `report_staff_daily`
 * (clerk, queue unit, business day), kept by the tickets feature in the
 * transaction of every ticket change (`Tickets.changed`), and rebuilt from the ticket history
 * by the migration that adds them (`rebuildReportRollups`, rollup-rebuild.ts). Both paths derive
 * the same `RollupEffect`s from a change with `rollupEffects`, so they cannot count differently;
 * which figures each kind of change adds is its `rollups` list in `TRANSITION_EFFECTS`
 * (transitions.ts), this file says how each figure is measured. The rest of the roll-ups: their
 * columns and distributions (rollup-encoding.ts), the live writer (rollup-writer.ts), the
 * rebuild (rollup-rebuild.ts) and the reads (rollup-reads.ts).
 *
 * What counts where (docs/reports.md):
 * - every figure belongs to the ticket's business day (the local day it was issued);
 * - issued: the service it was issued for, in the local hour of `createdAt`;
 * - wait = first call − createdAt, in the service it waited for (a transfer happens after the
 *   first call, so that is the issuing service); within target against the service's
 *   `waitTargetSeconds` at that first call;
 * - served / service time (`completedAt − servingAt`): the service and counter it completed at,
 *   in the local hour of `completedAt`;
 * - no-show, cancelled: the service it was in; transferredOut: the service it left;
 * - per clerk (§16): a completion or no-show made by an actor of type `clerk` (a desk with a
 *   clerk signed in) counts for that clerk, with the completion's service time measured as
 *   above; a device, key or the daily close counts for nobody;
 * - busy: from the call at a counter to the ticket leaving it (complete, no-show, requeue,
 *   transfer);
 * - a no-show brought back (contract §20 reinstate) takes its no-show back: −1 on the day of
 *   its service and on the counter it was marked at, so a ticket counts once by its final
 *   outcome (served, no-show, cancelled, transferred out); the per-clerk no-show stays (it
 *   counts the marks a clerk made);
 * - the daily close (actor `system`) counts its completions, no-shows and cancellations but
 *   measures no duration (a close at midnight is no service time).
 * Durations are whole seconds, rounded down (never below 0).
 */

/** One figure a ticket change adds to the roll-ups. */
export type RollupEffect =
  | { kind: 'issued'; day: DailyKey; hour: number }
  | { kind: 'wait'; day: DailyKey; seconds: number; withinTarget: boolean }
  | { kind: 'served'; day: DailyKey; hour: number }
  | { kind: 'noShow' | 'cancelled' | 'transferredOut'; day: DailyKey }
  | { kind: 'serviceTime'; day: DailyKey; seconds: number }
  | { kind: 'noShowTakenBack'; day: DailyKey }
  | { kind: 'counterServed' | 'counterNoShow' | 'counterNoShowTakenBack'; counter: CounterKey }
  | { kind: 'counterServiceTime'; counter: CounterKey; seconds: number }
  | { kind: 'counterBusy'; counter: CounterKey; seconds: number }
  | { kind: 'staffServed' | 'staffNoShow'; staff: StaffKey }
  | { kind: 'staffServiceTime'; staff: StaffKey; seconds: number }

export interface DailyKey {
  queueUnitId: string
  locationId: string
  serviceId: string
  businessDay: string
}

export interface CounterKey {
  queueUnitId: string
  locationId: string
  counterId: string
  businessDay: string
}

/** A clerk's business day in one queue unit (the ticket's business day). */
export interface StaffKey {
  queueUnitId: string
  username: string
  businessDay: string
}

/** The ticket's state as far as the roll-ups read it (a `TicketRow` has all of it). */
export type RollupTicket = Pick<TicketRow, 'queueUnitId' | 'locationId' | 'serviceId' | 'businessDay' | 'counterId' | 'callCount' | 'createdAt' | 'calledAt' | 'servingAt' | 'completedAt'>

/** One ticket change as the roll-ups see it. */
export interface RollupChange {
  /** Null for the `created` event. */
  before: RollupTicket | null
  after: RollupTicket
  event: TicketEventName
  /** The daily close (actor `system`): counted, no durations. */
  system: boolean
  /** Who made the change, as stored (`type:id`, src/platform/actor.ts): a `clerk:` actor's figures count for that clerk too. */
  actor: string
  now: number
  /** The local hour (0–23) of an instant in the location's zone; asked for an issue and a completion only. */
  hourOf: (ms: number) => number
  /** A service's wait target in seconds; asked for a first call only. */
  waitTargetOf: (serviceId: string) => number
}

const seconds = (from: number, to: number) => Math.max(0, Math.floor((to - from) / 1000))

/**
 * The roll-up figures one ticket change adds: the figures `TRANSITION_EFFECTS` lists for its
 * event (`rollupFiguresOf`), each measured as the rules at the top of this file say.
 */
export function rollupEffects(change: RollupChange): RollupEffect[] {
  const { before, after, system, now } = change
  const dayOf = (t: RollupTicket): DailyKey => ({ queueUnitId: t.queueUnitId, locationId: t.locationId, serviceId: t.serviceId, businessDay: t.businessDay })
  const counterOf = (t: RollupTicket): CounterKey | null =>
    t.counterId === null ? null : { queueUnitId: t.queueUnitId, locationId: t.locationId, counterId: t.counterId, businessDay: t.businessDay }
  const clerk = clerkOf(change.actor)
  const staffOf = (t: RollupTicket): StaffKey | null =>
    clerk === null ? null : { queueUnitId: t.queueUnitId, username: clerk, businessDay: t.businessDay }
  const effects: RollupEffect[] = []
  for (const figure of rollupFiguresOf(change.event)) {
    switch (figure) {
      case 'issued':
        effects.push({ kind: 'issued', day: dayOf(after), hour: change.hourOf(after.createdAt) })
        break
      case 'firstWait':
        if (before !== null && before.callCount === 0) {
          const wait = seconds(after.createdAt, after.calledAt ?? now)
          effects.push({ kind: 'wait', day: dayOf(after), seconds: wait, withinTarget: wait <= change.waitTargetOf(after.serviceId) })
        }
        break
      case 'served': {
        effects.push({ kind: 'served', day: dayOf(after), hour: change.hourOf(after.completedAt ?? now) })
        const counter = counterOf(after)
        const staff = staffOf(after)
        if (counter !== null) effects.push({ kind: 'counterServed', counter })
        if (staff !== null) effects.push({ kind: 'staffServed', staff })
        if (!system && after.servingAt !== null && after.completedAt !== null) {
          const s = seconds(after.servingAt, after.completedAt)
          effects.push({ kind: 'serviceTime', day: dayOf(after), seconds: s })
          if (counter !== null) effects.push({ kind: 'counterServiceTime', counter, seconds: s })
          if (staff !== null) effects.push({ kind: 'staffServiceTime', staff, seconds: s })
        }
        break
      }
      case 'noShow': {
        effects.push({ kind: 'noShow', day: dayOf(after) })
        const counter = counterOf(after)
        if (counter !== null) effects.push({ kind: 'counterNoShow', counter })
        const staff = staffOf(after)
        if (staff !== null) effects.push({ kind: 'staffNoShow', staff })
        break
      }
      case 'noShowTakenBack': {
        if (before === null) break
        effects.push({ kind: 'noShowTakenBack', day: dayOf(before) })
        const counter = counterOf(before)
        if (counter !== null) effects.push({ kind: 'counterNoShowTakenBack', counter })
        break
      }
      case 'cancelled':
        effects.push({ kind: 'cancelled', day: dayOf(after) })
        break
      case 'transferredOut':
        if (before !== null) effects.push({ kind: 'transferredOut', day: dayOf(before) })
        break
      case 'releasesCounter': {
        // A counter's hold ends: busy from the call there (calledAt, kept by recalls) to now.
        if (system || before === null || before.calledAt === null) break
        const counter = counterOf(before)
        if (counter !== null) effects.push({ kind: 'counterBusy', counter, seconds: seconds(before.calledAt, now) })
        break
      }
    }
  }
  return effects
}

/** The username of a `clerk:` actor (a desk with a clerk signed in), else null: only clerks have staff figures. */
export function clerkOf(actor: string): string | null {
  const decoded = decodeActor(actor)
  return decoded.type === 'clerk' && decoded.id !== '' ? decoded.id : null
}
