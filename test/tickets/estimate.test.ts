import { describe, expect, test } from 'bun:test'
import { get, SERVICES, type QueueTestContext } from '../queue/helpers'
import { counterContext, issued, ok, act, callNext, op, stats, jsonOf, mainUnit } from '../counters/helpers'
import { estimateWait } from '../../src/tickets/estimate'

/*
 * Contract §19: one estimator behind every surface (src/tickets/estimate.ts). The fixture's hall
 * has cnt_1 (accounts and loans) and cnt_2 (accounts only); both services default to 300 s.
 */

const HALL_LOANS = { locationId: 'loc_hall', serviceId: 'svc_loans' }
const place = (ctx: QueueTestContext, id: string) => ctx.deps.tickets.placeInLine(ctx.deps.tickets.byId(id)!)!
const forNew = (ctx: QueueTestContext, serviceId = 'svc_accounts', priority = false) => ctx.deps.tickets.placeForNew('qu_main', serviceId, 'loc_hall', priority)
const listed = async (ctx: QueueTestContext, serviceId = 'svc_accounts') =>
  (await jsonOf(await get(ctx, SERVICES, ctx.key('all')))).data.services.find((s: { id: string; locationId: string }) => s.id === serviceId && s.locationId === 'loc_hall')
const walkIn = (ctx: QueueTestContext, priority: boolean) =>
  ok(op(ctx, 'POST', '/tickets', { locationId: 'loc_hall', serviceId: 'svc_accounts', priority }), 201) as Promise<{ id: string }>

describe('wait estimates (contract §19)', () => {
  test('the old contradiction is gone: two idle open counters and nobody ahead → 0, not a service time', async () => {
    const ctx = counterContext()
    await ok(op(ctx, 'POST', '/counters/cnt_1/open'))
    await ok(op(ctx, 'POST', '/counters/cnt_2/open'))
    expect(forNew(ctx)).toEqual({ ahead: 0, estimatedWaitSeconds: 0, noCounterOpen: false })
    expect((await listed(ctx)).estimatedWaitSeconds).toBe(0)
    const t = await issued(ctx)
    // "You're next": nobody ahead, a free open counter of the service.
    expect(place(ctx, t.id)).toEqual({ ahead: 0, estimatedWaitSeconds: 0, noCounterOpen: false })
    // The second ticket goes to the other free counter: also 0.
    const u = await issued(ctx)
    expect(place(ctx, u.id)).toEqual({ ahead: 1, estimatedWaitSeconds: 0, noCounterOpen: false })
  })

  test('no counter open: one counter busy for one average is assumed, and it is flagged', async () => {
    const ctx = counterContext()
    const t = await issued(ctx)
    expect(place(ctx, t.id)).toEqual({ ahead: 0, estimatedWaitSeconds: 300, noCounterOpen: true })
    expect(forNew(ctx)).toEqual({ ahead: 1, estimatedWaitSeconds: 600, noCounterOpen: true })
    expect(ctx.deps.tickets.lines('qu_main', true).find((l) => l.id === 'svc_accounts' && l.locationId === 'loc_hall')).toMatchObject({ noCounterOpen: true })
  })

  test('a counter serving a ticket is free after the rest of its service time, never less than a small floor', async () => {
    const ctx = counterContext()
    await ok(op(ctx, 'POST', '/counters/cnt_2/open'))
    const a = await issued(ctx)
    const b = await issued(ctx)
    await ok(act(ctx, a.id, 'call', { counterId: 'cnt_2' }))
    // Called, not started: a whole service time.
    expect(place(ctx, b.id).estimatedWaitSeconds).toBe(300)
    await ok(act(ctx, a.id, 'start'))
    ctx.clock.advance(100_000)
    expect(place(ctx, b.id).estimatedWaitSeconds).toBe(200)
    ctx.clock.advance(1_000_000)
    expect(place(ctx, b.id).estimatedWaitSeconds).toBe(15)
  })

  test('shared counters: a counter serving two services gives each line its share of its time', async () => {
    const ctx = counterContext()
    // Only cnt_1 (accounts and loans) is open.
    await ok(op(ctx, 'POST', '/counters/cnt_1/open'))
    await issued(ctx)
    await issued(ctx)
    const loan = await issued(ctx, HALL_LOANS)
    // The loans ticket is the only one of its line and cnt_1 is free: 0.
    expect(place(ctx, loan.id).estimatedWaitSeconds).toBe(0)
    // A new loans ticket has one loans ticket ahead; cnt_1's time goes 2/4 to loans (the loans
    // line's waiting + 1 over all its waiting + 1), so one loans service costs it 600 s.
    expect(forNew(ctx, 'svc_loans')).toEqual({ ahead: 1, estimatedWaitSeconds: 600, noCounterOpen: false })
    // cnt_2 opens for accounts alone: the accounts line gets more capacity, loans does not.
    await ok(op(ctx, 'POST', '/counters/cnt_2/open'))
    expect(forNew(ctx, 'svc_loans').estimatedWaitSeconds).toBe(600)
    // Accounts: 2 ahead over cnt_1 (share 3/4: 400 s each) and cnt_2 (300 s each): one each, then the first free at 300.
    expect(forNew(ctx).estimatedWaitSeconds).toBe(300)
  })

  test('priority INTERLEAVE: the estimate follows the real call order over the open counters', async () => {
    const ctx = counterContext((doc) => {
      mainUnit(doc).priority = { mode: 'INTERLEAVE', normalPerPriority: 2 }
    })
    await ok(op(ctx, 'POST', '/counters/cnt_2/open'))
    const n = [await issued(ctx), await issued(ctx), await issued(ctx), await issued(ctx)]
    const p1 = await walkIn(ctx, true)
    const p2 = await walkIn(ctx, true)
    // Call order: n0 n1 p1 n2 n3 p2, one free counter at 300 s per ticket.
    expect(place(ctx, p1.id)).toEqual({ ahead: 2, estimatedWaitSeconds: 600, noCounterOpen: false })
    expect(place(ctx, p2.id)).toEqual({ ahead: 5, estimatedWaitSeconds: 1500, noCounterOpen: false })
    expect(place(ctx, n[0]!.id).estimatedWaitSeconds).toBe(0)
    expect(place(ctx, n[3]!.id)).toEqual({ ahead: 4, estimatedWaitSeconds: 1200, noCounterOpen: false })
  })

  test('a ticket requeued FIRST is next: 0 with a free counter, and everyone else one service later', async () => {
    const ctx = counterContext()
    await ok(op(ctx, 'POST', '/counters/cnt_2/open'))
    const a = await issued(ctx)
    const b = await issued(ctx)
    const c = await issued(ctx)
    await ok(act(ctx, c.id, 'call', { counterId: 'cnt_2' }))
    await ok(act(ctx, c.id, 'requeue', { position: 'FIRST' }))
    expect(place(ctx, c.id)).toEqual({ ahead: 0, estimatedWaitSeconds: 0, noCounterOpen: false })
    expect(place(ctx, a.id)).toEqual({ ahead: 1, estimatedWaitSeconds: 300, noCounterOpen: false })
    expect(place(ctx, b.id)).toEqual({ ahead: 2, estimatedWaitSeconds: 600, noCounterOpen: false })
  })

  test('one outlier completion moves the service-time estimate by less than a tenth', async () => {
    const ctx = counterContext()
    const serve = async (seconds: number) => {
      await issued(ctx)
      const t = await ok(callNext(ctx, 'cnt_2'))
      await ok(act(ctx, t.id, 'start'))
      ctx.clock.advance(seconds * 1000)
      await ok(act(ctx, t.id, 'complete'))
      return stats(ctx, 'svc_accounts').avg_service_seconds as number
    }
    await ok(op(ctx, 'POST', '/counters/cnt_2/open'))
    // The very first completion a 3-hour one: from the default 300 by less than a tenth.
    const afterLong = await serve(3 * 3600)
    expect(Math.abs(afterLong - 300) / 300).toBeLessThan(0.1)
    // Then a 2-second one.
    const afterShort = await serve(2)
    expect(Math.abs(afterShort - afterLong) / afterLong).toBeLessThan(0.1)
    // Later, with 30 ordinary 240 s services behind it, again.
    let settled = afterShort
    for (let i = 0; i < 30; i++) settled = await serve(240)
    expect(Math.abs((await serve(3 * 3600)) - settled) / settled).toBeLessThan(0.1)
  })

  test('the estimator alone: shares, floors and an empty counter list', () => {
    expect(estimateWait(0, 300, 0, [{ restSeconds: 0, waitingServed: 0 }])).toEqual({ estimatedWaitSeconds: 0, noCounterOpen: false })
    expect(estimateWait(3, 300, 3, [])).toEqual({ estimatedWaitSeconds: 1200, noCounterOpen: true })
    // Two counters, one busy for 100 s more: 3 ahead go at 0 (free one), 100 (busy one), 300 (free one again); the next is at 400.
    expect(estimateWait(3, 300, 3, [{ restSeconds: 0, waitingServed: 3 }, { restSeconds: 100, waitingServed: 3 }]).estimatedWaitSeconds).toBe(400)
    // Bad input never throws: negative or fractional counts are read as 0 or whole.
    expect(estimateWait(-2, -5, -1, [{ restSeconds: -3, waitingServed: -1 }])).toEqual({ estimatedWaitSeconds: 0, noCounterOpen: false })
  })
})
