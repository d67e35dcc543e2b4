import { describe, expect, test } from 'bun:test'
import { APPOINTMENTS, appointmentContext, asKey, book, booked, jsonOf, request } from './helpers'
import { AppointmentCodes, BOOKING_CODE_ALPHABET } from '../../src/appointments'
import { CHEAP, signedIn, withPassword } from '../people/helpers'

// Thursday 2026-11-26 in Berlin (UTC+1): 09:00 local is 08:00Z.
const THU_0900 = '2026-11-26T08:00:00.000Z'

describe('slots (contract §21)', () => {
  test('slots of slotMinutes inside the hours, with the capacity; past slots of today are not offered', async () => {
    const ctx = appointmentContext()
    const day = await jsonOf(await asKey(ctx, 'GET', `${APPOINTMENTS}/slots?date=2026-11-26&locationId=loc_hall&serviceId=svc_accounts`))
    expect(day.data.timezone).toBe('Europe/Berlin')
    expect(day.data.slots).toHaveLength(24)
    expect(day.data.slots[0]).toEqual({ startAt: THU_0900, endAt: '2026-11-26T08:15:00.000Z', localTime: '09:00', capacity: 3, booked: 0, free: 3 })
    expect(day.data.slots.map((s: any) => s.localTime)).not.toContain('12:00')
    expect(day.data.slots.at(-1).localTime).toBe('15:45')
    // Now is 10:30 in Berlin: today's first offered slot is 10:45.
    const today = await jsonOf(await asKey(ctx, 'GET', `${APPOINTMENTS}/slots?date=2026-11-25&locationId=loc_hall&serviceId=svc_accounts`))
    expect(today.data.slots[0].localTime).toBe('10:45')
    expect(today.data.slots).toHaveLength(5 + 12)
    // Saturday: closed; beyond the 14 days (today + 13): none.
    for (const date of ['2026-11-28', '2026-12-09']) {
      expect((await jsonOf(await asKey(ctx, 'GET', `${APPOINTMENTS}/slots?date=${date}&locationId=loc_hall&serviceId=svc_accounts`))).data.slots).toEqual([])
    }
    expect((await jsonOf(await asKey(ctx, 'GET', `${APPOINTMENTS}/slots?date=2026-12-08&locationId=loc_hall&serviceId=svc_accounts`))).data.slots).toHaveLength(24)
  })

  test('capacity defaults to the service\'s active counters at the location', async () => {
    const ctx = appointmentContext((doc) => { delete doc.workspaces[0]!.queueUnits![0]!.services!.find((s) => s.id === 'svc_accounts')!.appointments!.capacityPerSlot })
    const day = await jsonOf(await asKey(ctx, 'GET', `${APPOINTMENTS}/slots?date=2026-11-26&locationId=loc_hall&serviceId=svc_accounts`))
    expect(day.data.slots[0].capacity).toBe(2)
  })

  test('a service without appointments and a bad date are 422 with the reason', async () => {
    const ctx = appointmentContext()
    const off = await asKey(ctx, 'GET', `${APPOINTMENTS}/slots?date=2026-11-26&locationId=loc_hall&serviceId=svc_loans`)
    expect(off.status).toBe(422)
    expect((await jsonOf(off)).error).toMatchObject({ code: 'SLOT_UNAVAILABLE', details: [{ path: '/serviceId', message: 'APPOINTMENTS_DISABLED' }] })
    const bad = await asKey(ctx, 'GET', `${APPOINTMENTS}/slots?date=2026-02-30&locationId=loc_hall&serviceId=svc_accounts`)
    expect((await jsonOf(bad)).error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/date' }] })
  })
})

describe('booking (contract §21)', () => {
  test('201 with an 8-character code of the unambiguous alphabet and the booking page', async () => {
    const ctx = appointmentContext()
    const data = await booked(ctx, { startAt: THU_0900, phone: '+49 30 1234567' })
    expect(data).toMatchObject({ status: 'BOOKED', startAt: THU_0900, endAt: '2026-11-26T08:15:00.000Z', localDate: '2026-11-26', name: 'Amal Haddad', phone: '+49 30 1234567', email: null, createdBy: { type: 'key' } })
    expect(data.code).toMatch(new RegExp(`^[${BOOKING_CODE_ALPHABET}]{8}$`))
    expect(BOOKING_CODE_ALPHABET).not.toMatch(/[0O1IL]/)
    expect(data.bookingUrl).toBe(`/b/${data.code}`)
    const slots = await jsonOf(await asKey(ctx, 'GET', `${APPOINTMENTS}/slots?date=2026-11-26&locationId=loc_hall&serviceId=svc_accounts`))
    expect(slots.data.slots[0]).toMatchObject({ booked: 1, free: 2 })
    const list = await jsonOf(await asKey(ctx, 'GET', `${APPOINTMENTS}?date=2026-11-26&locationId=loc_hall`))
    expect(list.data.map((a: any) => a.id)).toEqual([data.id])
  })

  test('the last seats: 50 concurrent bookings for 3 seats are exactly 3 × 201 and 47 × 409 SLOT_FULL', async () => {
    const ctx = appointmentContext()
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => book(ctx, { startAt: THU_0900, name: `Customer ${i}` })))
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(3)
    expect(statuses.filter((s) => s === 409)).toHaveLength(47)
    const refused = await jsonOf(responses.find((r) => r.status === 409)!)
    expect(refused.error.code).toBe(AppointmentCodes.SLOT_FULL)
    const count = ctx.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM appointments WHERE status = 'BOOKED'").get()!.n
    expect(count).toBe(3)
  })

  test('outside the hours, off the grid, in the past and beyond the window: 422 naming the reason', async () => {
    const ctx = appointmentContext()
    const reasons: Record<string, string> = {
      '2026-11-26T11:00:00.000Z': 'OUTSIDE_HOURS', // 12:00 in Berlin: the lunch gap
      '2026-11-26T08:05:00.000Z': 'OUTSIDE_HOURS', // 09:05: off the 15-minute grid
      '2026-11-28T09:00:00.000Z': 'OUTSIDE_HOURS', // Saturday
      '2026-11-25T09:00:00.000Z': 'IN_THE_PAST', // 10:00 today, now is 10:30
      '2026-11-25T09:30:00.000Z': 'IN_THE_PAST', // the slot starting now has started
      '2026-12-09T08:00:00.000Z': 'BEYOND_BOOKING_WINDOW', // today + 14
    }
    for (const [startAt, reason] of Object.entries(reasons)) {
      const response = await book(ctx, { startAt })
      expect({ startAt, status: response.status, error: (await jsonOf(response)).error }).toMatchObject({ status: 422, error: { code: 'SLOT_UNAVAILABLE', details: [{ path: '/startAt', message: reason }] } })
    }
    // The last day of the window, and an offset spelling of the same instant, are bookable.
    expect((await book(ctx, { startAt: '2026-12-08T09:00:00+01:00' })).status).toBe(201)
  })

  test('an Idempotency-Key replays the same booking; another body under it is 409', async () => {
    const ctx = appointmentContext()
    const first = await book(ctx, { startAt: THU_0900 }, { idempotencyKey: 'k-1' })
    const again = await book(ctx, { startAt: THU_0900 }, { idempotencyKey: 'k-1' })
    expect(first.status).toBe(201)
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect((await jsonOf(again)).data.id).toBe((await jsonOf(first)).data.id)
    const other = await book(ctx, { startAt: THU_0900, name: 'Someone Else' }, { idempotencyKey: 'k-1' })
    expect(other.status).toBe(409)
    expect((await jsonOf(other)).error.code).toBe('IDEMPOTENCY_KEY_REUSED')
    const missing = await request(ctx.app, 'POST', APPOINTMENTS, { body: { locationId: 'loc_hall', serviceId: 'svc_accounts', name: 'X', startAt: THU_0900 }, headers: { authorization: `Bearer ${ctx.key('booker')}` } })
    expect((await jsonOf(missing)).error).toMatchObject({ code: 'INVALID_REQUEST', details: [{ path: 'Idempotency-Key' }] })
  })

  test('the same name, contact and slot is one booking (spacing and case aside)', async () => {
    const ctx = appointmentContext()
    const first = await booked(ctx, { startAt: THU_0900, phone: '+49 30 1234567' })
    const again = await book(ctx, { startAt: THU_0900, name: '  amal   HADDAD ', phone: '+49-30-1234567' })
    expect(again.status).toBe(200)
    expect((await jsonOf(again)).data.id).toBe(first.id)
    expect((await book(ctx, { startAt: THU_0900, phone: '+49 30 7654321' })).status).toBe(201)
  })

  test('cancelling frees the seat; a second cancel is 409', async () => {
    const ctx = appointmentContext()
    const seats = [await booked(ctx, { startAt: THU_0900, name: 'A' }), await booked(ctx, { startAt: THU_0900, name: 'B' }), await booked(ctx, { startAt: THU_0900, name: 'C' })]
    expect((await book(ctx, { startAt: THU_0900, name: 'D' })).status).toBe(409)
    const cancelled = await asKey(ctx, 'POST', `${APPOINTMENTS}/${seats[1].id}/cancel`)
    expect(cancelled.status).toBe(200)
    expect((await jsonOf(cancelled)).data).toMatchObject({ status: 'CANCELLED' })
    expect((await book(ctx, { startAt: THU_0900, name: 'D' })).status).toBe(201)
    const twice = await asKey(ctx, 'POST', `${APPOINTMENTS}/${seats[1].id}/cancel`)
    expect(twice.status).toBe(409)
    expect((await jsonOf(twice)).error.code).toBe('APPOINTMENT_NOT_BOOKED')
    // B's cancelled booking no longer holds its dedupe key: B books the next freed seat anew.
    const d = (await jsonOf(await asKey(ctx, 'GET', `${APPOINTMENTS}?date=2026-11-26&locationId=loc_hall`))).data.find((a: any) => a.name === 'D')
    await asKey(ctx, 'POST', `${APPOINTMENTS}/${d.id}/cancel`)
    const b = await book(ctx, { startAt: THU_0900, name: 'B' })
    expect(b.status).toBe(201)
    expect((await jsonOf(b)).data.id).not.toBe(seats[1].id)
  })

  test('webhooks: appointment.* only to the endpoint that subscribed, without the phone or e-mail (contract §25)', async () => {
    const ctx = appointmentContext()
    const data = await booked(ctx, { startAt: THU_0900, email: 'amal@example.org' })
    await asKey(ctx, 'POST', `${APPOINTMENTS}/${data.id}/cancel`)
    const rows = ctx.db.$client.query<{ webhookId: string; eventType: string; body: string }, []>('SELECT webhook_id AS webhookId, event_type AS eventType, body FROM webhook_deliveries ORDER BY rowid').all()
    expect(rows.map((r) => [r.webhookId, r.eventType])).toEqual([['whk_appointments', 'appointment.booked'], ['whk_appointments', 'appointment.cancelled']])
    expect(JSON.parse(rows[0]!.body).data).toMatchObject({ id: data.id, name: 'Amal Haddad', phone: null, email: null })
    expect(rows.map((r) => r.body).join('\n')).not.toContain('amal@example.org')
    expect(ctx.logs.map((l) => JSON.stringify(l)).join('\n')).not.toContain('amal@example.org')
    expect(ctx.logs.map((l) => JSON.stringify(l)).join('\n')).not.toContain(data.code)
  })
})

describe('who may (contract §21)', () => {
  test('no credential 401; a key without appointments:write 403; another key sees nothing of other locations', async () => {
    const ctx = appointmentContext()
    const none = await request(ctx.app, 'GET', `${APPOINTMENTS}?date=2026-11-26&locationId=loc_hall`)
    expect(none.status).toBe(401)
    const noScope = await asKey(ctx, 'GET', `${APPOINTMENTS}?date=2026-11-26&locationId=loc_hall`, 'operator')
    expect(noScope.status).toBe(403)
    expect((await jsonOf(noScope)).error.code).toBe('SCOPE_FORBIDDEN')
    const noBook = await book(ctx, { startAt: THU_0900 }, { key: 'operator' })
    expect(noBook.status).toBe(403)
  })
})

describe('sessions (contract §16, §21)', () => {
  test("a manager of the unit may book; a clerk's session is 403 ROLE_FORBIDDEN; a session post needs the Origin", async () => {
    const ctx = appointmentContext(() => {}, { passwordCost: CHEAP })
    await withPassword(ctx, { username: 'maria', role: 'manager', queueUnits: ['qu_main'] })
    await withPassword(ctx, { username: 'carl', role: 'clerk', queueUnits: ['qu_main'] })
    const manager = await signedIn(ctx, 'maria')
    const clerk = await signedIn(ctx, 'carl')
    const body = { locationId: 'loc_hall', serviceId: 'svc_accounts', name: 'Amal', startAt: THU_0900 }
    const noOrigin = await request(ctx.app, 'POST', APPOINTMENTS, { body, headers: { cookie: manager, 'idempotency-key': 's-1' } })
    expect(noOrigin.status).toBe(403)
    expect((await jsonOf(noOrigin)).error.code).toBe('ORIGIN_FORBIDDEN')
    const ok = await request(ctx.app, 'POST', APPOINTMENTS, { body, headers: { cookie: manager, origin: 'http://localhost', 'idempotency-key': 's-1' } })
    expect(ok.status).toBe(201)
    expect((await jsonOf(ok)).data.createdBy).toEqual({ type: 'user', id: 'maria' })
    const byClerk = await request(ctx.app, 'GET', `${APPOINTMENTS}?date=2026-11-26&locationId=loc_hall`, { headers: { cookie: clerk } })
    expect(byClerk.status).toBe(403)
    expect((await jsonOf(byClerk)).error.code).toBe('ROLE_FORBIDDEN')
  })
})
