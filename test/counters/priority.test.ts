import { dereferencedDocument } from '../support/openapi'
import { describe, expect, test } from 'bun:test'
import { createApp } from '../../src/app'
import { createDeps } from '../../src/root/deps'
import { CounterCodes } from '../../src/counters/errors'
import { QueueCodes } from '../../src/queue/errors'
import { queueDisplayState } from '../../src/tickets/display-state'
import type { ProvisioningFile } from '../../src/provisioning/model'
import type { QueueTestContext } from '../queue/helpers'
import { expectError, get, issue, SERVICES, TICKETS } from '../queue/helpers'
import { jsonOf, request } from '../support/app'
import { asDevice, pairedCookie } from '../devices/helpers'
import { counterContext, issued, ok, act, callNext, op, ticketRow, eventsOf, deliveriesOf, mainUnit, HALL_ACCOUNTS } from './helpers'

/** The fields of the vendor spec's QueueTicket (public-api.md), in its order. */
const PUBLIC_TICKET_FIELDS = [
  'id', 'ticketId', 'ticketNumber', 'status', 'source', 'queueUnitId', 'locationId', 'serviceId',
  'externalReference', 'createdAt', 'calledAt', 'servingAt', 'completedAt',
]

const HALL_LOANS = { locationId: 'loc_hall', serviceId: 'svc_loans' }

/** A walk-in issued at a counter, `priority` or not; returns its JSON. */
async function walkIn(ctx: QueueTestContext, priority: boolean, body: { locationId: string; serviceId: string } = HALL_ACCOUNTS) {
  return ok(op(ctx, 'POST', '/tickets', priority ? { ...body, priority: true } : body), 201) as Promise<{ id: string; ticketNumber: string; priority: boolean }>
}

/** A context whose queue unit calls by INTERLEAVE with `n` normal calls per priority call. */
function interleaveContext(n: number, edit: (doc: ProvisioningFile) => void = () => {}) {
  return counterContext((doc) => {
    mainUnit(doc).priority = { mode: 'INTERLEAVE', normalPerPriority: n }
    edit(doc)
  })
}

/** Call-next at `counter`, then free the counter (no-show); returns the called ticket's number. */
async function callAndRelease(ctx: QueueTestContext, counter: string): Promise<string> {
  const called = await ok(callNext(ctx, counter))
  await ok(act(ctx, called.id, 'no-show'))
  return called.ticketNumber as string
}

async function callSequence(ctx: QueueTestContext, counter: string, count: number): Promise<(string | undefined)[]> {
  const numbers: (string | undefined)[] = []
  for (let i = 0; i < count; i++) numbers.push(await callAndRelease(ctx, counter))
  return numbers
}

/** Issues normal tickets through the public API, one second apart; returns their numbers. */
async function normals(ctx: QueueTestContext, count: number, body = HALL_ACCOUNTS): Promise<string[]> {
  const numbers: string[] = []
  for (let i = 0; i < count; i++) {
    ctx.clock.advance(1000)
    numbers.push((await issued(ctx, body)).ticketNumber)
  }
  return numbers
}

async function priorities(ctx: QueueTestContext, count: number, body = HALL_ACCOUNTS): Promise<string[]> {
  const numbers: string[] = []
  for (let i = 0; i < count; i++) {
    ctx.clock.advance(1000)
    numbers.push((await walkIn(ctx, true, body)).ticketNumber)
  }
  return numbers
}

describe('priority tickets: the walk-in flag', () => {
  test('"priority": true on a walk-in issues a priority ticket; without it (or false) a normal one', async () => {
    const ctx = counterContext()
    const p = await walkIn(ctx, true)
    expect(p).toMatchObject({ source: 'OPERATOR', status: 'WAITING', priority: true })
    expect(ticketRow(ctx, p.id).priority).toBe(1)
    expect(JSON.parse(eventsOf(ctx, p.id)[0]!.detail)).toEqual({ source: 'OPERATOR', priority: true })
    const n = await walkIn(ctx, false)
    expect(n.priority).toBe(false)
    const explicit = await ok(op(ctx, 'POST', '/tickets', { ...HALL_ACCOUNTS, priority: false }), 201)
    expect(explicit.priority).toBe(false)
    expect(ticketRow(ctx, n.id).priority).toBe(0)
  })

  test('a walk-in\'s priority is part of the idempotent payload: same body replays, the flag changed is 409', async () => {
    const ctx = counterContext()
    const headers = { 'idempotency-key': 'walk-in-key-0001' }
    const first = await op(ctx, 'POST', '/tickets', { ...HALL_ACCOUNTS, priority: true }, undefined, headers)
    expect(first.status).toBe(201)
    const again = await op(ctx, 'POST', '/tickets', { priority: true, ...HALL_ACCOUNTS }, undefined, headers)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect((await jsonOf(again)).data).toEqual((await jsonOf(first)).data)
    await expectError(await op(ctx, 'POST', '/tickets', HALL_ACCOUNTS, undefined, headers), 409, CounterCodes.IDEMPOTENCY_KEY_REUSED)
  })

  test('priority must be a boolean: 422 on /priority', async () => {
    const ctx = counterContext()
    const body = await expectError(await op(ctx, 'POST', '/tickets', { ...HALL_ACCOUNTS, priority: 'yes' }), 422, CounterCodes.VALIDATION_FAILED)
    expect(body.error.details.map((d: { path: string }) => d.path)).toEqual(['/priority'])
  })
})

describe('priority tickets: the public API is unchanged', () => {
  test('the public issue refuses a priority field (unknown property, 422) and writes nothing', async () => {
    const ctx = counterContext()
    const body = await expectError(await issue(ctx, ctx.key('all'), { ...HALL_ACCOUNTS, priority: true }), 422, QueueCodes.VALIDATION_FAILED)
    expect(body.error.details).toEqual([{ path: '/priority', message: 'unknown property', rule: 'unknownField' }])
    expect(ctx.db.$client.query('SELECT count(*) AS n FROM tickets').get()).toEqual({ n: 0 })
  })

  test('public issue and read answer exactly the vendor spec\'s fields, in its order, for priority tickets too', async () => {
    const ctx = counterContext()
    const res = await issue(ctx, ctx.key('all'), HALL_ACCOUNTS)
    const text = await res.text()
    expect(Object.keys(JSON.parse(text).data)).toEqual(PUBLIC_TICKET_FIELDS)
    expect(text).not.toContain('priority')
    const p = await walkIn(ctx, true)
    for (const id of [JSON.parse(text).data.id, p.id]) {
      const read = await get(ctx, `${TICKETS}/${id}`, ctx.key('all'))
      const readText = await read.text()
      expect(read.status).toBe(200)
      expect(Object.keys(JSON.parse(readText).data)).toEqual(PUBLIC_TICKET_FIELDS)
      expect(readText).not.toContain('priority')
    }
    // The services list and the state read keep their fields too.
    const services = await (await get(ctx, SERVICES, ctx.key('all'))).text()
    const state = await (await get(ctx, '/api/public/v1/queue/state', ctx.key('all'))).text()
    expect(services).not.toContain('priority')
    expect(state).not.toContain('priority')
  })

  test('OpenAPI: the public ticket schema has no priority; the operator ticket and walk-in body have it', async () => {
    const ctx = counterContext()
    const doc = await dereferencedDocument(ctx.app)
    const schemaOf = (path: string, method: string, status: string) => doc.paths[path][method].responses[status].content['application/json'].schema.properties.data
    // The document lists properties in name order; the fields are the public ones, no more.
    expect(Object.keys(schemaOf(TICKETS, 'post', '201').properties).sort()).toEqual([...PUBLIC_TICKET_FIELDS].sort())
    expect(Object.keys(schemaOf(`${TICKETS}/{ticketId}`, 'get', '200').properties).sort()).toEqual([...PUBLIC_TICKET_FIELDS].sort())
    expect(doc.paths[TICKETS].post.requestBody.content['application/json'].schema.properties.priority).toBeUndefined()
    expect(schemaOf('/api/operator/v1/counters/{counterId}/call-next', 'post', '200').properties.priority.type).toBe('boolean')
    expect(doc.paths['/api/operator/v1/tickets'].post.requestBody.content['application/json'].schema.properties.priority.type).toBe('boolean')
  })
})

describe('priority tickets: mode FIRST (the default)', () => {
  test('a waiting priority ticket is called before every normal one, older ones included; then the normal ones oldest first', async () => {
    const ctx = counterContext()
    const [a1, a2] = await normals(ctx, 2)
    const [p1, p2] = await priorities(ctx, 2)
    const [a5] = await normals(ctx, 1)
    expect(await callSequence(ctx, 'cnt_2', 5)).toEqual([p1, p2, a1, a2, a5])
  })

  test('across a counter\'s services: a priority loans ticket goes before an older normal accounts ticket', async () => {
    const ctx = counterContext()
    const [a1] = await normals(ctx, 1)
    const [l1] = await normals(ctx, 1, HALL_LOANS)
    const [lp] = await priorities(ctx, 1, HALL_LOANS)
    expect(await callSequence(ctx, 'cnt_1', 3)).toEqual([lp!, a1!, l1!])
  })

  test('requeued-FIRST tickets come before priority ones; a priority ticket requeued LAST stays ahead of normal ones', async () => {
    const ctx = counterContext()
    const [a1, a2] = await normals(ctx, 2)
    const first = await ok(callNext(ctx, 'cnt_2'))
    expect(first.ticketNumber).toBe(a1)
    const [p1] = await priorities(ctx, 1)
    await ok(act(ctx, first.id, 'requeue', { position: 'FIRST' }))
    expect(ticketRow(ctx, first.id).front).toBe(1)
    const again = await ok(callNext(ctx, 'cnt_2'))
    expect(again.ticketNumber).toBe(a1)
    expect(ticketRow(ctx, again.id).front).toBe(0)
    await ok(act(ctx, again.id, 'no-show'))
    const p = await ok(callNext(ctx, 'cnt_2'))
    expect(p).toMatchObject({ ticketNumber: p1, priority: true })
    await ok(act(ctx, p.id, 'requeue', { position: 'LAST' }))
    expect(ticketRow(ctx, p.id).front).toBe(0)
    expect(await callSequence(ctx, 'cnt_2', 2)).toEqual([p1, a2])
  })

  test('calling a specific normal ticket while priority tickets wait is allowed and calls that one', async () => {
    const ctx = counterContext()
    const a1 = await issued(ctx)
    await priorities(ctx, 1)
    const called = await ok(act(ctx, a1.id, 'call', { counterId: 'cnt_2' }))
    expect(called).toMatchObject({ id: a1.id, status: 'CALLED', priority: false })
  })
})

describe('priority tickets: mode INTERLEAVE', () => {
  test('at most N normal calls between two priority calls while priority tickets wait', async () => {
    const ctx = interleaveContext(2)
    const a = await normals(ctx, 6)
    const p = await priorities(ctx, 2)
    expect(await callSequence(ctx, 'cnt_2', 8)).toEqual([a[0], a[1], p[0], a[2], a[3], p[1], a[4], a[5]])
  })

  test('a priority ticket older than the normal ones is called first: priority never waits longer than without it', async () => {
    const ctx = interleaveContext(3)
    const [p1] = await priorities(ctx, 1)
    const a = await normals(ctx, 2)
    const [p2] = await priorities(ctx, 1)
    expect(await callSequence(ctx, 'cnt_2', 4)).toEqual([p1, a[0], a[1], p2])
  })

  test('each counter keeps its own count; the count is stored and survives a restart', async () => {
    const ctx = interleaveContext(2)
    const a = await normals(ctx, 6)
    const [p1] = await priorities(ctx, 1)
    expect(await callSequence(ctx, 'cnt_1', 2)).toEqual([a[0], a[1]])
    expect(await callSequence(ctx, 'cnt_2', 1)).toEqual([a[2]])
    const counts = () => ctx.db.$client.query('SELECT counter_id AS counter, normal_calls AS n FROM counter_call_streaks ORDER BY counter_id').all()
    expect(counts()).toEqual([{ counter: 'cnt_1', n: 2 }, { counter: 'cnt_2', n: 1 }])
    // A new app over the same database (a restart): cnt_2 is still at 1, cnt_1 at 2.
    let n = 0
    const restarted = { ...ctx, app: createApp(createDeps({ db: ctx.db, clock: ctx.clock, ids: { next: (prefix: string) => `${prefix}restart${++n}` }, log: () => {} })) }
    expect(await callSequence(restarted, 'cnt_2', 1)).toEqual([a[3]])
    expect(await callSequence(restarted, 'cnt_1', 1)).toEqual([p1])
    expect(counts()).toEqual([{ counter: 'cnt_1', n: 0 }, { counter: 'cnt_2', n: 2 }])
  })

  test('requeued-FIRST tickets precede a priority ticket that is due', async () => {
    const ctx = interleaveContext(1)
    const a = await normals(ctx, 3)
    await priorities(ctx, 1)
    const called = await ok(callNext(ctx, 'cnt_2'))
    expect(called.ticketNumber).toBe(a[0])
    await ok(act(ctx, called.id, 'requeue', { position: 'FIRST' }))
    // The count is 1 = N, so a priority ticket is due; the requeued one still goes first.
    expect((await ok(callNext(ctx, 'cnt_2'))).ticketNumber).toBe(a[0])
  })

  test('a specific call counts: a normal one adds 1, a priority one sets the count to 0', async () => {
    const ctx = interleaveContext(2)
    const a1 = await issued(ctx)
    const a2 = await issued(ctx)
    const p1 = await walkIn(ctx, true)
    await ok(act(ctx, a2.id, 'call', { counterId: 'cnt_2' }))
    await ok(act(ctx, a2.id, 'no-show'))
    expect(ctx.db.$client.query("SELECT normal_calls AS n FROM counter_call_streaks WHERE counter_id = 'cnt_2'").get()).toEqual({ n: 1 })
    await ok(act(ctx, p1.id, 'call', { counterId: 'cnt_2' }))
    expect(ctx.db.$client.query("SELECT normal_calls AS n FROM counter_call_streaks WHERE counter_id = 'cnt_2'").get()).toEqual({ n: 0 })
    await ok(act(ctx, p1.id, 'no-show'))
    expect((await ok(callNext(ctx, 'cnt_2'))).id).toBe(a1.id)
  })
})

describe('priority tickets: transfer', () => {
  test('a transferred priority ticket keeps its priority and goes before the target line\'s older normal tickets', async () => {
    const ctx = counterContext()
    const [l1] = await normals(ctx, 1, HALL_LOANS)
    const p = await walkIn(ctx, true)
    expect((await ok(callNext(ctx, 'cnt_2'))).id).toBe(p.id)
    const moved = await ok(act(ctx, p.id, 'transfer', { serviceId: 'svc_loans' }))
    expect(moved).toMatchObject({ serviceId: 'svc_loans', status: 'WAITING', priority: true })
    expect(ticketRow(ctx, p.id)).toMatchObject({ priority: 1, front: 0 })
    const transferred = deliveriesOf(ctx, p.id).find((d) => d.event_type === 'ticket.transferred')!
    expect(JSON.parse(transferred.body).data.priority).toBe(true)
    expect(await callSequence(ctx, 'cnt_1', 2)).toEqual([p.ticketNumber, l1])
  })

  test('transferred FIRST joins the front: before the target line\'s priority tickets', async () => {
    const ctx = counterContext()
    const a = await issued(ctx)
    const [lp] = await priorities(ctx, 1, HALL_LOANS)
    await ok(act(ctx, a.id, 'call', { counterId: 'cnt_2' }))
    await ok(act(ctx, a.id, 'transfer', { serviceId: 'svc_loans', position: 'FIRST' }))
    expect(await callSequence(ctx, 'cnt_1', 2)).toEqual([a.ticketNumber, lp])
  })
})

describe('priority tickets: wait estimates count the tickets really called ahead', () => {
  const place = (ctx: QueueTestContext, id: string) => ctx.deps.tickets.placeInLine(ctx.deps.tickets.byId(id)!)

  test('FIRST: a priority ticket counts only priority tickets (and requeued-FIRST ones) ahead; a normal one counts them all', async () => {
    const ctx = counterContext()
    await ok(op(ctx, 'POST', '/counters/cnt_2/open'))
    const n1 = await issued(ctx)
    const n2 = await issued(ctx)
    const n3 = await issued(ctx)
    const p1 = await walkIn(ctx, true)
    const p2 = await walkIn(ctx, true)
    // One open counter (cnt_2) serves accounts and holds nothing; no completion yet: 300 s per
    // ticket (contract §19: the free counter takes the first ticket now, so 0 with nobody ahead).
    expect(place(ctx, p1.id)).toEqual({ ahead: 0, estimatedWaitSeconds: 0, noCounterOpen: false, counterFree: true })
    expect(place(ctx, p2.id)).toEqual({ ahead: 1, estimatedWaitSeconds: 300, noCounterOpen: false, counterFree: true })
    expect(place(ctx, n1.id)).toEqual({ ahead: 2, estimatedWaitSeconds: 600, noCounterOpen: false, counterFree: true })
    expect(place(ctx, n3.id)).toEqual({ ahead: 4, estimatedWaitSeconds: 1200, noCounterOpen: false, counterFree: true })
    expect(ctx.deps.tickets.placeForNew('qu_main', 'svc_accounts', 'loc_hall', true)).toEqual({ ahead: 2, estimatedWaitSeconds: 600, noCounterOpen: false, counterFree: true })
    expect(ctx.deps.tickets.placeForNew('qu_main', 'svc_accounts', 'loc_hall', false)).toEqual({ ahead: 5, estimatedWaitSeconds: 1500, noCounterOpen: false, counterFree: true })
    // The line's estimate (services list, display) is for a normal ticket issued now: everyone waits ahead.
    const line = ctx.deps.tickets.lines('qu_main', true).find((l) => l.id === 'svc_accounts' && l.locationId === 'loc_hall')!
    expect(line).toMatchObject({ waiting: 5, estimatedWaitSeconds: 1500, noCounterOpen: false })
    // A requeued-FIRST ticket is ahead of the priority ones.
    await ok(act(ctx, n2.id, 'call', { counterId: 'cnt_1' }))
    await ok(act(ctx, n2.id, 'requeue', { position: 'FIRST' }))
    expect(place(ctx, n2.id)!.ahead).toBe(0)
    expect(place(ctx, p1.id)!.ahead).toBe(1)
    expect(place(ctx, n1.id)!.ahead).toBe(3)
    // cnt_1 opened by its call: two free open counters for accounts now, 4 tickets ahead: 2 each.
    expect(place(ctx, n3.id)).toEqual({ ahead: 4, estimatedWaitSeconds: 600, noCounterOpen: false, counterFree: true })
    expect(ctx.deps.tickets.placeInLine({ ...ctx.deps.tickets.byId(n1.id)!, status: 'CALLED' })).toBeNull()
  })

  test('INTERLEAVE: the estimate follows the interleaving', async () => {
    const ctx = interleaveContext(2)
    const n = [await issued(ctx), await issued(ctx), await issued(ctx), await issued(ctx)]
    const p1 = await walkIn(ctx, true)
    const p2 = await walkIn(ctx, true)
    // Call order: n0 n1 p1 n2 n3 p2.
    expect([p1, p2, ...n].map((t) => place(ctx, t.id)!.ahead)).toEqual([2, 5, 0, 1, 3, 4])
    // No counter open: one counter is assumed, busy for one average (contract §19).
    expect(place(ctx, p2.id)).toMatchObject({ estimatedWaitSeconds: 6 * 300, noCounterOpen: true })
    expect(ctx.deps.tickets.placeForNew('qu_main', 'svc_accounts', 'loc_hall', true).ahead).toBe(6)
    expect(ctx.deps.tickets.placeForNew('qu_main', 'svc_accounts', 'loc_hall', false).ahead).toBe(6)
  })
})

describe('priority in the operator API, webhooks and the display state', () => {
  test('GET queue lists each line in call order with priority on every ticket', async () => {
    const ctx = counterContext()
    const a = await normals(ctx, 2)
    const [p1] = await priorities(ctx, 1)
    const overview = await ok(op(ctx, 'GET', '/queue'))
    const line = overview.services.find((s: { id: string; locationId: string }) => s.id === 'svc_accounts' && s.locationId === 'loc_hall')
    expect(line.tickets.map((t: { ticketNumber: string; priority: boolean }) => [t.ticketNumber, t.priority])).toEqual([[p1, true], [a[0], false], [a[1], false]])
  })

  test('GET queue under INTERLEAVE shows the interleaved order', async () => {
    const ctx = interleaveContext(1)
    const a = await normals(ctx, 3)
    const p = await priorities(ctx, 2)
    const overview = await ok(op(ctx, 'GET', '/queue'))
    const line = overview.services.find((s: { id: string; locationId: string }) => s.id === 'svc_accounts' && s.locationId === 'loc_hall')
    expect(line.tickets.map((t: { ticketNumber: string }) => t.ticketNumber)).toEqual([a[0], p[0], a[1], p[1], a[2]])
  })

  test('every webhook payload carries priority', async () => {
    const ctx = counterContext()
    const p = await walkIn(ctx, true)
    const n = await issued(ctx)
    await ok(callNext(ctx, 'cnt_2'))
    const payloads = (id: string) => deliveriesOf(ctx, id).map((d) => [d.event_type, JSON.parse(d.body).data.priority])
    expect(payloads(p.id)).toEqual([['ticket.created', true], ['ticket.called', true]])
    expect(payloads(n.id)).toEqual([['ticket.created', false]])
  })

  test('the display state marks priority in now serving and recent calls', async () => {
    const ctx = counterContext()
    await issued(ctx)
    await walkIn(ctx, true)
    await ok(callNext(ctx, 'cnt_2'))
    const state = queueDisplayState(ctx.deps, 'qu_main', 'ws_demo')!
    const line = state.services.find((s) => s.id === 'svc_accounts' && s.locationId === 'loc_hall')!
    expect(line.nowServing).toMatchObject({ number: 'A002', priority: true })
    expect(state.recentCalls[0]).toMatchObject({ number: 'A002', priority: true })
    const held = await ok(op(ctx, 'GET', '/queue'))
    expect(held.counters.find((c: { id: string }) => c.id === 'cnt_2').ticket).toMatchObject({ ticketNumber: 'A002', priority: true })
  })

  test('a paired desk shows its waiting tickets in call order, each with priority, and calls the priority ticket first', async () => {
    const ctx = counterContext()
    const a = await normals(ctx, 2)
    const [p1] = await priorities(ctx, 1)
    const desk = await pairedCookie(ctx, { role: 'desk', counterId: 'cnt_2' })
    const view = (await jsonOf(await asDevice(ctx, desk, 'GET', '/api/devices/v1/desk'))).data
    const accounts = view.services.find((s: { id: string }) => s.id === 'svc_accounts')
    expect(accounts.tickets.map((t: { ticketNumber: string; priority: boolean }) => [t.ticketNumber, t.priority])).toEqual([[p1, true], [a[0], false], [a[1], false]])
    await ok(asDevice(ctx, desk, 'POST', '/api/operator/v1/counters/cnt_2/open'))
    const called = await asDevice(ctx, desk, 'POST', '/api/operator/v1/counters/cnt_2/call-next')
    expect((await jsonOf(called)).data).toMatchObject({ ticketNumber: p1, priority: true })
  })
})
