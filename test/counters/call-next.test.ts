import { describe, expect, test } from 'bun:test'
import { CounterCodes } from '../../src/counters/errors'
import { expectError } from '../queue/helpers'
import { counterContext, issued, ok, act, callNext, op, counterRow, snapshot, mainUnit, stats, openCounter, callNextOnly, revision, ticketRow, eventsOf, webhookTypes } from './helpers'

describe('POST counters/{id}/call-next', () => {
  test('calls the oldest waiting ticket of the counter\'s services at its location, WAITING→CALLED with calledAt and counter', async () => {
    const ctx = counterContext()
    const first = await issued(ctx)
    ctx.clock.advance(1000)
    const loan = await issued(ctx, { locationId: 'loc_hall', serviceId: 'svc_loans' })
    ctx.clock.advance(1000)
    await issued(ctx)
    const called = await ok(callNext(ctx, 'cnt_1'))
    expect(called).toMatchObject({ id: first.id, status: 'CALLED', calledAt: new Date(ctx.clock.now()).toISOString() })
    await ok(act(ctx, first.id, 'start'))
    await ok(act(ctx, first.id, 'complete'))
    // cnt_1 serves accounts and loans: the loan ticket is older than the second accounts ticket.
    expect((await ok(callNext(ctx, 'cnt_1'))).id).toBe(loan.id)
  })

  test('a counter takes only its own services: cnt_2 (accounts only) skips an older loans ticket', async () => {
    const ctx = counterContext()
    const loan = await issued(ctx, { locationId: 'loc_hall', serviceId: 'svc_loans' })
    const accounts = await issued(ctx)
    expect((await ok(callNext(ctx, 'cnt_2'))).id).toBe(accounts.id)
    expect((await ok(callNext(ctx, 'cnt_1'))).id).toBe(loan.id)
  })

  test('tickets of another location are never called', async () => {
    const ctx = counterContext()
    await issued(ctx, { locationId: 'loc_annex', serviceId: 'svc_accounts' })
    await openCounter(ctx, 'cnt_2')
    const before = snapshot(ctx)
    await expectError(await callNextOnly(ctx, 'cnt_2'), 404, CounterCodes.NO_TICKET_WAITING)
    expect(snapshot(ctx)).toEqual(before)
  })

  test('404 NO_TICKET_WAITING when the line is empty at an open counter', async () => {
    const ctx = counterContext()
    await openCounter(ctx, 'cnt_1')
    await expectError(await callNextOnly(ctx, 'cnt_1'), 404, CounterCodes.NO_TICKET_WAITING)
    expect(counterRow(ctx, 'cnt_1').open).toBe(1)
  })

  test('409 COUNTER_CLOSED at a closed counter (contract §27): nothing changes, the ticket still waits; after open, 200', async () => {
    const ctx = counterContext()
    const a = await issued(ctx)
    const before = snapshot(ctx)
    const rev = revision(ctx)
    await expectError(await callNextOnly(ctx, 'cnt_1'), 409, CounterCodes.COUNTER_CLOSED)
    expect(snapshot(ctx)).toEqual(before)
    expect(revision(ctx)).toBe(rev)
    expect(ticketRow(ctx, a.id)).toMatchObject({ status: 'WAITING', counter_id: null, called_at: null })
    expect(eventsOf(ctx, a.id).map((e) => e.type)).toEqual(['created'])
    // Nothing in the webhook outbox but the ticket's creation (the unit subscribes to ticket.called).
    expect(webhookTypes(ctx, a.id)).toEqual(['ticket.created'])
    expect(counterRow(ctx, 'cnt_1').open).toBe(0)
    await openCounter(ctx, 'cnt_1')
    expect(await ok(callNextOnly(ctx, 'cnt_1'))).toMatchObject({ id: a.id, status: 'CALLED' })
  })

  test('409 COUNTER_BUSY while the counter holds a CALLED or SERVING ticket, until it is done', async () => {
    const ctx = counterContext()
    const a = await issued(ctx)
    await issued(ctx)
    await ok(callNext(ctx, 'cnt_1'))
    const before = snapshot(ctx)
    await expectError(await callNext(ctx, 'cnt_1'), 409, CounterCodes.COUNTER_BUSY)
    await ok(act(ctx, a.id, 'start'))
    await expectError(await callNext(ctx, 'cnt_1'), 409, CounterCodes.COUNTER_BUSY)
    expect(snapshot(ctx).tickets.filter((t) => t.status === 'WAITING')).toHaveLength(1)
    expect(before.tickets.filter((t) => t.status === 'WAITING')).toHaveLength(1)
    await ok(act(ctx, a.id, 'complete'))
    expect((await ok(callNext(ctx, 'cnt_1'))).status).toBe('CALLED')
  })

  test('calling a specific ticket at a busy counter is 409 COUNTER_BUSY: one open ticket per counter', async () => {
    const ctx = counterContext()
    await issued(ctx)
    const b = await issued(ctx)
    await ok(callNext(ctx, 'cnt_1'))
    await expectError(await act(ctx, b.id, 'call', { counterId: 'cnt_1' }), 409, CounterCodes.COUNTER_BUSY)
    expect((await ok(act(ctx, b.id, 'call', { counterId: 'cnt_2' }))).status).toBe('CALLED')
  })

  test('calling a specific ticket opens a closed counter (staff decide; docs/counters.md), call-next does not', async () => {
    const ctx = counterContext()
    const b = await issued(ctx)
    await expectError(await callNextOnly(ctx, 'cnt_2'), 409, CounterCodes.COUNTER_CLOSED)
    expect(counterRow(ctx, 'cnt_2').open).toBe(0)
    await ok(act(ctx, b.id, 'call', { counterId: 'cnt_2' }))
    expect(counterRow(ctx, 'cnt_2')).toMatchObject({ open: 1, open_day: '2026-11-25' })
  })

  test('calling a ticket at a counter of another location or without its service is 422 on /counterId', async () => {
    const ctx = counterContext()
    const loan = await issued(ctx, { locationId: 'loc_hall', serviceId: 'svc_loans' })
    const annex = await issued(ctx, { locationId: 'loc_annex', serviceId: 'svc_accounts' })
    const before = snapshot(ctx)
    const body = await expectError(await act(ctx, loan.id, 'call', { counterId: 'cnt_2' }), 422, CounterCodes.VALIDATION_FAILED)
    expect(body.error.details[0].path).toBe('/counterId')
    await expectError(await act(ctx, annex.id, 'call', { counterId: 'cnt_1' }), 422, CounterCodes.VALIDATION_FAILED)
    await expectError(await act(ctx, loan.id, 'call', { counterId: 'cnt_nope' }), 404, CounterCodes.COUNTER_NOT_FOUND)
    expect(snapshot(ctx)).toEqual(before)
  })
})

describe('requeue', () => {
  test('FIRST is called before every older waiting ticket; LAST after all of them', async () => {
    const ctx = counterContext()
    const t = [] as { id: string }[]
    for (let i = 0; i < 4; i++) {
      t.push(await issued(ctx))
      ctx.clock.advance(1000)
    }
    // t0 called and sent back FIRST: called again before t1..t3.
    expect((await ok(callNext(ctx, 'cnt_1'))).id).toBe(t[0]!.id)
    await ok(act(ctx, t[0]!.id, 'requeue', { position: 'FIRST' }))
    expect((await ok(callNext(ctx, 'cnt_1'))).id).toBe(t[0]!.id)
    // Now LAST: t1, t2, t3 come first.
    await ok(act(ctx, t[0]!.id, 'requeue', { position: 'LAST' }))
    const order: string[] = []
    for (let i = 0; i < 4; i++) {
      const ticket = await ok(callNext(ctx, 'cnt_1'))
      order.push(ticket.id)
      await ok(act(ctx, ticket.id, 'no-show'))
    }
    expect(order).toEqual([t[1]!.id, t[2]!.id, t[3]!.id, t[0]!.id])
  })

  test('a ticket requeued FIRST at one counter is the next call of another counter serving it', async () => {
    const ctx = counterContext()
    const old = await issued(ctx)
    ctx.clock.advance(1000)
    const young = await issued(ctx)
    await ok(act(ctx, young.id, 'call', { counterId: 'cnt_1' }))
    await ok(act(ctx, young.id, 'requeue', { position: 'FIRST' }))
    expect((await ok(callNext(ctx, 'cnt_2'))).id).toBe(young.id)
    expect((await ok(callNext(ctx, 'cnt_1'))).id).toBe(old.id)
  })

  test('the waiting count follows: −1 on call, +1 on requeue; calledAt back to null', async () => {
    const ctx = counterContext()
    const a = await issued(ctx)
    expect(stats(ctx, 'svc_accounts').waiting).toBe(1)
    await ok(callNext(ctx, 'cnt_1'))
    expect(stats(ctx, 'svc_accounts').waiting).toBe(0)
    const back = await ok(act(ctx, a.id, 'requeue', { position: 'LAST' }))
    expect(back).toMatchObject({ status: 'WAITING', calledAt: null })
    expect(stats(ctx, 'svc_accounts').waiting).toBe(1)
  })

  test('position is required and must be FIRST or LAST', async () => {
    const ctx = counterContext()
    const a = await issued(ctx)
    await ok(callNext(ctx, 'cnt_1'))
    for (const body of [{}, { position: 'MIDDLE' }, { position: 'FIRST', extra: 1 }]) {
      await expectError(await act(ctx, a.id, 'requeue', body), 422, CounterCodes.VALIDATION_FAILED)
    }
  })
})

describe('concurrent calls', () => {
  test('two counters calling next at once never get the same ticket', async () => {
    const ctx = counterContext()
    await issued(ctx)
    await issued(ctx)
    const [one, two] = await Promise.all([callNext(ctx, 'cnt_1'), callNext(ctx, 'cnt_2')])
    const a = await ok(one)
    const b = await ok(two)
    expect(a.id).not.toBe(b.id)
  })

  test('with one ticket waiting, exactly one of two simultaneous call-nexts gets it', async () => {
    const ctx = counterContext()
    await issued(ctx)
    const results = await Promise.all([callNext(ctx, 'cnt_1'), callNext(ctx, 'cnt_2')])
    expect(results.map((r) => r.status).sort()).toEqual([200, 404])
  })

  test('many counters × many call-nexts: every ticket is called exactly once', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `cnt_x${i}`)
    const ctx = counterContext((doc) => {
      mainUnit(doc).counters!.push(...ids.map((id) => ({ id, name: id, locationId: 'loc_hall', services: ['svc_accounts'] })))
    })
    const issuedIds = new Set<string>()
    for (let i = 0; i < 40; i++) issuedIds.add((await issued(ctx)).id)
    const calledIds: string[] = []
    for (let round = 0; round < 6; round++) {
      const responses = await Promise.all(ids.map((id) => callNext(ctx, id)))
      for (const res of responses) {
        if (res.status === 404) continue
        const ticket = await ok(res)
        calledIds.push(ticket.id)
      }
      await Promise.all(calledIds.slice(-ids.length).map((id) => act(ctx, id, 'no-show')))
    }
    expect(calledIds).toHaveLength(40)
    expect(new Set(calledIds).size).toBe(40)
    expect(new Set(calledIds)).toEqual(issuedIds)
    const events = ctx.db.$client.query("SELECT ticket_id, count(*) AS n FROM ticket_events WHERE type = 'called' GROUP BY ticket_id").all() as { n: number }[]
    expect(events.every((e) => e.n === 1)).toBe(true)
  })
})

describe('open and close', () => {
  test('open and close answer the counter; repeating one changes nothing', async () => {
    const ctx = counterContext()
    const opened = await ok(op(ctx, 'POST', '/counters/cnt_1/open'))
    expect(opened).toEqual({ id: 'cnt_1', name: 'Counter 1', names: { en: 'Counter 1' }, locationId: 'loc_hall', serviceIds: ['svc_accounts', 'svc_loans'], open: true, busy: false, ticket: null })
    const before = snapshot(ctx)
    await ok(op(ctx, 'POST', '/counters/cnt_1/open', {}))
    expect(snapshot(ctx)).toEqual(before)
    expect((await ok(op(ctx, 'POST', '/counters/cnt_1/close'))).open).toBe(false)
    const closed = snapshot(ctx)
    await ok(op(ctx, 'POST', '/counters/cnt_1/close'))
    expect(snapshot(ctx)).toEqual(closed)
  })

  test('closing a counter that holds a ticket is 409 COUNTER_BUSY; the counter view shows the ticket', async () => {
    const ctx = counterContext()
    const a = await issued(ctx)
    await ok(callNext(ctx, 'cnt_1'))
    const body = await expectError(await op(ctx, 'POST', '/counters/cnt_1/close'), 409, CounterCodes.COUNTER_BUSY)
    expect(body.error.message).toContain('A001')
    const view = await ok(op(ctx, 'POST', '/counters/cnt_1/open'))
    expect(view).toMatchObject({ busy: true, ticket: { id: a.id, status: 'CALLED' } })
    await ok(act(ctx, a.id, 'no-show'))
    expect((await ok(op(ctx, 'POST', '/counters/cnt_1/close'))).open).toBe(false)
  })

  test('actions without parameters take no body or {}; anything else is refused', async () => {
    const ctx = counterContext()
    await expectError(await op(ctx, 'POST', '/counters/cnt_1/open', { extra: true }), 422, CounterCodes.VALIDATION_FAILED)
    const raw = (body: string, type = 'application/json') => ctx.app.handle(new Request('http://localhost/api/operator/v1/counters/cnt_1/open', {
      method: 'POST', headers: { authorization: `Bearer ${ctx.key('operator')}`, 'content-type': type }, body,
    }))
    await expectError(await raw('{nope'), 400, CounterCodes.INVALID_JSON)
    await expectError(await raw('[]'), 422, CounterCodes.VALIDATION_FAILED)
    await expectError(await raw('{}', 'text/plain'), 400, CounterCodes.INVALID_REQUEST)
    expect((await raw('{}')).status).toBe(200)
  })
})
