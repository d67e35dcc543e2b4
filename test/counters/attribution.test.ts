import { describe, expect, test } from 'bun:test'
import { DailyClose } from '../../src/counters/daily-close'
import { CounterService } from '../../src/counters/service'
import { QueueService } from '../../src/queue/service'
import { DeviceService } from '../../src/devices/service'
import { deskCredential } from '../../src/access'
import { rebuildReportRollups } from '../../src/tickets'
import type { Credential } from '../../src/platform/credentials'
import type { QueueTestContext } from '../queue/helpers'
import { asDevice, pairedCookie } from '../devices/helpers'
import { KIOSK } from '../kiosk/helpers'
import { counterContext, issued, ok, act, callNext, op, deliveriesOf, OP, jsonOf } from './helpers'

/*
 * Contract §16 "Attribution": every ticket event and webhook names who made the change as
 * `actor: {type, id}` (stored as `type:id`, src/platform/actor.ts).
 */

/** 2026-11-25 local midnight in Berlin (UTC+1), when the example's hall closes its day. */
const BERLIN_MIDNIGHT = Date.parse('2026-11-25T23:00:00.000Z')

/** The ticket's history as the operator API shows it (with the `operator` key). */
async function historyActors(ctx: QueueTestContext, ticketId: string) {
  const history = await ok(op(ctx, 'GET', `/tickets/${ticketId}/events`))
  return (history.events as { type: string; actor: unknown }[]).map((e) => [e.type, e.actor])
}

/** The `actor` of each webhook body written for the ticket, in order. */
const webhookActors = (ctx: QueueTestContext, ticketId: string) =>
  deliveriesOf(ctx, ticketId).map((d) => [d.event_type, JSON.parse(d.body).actor])

/** The `deviceCookie`'s paired desk, as the operator API sees it (`deskCredential`). */
function deskCallerOf(ctx: QueueTestContext, deviceCookie: string): Credential {
  const secret = deviceCookie.slice('lobby_device='.length)
  const device = new DeviceService(ctx.db, ctx.deps.ids).authenticate(ctx.deps.credentials, secret, ctx.clock.now())!
  return deskCredential(device, ['svc_accounts', 'svc_loans'])
}

describe('attribution of ticket events and webhooks (contract §16)', () => {
  test('a key: its credential ID, in the events API and the webhook body', async () => {
    const ctx = counterContext()
    const issuer = ctx.deps.credentials.authenticate(ctx.key('all'), 'queue', ctx.clock.now())!
    const operator = ctx.deps.credentials.authenticate(ctx.key('operator'), 'queue', ctx.clock.now())!
    const { id } = await issued(ctx)
    await ok(callNext(ctx, 'cnt_1'))
    const byIssuer = { type: 'key', id: issuer.id }
    const byOperator = { type: 'key', id: operator.id }
    expect(await historyActors(ctx, id)).toEqual([['created', byIssuer], ['called', byOperator]])
    expect(webhookActors(ctx, id)).toEqual([['ticket.created', byIssuer], ['ticket.called', byOperator]])
  })

  test('a paired desk without a clerk: the device, by its name (a name may hold a colon)', async () => {
    const ctx = counterContext()
    const desk = await pairedCookie(ctx, { role: 'desk', counterId: 'cnt_1', name: 'hall:desk-1' })
    const { id } = await issued(ctx)
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`))
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/call-next`))
    await ok(asDevice(ctx, desk, 'POST', `${OP}/tickets/${id}/start`))
    const byDesk = { type: 'device', id: 'hall:desk-1' }
    // The desk reads its own ticket's history too.
    const history = await ok(asDevice(ctx, desk, 'GET', `${OP}/tickets/${id}/events`))
    expect(history.events.slice(1).map((e: { actor: unknown }) => e.actor)).toEqual([byDesk, byDesk])
    expect(webhookActors(ctx, id).slice(1)).toEqual([['ticket.called', byDesk], ['ticket.serving', byDesk]])
    expect(ctx.db.$client.query('SELECT actor FROM ticket_events WHERE ticket_id = ? ORDER BY id DESC LIMIT 1').get(id)).toEqual({ actor: 'device:hall:desk-1' })
  })

  test('a desk with a clerk signed in: the clerk, by username, for every change and a walk-in', async () => {
    const ctx = counterContext()
    const desk = await pairedCookie(ctx, { role: 'desk', counterId: 'cnt_1', name: 'desk-1' })
    // Desk sign-in is its own change; the service takes the credential as sign-in will set it.
    const caller: Credential = { ...deskCallerOf(ctx, desk), clerk: { userId: 'usr_alice', username: 'alice', displayName: 'Alice' } }
    const counters = new CounterService(ctx.deps, new QueueService(ctx.deps))
    const { id } = await issued(ctx)
    const now = ctx.clock.now()
    counters.openCounter(caller, 'cnt_1', now)
    counters.callNext(caller, 'cnt_1', now)
    counters.transition(caller, id, 'start', now)
    counters.transfer(caller, id, 'svc_loans', 'FIRST', now)
    const walkIn = counters.walkIn(caller, null, { locationId: 'loc_hall', serviceId: 'svc_accounts' }, now)
    const alice = { type: 'clerk', id: 'alice' }
    expect((await historyActors(ctx, id)).slice(1)).toEqual([['called', alice], ['serving', alice], ['transferred', alice]])
    expect(webhookActors(ctx, id).slice(1)).toEqual([['ticket.called', alice], ['ticket.serving', alice], ['ticket.transferred', alice]])
    const walkInId = (JSON.parse(walkIn.body) as { data: { id: string } }).data.id
    expect(await historyActors(ctx, walkInId)).toEqual([['created', alice]])
    expect(webhookActors(ctx, walkInId)).toEqual([['ticket.created', alice]])
  })

  test('a kiosk: the device, by its name, on the created event and ticket.created', async () => {
    const ctx = counterContext()
    const kiosk = await pairedCookie(ctx, { role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_hall', name: 'kiosk-entrance' })
    const response = await asDevice(ctx, kiosk, 'POST', `${KIOSK}/tickets`, { serviceId: 'svc_accounts' }, { 'idempotency-key': 'tap-attribution' })
    expect(response.status).toBe(201)
    const { id } = (await jsonOf(response)).data.ticket
    const byKiosk = { type: 'device', id: 'kiosk-entrance' }
    expect(await historyActors(ctx, id)).toEqual([['created', byKiosk]])
    expect(webhookActors(ctx, id)).toEqual([['ticket.created', byKiosk]])
  })

  test('the daily close: system/daily-close, which still measures no service time, live or rebuilt', async () => {
    const ctx = counterContext()
    const serving = await issued(ctx)
    const waiting = await issued(ctx)
    await ok(act(ctx, serving.id, 'call', { counterId: 'cnt_1' }))
    await ok(act(ctx, serving.id, 'start'))
    ctx.clock.set(BERLIN_MIDNIGHT)
    expect(new DailyClose(ctx.deps).runDue(ctx.clock.now())).toHaveLength(1)
    const system = { type: 'system', id: 'daily-close' }
    expect((await historyActors(ctx, serving.id)).at(-1)).toEqual(['completed', system])
    expect((await historyActors(ctx, waiting.id)).at(-1)).toEqual(['cancelled', system])
    expect(webhookActors(ctx, serving.id).at(-1)).toEqual(['ticket.completed', system])
    // A close at midnight is no service: no average, no service-time figures, and a rebuild from
    // the history (which reads the stored `system:daily-close`) agrees with the live roll-ups.
    const stats = ctx.db.$client.query("SELECT avg_service_seconds AS avg FROM service_stats WHERE service_id = 'svc_accounts'").get()
    expect(stats).toEqual({ avg: null })
    const rollups = () => ({
      daily: ctx.db.$client.query('SELECT * FROM report_daily ORDER BY location_id, service_id, business_day').all(),
      counters: ctx.db.$client.query('SELECT * FROM report_counter_daily ORDER BY counter_id, business_day').all(),
    })
    const live = rollups()
    expect(live.daily).toContainEqual(expect.objectContaining({ service_id: 'svc_accounts', served: 1, service_count: 0 }))
    ctx.db.$client.transaction(() => rebuildReportRollups(ctx.db.$client)).immediate()
    expect(rollups()).toEqual(live)
  })
})
