import { describe, expect, test } from 'bun:test'
import { reportContext, report, hours } from './helpers'
import { HALL_ACCOUNTS, issue } from '../queue/helpers'
import { smallDay } from './small-day'

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

  test('issues that share a group commit count once each, by hour; a refused one in the same commit counts not at all', async () => {
    const ctx = reportContext()
    ctx.clock.set('2026-11-25T08:59:30Z')
    // Sent together, these are written in one group commit: the roll-up adds them up before COMMIT.
    const sent = await Promise.all([
      issue(ctx, ctx.key('all'), HALL_ACCOUNTS),
      issue(ctx, ctx.key('all'), HALL_ACCOUNTS),
      issue(ctx, ctx.key('all'), { locationId: 'loc_hall', serviceId: 'svc_loans' }),
      // Refused inside the same commit (a service not offered at the location): undone alone.
      issue(ctx, ctx.key('all'), { locationId: 'loc_hall', serviceId: 'svc_nowhere' }),
      issue(ctx, ctx.key('all'), HALL_ACCOUNTS),
    ])
    expect(sent.map((r) => r.status)).toEqual([201, 201, 201, 422, 201])
    ctx.clock.set('2026-11-25T09:00:30Z')
    await Promise.all([issue(ctx, ctx.key('all'), HALL_ACCOUNTS), issue(ctx, ctx.key('all'), HALL_ACCOUNTS)])
    const rows = await report(ctx, '/daily?from=2026-11-25&to=2026-11-25')
    // The example's hall is in Europe/Berlin: 08:59 UTC is 09:59 local, 09:00 UTC is 10:00.
    expect(rows.map((r) => [r.serviceId, r.issued, r.issuedByHour])).toEqual([
      ['svc_accounts', 5, hours({ 9: 3, 10: 2 })],
      ['svc_loans', 1, hours({ 9: 1 })],
    ])
  })
})
