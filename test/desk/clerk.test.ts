import { describe, expect, test } from 'bun:test'
import { request } from '../support/app'
import { callNext, counterContext, issued, ok, OP, op } from '../counters/helpers'
import { withPassword } from '../people/helpers'
import { asDevice, jsonOf, pairedCookie } from '../devices/helpers'
import { mainUnit } from '../queue/helpers'
import { CounterCodes } from '../../src/counters/errors'
import { DeskClerkCodes } from '../../src/desk/errors'
import { DailyClose } from '../../src/counters/daily-close'
import { dayEnd } from '../../src/people'
import { CLERK_PATH, clerkContext, deskOf, deskView, intervals, PIN, signedInAt, signInAt, signOutAt } from './helpers'

describe('a clerk signs in at a paired desk (contract §16)', () => {
  test('username and PIN: 200 with the clerk; the desk view and its credential carry them; an open signed_in interval', async () => {
    const ctx = await clerkContext()
    const desk = await deskOf(ctx)
    const response = await signInAt(ctx, desk, 'Samir.K ')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await jsonOf(response)).toEqual({ data: { username: 'samir.k', displayName: 'Samir Khoury' } })
    const view = await deskView(ctx, desk)
    expect(view.clerk).toEqual({ username: 'samir.k', displayName: 'Samir Khoury' })
    expect(view.deskSignIn).toBe('optional')
    expect(view.breakReasons).toEqual(['Break', 'Lunch', 'Admin work', 'Other'])
    const device = ctx.db.$client.query("SELECT credential_id AS id FROM devices WHERE role = 'desk'").get() as { id: string }
    expect(intervals(ctx)).toEqual([{
      username: 'samir.k', kind: 'signed_in', reason: null, counterId: 'cnt_1', businessDay: '2026-11-25',
      startedAt: ctx.clock.now(), endedAt: null, deviceId: device.id,
    }])
    // Never a PIN in a log line.
    expect(JSON.stringify(ctx.logs)).not.toContain(PIN)
    expect(ctx.logs).toContainEqual(expect.objectContaining({ msg: 'clerk signed in at a desk', username: 'samir.k' }))
  })

  test('a desk without a clerk shows clerk null and the unit\'s deskSignIn and breakReasons as provisioned', async () => {
    const ctx = await clerkContext((doc) => {
      mainUnit(doc).deskSignIn = 'required'
      mainUnit(doc).breakReasons = ['Prayer', 'Lunch']
    })
    const view = await deskView(ctx, await deskOf(ctx))
    expect({ clerk: view.clerk, deskSignIn: view.deskSignIn, breakReasons: view.breakReasons }).toEqual({ clerk: null, deskSignIn: 'required', breakReasons: ['Prayer', 'Lunch'] })
  })

  test('wrong PIN and unknown user: the same 401 SIGN_IN_FAILED; a manager, a clerk of another unit, a malformed PIN too', async () => {
    const ctx = await clerkContext()
    const desk = await deskOf(ctx)
    const answers = []
    for (const [username, pin] of [['samir.k', '111111'], ['nobody.here', PIN], ['amira.h', PIN], ['omar.t', PIN], ['samir.k', '48291']] as const) {
      const response = await signInAt(ctx, desk, username, pin)
      answers.push({ status: response.status, body: await jsonOf(response) })
    }
    for (const answer of answers) {
      expect(answer).toEqual({ status: 401, body: { error: expect.objectContaining({ code: DeskClerkCodes.SIGN_IN_FAILED, message: 'wrong username or PIN' }) } })
    }
    expect(new Set(answers.map((a) => JSON.stringify({ ...a.body.error, correlationId: undefined }))).size).toBe(1)
    expect(intervals(ctx)).toEqual([])
    expect(JSON.stringify(ctx.logs)).not.toContain('nobody.here')
  })

  test('an unknown user takes about as long as a wrong PIN (one Argon2 verification either way)', async () => {
    // The server's own cost, so a verification dominates the time as it does in production.
    const ctx = counterContext(() => {}, { passwordCost: { memoryCost: 19_456, timeCost: 2 } })
    const TRIES = 8
    const names = Array.from({ length: TRIES + 1 }, (_, i) => `clerk${i}`)
    for (const username of names) await withPassword(ctx, { username, role: 'clerk', queueUnits: ['qu_main'] })
    const desk = await deskOf(ctx)
    // Warm both paths once (the dummy hash is made on first use).
    await signInAt(ctx, desk, 'nobody-warm', '000000')
    await signInAt(ctx, desk, names[TRIES]!, '000000')
    let wrong = 0
    let unknown = 0
    for (let i = 0; i < TRIES; i++) {
      // Interleaved, each username once: no lockout, and a slow moment of the machine hits both.
      let t = performance.now()
      expect((await signInAt(ctx, desk, names[i]!, '000000')).status).toBe(401)
      wrong += performance.now() - t
      t = performance.now()
      expect((await signInAt(ctx, desk, `nobody${i}`, '000000')).status).toBe(401)
      unknown += performance.now() - t
      // Under the address's 20 failures a minute.
      ctx.clock.advance(10_000)
    }
    const ratio = unknown / wrong
    expect(ratio).toBeGreaterThan(0.6)
    expect(ratio).toBeLessThan(1 / 0.6)
  }, 60_000)

  test('5 wrong PINs in 15 minutes lock the clerk\'s PIN for 15 minutes: the right PIN is refused with 429 and Retry-After; the password still works; then it works again', async () => {
    const ctx = await clerkContext()
    const desk = await deskOf(ctx)
    for (let i = 0; i < 5; i++) {
      expect((await signInAt(ctx, desk, 'samir.k', '000000')).status).toBe(401)
      ctx.clock.advance(1000)
    }
    const locked = await signInAt(ctx, desk, 'samir.k')
    expect(locked.status).toBe(429)
    expect((await jsonOf(locked)).error.code).toBe(DeskClerkCodes.SIGN_IN_LOCKED)
    expect(Number(locked.headers.get('retry-after'))).toBe(15 * 60 - 5)
    // The PIN's lock is its own: the clerk's password sign-in is not locked, nor another clerk's PIN.
    const password = await request(ctx.app, 'POST', '/api/auth/v1/sessions', { body: { username: 'samir.k', password: 'quiet lantern 42 orchard' } })
    expect(password.status).toBe(200)
    await signedInAt(ctx, desk, 'lina.m')
    ctx.clock.advance(15 * 60_000)
    await signedInAt(ctx, desk, 'samir.k')
  })

  test('a PIN works only on a paired desk: no cookie, a Queue key, a kiosk\'s cookie are 401', async () => {
    const ctx = await clerkContext()
    const body = { username: 'samir.k', pin: PIN }
    const none = await request(ctx.app, 'POST', CLERK_PATH, { body, headers: { origin: 'http://localhost' } })
    expect(none.status).toBe(401)
    expect((await jsonOf(none)).error.code).toBe(DeskClerkCodes.AUTHENTICATION_FAILED)
    const key = await request(ctx.app, 'POST', CLERK_PATH, { body, headers: { origin: 'http://localhost', authorization: `Bearer ${ctx.key('operator')}` } })
    expect(key.status).toBe(401)
    const kiosk = await pairedCookie(ctx, { role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_hall' })
    expect((await asDevice(ctx, kiosk, 'POST', CLERK_PATH, body)).status).toBe(401)
    expect(intervals(ctx)).toEqual([])
  })

  test('the Origin rule: a sign-in or sign-out from another origin (or none) is 403 ORIGIN_FORBIDDEN, before the body is read', async () => {
    const ctx = await clerkContext()
    const desk = await deskOf(ctx)
    for (const origin of ['http://evil.example', undefined]) {
      const headers: Record<string, string> = { cookie: desk, ...(origin === undefined ? {} : { origin }) }
      const signIn = await request(ctx.app, 'POST', CLERK_PATH, { body: { username: 'samir.k', pin: PIN }, headers })
      expect({ status: signIn.status, code: (await jsonOf(signIn)).error.code }).toEqual({ status: 403, code: DeskClerkCodes.ORIGIN_FORBIDDEN })
      const signOut = await request(ctx.app, 'DELETE', CLERK_PATH, { headers })
      expect({ status: signOut.status, code: (await jsonOf(signOut)).error.code }).toEqual({ status: 403, code: DeskClerkCodes.ORIGIN_FORBIDDEN })
    }
    expect(intervals(ctx)).toEqual([])
  })

  test('bad bodies: 400 without JSON Content-Type, 422 with the field\'s pointer', async () => {
    const ctx = await clerkContext()
    const desk = await deskOf(ctx)
    const text = await asDevice(ctx, desk, 'POST', CLERK_PATH, undefined, { 'content-type': 'text/plain' })
    expect(text.status).toBe(400)
    const missing = await asDevice(ctx, desk, 'POST', CLERK_PATH, { username: 'samir.k' })
    expect(missing.status).toBe(422)
    expect((await jsonOf(missing)).error.details.map((d: { path: string }) => d.path)).toContain('/pin')
  })

  test('sign out: the interval ends, the view shows nobody; signing out again answers signedOut null', async () => {
    const ctx = await clerkContext()
    const desk = await deskOf(ctx)
    await signedInAt(ctx, desk, 'samir.k')
    ctx.clock.advance(60_000)
    const out = await signOutAt(ctx, desk)
    expect(out.status).toBe(200)
    expect(await jsonOf(out)).toEqual({ data: { signedOut: 'samir.k' } })
    expect((await deskView(ctx, desk)).clerk).toBeNull()
    expect(intervals(ctx)[0]!.endedAt).toBe(ctx.clock.now())
    expect(await jsonOf(await signOutAt(ctx, desk))).toEqual({ data: { signedOut: null } })
  })

  test('signing in at another desk ends the sign-in at the first; another clerk at the same counter ends the earlier one', async () => {
    const ctx = await clerkContext()
    const desk1 = await deskOf(ctx, 'cnt_1', 'desk-one')
    const desk2 = await deskOf(ctx, 'cnt_2', 'desk-two')
    await signedInAt(ctx, desk1, 'samir.k')
    ctx.clock.advance(1000)
    await signedInAt(ctx, desk2, 'samir.k')
    expect((await deskView(ctx, desk1)).clerk).toBeNull()
    expect((await deskView(ctx, desk2)).clerk.username).toBe('samir.k')
    ctx.clock.advance(1000)
    await signedInAt(ctx, desk2, 'lina.m')
    expect((await deskView(ctx, desk2)).clerk.username).toBe('lina.m')
    expect(intervals(ctx).map((i) => `${i.username}@${i.counterId}:${i.endedAt === null ? 'open' : 'ended'}`)).toEqual([
      'samir.k@cnt_1:ended', 'samir.k@cnt_2:ended', 'lina.m@cnt_2:open',
    ])
  })

  test('a disabled clerk no longer counts as signed in, and their interval ends; a reset (no PIN any more) too', async () => {
    const ctx = await clerkContext()
    const desk = await deskOf(ctx)
    await signedInAt(ctx, desk, 'samir.k')
    const { PeopleService } = await import('../../src/people')
    const people = new PeopleService({ db: ctx.db, clock: ctx.clock, ids: ctx.deps.ids })
    people.disableUser('samir.k')
    expect((await deskView(ctx, desk)).clerk).toBeNull()
    expect(intervals(ctx)[0]!.endedAt).toBe(ctx.clock.now())
    ctx.clock.advance(1000)
    await signedInAt(ctx, desk, 'lina.m')
    ctx.clock.advance(1000)
    people.resetUser('lina.m', ctx.clock.now())
    expect((await deskView(ctx, desk)).clerk).toBeNull()
    expect(intervals(ctx)[1]).toMatchObject({ username: 'lina.m', endedAt: ctx.clock.now() })
  })
})

describe('deskSignIn: required', () => {
  test('without a clerk every operator call of the desk is 403 CLERK_SIGN_IN_REQUIRED; reads and a Queue key are not affected; after a sign-in it works', async () => {
    const ctx = await clerkContext((doc) => { mainUnit(doc).deskSignIn = 'required' })
    const desk = await deskOf(ctx)
    const ticket = await issued(ctx)
    const calls: [string, unknown][] = [
      [`${OP}/counters/cnt_1/call-next`, undefined],
      [`${OP}/counters/cnt_1/open`, undefined],
      [`${OP}/counters/cnt_1/close`, undefined],
      [`${OP}/tickets/${ticket.id}/call`, { counterId: 'cnt_1' }],
      [`${OP}/tickets/${ticket.id}/recall`, undefined],
      [`${OP}/tickets/${ticket.id}/start`, undefined],
      [`${OP}/tickets/${ticket.id}/complete`, undefined],
      [`${OP}/tickets/${ticket.id}/no-show`, undefined],
      [`${OP}/tickets/${ticket.id}/cancel`, undefined],
      [`${OP}/tickets/${ticket.id}/requeue`, { position: 'LAST' }],
      [`${OP}/tickets/${ticket.id}/reinstate`, { position: 'FIRST' }],
      [`${OP}/tickets/${ticket.id}/transfer`, { serviceId: 'svc_loans' }],
      [`${OP}/tickets`, { locationId: 'loc_hall', serviceId: 'svc_accounts' }],
    ]
    for (const [path, body] of calls) {
      const response = await asDevice(ctx, desk, 'POST', path, body)
      expect({ path, status: response.status, code: (await jsonOf(response)).error?.code }).toEqual({ path, status: 403, code: CounterCodes.CLERK_SIGN_IN_REQUIRED })
    }
    expect((await asDevice(ctx, desk, 'GET', `${OP}/queue`)).status).toBe(200)
    expect((await deskView(ctx, desk)).clerk).toBeNull()
    // A Queue key is not a desk.
    await ok(callNext(ctx, 'cnt_2'))
    await ok(op(ctx, 'POST', `/tickets/${ticket.id}/requeue`, { position: 'FIRST' }))
    await signedInAt(ctx, desk, 'samir.k')
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`))
    const called = await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/call-next`))
    expect(called.id).toBe(ticket.id)
    // Signing out locks the desk again.
    await signOutAt(ctx, desk)
    expect((await asDevice(ctx, desk, 'POST', `${OP}/tickets/${ticket.id}/start`)).status).toBe(403)
  })
})

describe('breaks: Close counter with a reason (contract §16)', () => {
  test('close with a reason signs the clerk out and starts a break with it; opening again ends the break', async () => {
    const ctx = await clerkContext()
    const desk = await deskOf(ctx)
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`))
    await signedInAt(ctx, desk, 'samir.k')
    ctx.clock.advance(3_600_000)
    const closedAt = ctx.clock.now()
    const closed = await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/close`, { reason: 'Lunch' }))
    expect(closed.open).toBe(false)
    expect((await deskView(ctx, desk)).clerk).toBeNull()
    expect(intervals(ctx).map(({ username, kind, reason, endedAt }) => ({ username, kind, reason, endedAt }))).toEqual([
      { username: 'samir.k', kind: 'signed_in', reason: null, endedAt: closedAt },
      { username: 'samir.k', kind: 'break', reason: 'Lunch', endedAt: null },
    ])
    expect(intervals(ctx)[1]!.deviceId).toBeNull()
    ctx.clock.advance(1_800_000)
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`))
    expect(intervals(ctx)[1]!.endedAt).toBe(ctx.clock.now())
  })

  test('a break also ends when the clerk signs in anywhere; a call that opens the counter ends breaks there', async () => {
    const ctx = await clerkContext()
    const desk1 = await deskOf(ctx, 'cnt_1', 'desk-one')
    const desk2 = await deskOf(ctx, 'cnt_2', 'desk-two')
    await ok(asDevice(ctx, desk1, 'POST', `${OP}/counters/cnt_1/open`))
    await signedInAt(ctx, desk1, 'samir.k')
    await ok(asDevice(ctx, desk1, 'POST', `${OP}/counters/cnt_1/close`, { reason: 'Break' }))
    ctx.clock.advance(600_000)
    await signedInAt(ctx, desk2, 'samir.k')
    expect(intervals(ctx).filter((i) => i.kind === 'break').map((i) => i.endedAt)).toEqual([ctx.clock.now()])

    await ok(asDevice(ctx, desk2, 'POST', `${OP}/counters/cnt_2/close`, { reason: 'Admin work' }))
    await issued(ctx)
    ctx.clock.advance(60_000)
    await ok(asDevice(ctx, desk2, 'POST', `${OP}/counters/cnt_2/open`))
    await ok(asDevice(ctx, desk2, 'POST', `${OP}/counters/cnt_2/call-next`))
    expect(intervals(ctx).filter((i) => i.kind === 'break').every((i) => i.endedAt !== null)).toBe(true)
  })

  test('a reason not among the unit\'s breakReasons: 422 on /reason, nothing changed; no body and {} still close', async () => {
    const ctx = await clerkContext((doc) => { mainUnit(doc).breakReasons = ['Prayer', 'Lunch'] })
    const desk = await deskOf(ctx)
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`))
    await signedInAt(ctx, desk, 'samir.k')
    for (const reason of ['Break', 'lunch', '']) {
      const response = await asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/close`, { reason })
      expect(response.status).toBe(422)
      const body = await jsonOf(response)
      expect(body.error.code).toBe(CounterCodes.VALIDATION_FAILED)
      expect(body.error.details.map((d: { path: string }) => d.path)).toEqual(['/reason'])
    }
    const unknownField = await asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/close`, { reason: 'Lunch', why: 'x' })
    expect(unknownField.status).toBe(422)
    expect(intervals(ctx).map((i) => i.endedAt)).toEqual([null])
    expect((await deskView(ctx, desk)).counter.open).toBe(true)
    // A Queue key closes without a body, as in Part two; with a clerk signed in, they sign out without a break.
    expect((await ok(op(ctx, 'POST', '/counters/cnt_1/close'))).open).toBe(false)
    expect(intervals(ctx).map((i) => `${i.kind}:${i.endedAt === null ? 'open' : 'ended'}`)).toEqual(['signed_in:ended'])
    await ok(op(ctx, 'POST', '/counters/cnt_1/open'))
    expect((await ok(op(ctx, 'POST', '/counters/cnt_1/close', {}))).open).toBe(false)
  })

  test('a closing refused while the counter holds a ticket keeps the clerk signed in', async () => {
    const ctx = await clerkContext()
    const desk = await deskOf(ctx)
    await signedInAt(ctx, desk, 'samir.k')
    await issued(ctx)
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`))
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/call-next`))
    const refused = await asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/close`, { reason: 'Lunch' })
    expect(refused.status).toBe(409)
    expect(intervals(ctx).map((i) => `${i.kind}:${i.endedAt}`)).toEqual(['signed_in:null'])
  })
})

describe('the end of the business day', () => {
  test('ends every open interval of the location at its local midnight (Europe/London) and signs clerks out', async () => {
    const ctx = await clerkContext((doc) => {
      for (const location of mainUnit(doc).locations!) location.timezone = 'Europe/London'
    })
    ctx.clock.set('2026-11-25T16:00:00.000Z')
    const desk1 = await deskOf(ctx, 'cnt_1', 'desk-one')
    const desk2 = await deskOf(ctx, 'cnt_2', 'desk-two')
    await ok(asDevice(ctx, desk1, 'POST', `${OP}/counters/cnt_1/open`))
    await signedInAt(ctx, desk1, 'samir.k')
    await ok(asDevice(ctx, desk1, 'POST', `${OP}/counters/cnt_1/close`, { reason: 'Other' }))
    await signedInAt(ctx, desk2, 'lina.m')
    // Nothing is due before midnight.
    ctx.clock.set('2026-11-25T23:59:59.000Z')
    expect(new DailyClose(ctx.deps).runDue(ctx.clock.now())).toEqual([])
    // The close runs late (after downtime): the intervals still end at the local midnight.
    ctx.clock.set('2026-11-26T03:10:00.000Z')
    const result = new DailyClose(ctx.deps).runDue(ctx.clock.now())
    expect(result).toMatchObject([{ locationId: 'loc_hall', businessDay: '2026-11-26', staffIntervalsEnded: 2 }])
    const midnight = Date.parse('2026-11-26T00:00:00.000Z')
    expect(intervals(ctx).map((i) => `${i.username}:${i.kind}:${i.businessDay}:${i.endedAt === null ? 'open' : new Date(i.endedAt).toISOString()}`)).toEqual([
      `samir.k:signed_in:2026-11-25:${new Date(Date.parse('2026-11-25T16:00:00.000Z')).toISOString()}`,
      `samir.k:break:2026-11-25:${new Date(midnight).toISOString()}`,
      `lina.m:signed_in:2026-11-25:${new Date(midnight).toISOString()}`,
    ])
    expect((await deskView(ctx, desk2)).clerk).toBeNull()
    expect(new DailyClose(ctx.deps).runDue(ctx.clock.now())).toEqual([])
  })

  test('a day ends at its local midnight: London in winter and summer, both changes of clock, India, and Santiago whose midnight the change skips', () => {
    const later = Date.parse('2027-01-01T00:00:00Z')
    const ends = (day: string, zone: string) => new Date(dayEnd(day, zone, later)).toISOString()
    expect(ends('2026-11-25', 'Europe/London')).toBe('2026-11-26T00:00:00.000Z')
    expect(ends('2026-07-01', 'Europe/London')).toBe('2026-07-01T23:00:00.000Z')
    expect(ends('2026-03-28', 'Europe/London')).toBe('2026-03-29T00:00:00.000Z')
    expect(ends('2026-10-25', 'Europe/London')).toBe('2026-10-26T00:00:00.000Z')
    expect(ends('2026-11-25', 'Asia/Kolkata')).toBe('2026-11-25T18:30:00.000Z')
    // 2026-09-06 00:00 does not exist in Santiago: the clocks go from 23:59:59 (-04) to 01:00 (-03).
    expect(ends('2026-09-05', 'America/Santiago')).toBe('2026-09-06T04:00:00.000Z')
    // Never after now.
    expect(dayEnd('2026-11-25', 'Europe/London', Date.parse('2026-11-25T20:00:00Z'))).toBe(Date.parse('2026-11-25T20:00:00Z'))
  })

  test('in summer time the day ends at 23:00 UTC (BST)', async () => {
    const ctx = await clerkContext((doc) => {
      for (const location of mainUnit(doc).locations!) location.timezone = 'Europe/London'
    })
    ctx.clock.set('2026-07-01T10:00:00.000Z')
    const desk = await deskOf(ctx)
    await signedInAt(ctx, desk, 'samir.k')
    ctx.clock.set('2026-07-02T08:00:00.000Z')
    new DailyClose(ctx.deps).runDue(ctx.clock.now())
    expect(intervals(ctx)[0]!.endedAt).toBe(Date.parse('2026-07-01T23:00:00.000Z'))
  })
})

describe('what the desk\'s clerk leaves behind', () => {
  test('the ticket events carry actor clerk:<username>; the staff report counts the sign-in, the served ticket and the break by reason', async () => {
    const ctx = await clerkContext((doc) => { mainUnit(doc).apiKeys!.push({ name: 'reports', scopes: ['reports:read'] }) })
    const desk = await deskOf(ctx)
    const ticket = await issued(ctx)
    await signedInAt(ctx, desk, 'samir.k')
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`))
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/call-next`))
    ctx.clock.advance(60_000)
    await ok(asDevice(ctx, desk, 'POST', `${OP}/tickets/${ticket.id}/start`))
    ctx.clock.advance(240_000)
    await ok(asDevice(ctx, desk, 'POST', `${OP}/tickets/${ticket.id}/complete`))
    const actors = ctx.db.$client.query("SELECT actor FROM ticket_events WHERE ticket_id = ? AND type != 'created' ORDER BY id").all(ticket.id) as { actor: string }[]
    expect(actors.map((a) => a.actor)).toEqual(['clerk:samir.k', 'clerk:samir.k', 'clerk:samir.k'])
    ctx.clock.advance(3_300_000)
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/close`, { reason: 'Lunch' }))
    ctx.clock.advance(1_800_000)
    await ok(asDevice(ctx, desk, 'POST', `${OP}/counters/cnt_1/open`))
    const report = await request(ctx.app, 'GET', `${OP}/reports/staff?from=2026-11-25&to=2026-11-25`, { headers: { authorization: `Bearer ${ctx.key('reports')}` } })
    expect(report.status).toBe(200)
    expect((await jsonOf(report)).data).toEqual([expect.objectContaining({
      date: '2026-11-25', username: 'samir.k', displayName: 'Samir Khoury', served: 1, noShow: 0, signedInSeconds: 3600, breakSeconds: { Lunch: 1800 },
    })])
  })
})
