import { afterEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { rmSync } from 'node:fs'
import { get, SERVICES, STATE, type QueueTestContext } from '../queue/helpers'
import { testContext } from '../support/app'
import { exampleDocument, provision } from '../support/fixtures'
import { tempDir } from '../support/cli'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import type { QueueChange } from '../../src/tickets/changes'
import { nextServiceAverage } from '../../src/tickets/wait'
import { randomIds } from '../../src/platform/ids'
import { counterContext, issued, ok, act, callNext, op, stats, revision, jsonOf } from './helpers'

type Line = { id: string; locationId: string; waiting: number; nowServing: unknown; estimatedWaitSeconds: number }
const hall = (lines: Line[], serviceId = 'svc_accounts') => lines.find((l) => l.id === serviceId && l.locationId === 'loc_hall')!
const state = async (ctx: QueueTestContext) => hall((await jsonOf(await get(ctx, STATE, ctx.key('all')))).data.services)
const services = async (ctx: QueueTestContext, serviceId = 'svc_accounts') => hall((await jsonOf(await get(ctx, SERVICES, ctx.key('all')))).data.services, serviceId)

/** The tickets owner's line (what the public lists read), with the fields the public shape leaves out. */
const line = (ctx: QueueTestContext, serviceId = 'svc_accounts') =>
  ctx.deps.tickets.lines('qu_main', true).find((l) => l.id === serviceId && l.locationId === 'loc_hall')!

describe('public services list and state follow the lifecycle at once', () => {
  test('after call, start and complete: nowServing with the counter name, waiting', async () => {
    const ctx = counterContext()
    const a = await issued(ctx)
    await issued(ctx)
    expect(await state(ctx)).toMatchObject({ waiting: 2, nowServing: null })
    await ok(callNext(ctx, 'cnt_2'))
    expect(await state(ctx)).toMatchObject({ waiting: 1, nowServing: { number: 'A001', counterName: 'Counter 2' } })
    expect((await services(ctx)).waiting).toBe(1)
    await ok(act(ctx, a.id, 'start'))
    expect(await state(ctx)).toMatchObject({ waiting: 1, nowServing: { number: 'A001', counterName: 'Counter 2' } })
    await ok(act(ctx, a.id, 'complete'))
    expect(await state(ctx)).toMatchObject({ waiting: 1, nowServing: null })
  })

  test('nowServing is the most recently called ticket of the line, a recall included; when it leaves, the previous one shows again', async () => {
    const ctx = counterContext()
    const a = await issued(ctx)
    const b = await issued(ctx)
    await ok(callNext(ctx, 'cnt_1'))
    await ok(callNext(ctx, 'cnt_2'))
    expect((await state(ctx)).nowServing).toEqual({ number: 'A002', counterName: 'Counter 2' })
    await ok(act(ctx, a.id, 'recall'))
    expect((await state(ctx)).nowServing).toEqual({ number: 'A001', counterName: 'Counter 1' })
    await ok(act(ctx, a.id, 'no-show'))
    expect((await state(ctx)).nowServing).toEqual({ number: 'A002', counterName: 'Counter 2' })
    await ok(act(ctx, b.id, 'requeue', { position: 'LAST' }))
    expect(await state(ctx)).toMatchObject({ waiting: 1, nowServing: null })
  })

  test('the estimate follows open counters, what they hold and completed service times (contract §19)', async () => {
    const ctx = counterContext()
    for (let i = 0; i < 3; i++) await issued(ctx)
    // 3 waiting, no counter open: one counter assumed, busy for one average: (3 + 1) × 300.
    expect((await services(ctx)).estimatedWaitSeconds).toBe(4 * 300)
    expect(line(ctx)).toMatchObject({ estimatedWaitSeconds: 4 * 300, noCounterOpen: true })
    await ok(op(ctx, 'POST', '/counters/cnt_1/open'))
    await ok(op(ctx, 'POST', '/counters/cnt_2/open'))
    // Two free counters take the 3 waiting at 0, 0 and 300 s: a new ticket is called at 300 s.
    expect((await services(ctx)).estimatedWaitSeconds).toBe(300)
    expect(line(ctx)).toMatchObject({ estimatedWaitSeconds: 300, noCounterOpen: false })
    // Nobody waits for loans, but cnt_1 (accounts and loans) calls the older accounts tickets
    // first, as call-next does: the third at 300, a new loan at 600.
    expect((await services(ctx, 'svc_loans')).estimatedWaitSeconds).toBe(600)
    // Two completions at cnt_1: 60 s and 120 s of service after a 10 s walk, counted from the
    // call: 70 and 130 s. Each is clamped to the band of its weight (wait.ts sampleBand) before
    // it moves the estimate: 70 to ×0.46 of 300 = 138, so 300 → 273 (weight 1/6); 130 is within
    // ×0.37 … of 273, so 273 → 273 + (130 − 273) / 7 (weight 1/7) ≈ 252.6.
    for (const seconds of [60, 120]) {
      const t = await ok(callNext(ctx, 'cnt_1'))
      ctx.clock.advance(10_000)
      await ok(act(ctx, t.id, 'start'))
      ctx.clock.advance(seconds * 1000)
      await ok(act(ctx, t.id, 'complete'))
    }
    expect(stats(ctx, 'svc_accounts')).toMatchObject({ completed_count: 2 })
    expect(stats(ctx, 'svc_accounts').avg_service_seconds).toBeCloseTo(273 + (130 - 273) / 7, 6)
    // 1 waiting, 2 free open counters: the waiting one goes to one, a new ticket to the other at once.
    expect((await services(ctx)).estimatedWaitSeconds).toBe(0)
    await ok(op(ctx, 'POST', '/counters/cnt_2/close'))
    // One free counter, one ahead: one service time.
    expect((await services(ctx)).estimatedWaitSeconds).toBe(253)
    // The spread learned beside the average (wait.ts nextServiceSpread): from the default 0.4, the
    // deviations |138 − 300| / 300 = 0.54 (the 70 s clamped as above) and |130 − 273| / 273 = 0.524
    // at weights 1/6 and 1/7: 0.4 → 0.4233 → 0.4377 (a log-normal of σ ≈ 0.556).
    expect(stats(ctx, 'svc_accounts').service_spread).toBeCloseTo(0.4 + (0.54 - 0.4) / 6 + (0.524 - 0.4233) / 7, 3)
    // A counter holding a ticket is free after the expected rest of it: 100 s into a service of
    // average 253 s and that spread, 168 s (a little more than 253 − 100: some are long ones).
    const t = await ok(callNext(ctx, 'cnt_1'))
    await ok(act(ctx, t.id, 'start'))
    ctx.clock.advance(100_000)
    expect((await services(ctx)).estimatedWaitSeconds).toBe(168)
  })

  test('the service-time estimate: starts at the default, learns, and one outlier moves it by less than a tenth', () => {
    // Before any completion the default is where it starts; 150 s completions pull it down gradually.
    let avg: number | null = null
    for (let n = 0; n < 400; n++) avg = nextServiceAverage(avg, n, 150, 300)
    expect(avg!).toBeCloseTo(150, 0)
    // One 2-second or 3-hour completion, early or late, moves it by less than a tenth.
    for (const [previous, count] of [[null, 0], [300, 1], [150, 200]] as const) {
      const base = previous ?? 300
      expect(Math.abs(nextServiceAverage(previous, count, 2, 300) - base) / base).toBeLessThan(0.1)
      expect(Math.abs(nextServiceAverage(previous, count, 3 * 3600, 300) - base) / base).toBeLessThan(0.1)
    }
    expect(nextServiceAverage(null, 0, -5, 300)).toBeLessThan(300)
    expect(nextServiceAverage(null, 0, -5, 0)).toBeGreaterThanOrEqual(0)
  })

  test('a completion by the daily close or a no-show does not count as a service time', async () => {
    const ctx = counterContext()
    const a = await issued(ctx)
    await ok(callNext(ctx, 'cnt_1'))
    ctx.clock.advance(30_000)
    await ok(act(ctx, a.id, 'no-show'))
    expect(stats(ctx, 'svc_accounts')).toMatchObject({ avg_service_seconds: null, completed_count: 0 })
  })
})

describe('stateRevision and onQueueChange', () => {
  const dirs: string[] = []
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

  test('every change of tickets or counters bumps the revision once and tells the listeners after commit; refusals and replays do not', async () => {
    const ctx = counterContext()
    const heard: QueueChange[] = []
    const revisionsSeenCommitted: number[] = []
    const stop = ctx.deps.events.queueChanges.on((change) => {
      heard.push(change)
      revisionsSeenCommitted.push(revision(ctx))
    })
    const a = await issued(ctx)
    await ok(op(ctx, 'POST', '/counters/cnt_1/open'))
    await ok(op(ctx, 'POST', '/counters/cnt_1/open'))
    await ok(callNext(ctx, 'cnt_1'))
    expect((await callNext(ctx, 'cnt_1')).status).toBe(409)
    expect((await act(ctx, a.id, 'cancel')).status).toBe(409)
    await ok(act(ctx, a.id, 'start'))
    // A replayed walk-in is no change.
    const walkIn = () => op(ctx, 'POST', '/tickets', { locationId: 'loc_hall', serviceId: 'svc_accounts' }, undefined, { 'idempotency-key': 'replayed-walk-in' })
    await ok(walkIn(), 201)
    await ok(walkIn(), 201)
    expect(heard).toEqual([1, 2, 3, 4, 5].map((stateRevision) => ({ queueUnitId: 'qu_main', workspaceId: 'ws_demo', stateRevision })))
    expect(revisionsSeenCommitted).toEqual([1, 2, 3, 4, 5])
    stop()
    await ok(act(ctx, a.id, 'complete'))
    expect(heard).toHaveLength(5)
    expect(revision(ctx)).toBe(6)
  })

  test('listeners of one database never hear another', async () => {
    const one = counterContext()
    const two = counterContext()
    const heard: string[] = []
    one.deps.events.queueChanges.on(() => heard.push('one'))
    await issued(two)
    expect(heard).toEqual([])
    await issued(one)
    expect(heard).toEqual(['one'])
  })

  test('the revision survives reopening the database file', async () => {
    const dir = tempDir()
    dirs.push(dir)
    const path = join(dir, 'lobby.db')
    const first = openDatabase(path)
    migrateDatabase(first.$client)
    const ctx = testContext({ db: first })
    const provisioned = provision(ctx, exampleDocument())
    const key = provisioned.secret('queue', 'qu_main', 'operator')
    const request = (c: typeof ctx, path: string, body?: unknown) => c.app.handle(new Request(`http://localhost/api/operator/v1${path}`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    }))
    await ok(request(ctx, '/tickets', { locationId: 'loc_hall', serviceId: 'svc_accounts' }), 201)
    await ok(request(ctx, '/counters/cnt_1/open'))
    await ok(request(ctx, '/counters/cnt_1/call-next'))
    const before = (first.$client.query("SELECT state_revision AS r FROM queue_units WHERE id = 'qu_main'").get() as { r: number }).r
    expect(before).toBe(3)
    first.$client.close()

    const second = openDatabase(path)
    migrateDatabase(second.$client)
    const again = testContext({ db: second, ids: randomIds })
    expect((second.$client.query("SELECT state_revision AS r FROM queue_units WHERE id = 'qu_main'").get() as { r: number }).r).toBe(3)
    await ok(request(again, '/tickets', { locationId: 'loc_hall', serviceId: 'svc_accounts' }), 201)
    expect((second.$client.query("SELECT state_revision AS r FROM queue_units WHERE id = 'qu_main'").get() as { r: number }).r).toBe(4)
    second.$client.close()
  })
})
