import { describe, expect, test } from 'bun:test'
import { CounterCodes } from '../../src/counters/errors'
import { takeEdgeAuthority, releaseEdgeAuthority } from '../../src/queue/edge'
import { expectError, type QueueTestContext } from '../queue/helpers'
import { counterContext, issued, ok, act, callNext, callNextOnly, openCounter, op, snapshot, mainUnit, OP, jsonOf } from './helpers'

/** Every operator mutation, with a valid body, for a ticket and a counter that exist. */
function mutations(ctx: QueueTestContext, ticketId: string, secret?: string): [string, () => Promise<Response>][] {
  return [
    ['open', () => op(ctx, 'POST', '/counters/cnt_1/open', undefined, secret)],
    ['close', () => op(ctx, 'POST', '/counters/cnt_1/close', undefined, secret)],
    ['call-next', () => callNext(ctx, 'cnt_1', secret)],
    ['walk-in', () => op(ctx, 'POST', '/tickets', { locationId: 'loc_hall', serviceId: 'svc_accounts' }, secret)],
    ['call', () => act(ctx, ticketId, 'call', { counterId: 'cnt_1' }, secret)],
    ['recall', () => act(ctx, ticketId, 'recall', undefined, secret)],
    ['start', () => act(ctx, ticketId, 'start', undefined, secret)],
    ['complete', () => act(ctx, ticketId, 'complete', undefined, secret)],
    ['no-show', () => act(ctx, ticketId, 'no-show', undefined, secret)],
    ['cancel', () => act(ctx, ticketId, 'cancel', undefined, secret)],
    ['requeue', () => act(ctx, ticketId, 'requeue', { position: 'FIRST' }, secret)],
    ['reinstate', () => act(ctx, ticketId, 'reinstate', { position: 'FIRST' }, secret)],
    ['transfer', () => act(ctx, ticketId, 'transfer', { serviceId: 'svc_loans' }, secret)],
  ]
}

function reads(ctx: QueueTestContext, ticketId: string, secret?: string): [string, () => Promise<Response>][] {
  return [
    ['queue', () => op(ctx, 'GET', '/queue', undefined, secret)],
    ['events', () => op(ctx, 'GET', `/tickets/${ticketId}/events`, undefined, secret)],
  ]
}

const restricted = () => counterContext((doc) => {
  const unit = mainUnit(doc)
  unit.apiKeys!.push(
    { name: 'annex-op', scopes: ['counter:operate'], locations: ['loc_annex'] },
    { name: 'loans-op', scopes: ['counter:operate'], services: ['svc_loans'] },
    { name: 'slow-op', scopes: ['counter:operate'], rateLimits: { readPerMinute: 3, issuePerMinute: 2 } },
  )
  unit.counters!.push({ id: 'cnt_annex', name: 'Annex desk', locationId: 'loc_annex', services: ['svc_accounts'] })
})

describe('credential and scope', () => {
  test('no key, an unknown key or a key of another kind is 401 on every operator route', async () => {
    const ctx = counterContext()
    const { id } = await issued(ctx)
    const workspaceKey = ctx.provisioned.secret('workspace', 'ws_demo', 'cms')
    for (const secret of [null, 'lbq_unknown', workspaceKey]) {
      for (const [name, send] of [...mutations(ctx, id, secret as string), ...reads(ctx, id, secret as string)]) {
        const res = await send()
        expect({ name, status: res.status }).toEqual({ name, status: 401 })
        expect((await jsonOf(res)).error.code).toBe(CounterCodes.AUTHENTICATION_FAILED)
      }
    }
  })

  test('a Queue key without counter:operate is 403 SCOPE_FORBIDDEN on every operator route, and changes nothing', async () => {
    const ctx = counterContext()
    const { id } = await issued(ctx)
    const before = snapshot(ctx)
    for (const [name, send] of [...mutations(ctx, id, ctx.key('all')), ...reads(ctx, id, ctx.key('all'))]) {
      const res = await send()
      expect({ name, status: res.status }).toEqual({ name, status: 403 })
      expect((await jsonOf(res)).error.code).toBe(CounterCodes.SCOPE_FORBIDDEN)
    }
    expect(snapshot(ctx)).toEqual(before)
  })
})

describe('location and service restrictions of the key', () => {
  test('a key of one location sees neither counters nor tickets elsewhere (404) and issues walk-ins only there (403)', async () => {
    const ctx = restricted()
    const hall = await issued(ctx)
    const annex = await issued(ctx, { locationId: 'loc_annex', serviceId: 'svc_accounts' })
    const key = ctx.key('annex-op')
    await expectError(await callNext(ctx, 'cnt_1', key), 404, CounterCodes.COUNTER_NOT_FOUND)
    await expectError(await op(ctx, 'POST', '/counters/cnt_1/open', undefined, key), 404, CounterCodes.COUNTER_NOT_FOUND)
    await expectError(await act(ctx, hall.id, 'cancel', undefined, key), 404, CounterCodes.TICKET_NOT_FOUND)
    await expectError(await op(ctx, 'GET', `/tickets/${hall.id}/events`, undefined, key), 404, CounterCodes.TICKET_NOT_FOUND)
    await expectError(await op(ctx, 'POST', '/tickets', { locationId: 'loc_hall', serviceId: 'svc_accounts' }, key), 403, CounterCodes.LOCATION_FORBIDDEN)
    // Its own location works.
    expect((await ok(callNext(ctx, 'cnt_annex', key))).id).toBe(annex.id)
    const overview = await ok(op(ctx, 'GET', '/queue', undefined, key))
    expect(overview.services.map((s: { id: string; locationId: string }) => `${s.id}@${s.locationId}`)).toEqual(['svc_accounts@loc_annex'])
    expect(overview.counters.map((c: { id: string }) => c.id)).toEqual(['cnt_annex'])
  })

  test('a key of one service operates counters serving it, and call-next takes only that service\'s tickets', async () => {
    const ctx = restricted()
    const accounts = await issued(ctx)
    const loan = await issued(ctx, { locationId: 'loc_hall', serviceId: 'svc_loans' })
    const key = ctx.key('loans-op')
    await expectError(await callNext(ctx, 'cnt_2', key), 404, CounterCodes.COUNTER_NOT_FOUND)
    await expectError(await act(ctx, accounts.id, 'cancel', undefined, key), 404, CounterCodes.TICKET_NOT_FOUND)
    await expectError(await act(ctx, accounts.id, 'call', { counterId: 'cnt_1' }, key), 404, CounterCodes.TICKET_NOT_FOUND)
    // cnt_1 serves accounts and loans; the older accounts ticket is not this key's to call.
    expect((await ok(callNext(ctx, 'cnt_1', key))).id).toBe(loan.id)
    await ok(act(ctx, loan.id, 'no-show', undefined, key))
    await expectError(await callNext(ctx, 'cnt_1', key), 404, CounterCodes.NO_TICKET_WAITING)
    await expectError(await op(ctx, 'POST', '/tickets', { locationId: 'loc_hall', serviceId: 'svc_accounts' }, key), 403, CounterCodes.SERVICE_FORBIDDEN)
    const overview = await ok(op(ctx, 'GET', '/queue', undefined, key))
    expect(overview.services.map((s: { id: string }) => s.id)).toEqual(['svc_loans'])
    expect(overview.counters.map((c: { id: string }) => c.id)).toEqual(['cnt_1'])
    // cnt_1 busy with a ticket of a service outside the key's list: busy, but the ticket stays hidden.
    await ok(act(ctx, accounts.id, 'call', { counterId: 'cnt_1' }))
    const [counter] = (await ok(op(ctx, 'GET', '/queue', undefined, key))).counters
    expect(counter).toMatchObject({ id: 'cnt_1', busy: true, ticket: null })
    const busy = await expectError(await callNext(ctx, 'cnt_1', key), 409, CounterCodes.COUNTER_BUSY)
    expect(busy.error.message).not.toContain('A001')
    expect((await ok(op(ctx, 'GET', '/queue'))).counters[0]).toMatchObject({ busy: true, ticket: { id: accounts.id } })
  })

  test('a counter or ticket of another Queue Unit is 404', async () => {
    const ctx = counterContext((doc) => {
      doc.workspaces[0]!.queueUnits!.push({
        id: 'qu_other', name: 'Other',
        locations: [{ id: 'loc_other', name: 'Other', timezone: 'UTC' }],
        services: [{ id: 'svc_other', name: 'Other', prefix: 'O', locations: ['loc_other'] }],
        counters: [{ id: 'cnt_other', name: 'Other', locationId: 'loc_other', services: ['svc_other'] }],
        apiKeys: [{ name: 'op', scopes: ['counter:operate', 'tickets:write'] }],
      })
    })
    const { id } = await issued(ctx)
    const other = ctx.provisioned.secret('queue', 'qu_other', 'op')
    await expectError(await callNext(ctx, 'cnt_1', other), 404, CounterCodes.COUNTER_NOT_FOUND)
    await expectError(await act(ctx, id, 'cancel', undefined, other), 404, CounterCodes.TICKET_NOT_FOUND)
    await ok(act(ctx, id, 'call', { counterId: 'cnt_1' }))
    await expectError(await act(ctx, id, 'no-show', undefined, other), 404, CounterCodes.TICKET_NOT_FOUND)
    await expectError(await callNext(ctx, 'cnt_other'), 404, CounterCodes.COUNTER_NOT_FOUND)
  })
})

describe('Edge authority and an inactive Queue Unit', () => {
  test('while an Edge holds authority every operator mutation is 409 QUEUE_UNIT_EDGE_MANAGED and writes nothing; reads still answer', async () => {
    const ctx = counterContext()
    const { id } = await issued(ctx)
    takeEdgeAuthority(ctx.db, 'qu_main', 'edge-branch-7', null, ctx.clock.now())
    const before = snapshot(ctx)
    for (const [name, send] of mutations(ctx, id)) {
      const res = await send()
      expect({ name, status: res.status }).toEqual({ name, status: 409 })
      expect((await jsonOf(res)).error.code).toBe(CounterCodes.QUEUE_UNIT_EDGE_MANAGED)
    }
    // Edge authority comes before the lookup: an unknown ticket or counter is refused the same way.
    await expectError(await act(ctx, 'tkt_unknown', 'cancel'), 409, CounterCodes.QUEUE_UNIT_EDGE_MANAGED)
    await expectError(await callNext(ctx, 'cnt_unknown'), 409, CounterCodes.QUEUE_UNIT_EDGE_MANAGED)
    expect(snapshot(ctx)).toEqual(before)
    for (const [, send] of reads(ctx, id)) expect((await send()).status).toBe(200)
    releaseEdgeAuthority(ctx.db, 'qu_main', ctx.clock.now())
    expect((await ok(callNext(ctx, 'cnt_1'))).id).toBe(id)
  })

  test('a lease that expired no longer refuses', async () => {
    const ctx = counterContext()
    const { id } = await issued(ctx)
    takeEdgeAuthority(ctx.db, 'qu_main', 'edge-branch-7', 60, ctx.clock.now())
    await expectError(await act(ctx, id, 'cancel'), 409, CounterCodes.QUEUE_UNIT_EDGE_MANAGED)
    ctx.clock.advance(60_000)
    expect((await ok(act(ctx, id, 'cancel'))).status).toBe('CANCELLED')
  })

  test('an inactive Queue Unit refuses every operator route with 403 QUEUE_UNIT_INACTIVE', async () => {
    const ctx = counterContext()
    const { id } = await issued(ctx)
    ctx.db.$client.exec("UPDATE queue_units SET active = 0 WHERE id = 'qu_main'")
    const before = snapshot(ctx)
    for (const [name, send] of [...mutations(ctx, id), ...reads(ctx, id)]) {
      const res = await send()
      expect({ name, status: res.status }).toEqual({ name, status: 403 })
      expect((await jsonOf(res)).error.code).toBe(CounterCodes.QUEUE_UNIT_INACTIVE)
    }
    expect(snapshot(ctx)).toEqual(before)
  })
})

describe('order of checks', () => {
  const post = (ctx: QueueTestContext, path: string, body: string, headers: Record<string, string>) =>
    ctx.app.handle(new Request(`http://localhost${OP}${path}`, { method: 'POST', headers, body }))

  test('body size → credential → scope → rate limit → Content-Type → JSON → schema → Edge authority → lookup → transition', async () => {
    const ctx = restricted()
    const { id } = await issued(ctx)
    const json = { 'content-type': 'application/json' }
    const operator = { ...json, authorization: `Bearer ${ctx.key('operator')}` }
    const big = JSON.stringify({ position: 'x'.repeat(17_000) })
    // 413 before the credential, for a declared size (a chunked body is read only after the credential, contract §23).
    await expectError(await post(ctx, `/tickets/${id}/requeue`, big, { ...json, 'content-length': String(big.length) }), 413, CounterCodes.PAYLOAD_TOO_LARGE)
    // 401 before the scope and the body.
    await expectError(await post(ctx, `/tickets/${id}/requeue`, '{bad', json), 401, CounterCodes.AUTHENTICATION_FAILED)
    // 403 scope before the body.
    await expectError(await post(ctx, `/tickets/${id}/requeue`, '{bad', { ...json, authorization: `Bearer ${ctx.key('all')}` }), 403, CounterCodes.SCOPE_FORBIDDEN)
    takeEdgeAuthority(ctx.db, 'qu_main', 'edge', null, ctx.clock.now())
    // Content-Type, JSON and schema before Edge authority.
    await expectError(await post(ctx, `/tickets/${id}/requeue`, '{"position":"FIRST"}', { ...operator, 'content-type': 'text/plain' }), 400, CounterCodes.INVALID_REQUEST)
    await expectError(await post(ctx, `/tickets/${id}/requeue`, '{bad', operator), 400, CounterCodes.INVALID_JSON)
    await expectError(await post(ctx, `/tickets/${id}/requeue`, '{"position":"UP"}', operator), 422, CounterCodes.VALIDATION_FAILED)
    // Edge authority before the lookup.
    await expectError(await post(ctx, '/tickets/tkt_nope/requeue', '{"position":"FIRST"}', operator), 409, CounterCodes.QUEUE_UNIT_EDGE_MANAGED)
    releaseEdgeAuthority(ctx.db, 'qu_main', ctx.clock.now())
    // Lookup before the transition; then the transition.
    await expectError(await post(ctx, '/tickets/tkt_nope/requeue', '{"position":"FIRST"}', operator), 404, CounterCodes.TICKET_NOT_FOUND)
    await expectError(await post(ctx, `/tickets/${id}/requeue`, '{"position":"FIRST"}', operator), 409, CounterCodes.INVALID_TRANSITION)
  })

  test('the rate limit comes after the scope: operator requests share one window bounded by readPerMinute', async () => {
    const ctx = restricted()
    const key = ctx.key('slow-op')
    const { id } = await issued(ctx)
    await openCounter(ctx, 'cnt_1') // by the operator key: its own window
    expect((await op(ctx, 'GET', '/queue', undefined, key)).status).toBe(200)
    expect((await op(ctx, 'GET', `/tickets/${id}/events`, undefined, key)).status).toBe(200)
    // A refused request counts too (it reached the rate limit).
    await expectError(await callNextOnly(ctx, 'cnt_nope', key), 404, CounterCodes.COUNTER_NOT_FOUND)
    const limited = await callNextOnly(ctx, 'cnt_1', key)
    await expectError(limited, 429, CounterCodes.RATE_LIMITED)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // Walk-ins count against the issue window instead, which is still open.
    expect((await op(ctx, 'POST', '/tickets', { locationId: 'loc_hall', serviceId: 'svc_accounts' }, key)).status).toBe(201)
    ctx.clock.advance(60_000)
    expect((await callNextOnly(ctx, 'cnt_1', key)).status).toBe(200)
  })
})
