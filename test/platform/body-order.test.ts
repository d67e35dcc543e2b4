import { afterEach, describe, expect, test } from 'bun:test'
import { jsonOf, request } from '../support/app'
import { bodyBudget, KiB } from '../../src/platform/body'
import { PAIR_ATTEMPTS_PER_ADDRESS } from '../../src/devices/routes'
import { issueHeaders, HALL_ACCOUNTS, TICKETS } from '../queue/helpers'
import { ORIGIN, PAIR, pairedCookie } from '../devices/helpers'
import { KIOSK, kioskContext } from '../kiosk/helpers'
import { counterContext } from '../counters/helpers'

/**
 * Contract §23 "No body before a credential": a request's body, declared or chunked, is read
 * only after its credential is checked (pairing: after the address's rate limit), and a request
 * refused before its body is read is answered with `Connection: close`.
 */

/** A body that sends `first` bytes (if any) and then never ends: a prompt answer proves the rest was not waited for. */
function stalledBody(first = 0): ReadableStream<Uint8Array> {
  let sent = false
  return new ReadableStream({
    pull(controller) {
      if (!sent && first > 0) {
        sent = true
        controller.enqueue(new Uint8Array(first).fill(0x20))
        return
      }
      return new Promise(() => {})
    },
  })
}

/** A request with a chunked (no Content-Length) body that never ends. */
function chunkedStalled(path: string, headers: Record<string, string>, first = 0): Request {
  return new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: stalledBody(first), duplex: 'half' } as RequestInit)
}

async function answerWithin(promise: Promise<Response>, ms = 2000): Promise<Response | 'timeout'> {
  return Promise.race([promise, Bun.sleep(ms).then(() => 'timeout' as const)])
}

async function expectRefusedUnread(promise: Promise<Response>, status: number, code: string) {
  const response = await answerWithin(promise)
  expect(response).not.toBe('timeout')
  const r = response as Response
  expect({ status: r.status, code: (await jsonOf(r)).error.code }).toEqual({ status, code })
  expect(r.headers.get('connection')).toBe('close')
  expect(r.headers.get('x-correlation-id')).not.toBeNull()
}

describe('a chunked body is not read before the credential (contract §23)', () => {
  const routes = [
    ['ticket issue', TICKETS, 401, 'AUTHENTICATION_FAILED'],
    ['widget push', '/api/public/v1/widgets/wdg_lobby/data/push', 401, 'AUTHENTICATION_REQUIRED'],
    ['prayer push', '/api/public/v1/prayer-schedules/sources/psrc_centralmosque-0001-london/months', 401, 'AUTHENTICATION_REQUIRED'],
    ['operator call-next', '/api/operator/v1/counters/cnt_1/call-next', 401, 'AUTHENTICATION_FAILED'],
    ['operator walk-in', '/api/operator/v1/tickets', 401, 'AUTHENTICATION_FAILED'],
    ['kiosk tap', `${KIOSK}/tickets`, 401, 'AUTHENTICATION_FAILED'],
  ] as const
  for (const [what, path, status, code] of routes) {
    test(`${what}: no credential and a chunked body that never ends is answered ${status} at once, with Connection: close`, async () => {
      const ctx = await kioskContext()
      await expectRefusedUnread(ctx.app.handle(chunkedStalled(path, { 'idempotency-key': 'key-0123456789' }, 512)), status, code)
      expect(bodyBudget.inFlight).toBe(0)
    })
  }

  test('kiosk tap: no cookie and a declared body that never arrives is 401 at once, with Connection: close', async () => {
    const ctx = await kioskContext()
    const tap = new Request(`http://localhost${KIOSK}/tickets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '200', origin: ORIGIN, 'idempotency-key': 'tap-x' },
      body: stalledBody(),
      duplex: 'half',
    } as RequestInit)
    await expectRefusedUnread(ctx.app.handle(tap), 401, 'AUTHENTICATION_FAILED')
  })

  test('kiosk tap from another Origin is refused before the body', async () => {
    const ctx = await kioskContext()
    await expectRefusedUnread(ctx.app.handle(chunkedStalled(`${KIOSK}/tickets`, { cookie: ctx.kiosk, origin: 'http://evil.example', 'idempotency-key': 'tap-y' })), 403, 'ORIGIN_FORBIDDEN')
  })

  test('a desk refused for its Origin is refused before the body', async () => {
    const ctx = await kioskContext()
    const desk = await pairedCookie(ctx, { role: 'desk', counterId: 'cnt_1' })
    await expectRefusedUnread(ctx.app.handle(chunkedStalled('/api/operator/v1/counters/cnt_1/call-next', { cookie: desk, origin: 'http://evil.example' })), 403, 'ORIGIN_FORBIDDEN')
  })

  test('an authenticated chunked body is still read and used: ticket issue and kiosk tap answer 201', async () => {
    const ctx = await kioskContext()
    const chunked = (text: string) => new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text)
        controller.enqueue(bytes.subarray(0, 5))
        controller.enqueue(bytes.subarray(5))
        controller.close()
      },
    })
    const issue = await ctx.app.handle(new Request(`http://localhost${TICKETS}`, {
      method: 'POST', headers: issueHeaders(ctx, ctx.key('all')), body: chunked(JSON.stringify(HALL_ACCOUNTS)), duplex: 'half',
    } as RequestInit))
    expect(issue.status).toBe(201)
    expect(issue.headers.get('connection')).toBeNull()
    const tap = await ctx.app.handle(new Request(`http://localhost${KIOSK}/tickets`, {
      method: 'POST',
      headers: { cookie: ctx.kiosk, origin: ORIGIN, 'content-type': 'application/json', 'idempotency-key': 'tap-chunked' },
      body: chunked(JSON.stringify({ serviceId: 'svc_accounts' })),
      duplex: 'half',
    } as RequestInit))
    expect(tap.status).toBe(201)
  })

  test('an authenticated chunked body over the route\'s limit is 413 in the envelope, with Connection: close (the rest is never read)', async () => {
    const ctx = await kioskContext()
    const response = await answerWithin(ctx.app.handle(new Request(`http://localhost${TICKETS}`, {
      method: 'POST', headers: issueHeaders(ctx, ctx.key('all')), body: stalledBody(17 * KiB), duplex: 'half',
    } as RequestInit)))
    expect(response).not.toBe('timeout')
    const r = response as Response
    expect(r.status).toBe(413)
    expect((await jsonOf(r)).error.code).toBe('PAYLOAD_TOO_LARGE')
    expect(r.headers.get('connection')).toBe('close')
  })
})

describe('pairing: the body is read only after the address\'s rate limit (contract §23)', () => {
  test(`over ${PAIR_ATTEMPTS_PER_ADDRESS} tries, a chunked body that never ends is 429 at once with Retry-After and Connection: close`, async () => {
    const ctx = counterContext()
    for (let i = 0; i < PAIR_ATTEMPTS_PER_ADDRESS; i++) expect((await request(ctx.app, 'POST', PAIR, { body: { code: 'abcdef' } })).status).toBe(400)
    const response = await answerWithin(ctx.app.handle(chunkedStalled(PAIR, {})))
    expect(response).not.toBe('timeout')
    const r = response as Response
    expect(r.status).toBe(429)
    expect(r.headers.get('retry-after')).not.toBeNull()
    expect(r.headers.get('connection')).toBe('close')
  })

  test('another content type is refused before the body', async () => {
    const ctx = counterContext()
    const response = await answerWithin(ctx.app.handle(new Request(`http://localhost${PAIR}`, {
      method: 'POST', headers: { 'content-type': 'text/plain' }, body: stalledBody(10), duplex: 'half',
    } as RequestInit)))
    expect(response).not.toBe('timeout')
    expect((response as Response).status).toBe(400)
    expect((response as Response).headers.get('connection')).toBe('close')
  })
})

describe('unauthenticated clients cannot take the body budget from authenticated ones (contract §23)', () => {
  const original = bodyBudget.limit
  afterEach(() => {
    bodyBudget.limit = original
  })

  test('with the budget smaller than what 40 stalled unauthenticated chunked bodies send, a ticket issue and a kiosk tap still answer 201', async () => {
    bodyBudget.limit = 32 * KiB
    const ctx = await kioskContext()
    const attackers = Array.from({ length: 40 }, (_, i) => {
      const path = [TICKETS, '/api/public/v1/widgets/wdg_lobby/data/push', `${KIOSK}/tickets`, '/api/operator/v1/tickets'][i % 4]!
      return answerWithin(ctx.app.handle(chunkedStalled(path, { 'idempotency-key': `attack-${i}`, origin: ORIGIN }, 1 * KiB)), 3000)
    })
    await Bun.sleep(50)
    const issue = await request(ctx.app, 'POST', TICKETS, { headers: issueHeaders(ctx, ctx.key('all')), body: HALL_ACCOUNTS })
    expect(issue.status).toBe(201)
    const tap = await request(ctx.app, 'POST', `${KIOSK}/tickets`, { headers: { cookie: ctx.kiosk, origin: ORIGIN, 'idempotency-key': 'tap-under-attack' }, body: { serviceId: 'svc_accounts' } })
    expect(tap.status).toBe(201)
    for (const answer of await Promise.all(attackers)) {
      expect(answer).not.toBe('timeout')
      expect((answer as Response).status).toBe(401)
    }
    expect(bodyBudget.inFlight).toBe(0)
  })
})

describe('Connection: close on every refusal before the body (contract §23)', () => {
  test('a small declared body refused for its credential closes the connection too', async () => {
    const ctx = await kioskContext()
    const response = await ctx.app.handle(new Request(`http://localhost${TICKETS}`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '100' }, body: stalledBody(), duplex: 'half',
    } as RequestInit))
    expect(response.status).toBe(401)
    expect(response.headers.get('connection')).toBe('close')
  })

  test('a declared body over what is left of the budget: 503 SERVER_BUSY with Retry-After and Connection: close', async () => {
    const original = bodyBudget.limit
    bodyBudget.limit = 100
    try {
      const ctx = await kioskContext()
      const response = await request(ctx.app, 'POST', TICKETS, { headers: issueHeaders(ctx, ctx.key('all')), body: { ...HALL_ACCOUNTS, externalReference: 'x'.repeat(200) } })
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('1')
      expect(response.headers.get('connection')).toBe('close')
    } finally {
      bodyBudget.limit = original
    }
  })

  test('a request without a body keeps its connection', async () => {
    const ctx = await kioskContext()
    const response = await request(ctx.app, 'POST', '/api/operator/v1/counters/cnt_1/open')
    expect(response.status).toBe(401)
    expect(response.headers.get('connection')).toBeNull()
  })
})
