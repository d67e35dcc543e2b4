import { afterEach, describe, expect, test } from 'bun:test'
import { WebhookWorker } from '../../src/webhooks/worker'
import { verifySignature } from '../../src/webhooks/signature'
import { DailyClose } from '../../src/counters/daily-close'
import { TICKET_EVENT_TYPES } from '../../src/webhooks/outbox'
import { counterContext, issued, ok, act, callNext, mainUnit } from './helpers'

/** A webhook receiver on 127.0.0.1. */
function receiver() {
  const received: { headers: Headers; body: string }[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      received.push({ headers: req.headers, body: await req.text() })
      return new Response(null, { status: 204 })
    },
  })
  return { received, url: `http://127.0.0.1:${server.port}/hooks`, stop: () => server.stop(true) }
}

const receivers: ReturnType<typeof receiver>[] = []
afterEach(() => receivers.splice(0).forEach((r) => r.stop()))

describe('ticket events reach a webhook receiver, signed and in order', () => {
  test('every transition of the operator API and the daily close arrives as its ticket.* event with the ticket of that moment', async () => {
    const hook = receiver()
    receivers.push(hook)
    const ctx = counterContext((doc) => {
      mainUnit(doc).webhooks = [{ id: 'whk_crm', url: hook.url, events: [...TICKET_EVENT_TYPES] }]
    })
    const secret = ctx.provisioned.secret('webhook', 'whk_crm', 'whk_crm')
    const worker = new WebhookWorker({ db: ctx.db, clock: ctx.clock, log: () => {}, random: () => 0.5 })

    const a = await issued(ctx)
    await ok(callNext(ctx, 'cnt_1'))
    await ok(act(ctx, a.id, 'recall'))
    await ok(act(ctx, a.id, 'start'))
    await ok(act(ctx, a.id, 'transfer', { serviceId: 'svc_loans' }))
    await ok(act(ctx, a.id, 'call', { counterId: 'cnt_1' }))
    await ok(act(ctx, a.id, 'requeue', { position: 'LAST' }))
    await ok(act(ctx, a.id, 'call', { counterId: 'cnt_1' }))
    await ok(act(ctx, a.id, 'start'))
    await ok(act(ctx, a.id, 'complete'))
    const b = await issued(ctx)
    await ok(act(ctx, b.id, 'call', { counterId: 'cnt_2' }))
    await ok(act(ctx, b.id, 'no-show'))
    await ok(act(ctx, b.id, 'reinstate', { position: 'FIRST' }))
    await ok(act(ctx, b.id, 'call', { counterId: 'cnt_2' }))
    await ok(act(ctx, b.id, 'no-show'))
    const c = await issued(ctx)
    await ok(act(ctx, c.id, 'cancel'))
    const d = await issued(ctx)
    ctx.clock.set('2026-11-25T23:00:00.000Z')
    new DailyClose(ctx.deps).runDue(ctx.clock.now())

    while ((await worker.tick()) > 0) { /* drain: one delivery per ticket per pass, in order */ }
    const events = hook.received.map((r) => {
      expect(verifySignature(secret, r.headers.get('lobby-signature')!, r.body, Math.floor(ctx.clock.now() / 1000))).toBe(true)
      const event = JSON.parse(r.body)
      expect(r.headers.get('lobby-event')).toBe(event.type)
      return event as { type: string; data: { id: string; status: string } }
    })
    const of = (id: string) => events.filter((e) => e.data.id === id).map((e) => `${e.type}:${e.data.status}`)
    // Contract §20: each was near its turn as it was issued (the line is short): approaching once, no more.
    expect(of(a.id)).toEqual([
      'ticket.created:WAITING', 'ticket.approaching:WAITING', 'ticket.called:CALLED', 'ticket.recalled:CALLED', 'ticket.serving:SERVING',
      'ticket.transferred:WAITING', 'ticket.called:CALLED', 'ticket.requeued:WAITING', 'ticket.called:CALLED',
      'ticket.serving:SERVING', 'ticket.completed:COMPLETED',
    ])
    expect(of(b.id)).toEqual([
      'ticket.created:WAITING', 'ticket.approaching:WAITING', 'ticket.called:CALLED', 'ticket.no_show:NO_SHOW',
      'ticket.reinstated:WAITING', 'ticket.called:CALLED', 'ticket.no_show:NO_SHOW',
    ])
    expect(of(c.id)).toEqual(['ticket.created:WAITING', 'ticket.approaching:WAITING', 'ticket.cancelled:CANCELLED'])
    expect(of(d.id)).toEqual(['ticket.created:WAITING', 'ticket.approaching:WAITING', 'ticket.cancelled:CANCELLED'])
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(TICKET_EVENT_TYPES))
  })

  test('an endpoint receives only the events it subscribed to', async () => {
    const ctx = counterContext((doc) => {
      mainUnit(doc).webhooks = [{ id: 'whk_crm', url: 'http://127.0.0.1:9/hooks', events: ['ticket.called'] }]
    })
    const a = await issued(ctx)
    await ok(callNext(ctx, 'cnt_1'))
    await ok(act(ctx, a.id, 'no-show'))
    const types = ctx.db.$client.query('SELECT event_type FROM webhook_deliveries ORDER BY rowid').all() as { event_type: string }[]
    expect(types.map((t) => t.event_type)).toEqual(['ticket.called'])
  })
})
