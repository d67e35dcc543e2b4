import { describe, expect, test } from 'bun:test'
import { CounterCodes } from '../../src/counters/errors'
import { expectError } from '../queue/helpers'
import { asDevice } from '../devices/helpers'
import { deskOf } from '../desk/helpers'
import type { ProvisioningFile } from '../../src/provisioning/model'
import { counterContext, issued, ok, act, callNext, eventsOf, webhookTypes, ticketRow, mainUnit, deliveriesOf, op, jsonOf, snapshot } from './helpers'

const MINUTE = 60_000
const OP = '/api/operator/v1'

const dailyRow = (ctx: ReturnType<typeof counterContext>, serviceId = 'svc_accounts') =>
  ctx.db.$client.query('SELECT no_show AS noShow, served FROM report_daily WHERE service_id = ?').get(serviceId) as { noShow: number; served: number }
const counterReport = (ctx: ReturnType<typeof counterContext>, counterId = 'cnt_1') =>
  ctx.db.$client.query('SELECT no_show AS noShow, served FROM report_counter_daily WHERE counter_id = ?').get(counterId) as { noShow: number; served: number }

/** A ticket called at cnt_1 and marked no-show there; returns it. */
async function noShowAtCounter1(ctx: ReturnType<typeof counterContext>) {
  const ticket = await issued(ctx)
  await ok(act(ctx, ticket.id, 'call', { counterId: 'cnt_1' }))
  await ok(act(ctx, ticket.id, 'no-show'))
  return ticket
}

describe('reinstate: bring back a no-show (contract §20)', () => {
  test('within noShowGraceMinutes it waits again (FIRST), with its event, its webhook, and the no-show taken back from the reports', async () => {
    const ctx = counterContext()
    const waiting = await issued(ctx)
    const missed = await noShowAtCounter1(ctx)
    expect(dailyRow(ctx).noShow).toBe(1)
    expect(counterReport(ctx).noShow).toBe(1)
    ctx.clock.advance(30 * MINUTE)
    // The last millisecond of the window still counts.
    const back = await ok(act(ctx, missed.id, 'reinstate', { position: 'FIRST' }))
    expect(back).toMatchObject({ id: missed.id, ticketNumber: missed.ticketNumber, status: 'WAITING', calledAt: null, completedAt: null })
    expect(ticketRow(ctx, missed.id).counter_id).toBeNull()
    expect(eventsOf(ctx, missed.id).map((e) => e.type)).toEqual(['created', 'called', 'no_show', 'reinstated'])
    const event = eventsOf(ctx, missed.id).at(-1)!
    expect({ from: event.from_status, to: event.to_status, detail: JSON.parse(event.detail) }).toEqual({ from: 'NO_SHOW', to: 'WAITING', detail: { position: 'FIRST' } })
    expect(webhookTypes(ctx, missed.id).filter((t) => t === 'ticket.reinstated')).toHaveLength(1)
    const body = JSON.parse(deliveriesOf(ctx, missed.id).find((d) => d.event_type === 'ticket.reinstated')!.body)
    expect(body).toMatchObject({ type: 'ticket.reinstated', actor: { type: 'key' }, data: { id: missed.id, status: 'WAITING' } })
    // Reports: the ticket's outcome is no longer a no-show, on its service's day and its counter.
    expect(dailyRow(ctx).noShow).toBe(0)
    expect(counterReport(ctx).noShow).toBe(0)
    // FIRST: called before the ticket that waited all along; served, it counts as served once.
    const next = await ok(callNext(ctx, 'cnt_2'))
    expect(next.id).toBe(missed.id)
    await ok(act(ctx, missed.id, 'start'))
    await ok(act(ctx, missed.id, 'complete'))
    expect(dailyRow(ctx)).toEqual({ noShow: 0, served: 1 })
    expect((await ok(callNext(ctx, 'cnt_2'))).id).toBe(waiting.id)
  })

  test('LAST puts it behind every waiting ticket; a second no-show counts again', async () => {
    const ctx = counterContext()
    const missed = await noShowAtCounter1(ctx)
    const a = await issued(ctx)
    const b = await issued(ctx)
    await ok(act(ctx, missed.id, 'reinstate', { position: 'LAST' }))
    const order = []
    for (let i = 0; i < 3; i++) {
      const t = await ok(callNext(ctx, 'cnt_1'))
      order.push(t.id)
      await ok(act(ctx, t.id, 'no-show'))
    }
    expect(order).toEqual([a.id, b.id, missed.id])
    expect(dailyRow(ctx).noShow).toBe(3)
  })

  test('one millisecond after the window: 409 NO_SHOW_GRACE_EXPIRED, nothing written; the unit\'s own noShowGraceMinutes counts', async () => {
    const ctx = counterContext((doc) => { mainUnit(doc).noShowGraceMinutes = 5 })
    const missed = await noShowAtCounter1(ctx)
    ctx.clock.advance(5 * MINUTE + 1)
    const before = snapshot(ctx)
    const res = await act(ctx, missed.id, 'reinstate', { position: 'FIRST' })
    await expectError(res, 409, CounterCodes.NO_SHOW_GRACE_EXPIRED)
    expect(snapshot(ctx)).toEqual(before)
    expect(dailyRow(ctx).noShow).toBe(1)
  })

  test('a ticket that is not NO_SHOW is 409 INVALID_TRANSITION; a bad position 422; an unknown ticket 404', async () => {
    const ctx = counterContext()
    const t = await issued(ctx)
    await expectError(await act(ctx, t.id, 'reinstate', { position: 'FIRST' }), 409, CounterCodes.INVALID_TRANSITION)
    await ok(act(ctx, t.id, 'call', { counterId: 'cnt_1' }))
    await ok(act(ctx, t.id, 'start'))
    await ok(act(ctx, t.id, 'complete'))
    await expectError(await act(ctx, t.id, 'reinstate', { position: 'FIRST' }), 409, CounterCodes.INVALID_TRANSITION)
    await expectError(await act(ctx, t.id, 'reinstate', { position: 'MIDDLE' }), 422, CounterCodes.VALIDATION_FAILED)
    await expectError(await act(ctx, t.id, 'reinstate', {}), 422, CounterCodes.VALIDATION_FAILED)
    await expectError(await act(ctx, 'tkt_nope', 'reinstate', { position: 'FIRST' }), 404, CounterCodes.TICKET_NOT_FOUND)
  })

  test('a desk brings back the no-shows of its own counter only (404 for another counter\'s), as a device', async () => {
    const ctx = counterContext()
    const desk1 = await deskOf(ctx, 'cnt_1')
    const desk2 = await deskOf(ctx, 'cnt_2', 'desk-two')
    const missed = await noShowAtCounter1(ctx)
    await expectError(await asDevice(ctx, desk2, 'POST', `${OP}/tickets/${missed.id}/reinstate`, { position: 'FIRST' }), 404, CounterCodes.TICKET_NOT_FOUND)
    const res = await asDevice(ctx, desk1, 'POST', `${OP}/tickets/${missed.id}/reinstate`, { position: 'FIRST' })
    expect(res.status).toBe(200)
    expect(eventsOf(ctx, missed.id).at(-1)!.actor).toStartWith('device:')
  })
})

describe('transfer notes (contract §20)', () => {
  test('the note is stored with where the ticket came from, and is in the ticket JSON of the answer, the overview and the webhook', async () => {
    const ctx = counterContext()
    const t = await issued(ctx)
    await ok(act(ctx, t.id, 'call', { counterId: 'cnt_1' }))
    const note = '  <b>Wants</b> a savings account  '
    const moved = await ok(act(ctx, t.id, 'transfer', { serviceId: 'svc_loans', note }))
    const transfer = { fromServiceId: 'svc_accounts', fromCounterId: 'cnt_1', note: '<b>Wants</b> a savings account' }
    expect(moved.transfer).toEqual(transfer)
    expect(ticketRow(ctx, t.id)).toMatchObject({ transferred_from_service_id: 'svc_accounts', transferred_from_counter_id: 'cnt_1', transfer_note: transfer.note })
    const overview = (await jsonOf(await op(ctx, 'GET', '/queue'))).data
    const line = overview.services.find((s: { id: string; locationId: string }) => s.id === 'svc_loans' && s.locationId === 'loc_hall')
    expect(line.tickets[0].transfer).toEqual(transfer)
    const hook = JSON.parse(deliveriesOf(ctx, t.id).find((d) => d.event_type === 'ticket.transferred')!.body)
    expect(hook.data.transfer).toEqual(transfer)
    expect(JSON.parse(eventsOf(ctx, t.id).find((e) => e.type === 'transferred')!.detail)).toMatchObject({ note: transfer.note })
  })

  test('no note (or a blank one) is null; a ticket never transferred has transfer null', async () => {
    const ctx = counterContext()
    const t = await issued(ctx)
    const other = await issued(ctx)
    await ok(act(ctx, t.id, 'call', { counterId: 'cnt_1' }))
    expect((await ok(act(ctx, t.id, 'transfer', { serviceId: 'svc_loans', note: '   ' }))).transfer).toEqual({ fromServiceId: 'svc_accounts', fromCounterId: 'cnt_1', note: null })
    expect((await ok(act(ctx, other.id, 'call', { counterId: 'cnt_2' }))).transfer).toBeNull()
  })

  test('a note of 201 characters is 422 on /note, nothing written; 200 is fine', async () => {
    const ctx = counterContext()
    const t = await issued(ctx)
    await ok(act(ctx, t.id, 'call', { counterId: 'cnt_1' }))
    const before = snapshot(ctx)
    const res = await act(ctx, t.id, 'transfer', { serviceId: 'svc_loans', note: 'x'.repeat(201) })
    const body = await expectError(res, 422, CounterCodes.VALIDATION_FAILED)
    expect(JSON.stringify(body)).toContain('/note')
    expect(snapshot(ctx)).toEqual(before)
    expect((await ok(act(ctx, t.id, 'transfer', { serviceId: 'svc_loans', note: 'y'.repeat(200) }))).transfer.note).toHaveLength(200)
  })
})

describe('approaching (contract §20)', () => {
  /** The ticket.approaching deliveries of a ticket (the endpoint subscribes to it here). */
  const approachingOf = (ctx: ReturnType<typeof counterContext>, id: string) => deliveriesOf(ctx, id).filter((d) => d.event_type === 'ticket.approaching')
  const withApproaching = (edit: (doc: ProvisioningFile) => void = () => {}) => counterContext((doc) => {
    mainUnit(doc).webhooks![0]!.events.push('ticket.approaching')
    edit(doc)
  })

  test('written once per ticket when it has approachingAhead or fewer ahead (approaching_at and its webhook, no history entry); never again after more calls', async () => {
    const ctx = withApproaching()
    const tickets = []
    for (let i = 0; i < 6; i++) tickets.push(await issued(ctx))
    // 0..3 ahead: approaching as issued; 4 and 5 ahead: not yet.
    expect(tickets.map((t) => approachingOf(ctx, t.id).length)).toEqual([1, 1, 1, 1, 0, 0])
    expect(ticketRow(ctx, tickets[4]!.id).approaching_at).toBeNull()
    const first = await ok(callNext(ctx, 'cnt_1'))
    expect(first.id).toBe(tickets[0]!.id)
    ctx.clock.advance(1000)
    // The fifth now has 3 ahead.
    expect(tickets.map((t) => approachingOf(ctx, t.id).length)).toEqual([1, 1, 1, 1, 1, 0])
    expect(ticketRow(ctx, tickets[4]!.id).approaching_at).toBe(ctx.clock.now() - 1000)
    expect(eventsOf(ctx, tickets[4]!.id).map((e) => e.type)).toEqual(['created'])
    await ok(act(ctx, first.id, 'no-show'))
    for (let i = 0; i < 4; i++) {
      const t = await ok(callNext(ctx, 'cnt_1'))
      await ok(act(ctx, t.id, 'no-show'))
    }
    expect(tickets.map((t) => approachingOf(ctx, t.id).length)).toEqual([1, 1, 1, 1, 1, 1])
    for (const t of tickets) expect(ticketRow(ctx, t.id).approaching_at).not.toBeNull()
    const hook = JSON.parse(approachingOf(ctx, tickets[5]!.id)[0]!.body)
    expect(hook).toMatchObject({ type: 'ticket.approaching', actor: { type: 'system', id: 'approaching' }, data: { id: tickets[5]!.id, status: 'WAITING' } })
  })

  test('counts the tickets really called ahead (call order): a priority ticket issued behind three is approaching at once, and pushes the others back', async () => {
    const ctx = withApproaching((doc) => { mainUnit(doc).approachingAhead = 1 })
    const a = await issued(ctx)
    const b = await issued(ctx)
    const c = await issued(ctx)
    expect([a, b, c].map((t) => approachingOf(ctx, t.id).length)).toEqual([1, 1, 0])
    // Priority FIRST: the walk-in is called next, 0 ahead, though three were issued before it.
    const p = (await jsonOf(await op(ctx, 'POST', '/tickets', { locationId: 'loc_hall', serviceId: 'svc_accounts', priority: true }))).data
    expect(approachingOf(ctx, p.id)).toHaveLength(1)
    // A ticket requeued FIRST comes before c too: after p's call c still has a and b ahead... and the requeued one.
    expect((await ok(callNext(ctx, 'cnt_1'))).id).toBe(p.id)
    await ok(act(ctx, p.id, 'requeue', { position: 'FIRST' }))
    expect(approachingOf(ctx, c.id)).toHaveLength(0)
    expect((await ok(callNext(ctx, 'cnt_1'))).id).toBe(p.id)
    await ok(act(ctx, p.id, 'no-show'))
    expect(approachingOf(ctx, c.id)).toHaveLength(0)
    expect((await ok(callNext(ctx, 'cnt_2'))).id).toBe(a.id)
    // Now only b is ahead of c.
    expect(approachingOf(ctx, c.id)).toHaveLength(1)
  })
})

describe('the desk view and print page for the journey (contract §20)', () => {
  test('the desk lists its own no-shows while they can be brought back, with until; counters by language for "Transferred from"', async () => {
    const ctx = counterContext((doc) => { mainUnit(doc).noShowGraceMinutes = 10 })
    const desk1 = await deskOf(ctx, 'cnt_1')
    const desk2 = await deskOf(ctx, 'cnt_2', 'desk-two')
    const missed = await noShowAtCounter1(ctx)
    const view = async (desk: string) => (await jsonOf(await asDevice(ctx, desk, 'GET', '/api/devices/v1/desk'))).data
    const mine = await view(desk1)
    expect(mine.noShows).toEqual([{ ticket: expect.objectContaining({ id: missed.id, status: 'NO_SHOW' }), until: new Date(ctx.clock.now() + 10 * MINUTE).toISOString() }])
    expect(mine.counterNamesByLanguage.cnt_2).toEqual(expect.any(Object))
    expect((await view(desk2)).noShows).toEqual([])
    ctx.clock.advance(10 * MINUTE)
    expect((await view(desk1)).noShows).toHaveLength(1)
    ctx.clock.advance(1)
    expect((await view(desk1)).noShows).toEqual([])
  })

  test('a desk prints its own walk-in on the print page; another desk\'s walk-in or an API ticket is 404 there', async () => {
    const ctx = counterContext()
    const desk1 = await deskOf(ctx, 'cnt_1')
    const desk2 = await deskOf(ctx, 'cnt_2', 'desk-two')
    const walkIn = (await jsonOf(await asDevice(ctx, desk1, 'POST', `${OP}/tickets`, { locationId: 'loc_hall', serviceId: 'svc_accounts' }, { 'idempotency-key': 'walk-in-1' }))).data
    expect(walkIn.trackingUrl).toMatch(/^\/t\//)
    const print = (desk: string, id: string) => asDevice(ctx, desk, 'GET', `/kiosk/tickets/${id}/print`)
    const page = await print(desk1, walkIn.id)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(walkIn.ticketNumber)
    expect((await print(desk2, walkIn.id)).status).toBe(404)
    const api = await issued(ctx)
    expect((await print(desk1, api.id)).status).toBe(404)
  })
})
