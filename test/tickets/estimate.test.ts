import { describe, expect, test } from 'bun:test'
import { get, SERVICES, type QueueTestContext } from '../queue/helpers'
import { counterContext, issued, ok, act, callNext, op, stats, jsonOf, mainUnit } from '../counters/helpers'
import { REST_FLOOR_SECONDS, estimateForNew, replayCalls, restOfCurrent, type LocationNow, type ReplayCounter, type ReplayTicket } from '../../src/tickets/estimate'
import { AWAY, PRESENT, SLOTS_PER_DAY, SLOT_MINUTES } from '../../src/tickets/usual-counters'
import { AVERAGE_WINDOW, DEFAULT_SPREAD, MAX_MOVE, SPREAD_WINDOW, expectedRest, logSigmaOfSpread, nextServiceAverage, nextServiceSpread, sampleBand } from '../../src/tickets/wait'

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
    expect(forNew(ctx)).toEqual({ ahead: 0, estimatedWaitSeconds: 0, noCounterOpen: false, counterFree: true })
    expect((await listed(ctx)).estimatedWaitSeconds).toBe(0)
    const t = await issued(ctx)
    // "You're next": nobody ahead, a free open counter of the service.
    expect(place(ctx, t.id)).toEqual({ ahead: 0, estimatedWaitSeconds: 0, noCounterOpen: false, counterFree: true })
    // The second ticket goes to the other free counter: also 0.
    const u = await issued(ctx)
    expect(place(ctx, u.id)).toEqual({ ahead: 1, estimatedWaitSeconds: 0, noCounterOpen: false, counterFree: true })
  })

  test('no counter open: one counter busy for one average is assumed, and it is flagged', async () => {
    const ctx = counterContext()
    const t = await issued(ctx)
    expect(place(ctx, t.id)).toEqual({ ahead: 0, estimatedWaitSeconds: 300, noCounterOpen: true, counterFree: false })
    expect(forNew(ctx)).toEqual({ ahead: 1, estimatedWaitSeconds: 600, noCounterOpen: true, counterFree: false })
    expect(ctx.deps.tickets.lines('qu_main', true).find((l) => l.id === 'svc_accounts' && l.locationId === 'loc_hall')).toMatchObject({ noCounterOpen: true })
  })

  test('a counter serving a ticket is free after the expected rest of its service, which a long service does not run down to nothing', async () => {
    const ctx = counterContext()
    await ok(op(ctx, 'POST', '/counters/cnt_2/open'))
    const a = await issued(ctx)
    const b = await issued(ctx)
    await ok(act(ctx, a.id, 'call', { counterId: 'cnt_2' }))
    // Called, not started: a whole service time.
    expect(place(ctx, b.id).estimatedWaitSeconds).toBe(300)
    await ok(act(ctx, a.id, 'start'))
    // No completion yet: the default 300 s with the default spread (σ ≈ 0.5). After 100 s the
    // expected rest is 206 s, not 200: a few of those services are long ones.
    ctx.clock.advance(100_000)
    expect(place(ctx, b.id).estimatedWaitSeconds).toBe(206)
    // 1,100 s into a 300 s service, it is one of the long ones: about 192 s more, not the 15 s floor.
    ctx.clock.advance(1_000_000)
    expect(place(ctx, b.id).estimatedWaitSeconds).toBe(192)
  })

  test('shared counters: a counter serving two services takes the older ticket of either, as call-next does', async () => {
    const ctx = counterContext()
    // Only cnt_1 (accounts and loans) is open.
    await ok(op(ctx, 'POST', '/counters/cnt_1/open'))
    await issued(ctx)
    await issued(ctx)
    const loan = await issued(ctx, HALL_LOANS)
    // The loans ticket is the only one of its line, but cnt_1 calls the two older accounts tickets first.
    expect(place(ctx, loan.id)).toEqual({ ahead: 0, estimatedWaitSeconds: 600, noCounterOpen: false, counterFree: true })
    expect(forNew(ctx, 'svc_loans')).toEqual({ ahead: 1, estimatedWaitSeconds: 900, noCounterOpen: false, counterFree: true })
    // cnt_2 opens for accounts alone: it takes the second accounts ticket, so cnt_1 reaches the loan at 300.
    await ok(op(ctx, 'POST', '/counters/cnt_2/open'))
    expect(place(ctx, loan.id).estimatedWaitSeconds).toBe(300)
    expect(forNew(ctx, 'svc_loans').estimatedWaitSeconds).toBe(600)
    // A new accounts ticket: cnt_2 is free again at 300 (cnt_1 takes the loan then).
    expect(forNew(ctx).estimatedWaitSeconds).toBe(300)
    // And what call-next really does agrees: cnt_1 calls an accounts ticket, not the loan.
    expect((await ok(callNext(ctx, 'cnt_1'))).serviceId).toBe('svc_accounts')
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
    expect(place(ctx, p1.id)).toEqual({ ahead: 2, estimatedWaitSeconds: 600, noCounterOpen: false, counterFree: true })
    expect(place(ctx, p2.id)).toEqual({ ahead: 5, estimatedWaitSeconds: 1500, noCounterOpen: false, counterFree: true })
    expect(place(ctx, n[0]!.id).estimatedWaitSeconds).toBe(0)
    expect(place(ctx, n[3]!.id)).toEqual({ ahead: 4, estimatedWaitSeconds: 1200, noCounterOpen: false, counterFree: true })
  })

  test('a ticket requeued FIRST is next: 0 with a free counter, and everyone else one service later', async () => {
    const ctx = counterContext()
    await ok(op(ctx, 'POST', '/counters/cnt_2/open'))
    const a = await issued(ctx)
    const b = await issued(ctx)
    const c = await issued(ctx)
    await ok(act(ctx, c.id, 'call', { counterId: 'cnt_2' }))
    await ok(act(ctx, c.id, 'requeue', { position: 'FIRST' }))
    expect(place(ctx, c.id)).toEqual({ ahead: 0, estimatedWaitSeconds: 0, noCounterOpen: false, counterFree: true })
    expect(place(ctx, a.id)).toEqual({ ahead: 1, estimatedWaitSeconds: 300, noCounterOpen: false, counterFree: true })
    expect(place(ctx, b.id)).toEqual({ ahead: 2, estimatedWaitSeconds: 600, noCounterOpen: false, counterFree: true })
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

  test('the settled band keeps the long tail (×0.25 … ×5.5), so the learned figure settles near the mean, still moved by at most MAX_MOVE', () => {
    expect(AVERAGE_WINDOW).toBe(50)
    expect(sampleBand(1 / AVERAGE_WINDOW).high).toBeCloseTo(1 + MAX_MOVE * AVERAGE_WINDOW, 9)
    expect(sampleBand(1 / AVERAGE_WINDOW).low).toBe(0.25)
    // Settled at 300 s, a 900 s completion (×3) counts whole: +12 s; an 1,800 s one (×6) counts as
    // 1,650 (×5.5): +27 s, under MAX_MOVE of 300.
    expect(nextServiceAverage(300, 100, 900) - 300).toBeCloseTo((900 - 300) / AVERAGE_WINDOW, 6)
    expect(nextServiceAverage(300, 100, 1800) - 300).toBeCloseTo((1650 - 300) / AVERAGE_WINDOW, 6)
    expect(nextServiceAverage(300, 100, 100_000) - 300).toBeLessThanOrEqual(MAX_MOVE * 300 + 1e-9)
  })

  test('the spread is learned beside the average in O(1), and one outlier moves it by at most MAX_MOVE', () => {
    // Log-normal service times of σ 0.6 (median 240 s, mean 287 s), from a seeded generator.
    let seed = 1
    const uniform = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    const logNormal = () => 240 * Math.exp(0.6 * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()))
    let average: number | null = null
    let spread: number | null = null
    for (let n = 0; n < 2000; n++) {
      const seconds = logNormal()
      spread = nextServiceSpread(spread, average, n, seconds, 300)
      average = nextServiceAverage(average, n, seconds, 300)
    }
    // Its mean absolute deviation is 0.47 of the mean (σ 0.6); learned a little under (the band
    // clips the far tail) and read back as a σ near 0.6.
    expect(spread!).toBeGreaterThan(0.4)
    expect(spread!).toBeLessThan(0.5)
    expect(logSigmaOfSpread(spread!)).toBeGreaterThan(0.5)
    expect(logSigmaOfSpread(spread!)).toBeLessThan(0.65)
    expect(logSigmaOfSpread(0.4716)).toBeCloseTo(0.6, 3)
    // A 2-second or a 3-hour completion, first or settled, moves the spread by at most MAX_MOVE of it.
    for (const [previous, avg, count] of [[null, null, 0], [spread!, average!, 2000]] as const) {
      const before = previous ?? DEFAULT_SPREAD
      for (const outlier of [2, 3 * 3600]) expect(Math.abs(nextServiceSpread(previous, avg, count, outlier, 300) - before) / before).toBeLessThanOrEqual(MAX_MOVE + 1e-9)
    }
    // Settled, its weight is 1/SPREAD_WINDOW: a completion 0.2 off the average pulls 0.5 towards 0.2 by that share.
    expect(nextServiceSpread(0.5, 300, 1000, 360)).toBeCloseTo(0.5 + (0.2 - 0.5) / SPREAD_WINDOW, 9)
  })

  test('the expected rest of a service in progress is the log-normal mean residual, checked against a numerical integral', () => {
    const integral = (mean: number, sigma: number, elapsed: number) => {
      const mu = Math.log(mean) - (sigma * sigma) / 2
      let weighted = 0
      let mass = 0
      for (let y = Math.log(elapsed); y < mu + 12 * sigma; y += 1e-4) {
        const density = Math.exp(-((y - mu) ** 2) / (2 * sigma * sigma))
        weighted += density * (Math.exp(y) - elapsed)
        mass += density
      }
      return weighted / mass
    }
    for (const [mean, sigma, elapsed] of [[300, 0.6, 100], [300, 0.6, 600], [1000, 0.8, 3000], [300, 0.3, 900]] as const) {
      expect(Math.abs(expectedRest(mean, sigma, elapsed) - integral(mean, sigma, elapsed))).toBeLessThan(0.5)
    }
    // Nothing elapsed: the mean. No spread: the mean minus the time already spent.
    expect(expectedRest(300, 0.6, 0)).toBe(300)
    expect(expectedRest(300, 0, 100)).toBe(200)
    // A long-tailed service past its mean: the further past, the longer still to go.
    expect(expectedRest(300, 0.8, 900)).toBeGreaterThan(expectedRest(300, 0.8, 450))
    expect(expectedRest(300, 0.8, 450)).toBeGreaterThan(150)
    // The counter's view: nothing held is free now; the floor still holds for a narrow service long past.
    expect(restOfCurrent(null, 300, 0, 0.6)).toBe(0)
    expect(restOfCurrent({ calledAt: 0 }, 300, 1_000_000, 0.05)).toBe(REST_FLOOR_SECONDS)
  })

  test('the replay alone: the earliest free counter takes the next ticket; a line without a counter gets one, busy for one average', () => {
    const counter = (id: string, restSeconds: number, serviceIds = ['a']): ReplayCounter => ({ id, serviceIds, restSeconds, normalCalls: 0 })
    const at = (now: LocationNow, serviceId = 'a') => estimateForNew(now, serviceId, false)
    const base = { waiting: [], counters: [counter('c1', 0)], averageSeconds: new Map([['a', 300]]), policy: { mode: 'FIRST' as const } }
    expect(at(base)).toEqual({ estimatedWaitSeconds: 0, noCounterOpen: false, counterFree: true })
    expect(at({ ...base, counters: [], waiting: waitingOf(3) })).toEqual({ estimatedWaitSeconds: 1200, noCounterOpen: true, counterFree: false })
    // Two counters, one busy for 100 s more: 3 ahead go at 0 (free one), 100 (busy one), 300 (free one again); the next is at 400.
    expect(at({ ...base, counters: [counter('c1', 0), counter('c2', 100)], waiting: waitingOf(3) }).estimatedWaitSeconds).toBe(400)
  })

  test('shared counters in the replay: a counter serving two lines takes the older head of either, by the real rule', () => {
    // c1 serves a and b, c2 serves a only; a has 2 waiting (ranks 1, 3), b has 1 (rank 2); all 300 s.
    const waiting: ReplayTicket[] = [
      { ...waitingOf(1, 'a')[0]!, id: 'a1', queueRank: 1 },
      { ...waitingOf(1, 'b')[0]!, id: 'b1', queueRank: 2 },
      { ...waitingOf(1, 'a')[0]!, id: 'a2', queueRank: 3 },
    ]
    const now: LocationNow = {
      waiting,
      counters: [{ id: 'c1', serviceIds: ['a', 'b'], restSeconds: 0, normalCalls: 0 }, { id: 'c2', serviceIds: ['a'], restSeconds: 200, normalCalls: 0 }],
      averageSeconds: new Map([['a', 300], ['b', 300]]),
      policy: { mode: 'FIRST' },
    }
    // c1 (free) takes a1 at 0; c2 (free at 200) takes the next a, a2, at 200; c1 takes b1 at 300.
    expect(Object.fromEntries(replayCalls(now).callsAt)).toEqual({ a1: 0, a2: 200, b1: 300 })
    // A new b ticket: after b1, at c1, at 600; a new a ticket: c2 again at 500.
    expect(estimateForNew(now, 'b', false).estimatedWaitSeconds).toBe(600)
    expect(estimateForNew(now, 'a', false).estimatedWaitSeconds).toBe(500)
  })

  test('the usual day: a counter usually away takes nothing until it is back; a closed one comes when it usually does', () => {
    const slots = (from: number, to: number, state: number) => {
      const a = new Uint8Array(SLOTS_PER_DAY).fill(PRESENT)
      a.fill(state, from, to)
      return a
    }
    const noon = 12 * 3600
    const noonSlot = noon / (SLOT_MINUTES * 60)
    // c1 open now, usually away 12:10–12:40; 2 waiting at 300 s each.
    const now: LocationNow = {
      waiting: waitingOf(2),
      counters: [{ id: 'c1', serviceIds: ['a'], restSeconds: 0, normalCalls: 0 }],
      averageSeconds: new Map([['a', 300]]),
      policy: { mode: 'FIRST' },
      usual: { slots: new Map([['c1', slots(noonSlot + 1, noonSlot + 4, AWAY)]]), closed: [], secondsSinceMidnight: noon },
    }
    // Ticket 1 at 0 (free now: it is evidently here). Free again at 300 s (12:05), in the slot just
    // before its usual absence: it is leaving, so ticket 2 waits for 12:40 (2,400 s) and a new one
    // goes at 2,700 s.
    expect(replayCalls(now).callsAt.get('a1')).toBe(2400)
    expect(estimateForNew(now, 'a', false).estimatedWaitSeconds).toBe(2700)
    // A closed counter usually present from 12:20 comes then and takes ticket 2 at 1,200 s, and the new one at 1,500 s.
    const withLate = { ...now, usual: { ...now.usual!, slots: new Map([...now.usual!.slots, ['c2', slots(0, noonSlot + 2, AWAY)]]), closed: [{ id: 'c2', serviceIds: ['a'] }] } }
    expect(estimateForNew(withLate, 'a', false).estimatedWaitSeconds).toBe(1500)
  })

  test('the usual day: a counter usually away is back at its next usually present slot, not at the first slot nothing is known of', () => {
    const noon = 12 * 3600
    const noonSlot = noon / (SLOT_MINUTES * 60)
    // c1 usually away 12:10–12:20, then unknown until 13:00 (the roll-up saw nothing), present from 13:00.
    const c1 = new Uint8Array(SLOTS_PER_DAY).fill(PRESENT)
    c1.fill(AWAY, noonSlot + 1, noonSlot + 2)
    c1.fill(0, noonSlot + 2, noonSlot + 6)
    const now: LocationNow = {
      waiting: waitingOf(2),
      counters: [{ id: 'c1', serviceIds: ['a'], restSeconds: 0, normalCalls: 0 }],
      averageSeconds: new Map([['a', 300]]),
      policy: { mode: 'FIRST' },
      usual: { slots: new Map([['c1', c1]]), closed: [], secondsSinceMidnight: noon },
    }
    // Ticket 1 at 0; free at 12:05 just before its absence it leaves, and is back at 13:00 (3,600 s),
    // not at 12:20: ticket 2 then, the new one at 3,900 s.
    expect(replayCalls(now).callsAt.get('a1')).toBe(3600)
    expect(estimateForNew(now, 'a', false).estimatedWaitSeconds).toBe(3900)
  })

  test('the usual day: free in the slot before its usual absence a counter starts nothing more, unless it is free now', () => {
    const noon = 12 * 3600
    const noonSlot = noon / (SLOT_MINUTES * 60)
    // c1 usually away 12:10–12:30 (a break that began once the ticket it held at 12:00 was done).
    const c1 = new Uint8Array(SLOTS_PER_DAY).fill(PRESENT)
    c1.fill(AWAY, noonSlot + 1, noonSlot + 3)
    const now = (restSeconds: number): LocationNow => ({
      waiting: waitingOf(1),
      counters: [{ id: 'c1', serviceIds: ['a'], restSeconds, normalCalls: 0 }],
      averageSeconds: new Map([['a', 300]]),
      policy: { mode: 'FIRST' },
      usual: { slots: new Map([['c1', c1]]), closed: [], secondsSinceMidnight: noon },
    })
    // Free now at 12:00: it takes the waiting ticket at once (it is here, whatever the usual day says).
    expect(replayCalls(now(0)).callsAt.get('a0')).toBe(0)
    // Busy until 12:02: it finishes, leaves, and is back at 12:30 (1,800 s), not at 12:02.
    expect(replayCalls(now(120)).callsAt.get('a0')).toBe(1800)
  })

  test('priority tickets usually to come go before a normal ticket, not before a priority one', () => {
    const arrivals = new Float32Array(SLOTS_PER_DAY).fill(1) // one priority ticket per 10 minutes
    const now: LocationNow = {
      waiting: waitingOf(3),
      counters: [{ id: 'c1', serviceIds: ['a'], restSeconds: 0, normalCalls: 0 }],
      averageSeconds: new Map([['a', 300]]),
      policy: { mode: 'FIRST' },
      usual: { slots: new Map(), closed: [], secondsSinceMidnight: 0, priorityArrivals: new Map([['a', arrivals]]) },
    }
    // Without them: the 3 waiting at 0, 300, 600, the new one at 900. With them, one is expected
    // at 300, 900 and 1,500 s (each half-way through its slot), each called before the normal
    // tickets then waiting: a0 0, p 300, a1 600, p 900, a2 1,200, p 1,500, the new one 1,800.
    expect(estimateForNew({ ...now, usual: undefined }, 'a', false).estimatedWaitSeconds).toBe(900)
    expect(estimateForNew(now, 'a', false).estimatedWaitSeconds).toBe(1800)
    // A new priority ticket goes before the waiting normal ones and before those still to come: at once.
    expect(estimateForNew(now, 'a', true).estimatedWaitSeconds).toBe(0)
  })
})

function waitingOf(n: number, serviceId = 'a'): ReplayTicket[] {
  return Array.from({ length: n }, (_, i) => ({ id: `${serviceId}${i}`, serviceId, priority: false, front: false, queueRank: i + 1, createdAt: i }))
}
