import { expect } from 'bun:test'
import { at, callNext, act, ok, issued } from './helpers'
import type { QueueTestContext } from '../queue/helpers'

const ACCOUNTS = { locationId: 'loc_hall', serviceId: 'svc_accounts' }
const LOANS = { locationId: 'loc_hall', serviceId: 'svc_loans' }

/**
 * One small day at the hall (Europe/Berlin, UTC+1 in November), every figure worked out by hand
 * in the comments. Accounts' wait target is 600 s, Loans' the default 900 s.
 */
export async function smallDay(ctx: QueueTestContext) {
  const a1 = await at(ctx, '2026-11-25T08:00:00Z', () => issued(ctx, ACCOUNTS)) // 09:00 local
  const a2 = await at(ctx, '2026-11-25T08:00:10Z', () => issued(ctx, ACCOUNTS))
  const a3 = await at(ctx, '2026-11-25T08:30:00Z', () => issued(ctx, ACCOUNTS))
  // A1: called after 120 s (within 600), served 300 s; cnt_1 holds it 08:02:00–08:07:30 = 330 s.
  await at(ctx, '2026-11-25T08:02:00Z', () => ok(callNext(ctx, 'cnt_1')))
  await at(ctx, '2026-11-25T08:02:30Z', () => ok(act(ctx, a1.id, 'start')))
  await at(ctx, '2026-11-25T08:07:30Z', () => ok(act(ctx, a1.id, 'complete')))
  // A2: called after 600 s (exactly the target: within), no-show; cnt_2 holds it 60 s.
  await at(ctx, '2026-11-25T08:10:10Z', () => ok(callNext(ctx, 'cnt_2')))
  await at(ctx, '2026-11-25T08:10:40Z', () => ok(act(ctx, a2.id, 'recall')))
  await at(ctx, '2026-11-25T08:11:10Z', () => ok(act(ctx, a2.id, 'no-show')))
  // A3: called after 900 s (over 600), started, transferred to Loans: cnt_1 held it 300 s.
  await at(ctx, '2026-11-25T08:45:00Z', () => ok(callNext(ctx, 'cnt_1')))
  await at(ctx, '2026-11-25T08:46:00Z', () => ok(act(ctx, a3.id, 'start')))
  await at(ctx, '2026-11-25T08:50:00Z', () => ok(act(ctx, a3.id, 'transfer', { serviceId: 'svc_loans' })))
  const l1 = await at(ctx, '2026-11-25T09:00:00Z', () => issued(ctx, LOANS)) // 10:00 local
  const a4 = await at(ctx, '2026-11-25T09:05:00Z', () => issued(ctx, ACCOUNTS))
  await at(ctx, '2026-11-25T09:10:00Z', () => ok(act(ctx, a4.id, 'cancel')))
  // A3 again, in Loans (its second call: no second wait), served 240 s; cnt_1 holds it 300 s.
  const again = await at(ctx, '2026-11-25T09:20:00Z', () => ok(callNext(ctx, 'cnt_1')))
  expect(again.id).toBe(a3.id)
  await at(ctx, '2026-11-25T09:21:00Z', () => ok(act(ctx, a3.id, 'start')))
  await at(ctx, '2026-11-25T09:25:00Z', () => ok(act(ctx, a3.id, 'complete')))
  // L1: called after 1,800 s (over 900), requeued, called again, served 640 s.
  await at(ctx, '2026-11-25T09:30:00Z', () => ok(callNext(ctx, 'cnt_1')))
  await at(ctx, '2026-11-25T09:30:20Z', () => ok(act(ctx, l1.id, 'requeue', { position: 'FIRST' })))
  await at(ctx, '2026-11-25T09:31:00Z', () => ok(callNext(ctx, 'cnt_1')))
  await at(ctx, '2026-11-25T09:32:00Z', () => ok(act(ctx, l1.id, 'start')))
  await at(ctx, '2026-11-25T09:42:40Z', () => ok(act(ctx, l1.id, 'complete')))
  return { a1, a2, a3, a4, l1 }
}
