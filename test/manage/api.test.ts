import { describe, expect, test } from 'bun:test'
import { jsonOf, request } from '../support/app'
import { CHEAP, withPassword, signedIn, ORIGIN } from '../people/helpers'
import { counterContext, callNext, issued, ok } from '../counters/helpers'
import { mainUnit, type QueueTestContext } from '../queue/helpers'
import { readAudit } from '../../src/platform/audit'
import type { ManageService } from '../../src/manage/service'
import { appointmentContext, asKey, booked, APPOINTMENTS } from '../appointments/helpers'
import { AppointmentService } from '../../src/appointments'

/*
 * Contract §22's live floor through its API: who may see which unit, what the floor says, a
 * manager's audited open and close, the wait-target crossing (once per crossing, with the
 * injected clock) and its metric.
 */

const API = '/api/manage/v1'
const METRICS_TOKEN = 'metrics-token-0123456789abcdef'

async function floorContext(): Promise<QueueTestContext & { manager: string; clerk: string; admin: string; other: string }> {
  const ctx = counterContext((doc) => {
    mainUnit(doc).services!.find((s) => s.id === 'svc_accounts')!.waitTargetSeconds = 600
    mainUnit(doc).webhooks = [{ id: 'whk_crm', url: 'http://127.0.0.1:9/hooks', events: ['ticket.created', 'queue.wait_target_exceeded'] }]
    doc.workspaces[0]!.queueUnits!.push({
      id: 'qu_east', name: 'East branch', active: true,
      locations: [{ id: 'loc_east', name: 'East hall', timezone: 'Asia/Dubai' }],
      services: [{ id: 'svc_east', name: 'Accounts east', prefix: 'E', active: true, locations: ['loc_east'] }],
      counters: [{ id: 'cnt_east', name: 'East 1', locationId: 'loc_east', services: ['svc_east'] }],
    })
  }, { passwordCost: CHEAP, metricsToken: METRICS_TOKEN })
  ctx.clock.set('2026-11-25T09:00:00Z')
  await withPassword(ctx, { username: 'mona', role: 'manager', displayName: 'Mona M.', queueUnits: ['qu_main'] })
  await withPassword(ctx, { username: 'omar', role: 'manager', queueUnits: ['qu_east'] })
  await withPassword(ctx, { username: 'samir.k', role: 'clerk', displayName: 'Samir Khoury', queueUnits: ['qu_main'] })
  await withPassword(ctx, { username: 'root', role: 'admin' })
  return {
    ...ctx,
    manager: await signedIn(ctx, 'mona'),
    other: await signedIn(ctx, 'omar'),
    clerk: await signedIn(ctx, 'samir.k'),
    admin: await signedIn(ctx, 'root'),
  }
}

const get = (ctx: QueueTestContext, path: string, cookie?: string) => request(ctx.app, 'GET', path, { headers: cookie === undefined ? {} : { cookie } })
const post = (ctx: QueueTestContext, path: string, cookie: string, body: unknown = {}, origin: string | null = ORIGIN) =>
  request(ctx.app, 'POST', path, { headers: { cookie, ...(origin === null ? {} : { origin }) }, body })
const floor = async (ctx: QueueTestContext, cookie: string, unit = 'qu_main') => {
  const res = await get(ctx, `${API}/queue-units/${unit}/floor`, cookie)
  expect(res.status).toBe(200)
  return jsonOf(res)
}
const hall = (f: any) => f.locations.find((l: any) => l.id === 'loc_hall')

describe('who may see the floor', () => {
  test('signed out: 401 from the API and /manage sends the browser to /login; a clerk: 403 page in words and ROLE_FORBIDDEN; another unit\'s manager: 404', async () => {
    const ctx = await floorContext()
    const anonymous = await get(ctx, `${API}/queue-units/qu_main/floor`)
    expect(anonymous.status).toBe(401)
    expect((await jsonOf(anonymous)).error.code).toBe('AUTHENTICATION_FAILED')
    const page = await get(ctx, '/manage?lang=ar')
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toBe('/login?lang=ar')

    const clerkPage = await get(ctx, '/manage', ctx.clerk)
    expect(clerkPage.status).toBe(403)
    const html = await clerkPage.text()
    expect(html).toContain('The live floor is for managers and administrators.')
    expect(html).not.toContain('manage-floor')
    for (const path of [`${API}/queue-units`, `${API}/queue-units/qu_main/floor`]) {
      const res = await get(ctx, path, ctx.clerk)
      expect(res.status).toBe(403)
      expect((await jsonOf(res)).error.code).toBe('ROLE_FORBIDDEN')
    }
    const clerkClose = await post(ctx, `${API}/queue-units/qu_main/counters/cnt_1/close`, ctx.clerk)
    expect(clerkClose.status).toBe(403)

    const elsewhere = await get(ctx, `${API}/queue-units/qu_main/floor`, ctx.other)
    expect(elsewhere.status).toBe(404)
    expect((await jsonOf(elsewhere)).error.code).toBe('QUEUE_UNIT_NOT_FOUND')
    expect((await post(ctx, `${API}/queue-units/qu_main/counters/cnt_1/open`, ctx.other)).status).toBe(404)

    expect((await jsonOf(await get(ctx, `${API}/queue-units`, ctx.manager))).data.map((u: any) => u.id)).toEqual(['qu_main'])
    expect((await jsonOf(await get(ctx, `${API}/queue-units`, ctx.admin))).data.map((u: any) => u.id)).toEqual(['qu_east', 'qu_main'])
    expect((await get(ctx, '/manage', ctx.manager)).status).toBe(200)
    expect((await get(ctx, `${API}/queue-units/qu_east/floor`, ctx.admin)).status).toBe(200)
  })

  test('a write from another origin is refused before anything changes', async () => {
    const ctx = await floorContext()
    const res = await post(ctx, `${API}/queue-units/qu_main/counters/cnt_1/open`, ctx.manager, {}, 'http://evil.example')
    expect(res.status).toBe(403)
    expect((await jsonOf(res)).error.code).toBe('ORIGIN_FORBIDDEN')
    expect(hall(await floor(ctx, ctx.manager)).counters[0].state).toBe('closed')
  })
})

describe('what the floor says', () => {
  test('waiting, longest wait with its number, estimate, today\'s share within target; counters with clerk, ticket and time in state, served today', async () => {
    const ctx = await floorContext()
    const first = await issued(ctx)
    ctx.clock.set('2026-11-25T09:02:00Z')
    await issued(ctx)
    await issued(ctx)
    // A clerk signs in at cnt_1 (as the desk does, in one write).
    ctx.deps.writes.now(() => {
      const clerk = ctx.db.$client.query<{ id: string }, []>("SELECT id FROM users WHERE username = 'samir.k'").get()!
      ctx.deps.staff.signIn({ userId: clerk.id, username: 'samir.k', displayName: 'Samir Khoury' }, { id: 'cnt_1', queueUnitId: 'qu_main', locationId: 'loc_hall', timezone: 'Europe/Berlin' }, 'dev_1', ctx.clock.now())
      ctx.deps.tickets.touch('qu_main')
    })
    ctx.clock.set('2026-11-25T09:05:00Z')
    let f = await floor(ctx, ctx.manager)
    let accounts = hall(f).services.find((s: any) => s.id === 'svc_accounts')
    expect(accounts).toMatchObject({
      waiting: 3, waitTargetSeconds: 600, overTarget: false, noCounterOpen: true,
      longestWait: { ticketNumber: first.ticketNumber, waitingSince: '2026-11-25T09:00:00.000Z', seconds: 300 },
      today: { called: 0, withinTarget: 0, withinTargetShare: null },
    })
    expect(accounts.estimatedWaitSeconds).toBeGreaterThan(0)
    expect(hall(f).counters.find((c: any) => c.id === 'cnt_1')).toMatchObject({ state: 'closed', clerk: { username: 'samir.k', displayName: 'Samir Khoury' }, ticket: null, servedToday: 0 })

    // The first ticket is called (5 min: within target) and served.
    await ok(callNext(ctx, 'cnt_1'))
    ctx.clock.set('2026-11-25T09:06:00Z')
    f = await floor(ctx, ctx.manager)
    accounts = hall(f).services.find((s: any) => s.id === 'svc_accounts')
    expect(accounts.waiting).toBe(2)
    expect(accounts.longestWait.seconds).toBe(240)
    expect(accounts.today).toEqual({ called: 1, withinTarget: 1, withinTargetShare: 1 })
    const counter = hall(f).counters.find((c: any) => c.id === 'cnt_1')
    expect(counter).toMatchObject({ state: 'open', ticket: { id: first.id, ticketNumber: first.ticketNumber, status: 'CALLED', since: '2026-11-25T09:05:00.000Z' } })
    await ok(request(ctx.app, 'POST', `/api/operator/v1/tickets/${first.id}/start`, { headers: { authorization: `Bearer ${ctx.key('operator')}` } }))
    await ok(request(ctx.app, 'POST', `/api/operator/v1/tickets/${first.id}/complete`, { headers: { authorization: `Bearer ${ctx.key('operator')}` } }))
    expect(hall(await floor(ctx, ctx.manager)).counters.find((c: any) => c.id === 'cnt_1')).toMatchObject({ ticket: null, servedToday: 1 })
  })

  test('one build per revision: the same JSON text for every reader until something changes', async () => {
    const ctx = await floorContext()
    await issued(ctx)
    const a = await (await get(ctx, `${API}/queue-units/qu_main/floor`, ctx.manager)).text()
    ctx.clock.advance(5_000)
    const b = await (await get(ctx, `${API}/queue-units/qu_main/floor`, ctx.admin)).text()
    expect(b).toBe(a)
    await issued(ctx)
    const c = await (await get(ctx, `${API}/queue-units/qu_main/floor`, ctx.manager)).text()
    expect(JSON.parse(c).revision).toBeGreaterThan(JSON.parse(a).revision)
  })
})

describe('a manager opens and closes counters', () => {
  test('through the counters service, audited as user:<username> in the same write; a close takes a break reason and ends the clerk\'s sign-in', async () => {
    const ctx = await floorContext()
    const opened = await post(ctx, `${API}/queue-units/qu_main/counters/cnt_2/open`, ctx.manager)
    expect(opened.status).toBe(200)
    expect((await jsonOf(opened)).data).toEqual({ counterId: 'cnt_2', open: true, busy: false, actor: { type: 'user', id: 'mona' } })
    expect(hall(await floor(ctx, ctx.manager)).counters.find((c: any) => c.id === 'cnt_2').state).toBe('open')

    // A clerk is signed in at cnt_2; the manager closes it for lunch: the clerk is on a break there.
    ctx.deps.writes.now(() => {
      const clerk = ctx.db.$client.query<{ id: string }, []>("SELECT id FROM users WHERE username = 'samir.k'").get()!
      ctx.deps.staff.signIn({ userId: clerk.id, username: 'samir.k', displayName: 'Samir Khoury' }, { id: 'cnt_2', queueUnitId: 'qu_main', locationId: 'loc_hall', timezone: 'Europe/Berlin' }, 'dev_1', ctx.clock.now())
      ctx.deps.tickets.touch('qu_main')
    })
    const wrong = await post(ctx, `${API}/queue-units/qu_main/counters/cnt_2/close`, ctx.manager, { reason: 'Nap' })
    expect(wrong.status).toBe(422)
    expect((await jsonOf(wrong)).error.details[0].path).toBe('/reason')
    ctx.clock.advance(60_000)
    const closed = await post(ctx, `${API}/queue-units/qu_main/counters/cnt_2/close`, ctx.manager, { reason: 'Lunch' })
    expect(closed.status).toBe(200)
    const counter = hall(await floor(ctx, ctx.manager)).counters.find((c: any) => c.id === 'cnt_2')
    expect(counter).toMatchObject({ state: 'break', breakReason: 'Lunch', clerk: null, stateSince: new Date(ctx.clock.now()).toISOString() })
    // Contract §28: the floor names each reason per language (the standard ones in Arabic too).
    const snapshot = await floor(ctx, ctx.manager)
    expect(snapshot.breakReasons).toEqual(['Break', 'Lunch', 'Admin work', 'Other'])
    expect(snapshot.breakReasonNames.Lunch).toEqual({ en: 'Lunch', ar: 'غداء' })

    const entries = floorAudit(ctx)
    expect(entries.map((e) => [e.action, e.actor, e.entity.id])).toEqual([
      ['counter.close', { type: 'user', id: 'mona' }, 'cnt_2'],
      ['counter.open', { type: 'user', id: 'mona' }, 'cnt_2'],
    ])
    expect(entries[0]!.before).toEqual({ open: true, clerk: 'samir.k' })
    expect(entries[0]!.after).toEqual({ open: false, reason: 'Lunch', clerkSignedOut: 'samir.k' })
    // The refused close wrote nothing.
    expect(entries).toHaveLength(2)
  })

  test('a counter holding a ticket cannot close (409 COUNTER_BUSY), and nothing is audited', async () => {
    const ctx = await floorContext()
    await issued(ctx)
    await ok(callNext(ctx, 'cnt_1'))
    const res = await post(ctx, `${API}/queue-units/qu_main/counters/cnt_1/close`, ctx.manager, { reason: 'Break' })
    expect(res.status).toBe(409)
    expect((await jsonOf(res)).error.code).toBe('COUNTER_BUSY')
    expect(floorAudit(ctx)).toEqual([])
    const unknown = await post(ctx, `${API}/queue-units/qu_main/counters/cnt_east/open`, ctx.manager)
    expect(unknown.status).toBe(404)
    expect((await jsonOf(unknown)).error.code).toBe('COUNTER_NOT_FOUND')
  })
})

describe('today\'s appointments on the floor', () => {
  // The appointment fixture: Accounts at the main hall (Europe/Berlin) takes 15-minute slots; the
  // clock starts Wednesday 2026-11-25 09:30Z, 10:30 in Berlin (check-in 15 minutes early to 10 late).
  async function appointmentFloor() {
    const ctx = appointmentContext(() => {}, { passwordCost: CHEAP })
    await withPassword(ctx, { username: 'mona', role: 'manager', displayName: 'Mona M.', queueUnits: ['qu_main'] })
    return { ...ctx, manager: await signedIn(ctx, 'mona') }
  }

  test('the manager\'s location lists today\'s bookings by time in the location\'s zone, with service, customer and status; a cancelled one is left out; tomorrow\'s is not shown', async () => {
    const ctx = await appointmentFloor()
    // 10:20 in Berlin: the 10:30 slot is bookable and already open for check-in (15 minutes early).
    ctx.clock.set('2026-11-25T09:20:00Z')
    const late = await booked(ctx, { startAt: '2026-11-25T14:30:00+01:00', name: 'Karim Aziz' })
    const early = await booked(ctx, { startAt: '2026-11-25T10:30:00+01:00', name: 'Amal Haddad' })
    const cancelled = await booked(ctx, { startAt: '2026-11-25T11:00:00+01:00', name: 'Lina Saab' })
    await booked(ctx, { startAt: '2026-11-26T09:00:00+01:00', name: 'Tomorrow Person' })
    expect((await asKey(ctx, 'POST', `${APPOINTMENTS}/${cancelled.id}/cancel`)).status).toBe(200)
    expect((await asKey(ctx, 'POST', `${APPOINTMENTS}/${early.id}/check-in`)).status).toBe(201)

    const loc = hall(await floor(ctx, ctx.manager))
    expect(loc.businessDay).toBe('2026-11-25')
    expect(loc.appointments).toEqual([
      { id: early.id, startAt: '2026-11-25T09:30:00.000Z', time: '10:30', serviceId: 'svc_accounts', serviceName: 'Accounts', serviceNames: expect.objectContaining({ en: 'Accounts' }), customerName: 'Amal Haddad', status: 'CHECKED_IN' },
      { id: late.id, startAt: '2026-11-25T13:30:00.000Z', time: '14:30', serviceId: 'svc_accounts', serviceName: 'Accounts', serviceNames: expect.objectContaining({ en: 'Accounts' }), customerName: 'Karim Aziz', status: 'BOOKED' },
    ])
    expect(loc.appointmentsToCome).toBe(1)

    // Once its check-in window has closed, the 14:30 booking is marked missed: nothing is left to come.
    ctx.clock.set('2026-11-25T13:41:00Z')
    expect(ctx.deps.writes.now(() => new AppointmentService(ctx.deps).markMissed(ctx.clock.now()))).toBe(1)
    // (Four hours on, the morning's session has lapsed: a fresh sign-in.)
    const manager = await signedIn(ctx, 'mona')
    const after = hall(await floor(ctx, manager))
    expect(after.appointments.map((a: any) => [a.time, a.status])).toEqual([['10:30', 'CHECKED_IN'], ['14:30', 'MISSED']])
    expect(after.appointmentsToCome).toBe(0)

    // An erased contact shows as null (the page says "erased").
    ctx.db.$client.run('UPDATE appointments SET name = NULL WHERE id = ?1', [early.id])
    ctx.deps.writes.now(() => ctx.deps.tickets.touch('qu_main'))
    expect(hall(await floor(ctx, manager)).appointments[0].customerName).toBeNull()
  })

  test('at the location\'s midnight the floor turns to the new day with no change in between: yesterday\'s bookings go, the business day moves, the open views are told', async () => {
    const ctx = await appointmentFloor()
    ctx.clock.set('2026-11-25T09:20:00Z')
    await booked(ctx, { startAt: '2026-11-25T14:30:00+01:00', name: 'Karim Aziz' })
    const tomorrow = await booked(ctx, { startAt: '2026-11-26T09:00:00+01:00', name: 'Tomorrow Person' })
    const manage = managerOf(ctx)
    ctx.clock.set('2026-11-25T22:59:59Z')
    const evening = await floor(ctx, await signedIn(ctx, 'mona'))
    expect(hall(evening).businessDay).toBe('2026-11-25')
    expect(hall(evening).appointments.map((a: any) => a.customerName)).toEqual(['Karim Aziz'])
    const told: string[] = []
    const changed = manage.changed.bind(manage)
    manage.changed = (unit: string) => {
      told.push(unit)
      changed(unit)
    }
    // One second on it is 00:00 in Berlin: nothing was written, the watch's look finds the new day.
    ctx.clock.set('2026-11-25T23:00:00Z')
    manage.watch.check()
    expect(told).toEqual(['qu_main'])
    const night = await floor(ctx, await signedIn(ctx, 'mona'))
    expect(night.revision).toBeGreaterThan(evening.revision)
    expect(hall(night).businessDay).toBe('2026-11-26')
    expect(hall(night).appointments.map((a: any) => [a.id, a.customerName])).toEqual([[tomorrow.id, 'Tomorrow Person']])
    // Told once: the next look, still the same day, finds nothing new.
    manage.watch.check()
    expect(told).toEqual(['qu_main'])
  })

  test('a booking through the operator API moves the floor\'s revision: the next snapshot has it, and the open views are told', async () => {
    const ctx = await appointmentFloor()
    const before = await floor(ctx, ctx.manager)
    expect(hall(before).appointments).toEqual([])
    const manage = managerOf(ctx)
    const told: string[] = []
    const changed = manage.changed.bind(manage)
    manage.changed = (unit: string) => {
      told.push(unit)
      changed(unit)
    }
    const appointment = await booked(ctx, { startAt: '2026-11-25T11:15:00+01:00', name: 'Nadia Fares' })
    expect(told).toContain('qu_main')
    const next = await floor(ctx, ctx.manager)
    expect(next.revision).toBeGreaterThan(before.revision)
    expect(hall(next).appointments.map((a: any) => [a.id, a.time, a.customerName, a.status])).toEqual([[appointment.id, '11:15', 'Nadia Fares', 'BOOKED']])
    expect(hall(next).appointmentsToCome).toBe(1)

    expect((await asKey(ctx, 'POST', `${APPOINTMENTS}/${appointment.id}/cancel`)).status).toBe(200)
    const cancelled = await floor(ctx, ctx.manager)
    expect(cancelled.revision).toBeGreaterThan(next.revision)
    expect(hall(cancelled).appointments).toEqual([])
    expect(hall(cancelled).appointmentsToCome).toBe(0)
  })
})

/** The floor's counter entries (the fixture's provisioning file writes its own `counter.create`, by `system:provision…`). */
function floorAudit(ctx: { db: { $client: import('bun:sqlite').Database } }) {
  return readAudit(ctx.db.$client, { entityType: 'counter' }).filter((e) => e.actor.type !== 'system')
}

describe('wait-target alerts', () => {
  const deliveries = (ctx: QueueTestContext) =>
    ctx.db.$client.query<{ body: string }, []>("SELECT body FROM webhook_deliveries WHERE event_type = 'queue.wait_target_exceeded' ORDER BY created_at, rowid").all().map((r) => JSON.parse(r.body))

  test('queue.wait_target_exceeded once per crossing, again only after the line dropped back and crossed again; the floor marks it; the metric shows the longest wait', async () => {
    const ctx = await floorContext()
    const first = await issued(ctx)
    ctx.clock.set('2026-11-25T09:05:00Z')
    const second = await issued(ctx)
    const service = managerOf(ctx)
    ctx.clock.set('2026-11-25T09:10:00Z')
    expect(service.watch.check()).toEqual([])
    ctx.clock.set('2026-11-25T09:10:01Z')
    const seen = service.watch.check()
    expect(seen).toEqual([{ queueUnitId: 'qu_main', locationId: 'loc_hall', serviceId: 'svc_accounts', longestWaitSeconds: 601, ticketNumber: first.ticketNumber, ticketId: first.id, waitTargetSeconds: 600 }])
    ctx.clock.set('2026-11-25T09:12:00Z')
    expect(service.watch.check()).toEqual([])
    expect(deliveries(ctx)).toHaveLength(1)
    // Nobody has the floor open: the watch read the lines' heads only, and built no floor (whose
    // wait estimates replay every waiting ticket, once a second while tickets are issued).
    expect([...service.floor.kept()]).toEqual([])
    expect(deliveries(ctx)[0]).toMatchObject({ type: 'queue.wait_target_exceeded', actor: { type: 'system', id: 'wait-target-watch' }, data: seen[0] })
    expect(hall(await floor(ctx, ctx.manager)).services.find((s: any) => s.id === 'svc_accounts').overTarget).toBe(true)

    const metrics = await (await request(ctx.app, 'GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
    expect(metrics).toContain('lobby_longest_wait_seconds{queue_unit="qu_main",location="loc_hall",service="svc_accounts"} 720')
    expect(metrics).toContain('lobby_longest_wait_seconds{queue_unit="qu_main",location="loc_hall",service="svc_loans"} 0')

    // The first ticket is called: the second has waited 7 min, back within target.
    await ok(callNext(ctx, 'cnt_1'))
    expect(service.watch.check()).toEqual([])
    expect(hall(await floor(ctx, ctx.manager)).services.find((s: any) => s.id === 'svc_accounts').overTarget).toBe(false)
    ctx.clock.set('2026-11-25T09:15:01Z')
    expect(service.watch.check().map((e) => e.ticketNumber)).toEqual([second.ticketNumber])
    expect(deliveries(ctx)).toHaveLength(2)
  })
})

/** The app's one ManageService (the root built it). */
function managerOf(ctx: QueueTestContext): ManageService {
  return (ctx.app.decorator as unknown as { manage: ManageService }).manage
}
