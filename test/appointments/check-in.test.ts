import { describe, expect, test } from 'bun:test'
import { APPOINTMENTS, appointmentContext, asKey, booked, jsonOf, request } from './helpers'
import { act, callNext, ok, op } from '../counters/helpers'
import { pairedCookie, asDevice } from '../devices/helpers'
import { AppointmentService } from '../../src/appointments'
import { runRetention } from '../../src/ops/retention'

// Thursday 2026-11-26, 09:00 in Berlin.
const SLOT = '2026-11-26T08:00:00.000Z'
const at = (iso: string) => Date.parse(iso)
/** A walk-in at a counter (staff may issue before opening, contract §18), whose ticket JSON is returned. */
const issued = (ctx: Parameters<typeof op>[0]) => ok(op(ctx, 'POST', '/tickets', { locationId: 'loc_hall', serviceId: 'svc_accounts' }), 201)

describe('check-in (contract §21)', () => {
  test('the appointment is called after walk-ins from before its slot start and before those who came after it', async () => {
    const ctx = appointmentContext()
    const appointment = await booked(ctx, { startAt: SLOT })
    ctx.clock.set('2026-11-26T07:50:00.000Z')
    const before = await issued(ctx)
    ctx.clock.set('2026-11-26T08:02:00.000Z')
    const after1 = await issued(ctx)
    const after2 = await issued(ctx)
    ctx.clock.set('2026-11-26T08:05:00.000Z')
    const checkIn = await asKey(ctx, 'POST', `${APPOINTMENTS}/${appointment.id}/check-in`)
    expect(checkIn.status).toBe(201)
    const { data } = await jsonOf(checkIn)
    expect(data.appointment).toMatchObject({ status: 'CHECKED_IN', ticketId: data.ticket.id, checkedInAt: '2026-11-26T08:05:00.000Z' })
    expect(data.ticket).toMatchObject({ source: 'APPOINTMENT', status: 'WAITING' })
    ctx.clock.set('2026-11-26T08:06:00.000Z')
    const later = await issued(ctx)
    const order: string[] = []
    for (let i = 0; i < 5; i += 1) {
      const called = await ok(callNext(ctx, 'cnt_2'))
      order.push(called.id)
      await ok(act(ctx, called.id, 'no-show'))
    }
    expect(order).toEqual([before.id, data.ticket.id, after1.id, after2.id, later.id])
  })

  test('checked in before any later walk-in: it simply joins the end of the line', async () => {
    const ctx = appointmentContext()
    const appointment = await booked(ctx, { startAt: SLOT })
    ctx.clock.set('2026-11-26T07:40:00.000Z')
    const early = await issued(ctx)
    ctx.clock.set('2026-11-26T07:50:00.000Z')
    const { data } = await jsonOf(await asKey(ctx, 'POST', `${APPOINTMENTS}/${appointment.id}/check-in`))
    ctx.clock.set('2026-11-26T07:55:00.000Z')
    const walkIn = await issued(ctx)
    const first = await ok(callNext(ctx, 'cnt_2'))
    await ok(act(ctx, first.id, 'no-show'))
    const second = await ok(callNext(ctx, 'cnt_2'))
    await ok(act(ctx, second.id, 'no-show'))
    const third = await ok(callNext(ctx, 'cnt_2'))
    expect([first.id, second.id, third.id]).toEqual([early.id, data.ticket.id, walkIn.id])
  })

  test('too early and too late are 409 with the reason; a checked-in booking is not checked in twice', async () => {
    const ctx = appointmentContext()
    const appointment = await booked(ctx, { startAt: SLOT })
    ctx.clock.set('2026-11-26T07:44:59.000Z')
    const early = await asKey(ctx, 'POST', `${APPOINTMENTS}/${appointment.id}/check-in`)
    expect((await jsonOf(early)).error).toMatchObject({ code: 'CHECK_IN_TOO_EARLY', details: [{ message: 'check-in opens at 2026-11-26T07:45:00.000Z' }] })
    ctx.clock.set('2026-11-26T08:10:01.000Z')
    const late = await asKey(ctx, 'POST', `${APPOINTMENTS}/${appointment.id}/check-in`)
    expect(late.status).toBe(409)
    expect((await jsonOf(late)).error.code).toBe('CHECK_IN_TOO_LATE')
    ctx.clock.set('2026-11-26T08:10:00.000Z')
    expect((await asKey(ctx, 'POST', `${APPOINTMENTS}/${appointment.id}/check-in`)).status).toBe(201)
    const twice = await asKey(ctx, 'POST', `${APPOINTMENTS}/${appointment.id}/check-in`)
    expect((await jsonOf(twice)).error.code).toBe('APPOINTMENT_NOT_BOOKED')
  })

  test('a kiosk checks in by the typed code (any case); an unknown code is 404; late offers a normal ticket by its code', async () => {
    const ctx = appointmentContext()
    const kiosk = await pairedCookie(ctx, { role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_hall' })
    const appointment = await booked(ctx, { startAt: SLOT })
    ctx.clock.set('2026-11-26T07:58:00.000Z')
    const unknown = await asDevice(ctx, kiosk, 'POST', '/api/devices/v1/kiosk/appointments/check-in', { code: 'ZZZZZZZZ' })
    expect(unknown.status).toBe(404)
    const response = await asDevice(ctx, kiosk, 'POST', '/api/devices/v1/kiosk/appointments/check-in', { code: appointment.code.toLowerCase() })
    expect(response.status).toBe(201)
    const checkedIn = (await jsonOf(response)).data
    expect(checkedIn.ticket).toMatchObject({ source: 'APPOINTMENT' })
    // Contract §28: the ticket is marked as an appointment, with its slot, on the kiosk and the printed ticket.
    expect(checkedIn.appointmentAt).toBe(SLOT)
    const printed = await (await request(ctx.app, 'GET', checkedIn.printPath, { headers: { cookie: kiosk, 'accept-language': 'en-GB' } })).text()
    expect(printed).toContain('<p class="appointment">Appointment 09:00</p>')
    ctx.clock.set('2026-11-26T08:01:00.000Z') // open: a walk-in's ticket
    const walkIn = await asDevice(ctx, kiosk, 'POST', '/api/devices/v1/kiosk/tickets', { serviceId: 'svc_accounts' }, { 'idempotency-key': 'walk-in-1' })
    const walkInBody = await jsonOf(walkIn)
    expect({ status: walkIn.status, walkInBody }).toMatchObject({ status: 201 })
    const walkInTicket = walkInBody.data
    expect(walkInTicket.appointmentAt).toBeNull()
    expect(await (await request(ctx.app, 'GET', walkInTicket.printPath, { headers: { cookie: kiosk } })).text()).not.toContain('class="appointment"')
    const other = await booked(ctx, { startAt: '2026-11-26T08:15:00.000Z', name: 'Late Comer' })
    ctx.clock.set('2026-11-26T08:26:00.000Z')
    const late = await asDevice(ctx, kiosk, 'POST', '/api/devices/v1/kiosk/appointments/check-in', { code: other.code })
    expect((await jsonOf(late)).error.code).toBe('CHECK_IN_TOO_LATE')
  })
})

describe('missed and erased (contract §21)', () => {
  test('after the check-in window a BOOKED appointment becomes MISSED with appointment.missed', async () => {
    const ctx = appointmentContext()
    const appointment = await booked(ctx, { startAt: SLOT })
    const kept = await booked(ctx, { startAt: SLOT, name: 'Kept' })
    const service = new AppointmentService(ctx.deps)
    ctx.clock.set('2026-11-26T08:05:00.000Z')
    await asKey(ctx, 'POST', `${APPOINTMENTS}/${kept.id}/check-in`)
    ctx.clock.set('2026-11-26T08:10:00.000Z')
    expect(ctx.deps.writes.now(() => service.markMissed(ctx.clock.now()))).toBe(0)
    ctx.clock.set('2026-11-26T08:10:01.000Z')
    expect(ctx.deps.writes.now(() => service.markMissed(ctx.clock.now()))).toBe(1)
    expect(ctx.deps.writes.now(() => service.markMissed(ctx.clock.now()))).toBe(0)
    const list = (await jsonOf(await asKey(ctx, 'GET', `${APPOINTMENTS}?date=2026-11-26&locationId=loc_hall`))).data
    expect(list.map((a: any) => [a.id, a.status])).toEqual([[appointment.id, 'MISSED'], [kept.id, 'CHECKED_IN']])
    const events = ctx.db.$client.query<{ eventType: string }, [string]>('SELECT event_type AS eventType FROM webhook_deliveries WHERE ticket_id = ?1 ORDER BY rowid').all(appointment.id)
    expect(events.map((e) => e.eventType)).toEqual(['appointment.booked', 'appointment.missed'])
  })

  test('retention erases name, phone and e-mail retainDays after the appointment, and only then', async () => {
    const ctx = appointmentContext()
    const appointment = await booked(ctx, { startAt: SLOT, phone: '+49 30 1234567', email: 'a@example.org' })
    const before = await runRetention(ctx.db, 400, at('2026-12-26T08:14:00.000Z'))
    expect(before.appointmentsErased).toBe(0)
    const report = await runRetention(ctx.db, 400, at('2026-12-26T08:15:01.000Z'))
    expect(report.appointmentsErased).toBe(1)
    const row = ctx.db.$client.query<Record<string, unknown>, [string]>('SELECT name, phone, email, dedupe_key AS dedupeKey, erased_at AS erasedAt, status FROM appointments WHERE id = ?1').get(appointment.id)!
    expect(row).toEqual({ name: null, phone: null, email: null, dedupeKey: null, erasedAt: at('2026-12-26T08:15:01.000Z'), status: 'BOOKED' })
  })
})

describe('the report (contract §21)', () => {
  test('booked, kept, missed, late and the wait after check-in per day and service; CSV', async () => {
    const ctx = appointmentContext((doc) => {
      doc.workspaces[0]!.queueUnits![0]!.apiKeys!.find((k) => k.name === 'booker')!.scopes!.push('counter:operate')
      doc.workspaces[0]!.queueUnits![0]!.apiKeys!.push({ name: 'reports', scopes: ['reports:read'] })
    })
    const onTime = await booked(ctx, { startAt: SLOT, name: 'On time' })
    const late = await booked(ctx, { startAt: SLOT, name: 'Late' })
    await booked(ctx, { startAt: SLOT, name: 'Missed' })
    const cancelled = await booked(ctx, { startAt: '2026-11-26T08:15:00.000Z', name: 'Cancelled' })
    await asKey(ctx, 'POST', `${APPOINTMENTS}/${cancelled.id}/cancel`)
    ctx.clock.set('2026-11-26T07:55:00.000Z')
    const t1 = (await jsonOf(await asKey(ctx, 'POST', `${APPOINTMENTS}/${onTime.id}/check-in`))).data.ticket
    ctx.clock.set('2026-11-26T08:01:00.000Z')
    expect((await ok(callNext(ctx, 'cnt_2', ctx.key('booker')))).id).toBe(t1.id)
    ctx.clock.set('2026-11-26T08:04:00.000Z')
    await asKey(ctx, 'POST', `${APPOINTMENTS}/${late.id}/check-in`)
    ctx.clock.set('2026-11-26T09:00:00.000Z')
    ctx.deps.writes.now(() => new AppointmentService(ctx.deps).markMissed(ctx.clock.now()))
    // The readers of reports read it (reports:read); appointments:write alone does not.
    expect((await asKey(ctx, 'GET', '/api/operator/v1/reports/appointments?from=2026-11-26&to=2026-11-26')).status).toBe(403)
    const report = await jsonOf(await asKey(ctx, 'GET', '/api/operator/v1/reports/appointments?from=2026-11-26&to=2026-11-26', 'reports'))
    expect(report.data).toEqual([{ date: '2026-11-26', locationId: 'loc_hall', serviceId: 'svc_accounts', booked: 3, cancelled: 1, kept: 2, missed: 1, late: 1, waitAfterCheckInSeconds: { count: 1, avg: 360, max: 360 } }])
    const csv = await asKey(ctx, 'GET', '/api/operator/v1/reports/appointments/csv?from=2026-11-26&to=2026-11-26', 'reports')
    expect(csv.headers.get('content-type')).toStartWith('text/csv')
    expect(await csv.text()).toBe('date,locationId,serviceId,booked,cancelled,kept,missed,late,waitAfterCheckInSecondsCount,waitAfterCheckInSecondsAvg,waitAfterCheckInSecondsMax\r\n2026-11-26,loc_hall,svc_accounts,3,1,2,1,1,1,360,360\r\n')
  })
})

describe('the desk (contract §21)', () => {
  test('a desk shows today\'s appointments of its services: time, name, checked in or not; a desk may check one in', async () => {
    const ctx = appointmentContext()
    const desk = await pairedCookie(ctx, { role: 'desk', counterId: 'cnt_2' })
    ctx.clock.set('2026-11-26T07:00:00.000Z')
    const first = await booked(ctx, { startAt: SLOT, name: 'Amal Haddad' })
    const second = await booked(ctx, { startAt: '2026-11-26T08:15:00.000Z', name: 'Jonas Weber' })
    const cancelled = await booked(ctx, { startAt: SLOT, name: 'Gone' })
    await asKey(ctx, 'POST', `${APPOINTMENTS}/${cancelled.id}/cancel`)
    await booked(ctx, { startAt: '2026-11-27T08:00:00.000Z', name: 'Tomorrow' })
    ctx.clock.set('2026-11-26T07:50:00.000Z')
    const checkIn = await asDevice(ctx, desk, 'POST', `${APPOINTMENTS}/${first.id}/check-in`)
    expect(checkIn.status).toBe(201)
    expect((await jsonOf(checkIn)).data.appointment.ticketId).toBeTruthy()
    const view = (await jsonOf(await asDevice(ctx, desk, 'GET', '/api/devices/v1/desk'))).data
    expect(view.appointments).toEqual([
      { id: first.id, serviceId: 'svc_accounts', startAt: SLOT, name: 'Amal Haddad', status: 'CHECKED_IN' },
      { id: second.id, serviceId: 'svc_accounts', startAt: '2026-11-26T08:15:00.000Z', name: 'Jonas Weber', status: 'BOOKED' },
    ])
  })
})
