import { describe, expect, test } from 'bun:test'
import { DailyClose } from '../../src/counters/daily-close'
import { SYSTEM_ACTOR } from '../../src/tickets/writer'
import { queueDisplayState } from '../../src/tickets/display-state'
import { takeEdgeAuthority, releaseEdgeAuthority } from '../../src/queue/edge'
import { get, STATE, type QueueTestContext } from '../queue/helpers'
import {
  counterContext, issued, ok, act, callNext, op, ticketRow, eventsOf, webhookTypes, counterRow, stats, revision, mainUnit, snapshot, jsonOf,
} from './helpers'

/** 2026-11-25 local midnight in Berlin (UTC+1) is 23:00 UTC; in New York (UTC−5) 05:00 UTC the next day. */
const BERLIN_MIDNIGHT = Date.parse('2026-11-25T23:00:00.000Z')
const NEW_YORK_MIDNIGHT = Date.parse('2026-11-26T05:00:00.000Z')

const withNewYork = () => counterContext((doc) => {
  const unit = mainUnit(doc)
  unit.locations!.push({ id: 'loc_ny', name: 'New York desk', timezone: 'America/New_York' })
  unit.services![0]!.locations!.push('loc_ny')
  unit.counters!.push({ id: 'cnt_ny', name: 'NY 1', locationId: 'loc_ny', services: ['svc_accounts'] })
})

/** A day's worth of tickets in every open status, with both hall counters busy. */
async function busyDay(ctx: QueueTestContext) {
  const done = await issued(ctx)
  await ok(callNext(ctx, 'cnt_1'))
  await ok(act(ctx, done.id, 'start'))
  await ok(act(ctx, done.id, 'complete'))
  const called = await issued(ctx)
  const serving = await issued(ctx)
  const waiting = await issued(ctx)
  const loan = await issued(ctx, { locationId: 'loc_hall', serviceId: 'svc_loans' })
  await ok(act(ctx, called.id, 'call', { counterId: 'cnt_1' }))
  await ok(act(ctx, serving.id, 'call', { counterId: 'cnt_2' }))
  await ok(act(ctx, serving.id, 'start'))
  return { done, called, serving, waiting, loan }
}

const openAt = (ctx: QueueTestContext, locationId: string) =>
  ctx.db.$client.query("SELECT id, business_day FROM tickets WHERE location_id = ? AND status IN ('WAITING', 'CALLED', 'SERVING') ORDER BY id").all(locationId) as { id: string; business_day: string }[]

describe('daily close at each location\'s local midnight', () => {
  test('nothing is due before midnight; at midnight every open ticket of the day closes with its system status, event and webhook', async () => {
    const ctx = withNewYork()
    const close = new DailyClose(ctx.deps)
    const day = await busyDay(ctx)
    const ny = await issued(ctx, { locationId: 'loc_ny', serviceId: 'svc_accounts' })
    expect(close.runDue(ctx.clock.now())).toEqual([])
    ctx.clock.set(BERLIN_MIDNIGHT - 1)
    const late = await issued(ctx)
    expect(close.runDue(ctx.clock.now())).toEqual([])

    ctx.clock.set(BERLIN_MIDNIGHT)
    // A ticket of the new day, issued before the close ran: untouched by it, and A001 again.
    const today = await issued(ctx)
    expect(today.ticketNumber).toBe('A001')
    const heard: number[] = []
    ctx.deps.events.queueChanges.on((change) => heard.push(change.stateRevision))
    const result = close.runDue(ctx.clock.now())
    expect(result).toEqual([{
      queueUnitId: 'qu_main', locationId: 'loc_hall', businessDay: '2026-11-26',
      cancelled: 3, noShows: 1, completed: 1, countersClosed: 2, callsCleared: 3, staffIntervalsEnded: 0,
    }])
    expect(heard).toEqual([revision(ctx)])

    const closedAt = new Date(BERLIN_MIDNIGHT).toISOString()
    for (const [ticket, status, event, webhook] of [
      [day.waiting, 'CANCELLED', 'cancelled', 'ticket.cancelled'],
      [day.loan, 'CANCELLED', 'cancelled', 'ticket.cancelled'],
      [late, 'CANCELLED', 'cancelled', 'ticket.cancelled'],
      [day.called, 'NO_SHOW', 'no_show', 'ticket.no_show'],
      [day.serving, 'COMPLETED', 'completed', 'ticket.completed'],
    ] as const) {
      expect(ticketRow(ctx, ticket.id)).toMatchObject({ status, completed_at: BERLIN_MIDNIGHT })
      const last = eventsOf(ctx, ticket.id).at(-1)!
      expect(last).toMatchObject({ type: event, to_status: status, actor: SYSTEM_ACTOR, at: BERLIN_MIDNIGHT })
      expect(JSON.parse(last.detail)).toEqual({ reason: 'daily_close', businessDay: '2026-11-25' })
      expect(webhookTypes(ctx, ticket.id).at(-1)).toBe(webhook)
    }
    expect(eventsOf(ctx, day.called.id).at(-1)!.counter_id).toBe('cnt_1')
    const body = JSON.parse((ctx.db.$client.query('SELECT body FROM webhook_deliveries WHERE ticket_id = ? ORDER BY rowid DESC LIMIT 1').get(day.serving.id) as { body: string }).body)
    expect(body.data).toMatchObject({ status: 'COMPLETED', completedAt: closedAt })

    // Nothing of the 25th is left open in Berlin; the finished ticket and today's are as they were.
    expect(openAt(ctx, 'loc_hall')).toEqual([{ id: today.id, business_day: '2026-11-26' }])
    expect(ticketRow(ctx, day.done.id).completed_at).toBeLessThan(BERLIN_MIDNIGHT)
    expect(eventsOf(ctx, today.id).map((e) => e.type)).toEqual(['created'])
    expect(counterRow(ctx, 'cnt_1').open).toBe(0)
    expect(counterRow(ctx, 'cnt_2').open).toBe(0)
    expect(stats(ctx, 'svc_accounts')).toMatchObject({ waiting: 1, now_serving_ticket_id: null, completed_count: 1 })
    expect(stats(ctx, 'svc_loans').waiting).toBe(0)
    const hall = (await jsonOf(await get(ctx, STATE, ctx.key('all')))).data.services.find((s: { id: string; locationId: string }) => s.id === 'svc_accounts' && s.locationId === 'loc_hall')
    expect(hall).toMatchObject({ waiting: 1, nowServing: null })
    expect(queueDisplayState(ctx.deps, 'qu_main', 'ws_demo', 'loc_hall')!.recentCalls).toEqual([])

    // New York's day has not ended yet; it closes at its own midnight.
    expect(openAt(ctx, 'loc_ny').map((t) => t.id)).toEqual([ny.id])
    ctx.clock.set(NEW_YORK_MIDNIGHT - 1)
    expect(close.runDue(ctx.clock.now())).toEqual([])
    ctx.clock.set(NEW_YORK_MIDNIGHT)
    expect(close.runDue(ctx.clock.now()).map((r) => [r.locationId, r.businessDay, r.cancelled])).toEqual([['loc_ny', '2026-11-26', 1]])
    expect(openAt(ctx, 'loc_ny')).toEqual([])
  })

  test('is idempotent: a second run changes nothing', async () => {
    const ctx = counterContext()
    await busyDay(ctx)
    ctx.clock.set(BERLIN_MIDNIGHT + 5_000)
    const close = new DailyClose(ctx.deps)
    expect(close.runDue(ctx.clock.now())).toHaveLength(1)
    const after = snapshot(ctx)
    expect(close.runDue(ctx.clock.now())).toEqual([])
    ctx.clock.advance(30_000)
    expect(close.runDue(ctx.clock.now())).toEqual([])
    expect(snapshot(ctx)).toEqual(after)
  })

  test('catches up after downtime: tickets of several past days all close on the first run', async () => {
    const ctx = counterContext()
    const first = await issued(ctx)
    ctx.clock.set(BERLIN_MIDNIGHT + 3_600_000)
    const second = await issued(ctx)
    ctx.clock.set(BERLIN_MIDNIGHT + 3 * 86_400_000)
    const result = new DailyClose(ctx.deps).runDue(ctx.clock.now())
    expect(result).toMatchObject([{ locationId: 'loc_hall', businessDay: '2026-11-29', cancelled: 2 }])
    expect(ticketRow(ctx, first.id).status).toBe('CANCELLED')
    expect(ticketRow(ctx, second.id).status).toBe('CANCELLED')
  })

  test('a counter opened today stays open; one opened the day before closes even with nothing else to do', async () => {
    const ctx = counterContext()
    await ok(op(ctx, 'POST', '/counters/cnt_1/open'))
    ctx.clock.set(BERLIN_MIDNIGHT + 1000)
    await ok(op(ctx, 'POST', '/counters/cnt_2/open'))
    const before = revision(ctx)
    const result = new DailyClose(ctx.deps).runDue(ctx.clock.now())
    expect(result).toMatchObject([{ locationId: 'loc_hall', countersClosed: 1, cancelled: 0 }])
    expect(counterRow(ctx, 'cnt_1').open).toBe(0)
    expect(counterRow(ctx, 'cnt_2').open).toBe(1)
    expect(revision(ctx)).toBe(before + 1)
  })

  test('a Queue Unit under Edge authority is left to the Edge, and closed once released', async () => {
    const ctx = counterContext()
    const ticket = await issued(ctx)
    ctx.clock.set(BERLIN_MIDNIGHT)
    takeEdgeAuthority(ctx.db, 'qu_main', 'edge-branch-7', null, ctx.clock.now())
    const close = new DailyClose(ctx.deps)
    const before = snapshot(ctx)
    expect(close.runDue(ctx.clock.now())).toEqual([])
    expect(snapshot(ctx)).toEqual(before)
    releaseEdgeAuthority(ctx.db, 'qu_main', ctx.clock.now())
    expect(close.runDue(ctx.clock.now())).toHaveLength(1)
    expect(ticketRow(ctx, ticket.id).status).toBe('CANCELLED')
  })

  test('the server runs it: once when background work starts, then on a timer', async () => {
    const ctx = counterContext()
    const ticket = await issued(ctx)
    ctx.clock.set(BERLIN_MIDNIGHT)
    // As startServer registers it (building the routes starts no scheduler).
    ctx.deps.lifecycle.register(new DailyClose(ctx.deps).task())
    ctx.deps.lifecycle.start()
    try {
      expect(ticketRow(ctx, ticket.id).status).toBe('CANCELLED')
      expect(ctx.logs.some((l) => l.msg === 'daily close' && l.locationId === 'loc_hall')).toBe(true)
    } finally {
      ctx.deps.lifecycle.beforeStop()
      await ctx.deps.lifecycle.stop()
    }
  })

  test('building the app starts no scheduler: without the server, background work does not close the day', async () => {
    const ctx = counterContext()
    const ticket = await issued(ctx)
    ctx.clock.set(BERLIN_MIDNIGHT)
    ctx.deps.lifecycle.start()
    try {
      expect(ticketRow(ctx, ticket.id).status).toBe('WAITING')
    } finally {
      ctx.deps.lifecycle.beforeStop()
      await ctx.deps.lifecycle.stop()
    }
  })

  test('a failing run is logged, not thrown, and the next run retries', async () => {
    const ctx = counterContext()
    const ticket = await issued(ctx)
    ctx.clock.set(BERLIN_MIDNIGHT)
    ctx.db.$client.exec("CREATE TRIGGER close_down BEFORE UPDATE ON tickets BEGIN SELECT RAISE(ABORT, 'down'); END")
    const task = new DailyClose(ctx.deps).task(60_000)
    task.start!()
    await task.stop!()
    expect(ticketRow(ctx, ticket.id).status).toBe('WAITING')
    expect(ctx.logs.some((l) => l.msg === 'daily close failed')).toBe(true)
    ctx.db.$client.exec('DROP TRIGGER close_down')
    expect(new DailyClose(ctx.deps).runDue(ctx.clock.now())).toHaveLength(1)
  })
})
