import { describe, expect, test } from 'bun:test'
import { request } from '../support/app'
import { callNext, counterContext, issued, ok, OP, ticketRow } from '../counters/helpers'
import { DeviceCodes } from '../../src/devices/errors'
import { CounterCodes } from '../../src/counters/errors'
import { DeviceService } from '../../src/devices/service'
import { applyProvisioning } from '../../src/provisioning/service'
import { exampleDocument } from '../support/fixtures'
import { mainUnit } from '../queue/helpers'
import { asDevice, jsonOf, ORIGIN, pairedCookie } from './helpers'

const DESK_1 = { role: 'desk', counterId: 'cnt_1' } as const

describe('a paired desk on the operator API', () => {
  test('operates its own counter: call next, start, complete, all by its cookie', async () => {
    const ctx = counterContext()
    const desk = await pairedCookie(ctx, DESK_1)
    const ticket = await issued(ctx)
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`))
    const called = await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/call-next`))
    expect(called).toMatchObject({ id: ticket.id, status: 'CALLED' })
    await ok(asDevice(ctx, desk, 'POST', `${OP}/tickets/${ticket.id}/start`))
    await ok(asDevice(ctx, desk, 'POST', `${OP}/tickets/${ticket.id}/complete`))
    const row = ticketRow(ctx, ticket.id)
    expect(row).toMatchObject({ status: 'COMPLETED', counter_id: 'cnt_1' })
    const events = ctx.db.$client.query('SELECT actor FROM ticket_events WHERE ticket_id = ? AND type != ?').all(ticket.id, 'created') as { actor: string }[]
    // Contract §16: a desk without a clerk signed in acts as its device, by name.
    const device = ctx.db.$client.query('SELECT name FROM devices').get() as { name: string }
    expect(events.map((e) => e.actor)).toEqual([`device:${device.name}`, `device:${device.name}`, `device:${device.name}`])
  })

  test('another counter is 404 COUNTER_NOT_FOUND, as outside a key\'s binding; its GET queue lists only its own counter', async () => {
    const ctx = counterContext()
    const desk = await pairedCookie(ctx, DESK_1)
    const ticket = await issued(ctx)
    for (const [path, body] of [
      [`${OP}/counters/cnt_2/call-next`, undefined],
      [`${OP}/counters/cnt_2/open`, undefined],
      [`${OP}/counters/cnt_2/close`, undefined],
      [`${OP}/tickets/${ticket.id}/call`, { counterId: 'cnt_2' }],
    ] as const) {
      const response = await asDevice(ctx, desk, 'POST', path, body)
      expect({ path, status: response.status, code: (await jsonOf(response)).error?.code }).toEqual({ path, status: 404, code: CounterCodes.COUNTER_NOT_FOUND })
    }
    const queue = (await jsonOf(await asDevice(ctx, desk, 'GET', `${OP}/queue`))).data
    expect(queue.counters.map((c: { id: string }) => c.id)).toEqual(['cnt_1'])
  })

  test('a ticket held at another counter is not the desk\'s: 404 TICKET_NOT_FOUND', async () => {
    const ctx = counterContext()
    const desk = await pairedCookie(ctx, DESK_1)
    const ticket = await issued(ctx)
    await ok(callNext(ctx, 'cnt_2'))
    for (const action of ['recall', 'start', 'no-show', 'complete']) {
      const response = await asDevice(ctx, desk, 'POST', `${OP}/tickets/${ticket.id}/${action}`)
      expect(response.status).toBe(404)
      expect((await jsonOf(response)).error.code).toBe(CounterCodes.TICKET_NOT_FOUND)
    }
    expect(ticketRow(ctx, ticket.id).status).toBe('CALLED')
  })

  test('transfers its ticket to a service its counter does not serve; issues walk-ins at its location as OPERATOR', async () => {
    const ctx = counterContext()
    const desk = await pairedCookie(ctx, { role: 'desk', counterId: 'cnt_2' })
    const ticket = await issued(ctx)
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_2/open`))
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_2/call-next`))
    const moved = await ok(asDevice(ctx, desk, 'POST', `${OP}/tickets/${ticket.id}/transfer`, { serviceId: 'svc_loans' }))
    expect(moved).toMatchObject({ status: 'WAITING', serviceId: 'svc_loans' })
    const walkIn = await ok(asDevice(ctx, desk, 'POST', `${OP}/tickets`, { locationId: 'loc_hall', serviceId: 'svc_accounts' }, { 'idempotency-key': 'walk-in-1' }), 201)
    expect(walkIn).toMatchObject({ source: 'OPERATOR', serviceId: 'svc_accounts' })
    // Counter 2 serves Accounts only: a walk-in for Loans is outside its binding.
    const other = await asDevice(ctx, desk, 'POST', `${OP}/tickets`, { locationId: 'loc_hall', serviceId: 'svc_loans' })
    expect(other.status).toBe(403)
  })

  test('a state-changing request without this server\'s Origin is 403 ORIGIN_FORBIDDEN and changes nothing; a read needs none', async () => {
    const ctx = counterContext()
    const desk = await pairedCookie(ctx, DESK_1)
    await issued(ctx)
    for (const origin of [null, 'https://evil.example', 'http://localhost:8081', 'null']) {
      const response = await request(ctx.app, 'POST', `${OP}/counters/cnt_1/call-next`, { headers: { cookie: desk, ...(origin === null ? {} : { origin }) } })
      expect(response.status).toBe(403)
      expect((await jsonOf(response)).error.code).toBe(DeviceCodes.ORIGIN_FORBIDDEN)
    }
    expect((ctx.db.$client.query("SELECT count(*) AS n FROM tickets WHERE status = 'WAITING'").get() as { n: number }).n).toBe(1)
    expect((await request(ctx.app, 'GET', `${OP}/queue`, { headers: { cookie: desk } })).status).toBe(200)
  })

  test('behind a proxy, --public-origin is the origin a desk must come from', async () => {
    const ctx = counterContext(() => {}, { publicOrigin: 'https://lobby.branch.example' })
    const desk = await pairedCookie(ctx, DESK_1)
    await issued(ctx)
    const local = await asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`)
    expect(local.status).toBe(403)
    const proxied = await asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`, undefined, { origin: 'https://lobby.branch.example' })
    expect(proxied.status).toBe(200)
  })

  test('a Queue key in Authorization wins: the cookie is not looked at', async () => {
    const ctx = counterContext()
    const desk = await pairedCookie(ctx, DESK_1)
    const response = await request(ctx.app, 'POST', `${OP}/counters/cnt_2/open`, { headers: { cookie: desk, authorization: `Bearer ${ctx.key('operator')}` } })
    expect(response.status).toBe(200)
  })
})

describe('the cookie authenticates only the device routes its role needs', () => {
  test('never the public API', async () => {
    const ctx = counterContext()
    const desk = await pairedCookie(ctx, DESK_1)
    for (const path of ['/api/public/v1/queue/services', '/api/public/v1/queue/state']) {
      const response = await request(ctx.app, 'GET', path, { headers: { cookie: desk } })
      expect(response.status).toBe(401)
    }
  })

  test('a bearer key is never read from a cookie', async () => {
    const ctx = counterContext()
    const asCookie = { cookie: `lobby_device=${ctx.key('operator')}`, origin: ORIGIN }
    const operator = await request(ctx.app, 'POST', `${OP}/counters/cnt_1/open`, { headers: asCookie })
    expect(operator.status).toBe(401)
    const display = ctx.provisioned.secret('display', 'ws_demo', 'lobby-screens')
    const state = await request(ctx.app, 'GET', '/api/display/v1/queue-units/qu_main/state', { headers: { cookie: `lobby_device=${display}` } })
    expect(state.status).toBe(401)
  })

  test('a display device reads the display routes of its workspace, but not the operator API; a desk not the display reads', async () => {
    const ctx = counterContext()
    const display = await pairedCookie(ctx, { role: 'display', workspaceId: 'ws_demo' })
    const desk = await pairedCookie(ctx, DESK_1)
    expect((await request(ctx.app, 'GET', '/api/display/v1/queue-units/qu_main/state', { headers: { cookie: display } })).status).toBe(200)
    expect((await request(ctx.app, 'GET', '/api/devices/v1/boards', { headers: { cookie: display } })).status).toBe(200)
    expect((await request(ctx.app, 'GET', `${OP}/queue`, { headers: { cookie: display } })).status).toBe(401)
    expect((await request(ctx.app, 'GET', '/api/display/v1/queue-units/qu_main/state', { headers: { cookie: desk } })).status).toBe(401)
    expect((await request(ctx.app, 'GET', '/api/devices/v1/boards', { headers: { cookie: desk } })).status).toBe(401)
  })

  test('a paired display lists its workspace\'s boards to open', async () => {
    const ctx = counterContext()
    const display = await pairedCookie(ctx, { role: 'display', workspaceId: 'ws_demo' })
    const boards = (await jsonOf(await request(ctx.app, 'GET', '/api/devices/v1/boards', { headers: { cookie: display } }))).data.boards
    expect(boards.map((b: { path: string }) => b.path)).toContain('/screens/queue/qu_main')
    expect(boards.map((b: { path: string }) => b.path)).toContain('/screens/queue/qu_main?location=loc_annex')
    expect(boards.map((b: { path: string }) => b.path)).toContain('/screens/widgets/wdg_schedule_lobby')
  })

  test('a revoked device is refused at once, everywhere', async () => {
    const ctx = counterContext()
    const desk = await pairedCookie(ctx, DESK_1)
    expect((await asDevice(ctx, desk, 'GET', '/api/devices/v1/desk')).status).toBe(200)
    expect(new DeviceService(ctx.db).revoke('desk-cnt_1', ctx.clock.now())).toEqual({ name: 'desk-cnt_1', revoked: 1 })
    for (const [method, path] of [['GET', '/api/devices/v1/device'], ['GET', '/api/devices/v1/desk'], ['GET', `${OP}/queue`], ['POST', `${OP}/counters/cnt_1/open`]] as const) {
      const response = await asDevice(ctx, desk, method, path)
      expect({ path, status: response.status }).toEqual({ path, status: 401 })
    }
    expect(new DeviceService(ctx.db).list()[0]).toMatchObject({ name: 'desk-cnt_1', state: 'revoked' })
  })
})

describe('GET /api/devices/v1/desk', () => {
  test('shows the counter, its services\' first 10 waiting tickets in call order, the held ticket and today\'s served count', async () => {
    const ctx = counterContext()
    const desk = await pairedCookie(ctx, DESK_1)
    const tickets = []
    for (let i = 0; i < 12; i++) tickets.push(await issued(ctx))
    const loan = await issued(ctx, { locationId: 'loc_hall', serviceId: 'svc_loans' })
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`))
    const first = await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/call-next`))
    await ok(asDevice(ctx, desk, 'POST', `${OP}/tickets/${first.id}/start`))
    await ok(asDevice(ctx, desk, 'POST', `${OP}/tickets/${first.id}/complete`))
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`))
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/call-next`))

    const view = (await jsonOf(await asDevice(ctx, desk, 'GET', '/api/devices/v1/desk'))).data
    expect(view.counter).toEqual({
      id: 'cnt_1', name: 'Counter 1', names: { en: 'Counter 1' }, open: true,
      locationId: 'loc_hall', locationName: 'Main hall', locationNames: { en: 'Main hall' }, timezone: 'Europe/Berlin',
    })
    expect(view.services.map((s: { id: string; waiting: number }) => [s.id, s.waiting])).toEqual([['svc_accounts', 10], ['svc_loans', 1]])
    expect(view.services[0].tickets.map((t: { id: string }) => t.id)).toEqual(tickets.slice(2, 12).map((t) => t.id))
    expect(view.services[1].tickets.map((t: { id: string }) => t.id)).toEqual([loan.id])
    expect(view.ticket).toMatchObject({ id: tickets[1]!.id, status: 'CALLED' })
    expect(view.servedToday).toBe(1)
    expect(view.transferTargets.map((t: { id: string }) => t.id)).toEqual(['svc_accounts', 'svc_loans'])
  })

  test('a Queue key gets no desk view (it has no counter of its own)', async () => {
    const ctx = counterContext()
    const response = await request(ctx.app, 'GET', '/api/devices/v1/desk', { headers: { authorization: `Bearer ${ctx.key('operator')}` } })
    expect(response.status).toBe(401)
  })
})

describe('a retired counter (provisioning active: false)', () => {
  test('disappears from desks and the operator API; its history stays', async () => {
    const ctx = counterContext()
    const desk = await pairedCookie(ctx, { role: 'desk', counterId: 'cnt_2' })
    const ticket = await issued(ctx)
    await ok(callNext(ctx, 'cnt_2'))
    await ok(request(ctx.app, 'POST', `${OP}/tickets/${ticket.id}/start`, { headers: { authorization: `Bearer ${ctx.key('operator')}` } }))
    await ok(request(ctx.app, 'POST', `${OP}/tickets/${ticket.id}/complete`, { headers: { authorization: `Bearer ${ctx.key('operator')}` } }))

    const document = exampleDocument()
    mainUnit(document).counters![1]!.active = false
    const applied = applyProvisioning(ctx.db, document, ctx.clock.now())
    expect(applied.applied.counters).toMatchObject({ updated: 1 })
    expect(ctx.db.$client.query('SELECT active, open FROM counters WHERE id = ?').get('cnt_2')).toEqual({ active: 0, open: 0 })

    const view = await asDevice(ctx, desk, 'GET', '/api/devices/v1/desk')
    expect(view.status).toBe(404)
    expect((await jsonOf(view)).error.code).toBe(CounterCodes.COUNTER_NOT_FOUND)
    expect((await callNext(ctx, 'cnt_2')).status).toBe(404)
    const overview = (await jsonOf(await request(ctx.app, 'GET', `${OP}/queue`, { headers: { authorization: `Bearer ${ctx.key('operator')}` } }))).data
    expect(overview.counters.map((c: { id: string }) => c.id)).toEqual(['cnt_1'])
    expect(ticketRow(ctx, ticket.id)).toMatchObject({ status: 'COMPLETED', counter_id: 'cnt_2' })
    // Applying the same file again changes nothing.
    expect(applyProvisioning(ctx.db, document, ctx.clock.now()).applied.counters).toMatchObject({ updated: 0 })
  })
})
