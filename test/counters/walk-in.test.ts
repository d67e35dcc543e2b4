import { describe, expect, test } from 'bun:test'
import { CounterCodes } from '../../src/counters/errors'
import { takeEdgeAuthority } from '../../src/queue/edge'
import { expectError, issue, type QueueTestContext } from '../queue/helpers'
import { counterContext, ok, eventsOf, webhookTypes, snapshot, stats, revision, OP, HALL_ACCOUNTS, jsonOf } from './helpers'

function walkIn(ctx: QueueTestContext, body: unknown = HALL_ACCOUNTS, headers: Record<string, string> = {}, raw?: string) {
  return ctx.app.handle(new Request(`http://localhost${OP}/tickets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.key('operator')}`, 'content-type': 'application/json', ...headers },
    body: raw ?? JSON.stringify(body),
  }))
}

describe('POST tickets (walk-in at a counter)', () => {
  test('issues a WAITING ticket with source OPERATOR, its created event and ticket.created, in the shared numbering', async () => {
    const ctx = counterContext()
    const before = revision(ctx)
    const res = await walkIn(ctx, { ...HALL_ACCOUNTS, externalReference: 'desk-7' })
    expect(res.status).toBe(201)
    const { data } = await jsonOf(res)
    expect(data).toMatchObject({ ticketNumber: 'A001', status: 'WAITING', source: 'OPERATOR', externalReference: 'desk-7', locationId: 'loc_hall', serviceId: 'svc_accounts' })
    expect(res.headers.get('location')).toBe(`/api/public/v1/queue/tickets/${data.id}`)
    expect(res.headers.get('idempotent-replayed')).toBeNull()
    const [created] = eventsOf(ctx, data.id)
    expect(created).toMatchObject({ type: 'created', to_status: 'WAITING', actor: `key:${ctx.deps.credentials.authenticate(ctx.key('operator'), 'queue', ctx.clock.now())!.id}` })
    expect(JSON.parse(created!.detail)).toEqual({ source: 'OPERATOR' })
    expect(webhookTypes(ctx, data.id)).toEqual(['ticket.created'])
    expect(stats(ctx, 'svc_accounts').waiting).toBe(1)
    expect(revision(ctx)).toBe(before + 1)
    // The public issue continues the same day's sequence.
    expect((await jsonOf(await issue(ctx, ctx.key('all')))).data.ticketNumber).toBe('A002')
  })

  test('needs no timestamp, nonce or Idempotency-Key; without a key every request is a new ticket', async () => {
    const ctx = counterContext()
    const a = await ok(walkIn(ctx), 201)
    const b = await ok(walkIn(ctx), 201)
    expect([a.ticketNumber, b.ticketNumber]).toEqual(['A001', 'A002'])
  })

  test('an Idempotency-Key makes a retry return the original ticket; another body with it is 409', async () => {
    const ctx = counterContext()
    const first = await walkIn(ctx, HALL_ACCOUNTS, { 'idempotency-key': 'walkin-1' })
    const text = await first.text()
    const before = snapshot(ctx)
    const again = await walkIn(ctx, { serviceId: 'svc_accounts', locationId: 'loc_hall' }, { 'idempotency-key': 'walkin-1' })
    expect(again.status).toBe(201)
    expect(await again.text()).toBe(text)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.headers.get('location')).toBe(first.headers.get('location'))
    expect(snapshot(ctx)).toEqual(before)
    await expectError(await walkIn(ctx, { locationId: 'loc_hall', serviceId: 'svc_loans' }, { 'idempotency-key': 'walkin-1' }), 409, CounterCodes.IDEMPOTENCY_KEY_REUSED)
    // Walk-in keys and public issue keys never meet, even with the same key string and key.
    const ops = counterContext((doc) => {
      doc.workspaces[0]!.queueUnits![0]!.apiKeys!.push({ name: 'both', scopes: ['counter:operate', 'tickets:write'] })
    })
    const both = ops.key('both')
    const walk = await ops.app.handle(new Request(`http://localhost${OP}/tickets`, {
      method: 'POST', headers: { authorization: `Bearer ${both}`, 'content-type': 'application/json', 'idempotency-key': 'shared-key-0001' }, body: JSON.stringify(HALL_ACCOUNTS),
    }))
    const pub = await issue(ops, both, HALL_ACCOUNTS, { idempotencyKey: 'shared-key-0001' })
    expect((await jsonOf(walk)).data.ticketNumber).toBe('A001')
    expect((await jsonOf(pub)).data.ticketNumber).toBe('A002')
  })

  test('headers (Content-Type, Idempotency-Key bounds) → JSON → schema → Edge authority → location and service', async () => {
    const ctx = counterContext()
    const before = snapshot(ctx)
    const bad = await expectError(await walkIn(ctx, HALL_ACCOUNTS, { 'content-type': 'text/plain', 'idempotency-key': 'k'.repeat(161) }), 400, CounterCodes.INVALID_REQUEST)
    expect(bad.error.details.map((d: { path: string }) => d.path)).toEqual(['Content-Type', 'Idempotency-Key'])
    await expectError(await walkIn(ctx, undefined, {}, ''), 400, CounterCodes.INVALID_JSON)
    await expectError(await walkIn(ctx, { locationId: 'loc_hall' }), 422, CounterCodes.VALIDATION_FAILED)
    takeEdgeAuthority(ctx.db, 'qu_main', 'edge', null, ctx.clock.now())
    await expectError(await walkIn(ctx, { locationId: 'loc_nope', serviceId: 'svc_accounts' }), 409, CounterCodes.QUEUE_UNIT_EDGE_MANAGED)
    ctx.db.$client.exec("UPDATE queue_units SET edge_holder = NULL WHERE id = 'qu_main'")
    await expectError(await walkIn(ctx, { locationId: 'loc_nope', serviceId: 'svc_accounts' }), 422, CounterCodes.VALIDATION_FAILED)
    expect(snapshot(ctx)).toEqual(before)
  })
})
