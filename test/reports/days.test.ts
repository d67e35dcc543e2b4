import { describe, expect, test } from 'bun:test'
import { reportContext, report, at, hours, callNext, act, ok, issued } from './helpers'
import { DailyClose } from '../../src/counters/daily-close'

const HALL = { locationId: 'loc_hall', serviceId: 'svc_accounts' }

/** The hall in Europe/London: BST ends 2026-10-25 at 02:00 BST (01:00 UTC); it starts 2026-03-29 at 01:00 GMT. */
const london = () => reportContext((doc) => { doc.workspaces[0]!.queueUnits![0]!.locations![0]!.timezone = 'Europe/London' })

describe('business days: a local midnight and daylight-saving changes', () => {
  test('figures stay with the ticket\'s business day across local midnight; the daily close counts, measures nothing', async () => {
    const ctx = london()
    // 23:50 BST on the 24th (22:50 UTC): business day 2026-10-24, hour 23.
    const late = await at(ctx, '2026-10-24T22:50:00Z', () => issued(ctx, HALL))
    const left = await at(ctx, '2026-10-24T22:55:00Z', () => issued(ctx, HALL))
    const held = await at(ctx, '2026-10-24T22:56:00Z', () => issued(ctx, HALL))
    // Called at 00:02 BST on the 25th: a 720 s wait, still the 24th's.
    await at(ctx, '2026-10-24T23:02:00Z', () => ok(callNext(ctx, 'cnt_1')))
    await at(ctx, '2026-10-24T23:03:00Z', () => ok(act(ctx, late.id, 'start')))
    await at(ctx, '2026-10-24T23:05:00Z', () => ok(act(ctx, late.id, 'complete')))
    // `left` is cancelled; `held` is called and started at cnt_2 and left SERVING over midnight.
    await at(ctx, '2026-10-24T23:06:00Z', () => ok(act(ctx, left.id, 'cancel')))
    await at(ctx, '2026-10-24T23:07:00Z', () => ok(callNext(ctx, 'cnt_2')))
    await at(ctx, '2026-10-24T23:08:00Z', () => ok(act(ctx, held.id, 'start')))
    // 00:30 BST on the 25th: the 25th's first ticket, hour 00.
    await at(ctx, '2026-10-24T23:30:00Z', () => issued(ctx, HALL))
    // The daily close (it runs after local midnight) completes `held`: served, no service time.
    ctx.clock.set('2026-10-24T23:31:00Z')
    new DailyClose(ctx.deps).runDue(ctx.clock.now())
    // 01:30 BST and 01:30 GMT: the same local hour twice, both in hour 01.
    await at(ctx, '2026-10-25T00:30:00Z', () => issued(ctx, HALL))
    await at(ctx, '2026-10-25T01:30:00Z', () => issued(ctx, HALL))
    // 23:30 GMT on the 25th: still the 25th (a 25-hour day), hour 23.
    await at(ctx, '2026-10-25T23:30:00Z', () => issued(ctx, HALL))

    const rows = await report(ctx, '/daily?from=2026-10-24&to=2026-10-25')
    expect(rows.map((r) => [r.date, r.issued, r.served, r.cancelled])).toEqual([['2026-10-24', 3, 2, 1], ['2026-10-25', 4, 0, 0]])
    // Waits: `late` 720 s, `held` 660 s (22:56 → 23:07): p50 = 1st = 660, p90 = ceil(1.8) = 2nd = 720.
    expect(rows[0].waitSeconds).toEqual({ avg: 690, p50: 660, p90: 720, max: 720 })
    expect(rows[0].serviceSeconds).toEqual({ avg: 120, p50: 120, p90: 120 })
    expect(rows[0].issuedByHour).toEqual(hours({ 23: 3 }))
    expect(rows[1].issuedByHour).toEqual(hours({ 0: 1, 1: 2, 23: 1 }))
    expect(rows[1].waitSeconds).toEqual({ avg: null, p50: null, p90: null, max: null })
    expect(rows[1].withinTarget).toBeNull()
    const counters = await report(ctx, '/counters?from=2026-10-24&to=2026-10-25')
    // cnt_2's ticket was closed by the system at midnight: served, but no service or busy time.
    expect(counters.map((c) => [c.date, c.counterId, c.served, c.busySeconds, c.serviceSeconds.avg])).toEqual([
      ['2026-10-24', 'cnt_1', 1, 180, 120],
      ['2026-10-24', 'cnt_2', 1, 0, null],
    ])
  })

  test('spring forward: the hour that does not exist stays empty', async () => {
    const ctx = london()
    await at(ctx, '2026-03-29T00:59:00Z', () => issued(ctx, HALL)) // 00:59 GMT
    await at(ctx, '2026-03-29T01:00:00Z', () => issued(ctx, HALL)) // 02:00 BST
    const [row] = await report(ctx, '/daily?from=2026-03-29&to=2026-03-29')
    expect(row.issuedByHour).toEqual(hours({ 0: 1, 2: 1 }))
  })
})
