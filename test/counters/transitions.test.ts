import { describe, expect, test } from 'bun:test'
import { CounterCodes } from '../../src/counters/errors'
import { TICKET_ACTIONS, TRANSITIONS } from '../../src/tickets/transitions'
import { TICKET_STATUSES } from '../../src/queue/model'
import { expectError, type QueueTestContext } from '../queue/helpers'
import {
  counterContext, issued, ok, act, callNext, op, ticketRow, eventsOf, deliveriesOf, webhookTypes, snapshot, revision,
  callNextOnly, openCounter,
} from './helpers'

const T0 = Date.parse('2026-11-25T09:30:00.000Z')

/** Puts a fresh ticket into `status` through the API; returns its ID. */
async function ticketIn(ctx: QueueTestContext, status: string): Promise<string> {
  const { id } = await issued(ctx)
  if (status === 'WAITING') return id
  if (status === 'CANCELLED') {
    await ok(act(ctx, id, 'cancel'))
    return id
  }
  await ok(act(ctx, id, 'call', { counterId: 'cnt_1' }))
  if (status === 'CALLED') return id
  if (status === 'NO_SHOW') {
    await ok(act(ctx, id, 'no-show'))
    return id
  }
  await ok(act(ctx, id, 'start'))
  if (status === 'SERVING') return id
  await ok(act(ctx, id, 'complete'))
  return id
}

/** The body each action needs. */
const BODIES: Record<string, unknown> = {
  call: { counterId: 'cnt_2' },
  requeue: { position: 'LAST' },
  transfer: { serviceId: 'svc_loans' },
  reinstate: { position: 'FIRST' },
}

describe('ticket lifecycle: every legal transition', () => {
  test('a ticket walks call → recall → start → transfer → call-next → requeue FIRST → call → no-show, each with its event and webhook', async () => {
    const ctx = counterContext()
    const operator = ctx.deps.credentials.authenticate(ctx.key('operator'), 'queue', ctx.clock.now())!
    const { id, ticketNumber } = await issued(ctx)

    ctx.clock.advance(1000)
    const called = await ok(act(ctx, id, 'call', { counterId: 'cnt_1' }))
    expect(called).toMatchObject({ status: 'CALLED', calledAt: new Date(T0 + 1000).toISOString(), servingAt: null, completedAt: null })
    expect(ticketRow(ctx, id)).toMatchObject({ counter_id: 'cnt_1', call_count: 1 })

    ctx.clock.advance(1000)
    const recalled = await ok(act(ctx, id, 'recall'))
    expect(recalled).toMatchObject({ status: 'CALLED', calledAt: new Date(T0 + 1000).toISOString() })
    expect(ticketRow(ctx, id).call_count).toBe(2)

    ctx.clock.advance(1000)
    const serving = await ok(act(ctx, id, 'start'))
    expect(serving).toMatchObject({ status: 'SERVING', servingAt: new Date(T0 + 3000).toISOString() })

    ctx.clock.advance(1000)
    const moved = await ok(act(ctx, id, 'transfer', { serviceId: 'svc_loans' }))
    expect(moved).toMatchObject({ status: 'WAITING', serviceId: 'svc_loans', ticketNumber, calledAt: null, servingAt: null })
    expect(ticketRow(ctx, id).counter_id).toBeNull()

    ctx.clock.advance(1000)
    expect(await ok(callNext(ctx, 'cnt_1'))).toMatchObject({ id, status: 'CALLED', serviceId: 'svc_loans' })

    ctx.clock.advance(1000)
    expect(await ok(act(ctx, id, 'requeue', { position: 'FIRST' }))).toMatchObject({ status: 'WAITING', calledAt: null })

    ctx.clock.advance(1000)
    await ok(act(ctx, id, 'call', { counterId: 'cnt_1' }))
    ctx.clock.advance(1000)
    expect(await ok(act(ctx, id, 'no-show'))).toMatchObject({ status: 'NO_SHOW', completedAt: new Date(T0 + 8000).toISOString() })

    // Stored as `type:id` (contract §16): both callers are keys, by credential ID.
    const byOperator = `key:${operator.id}`
    const events = eventsOf(ctx, id).map((e) => [e.type, e.from_status, e.to_status, e.counter_id, e.actor, e.at - T0])
    expect(events).toEqual([
      ['created', null, 'WAITING', null, `key:${ctx.deps.credentials.authenticate(ctx.key('all'), 'queue', T0)!.id}`, 0],
      ['called', 'WAITING', 'CALLED', 'cnt_1', byOperator, 1000],
      ['recalled', 'CALLED', 'CALLED', 'cnt_1', byOperator, 2000],
      ['serving', 'CALLED', 'SERVING', 'cnt_1', byOperator, 3000],
      ['transferred', 'SERVING', 'WAITING', 'cnt_1', byOperator, 4000],
      ['called', 'WAITING', 'CALLED', 'cnt_1', byOperator, 5000],
      ['requeued', 'CALLED', 'WAITING', 'cnt_1', byOperator, 6000],
      ['called', 'WAITING', 'CALLED', 'cnt_1', byOperator, 7000],
      ['no_show', 'CALLED', 'NO_SHOW', 'cnt_1', byOperator, 8000],
    ])
    expect(JSON.parse(eventsOf(ctx, id)[4]!.detail)).toEqual({ fromServiceId: 'svc_accounts', toServiceId: 'svc_loans', position: 'LAST' })
    expect(JSON.parse(eventsOf(ctx, id)[6]!.detail)).toEqual({ position: 'FIRST' })
    expect(webhookTypes(ctx, id)).toEqual([
      'ticket.created', 'ticket.called', 'ticket.recalled', 'ticket.serving', 'ticket.transferred',
      'ticket.called', 'ticket.requeued', 'ticket.called', 'ticket.no_show',
    ])
    // Each webhook body carries the ticket as it was right after that change.
    const bodies = deliveriesOf(ctx, id).map((d) => JSON.parse(d.body))
    expect(bodies.map((b) => b.data.status)).toEqual(['WAITING', 'CALLED', 'CALLED', 'SERVING', 'WAITING', 'CALLED', 'WAITING', 'CALLED', 'NO_SHOW'])
    expect(bodies[3]).toMatchObject({ type: 'ticket.serving', createdAt: new Date(T0 + 3000).toISOString(), data: { id, ticketId: id, servingAt: new Date(T0 + 3000).toISOString() } })
    // Contract §16: each body names who made the change, as an object.
    expect(bodies.map((b) => b.actor)).toEqual([
      { type: 'key', id: ctx.deps.credentials.authenticate(ctx.key('all'), 'queue', T0)!.id },
      ...Array.from({ length: 8 }, () => ({ type: 'key', id: operator.id })),
    ])
  })

  test('start → complete and cancel, with their timestamps, events and webhooks', async () => {
    const ctx = counterContext()
    const a = await issued(ctx)
    const b = await issued(ctx)
    await ok(act(ctx, a.id, 'call', { counterId: 'cnt_1' }))
    await ok(act(ctx, a.id, 'start'))
    ctx.clock.advance(90_000)
    expect(await ok(act(ctx, a.id, 'complete'))).toMatchObject({ status: 'COMPLETED', completedAt: new Date(T0 + 90_000).toISOString() })
    expect(await ok(act(ctx, b.id, 'cancel'))).toMatchObject({ status: 'CANCELLED', completedAt: new Date(T0 + 90_000).toISOString() })
    expect(eventsOf(ctx, a.id).map((e) => e.type)).toEqual(['created', 'called', 'serving', 'completed'])
    expect(eventsOf(ctx, b.id).map((e) => [e.type, e.from_status, e.to_status, e.counter_id])).toEqual([
      ['created', null, 'WAITING', null],
      ['cancelled', 'WAITING', 'CANCELLED', null],
    ])
    expect(webhookTypes(ctx, a.id)).toEqual(['ticket.created', 'ticket.called', 'ticket.serving', 'ticket.completed'])
    expect(webhookTypes(ctx, b.id)).toEqual(['ticket.created', 'ticket.cancelled'])
  })

  test('GET tickets/{id}/events lists the history with who, when and where', async () => {
    const ctx = counterContext()
    const { id, ticketNumber } = await issued(ctx)
    await ok(act(ctx, id, 'call', { counterId: 'cnt_2' }))
    const history = await ok(op(ctx, 'GET', `/tickets/${id}/events`))
    const operator = ctx.deps.credentials.authenticate(ctx.key('operator'), 'queue', ctx.clock.now())!
    const issuer = ctx.deps.credentials.authenticate(ctx.key('all'), 'queue', ctx.clock.now())!
    expect(history).toEqual({
      ticketId: id,
      ticketNumber,
      events: [
        { id: expect.any(Number), type: 'created', fromStatus: null, toStatus: 'WAITING', counterId: null, actor: { type: 'key', id: issuer.id }, at: new Date(T0).toISOString(), detail: { source: 'API' } },
        { id: expect.any(Number), type: 'called', fromStatus: 'WAITING', toStatus: 'CALLED', counterId: 'cnt_2', actor: { type: 'key', id: operator.id }, at: new Date(T0).toISOString(), detail: null },
      ],
    })
    await expectError(await op(ctx, 'GET', '/tickets/tkt_nope/events'), 404, CounterCodes.TICKET_NOT_FOUND)
  })
})

describe('every illegal transition is 409 INVALID_TRANSITION and writes nothing', () => {
  const cases = TICKET_STATUSES.flatMap((status) => TICKET_ACTIONS.map((action) => ({ status, action, legal: TRANSITIONS[action].from.includes(status) })))

  test('the table covers all 6 statuses × 9 actions, 10 of them legal', () => {
    expect(cases).toHaveLength(54)
    expect(cases.filter((c) => c.legal)).toHaveLength(10)
  })

  for (const { status, action, legal } of cases) {
    test(`${action} on a ${status} ticket → ${legal ? TRANSITIONS[action].to : '409 INVALID_TRANSITION'}`, async () => {
      const ctx = counterContext()
      const id = await ticketIn(ctx, status)
      const before = snapshot(ctx)
      const res = await act(ctx, id, action, BODIES[action])
      if (legal) {
        expect((await ok(res)).status).toBe(TRANSITIONS[action].to)
        expect(revision(ctx)).toBe(before.revision + 1)
        expect(snapshot(ctx).events).toBe(before.events + 1)
        expect(snapshot(ctx).deliveries).toBe(before.deliveries + 1)
        return
      }
      const body = await expectError(res, 409, CounterCodes.INVALID_TRANSITION)
      const to = TRANSITIONS[action].to
      expect(body.error.message).toContain(`${status} → ${to}`)
      expect(body.error.details).toEqual([{ path: '/from', message: status }, { path: '/to', message: to }])
      expect(snapshot(ctx)).toEqual(before)
    })
  }
})

describe('the change, its event and its webhook row commit together', () => {
  test('a failing outbox write rolls the transition back: no ticket change, no event, no revision', async () => {
    const ctx = counterContext()
    const { id } = await issued(ctx)
    await openCounter(ctx, 'cnt_1')
    ctx.db.$client.exec("CREATE TRIGGER outbox_down BEFORE INSERT ON webhook_deliveries BEGIN SELECT RAISE(ABORT, 'outbox down'); END")
    const before = snapshot(ctx)
    expect((await act(ctx, id, 'call', { counterId: 'cnt_1' })).status).toBe(500)
    expect((await callNextOnly(ctx, 'cnt_1')).status).toBe(500)
    expect(snapshot(ctx)).toEqual(before)
  })

  test('a failing event write rolls the transition back, outbox row included', async () => {
    const ctx = counterContext()
    const { id } = await issued(ctx)
    ctx.db.$client.exec("CREATE TRIGGER history_down BEFORE INSERT ON ticket_events BEGIN SELECT RAISE(ABORT, 'history down'); END")
    const before = snapshot(ctx)
    expect((await act(ctx, id, 'cancel')).status).toBe(500)
    expect(snapshot(ctx)).toEqual(before)
  })
})
