import { describe, expect, test } from 'bun:test'
import { reportContext, report, at, hours, callNext, act, ok, issued } from './helpers'
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

describe('reports of a small day, by hand', () => {
  test('daily rows: counts, waits, service times, percentiles, within target, by hour', async () => {
    const ctx = reportContext()
    await smallDay(ctx)
    const rows = await report(ctx, '/daily?from=2026-11-25&to=2026-11-25')
    expect(rows).toEqual([
      {
        date: '2026-11-25', locationId: 'loc_hall', serviceId: 'svc_accounts',
        issued: 4, served: 1, noShow: 1, cancelled: 1, transferredOut: 1,
        // waits 120, 600, 900: avg 540; p50 = 2nd of 3; p90 = ceil(2.7) = 3rd.
        waitSeconds: { avg: 540, p50: 600, p90: 900, max: 900 },
        serviceSeconds: { avg: 300, p50: 300, p90: 300 },
        // 120 and 600 are ≤ 600, 900 is not: 2 / 3.
        withinTarget: 0.667,
        issuedByHour: hours({ 9: 3, 10: 1 }),
      },
      {
        date: '2026-11-25', locationId: 'loc_hall', serviceId: 'svc_loans',
        // Issued: L1 only (A3 was issued for Accounts); served: A3 and L1.
        issued: 1, served: 2, noShow: 0, cancelled: 0, transferredOut: 0,
        waitSeconds: { avg: 1800, p50: 1800, p90: 1800, max: 1800 },
        // 240 and 640: p50 = 1st, p90 = ceil(1.8) = 2nd.
        serviceSeconds: { avg: 440, p50: 240, p90: 640 },
        withinTarget: 0,
        issuedByHour: hours({ 10: 1 }),
      },
    ])
  })

  test('counter rows: served, no-show, service times and busy seconds', async () => {
    const ctx = reportContext()
    await smallDay(ctx)
    expect(await report(ctx, '/counters?from=2026-11-25&to=2026-11-25')).toEqual([
      // cnt_1: A1 300, A3 240, L1 640 → sorted 240, 300, 640; busy 330 + 300 + 300 + 20 (L1 before
      // its requeue) + 700 (L1 from 09:31:00 to 09:42:40) = 1,650.
      { date: '2026-11-25', counterId: 'cnt_1', locationId: 'loc_hall', served: 3, noShow: 0, serviceSeconds: { avg: 393.3, p50: 300, p90: 640 }, busySeconds: 1650 },
      { date: '2026-11-25', counterId: 'cnt_2', locationId: 'loc_hall', served: 0, noShow: 1, serviceSeconds: { avg: null, p50: null, p90: null }, busySeconds: 60 },
    ])
  })

  test('filters and a key limited to one service see only their rows', async () => {
    const ctx = reportContext()
    await smallDay(ctx)
    const loans = await report(ctx, '/daily?from=2026-11-25&to=2026-11-25&serviceId=svc_loans')
    expect(loans.map((r) => r.serviceId)).toEqual(['svc_loans'])
    const limited = await report(ctx, '/daily?from=2026-11-01&to=2026-11-30', 'reports-hall-loans')
    expect(limited.map((r) => r.serviceId)).toEqual(['svc_loans'])
    expect(await report(ctx, '/daily?from=2026-11-26&to=2026-12-31')).toEqual([])
  })
})
