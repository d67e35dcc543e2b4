import { describe, expect, test } from 'bun:test'
import { appointmentContext, booked } from './helpers'
import { TestPeers } from '../join/helpers'
import { issueHeaders, HALL_ACCOUNTS, TICKETS } from '../queue/helpers'
import { request } from '../support/app'
import { BookingCodes, WRONG_CODES_OVERALL, WRONG_CODES_PER_ADDRESS } from '../../src/appointments/codes'
import { RollingWindowLimiter } from '../../src/platform/rate-limit'
import { BOOKINGS_PER_ADDRESS_PER_HOUR } from '../../src/appointments/pages'
import { anonymousBodyBudget } from '../../src/platform/anonymous-forms'
import { bodyBudget } from '../../src/platform/body'

/*
 * Contract §27 on the customer's booking pages: wrong booking codes on any /b/{code} route are
 * bounded per address and overall; the forms are admitted (address window, code) before one
 * byte of their body is read, and read from the anonymous forms' own budget.
 */

const ORIGIN = 'http://localhost'
const SLOT = '2026-11-26T08:00:00.000Z'
/** Of the booking alphabet, never handed out by the test's IDs. */
const WRONG = (i: number) => `WRNG${String(i).padStart(4, '2').replace(/[01]/g, '2')}`.slice(0, 8)

function context() {
  return appointmentContext(() => {}, { clients: new TestPeers() })
}

function get(ctx: ReturnType<typeof context>, path: string, peer: string) {
  return ctx.app.handle(new Request(`${ORIGIN}${path}`, { headers: { 'x-test-peer': peer } }))
}

function post(ctx: ReturnType<typeof context>, path: string, peer: string, body: RequestInit['body'] = '', headers: Record<string, string> = {}) {
  return ctx.app.handle(new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, 'x-test-peer': peer, ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit))
}

/** A body that sends `first` bytes and then waits until `end()` breaks it off. */
function heldBody(first: number) {
  let stop: (() => void) | null = null
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first > 0) controller.enqueue(new Uint8Array(first).fill(0x61))
      stop = () => controller.error(new Error('client gone'))
    },
  })
  return { stream, end: () => stop?.() }
}

async function within<T>(promise: Promise<T>, ms = 2000): Promise<T | 'timeout'> {
  return Promise.race([promise, Bun.sleep(ms).then(() => 'timeout' as const)])
}

describe('wrong booking codes (contract §27)', () => {
  test(`the ${WRONG_CODES_PER_ADDRESS + 1}th wrong code from one address in a minute is 429 in words, on pages and actions alike; other addresses are not held`, async () => {
    const ctx = context()
    const { code } = await booked(ctx, { startAt: SLOT })
    const guesser = '203.0.113.9'
    // Page reads, calendar files and form posts count alike.
    for (let i = 0; i < WRONG_CODES_PER_ADDRESS; i++) {
      const path = [`/b/${WRONG(i)}`, `/b/${WRONG(i)}/calendar.ics`][i % 2]!
      const response = i < 7 ? await get(ctx, path, guesser) : await post(ctx, `/b/${WRONG(i)}/cancel`, guesser)
      expect(response.status).toBe(404)
      expect(await response.text()).toContain('There is no booking with this code.')
    }
    const refused = await get(ctx, `/b/${WRONG(99)}`, guesser)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refused.headers.get('content-type')).toContain('text/html')
    expect(await refused.text()).toContain('Too many wrong booking codes have been tried. Please wait a minute and try again.')
    const action = await post(ctx, `/b/${WRONG(98)}/move`, guesser, 'startAt=x')
    expect(action.status).toBe(429)
    expect(action.headers.get('connection')).toBe('close')
    const arabic = await get(ctx, `/b/${WRONG(97)}?lang=ar`, guesser)
    expect(await arabic.text()).toContain('تمت تجربة رموز حجز خاطئة كثيرة')

    // Another address: its wrong code is a 404, its right code works, and it was never counted.
    expect((await get(ctx, `/b/${WRONG(96)}`, '198.51.100.1')).status).toBe(404)
    for (let i = 0; i < 3 * WRONG_CODES_PER_ADDRESS; i++) expect((await get(ctx, `/b/${code}`, '198.51.100.1')).status).toBe(200)
    expect((await get(ctx, `/b/${code}/calendar.ics`, '198.51.100.1')).status).toBe(200)
    // The guesser's own address is refused even a right code until its Retry-After (the 429
    // would otherwise tell a right code from a wrong one: docs/decisions.md "Booking codes").
    expect((await get(ctx, `/b/${code}`, guesser)).status).toBe(429)
    ctx.clock.advance(61_000)
    expect((await get(ctx, `/b/${code}`, guesser)).status).toBe(200)
    expect((await get(ctx, `/b/${WRONG(95)}`, guesser)).status).toBe(404)
  })

  test(`the ${WRONG_CODES_OVERALL + 1}st wrong code in a minute from many addresses is 429; a right code still works from anywhere`, async () => {
    const ctx = context()
    const { code } = await booked(ctx, { startAt: SLOT })
    const peer = (i: number) => `192.0.2.${i % 250}`
    for (let i = 0; i < WRONG_CODES_OVERALL; i++) {
      const response = await get(ctx, `/b/${WRONG(i)}`, i < 50 ? peer(i) : `2001:db8:${(i).toString(16)}::1`) // each IPv6 client in its own /64 (they are limited per /64)
      expect(response.status).toBe(404)
    }
    const refused = await get(ctx, `/b/${WRONG(100)}`, '198.51.100.200')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.text()).toContain('Too many wrong booking codes')
    expect((await post(ctx, `/b/${WRONG(101)}/cancel`, '198.51.100.201')).status).toBe(429)
    // The overall limit never stops a right code: no guesser can lock every customer out.
    expect((await get(ctx, `/b/${code}`, '198.51.100.200')).status).toBe(200)
    expect((await get(ctx, `/b/${code}`, peer(3))).status).toBe(200)
    const cancelled = await post(ctx, `/b/${code}/cancel`, '198.51.100.202')
    expect(cancelled.status).toBe(303)
    ctx.clock.advance(61_000)
    expect((await get(ctx, `/b/${WRONG(102)}`, '198.51.100.200')).status).toBe(404)
  })

  test('the addresses refused for wrong codes are remembered in a bounded map, each until its Retry-After', () => {
    const codes = new BookingCodes<string>(new RollingWindowLimiter(), (code) => (code === 'RIGHT' ? 'row' : null), 3)
    const status = (address: string, code: string, now: number) => {
      try {
        codes.find(code, address, now)
        return 200
      } catch (error) {
        return (error as { status: number }).status
      }
    }
    for (let a = 0; a < 5; a++) {
      for (let i = 0; i < WRONG_CODES_PER_ADDRESS; i++) expect(status(`192.0.2.${a}`, 'WRONG', 0)).toBe(404)
      expect(status(`192.0.2.${a}`, 'WRONG', 0)).toBe(429)
      expect(codes.refusedAddresses).toBeLessThanOrEqual(3)
    }
    expect(status('192.0.2.4', 'RIGHT', 1000)).toBe(429)
    expect(status('192.0.2.4', 'RIGHT', 61_000)).toBe(200)
    expect(codes.refusedAddresses).toBe(2)
  })
})

describe('the booking forms are admitted before their body (contract §27)', () => {
  test('a change with a wrong code is refused at once, its never-ending body unread, Connection: close', async () => {
    const ctx = context()
    for (const action of ['cancel', 'move', 'check-in']) {
      const body = heldBody(512)
      const response = await within(post(ctx, `/b/${WRONG(1)}/${action}`, '192.0.2.20', body.stream))
      body.end()
      expect(response).not.toBe('timeout')
      const r = response as Response
      expect(r.status).toBe(404)
      expect(r.headers.get('connection')).toBe('close')
      expect(await r.text()).toContain('There is no booking with this code.')
    }
    expect(anonymousBodyBudget.inFlight).toBe(0)
  })

  test(`a booking post over the address's ${BOOKINGS_PER_ADDRESS_PER_HOUR} an hour is 429 at once, its never-ending body unread`, async () => {
    const ctx = context()
    for (let i = 0; i < BOOKINGS_PER_ADDRESS_PER_HOUR; i++) expect((await post(ctx, '/book/loc_hall', '192.0.2.30', 'serviceId=svc_accounts&name=')).status).toBe(422)
    const body = heldBody(100)
    const response = await within(post(ctx, '/book/loc_hall', '192.0.2.30', body.stream))
    body.end()
    expect(response).not.toBe('timeout')
    expect((response as Response).status).toBe(429)
    expect((response as Response).headers.get('connection')).toBe('close')
    expect(await (response as Response).text()).toContain('Please try again in an hour')
  })

  test('a form body is held against the anonymous budget, never the authenticated one: a Queue key still issues', async () => {
    const ctx = context()
    const { code } = await booked(ctx, { startAt: SLOT })
    const body = heldBody(300)
    const pending = post(ctx, `/b/${code}/cancel`, '192.0.2.40', body.stream)
    try {
      await Bun.sleep(50)
      expect(anonymousBodyBudget.inFlight).toBe(300)
      expect(bodyBudget.inFlight).toBe(0)
      const issued = await request(ctx.app, 'POST', TICKETS, { body: HALL_ACCOUNTS, headers: issueHeaders(ctx, ctx.key('all')) })
      expect(issued.status).toBe(201)
    } finally {
      body.end()
    }
    // The customer went away: nothing was changed, and the budget is given back.
    expect((await pending).status).toBe(400)
    expect(anonymousBodyBudget.inFlight).toBe(0)
  })

  test('over 4 KiB is 413 and over the anonymous budget 503 with Retry-After, both in the page\'s words', async () => {
    const ctx = context()
    const { code } = await booked(ctx, { startAt: SLOT })
    const big = await post(ctx, '/book/loc_hall', '192.0.2.50', `name=${'x'.repeat(5000)}`)
    expect(big.status).toBe(413)
    expect(big.headers.get('connection')).toBe('close')
    expect(await big.text()).toContain('The form is too long.')
    const limit = anonymousBodyBudget.limit
    const held = heldBody(0)
    anonymousBodyBudget.limit = 910
    // A declared body that never arrives holds its length from the budget…
    const pending = post(ctx, `/b/${code}/cancel`, '192.0.2.51', held.stream, { 'content-length': '900' })
    try {
      await Bun.sleep(50)
      expect(anonymousBodyBudget.inFlight).toBe(900)
      // …so the next form's does not fit: 503 in words, before its body is read.
      const busy = await post(ctx, `/b/${code}/move`, '192.0.2.52', 'startAt=2026-11-26T08:15:00.000Z')
      expect(busy.status).toBe(503)
      expect(busy.headers.get('retry-after')).toBe('1')
      expect(busy.headers.get('connection')).toBe('close')
      expect(await busy.text()).toContain('The server is busy. Please try again in a moment.')
    } finally {
      held.end()
      anonymousBodyBudget.limit = limit
    }
    await pending
    expect(anonymousBodyBudget.inFlight).toBe(0)
  })
})
