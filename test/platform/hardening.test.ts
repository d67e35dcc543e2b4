import { afterEach, describe, expect, test } from 'bun:test'
import { testContext, jsonOf } from '../support/app'
import { bodyBudget, readBodyLimited, MiB } from '../../src/platform/body'

/** A body that never ends: reading it would hang, so a prompt answer proves it was not read. */
function endlessBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({ pull: () => new Promise(() => {}) })
}

/** Resolves with the response, or with "timeout" when the app is still waiting (for the body) after `ms`. */
async function answerWithin(promise: Promise<Response>, ms: number): Promise<Response | 'timeout'> {
  return Promise.race([promise, Bun.sleep(ms).then(() => 'timeout' as const)])
}

describe('a body is not read before the header checks refuse the request (issue 16)', () => {
  const routes = [
    ['widget push', '/api/public/v1/widgets/wdg_lobby/data/push', 401, 'AUTHENTICATION_REQUIRED'],
    ['prayer push', '/api/public/v1/prayer-schedules/sources/psrc_centralmosque-0001-london/months', 401, 'AUTHENTICATION_REQUIRED'],
    ['ticket issue', '/api/public/v1/queue/tickets', 401, 'AUTHENTICATION_FAILED'],
    ['operator call-next', '/api/operator/v1/counters/cnt_1/call-next', 401, 'AUTHENTICATION_FAILED'],
  ] as const
  for (const [what, path, status, code] of routes) {
    test(`${what}: no credential and a declared 1000-byte body that never arrives is answered ${status} at once`, async () => {
      const { app } = testContext()
      const request = new Request(`http://localhost${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '1000' },
        body: endlessBody(),
        duplex: 'half',
      })
      const response = await answerWithin(app.handle(request), 2000)
      expect(response).not.toBe('timeout')
      const r = response as Response
      expect(r.status).toBe(status)
      expect((await jsonOf(r)).error.code).toBe(code)
    })
  }

  test('a wrong key is refused the same way (403 on widget push) before the body is read', async () => {
    const { app } = testContext()
    const request = new Request('http://localhost/api/public/v1/widgets/wdg_lobby/data/push', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '1000', authorization: 'Bearer lbw_not_a_key' },
      body: endlessBody(),
      duplex: 'half',
    })
    const response = await answerWithin(app.handle(request), 2000)
    expect(response).not.toBe('timeout')
    expect((response as Response).status).toBe(403)
  })
})

describe('a refused body that was never read closes the connection', () => {
  const refuse = (length: number) =>
    testContext().app.handle(new Request('http://localhost/api/public/v1/widgets/wdg_lobby/data/push', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(length) },
      body: endlessBody(),
      duplex: 'half',
    } as RequestInit))

  test('64 KiB or more: Connection: close, so the server does not receive and discard it', async () => {
    const response = await refuse(64 * 1024)
    expect(response.status).toBe(401)
    expect(response.headers.get('connection')).toBe('close')
  })

  test('a small one closes it too (contract §23: every request refused before its body is read)', async () => {
    const response = await refuse(1000)
    expect(response.status).toBe(401)
    expect(response.headers.get('connection')).toBe('close')
  })
})

describe('two Authorization headers on the workspace routes are 400 MULTIPLE_CREDENTIALS (contract §4, §5)', () => {
  for (const [what, path] of [
    ['widget push', '/api/public/v1/widgets/wdg_lobby/data/push'],
    ['prayer push', '/api/public/v1/prayer-schedules/sources/psrc_centralmosque-0001-london/months'],
  ] as const) {
    test(what, async () => {
      const { app } = testContext()
      const headers = new Headers({ 'content-type': 'application/json', 'idempotency-key': 'key-0123456789' })
      headers.append('authorization', 'Bearer lbw_aaaaaaaaaaaaaaaa')
      headers.append('authorization', 'Bearer lbw_bbbbbbbbbbbbbbbb')
      const response = await app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers, body: '{}' }))
      expect(response.status).toBe(400)
      expect((await jsonOf(response)).error.code).toBe('MULTIPLE_CREDENTIALS')
      const apiKeys = new Headers({ 'content-type': 'application/json', 'idempotency-key': 'key-0123456789' })
      apiKeys.append('x-service-api-key', 'lbw_aaaaaaaaaaaaaaaa')
      apiKeys.append('x-service-api-key', 'lbw_bbbbbbbbbbbbbbbb')
      const twoApiKeys = await app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers: apiKeys, body: '{}' }))
      expect(twoApiKeys.status).toBe(400)
      expect((await jsonOf(twoApiKeys)).error.code).toBe('MULTIPLE_CREDENTIALS')
      // A declared size is checked before the credential: two keys and a declared body over the limit are 413.
      const declared = new Headers(headers)
      declared.set('content-length', String(2 * MiB))
      const oversized = await app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers: declared, body: 'x'.repeat(2 * MiB) }))
      expect(oversized.status).toBe(413)
      // A body of unknown size (chunked) is read only after the credential (contract §23): the two keys are refused first.
      const chunked = await app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers, body: 'x'.repeat(2 * MiB) }))
      expect(chunked.status).toBe(400)
      expect(chunked.headers.get('connection')).toBe('close')
    })
  }
})

describe('request bodies held in flight are bounded across requests', () => {
  const original = bodyBudget.limit
  afterEach(() => {
    bodyBudget.limit = original
  })

  function appReading(limit: number) {
    const { app } = testContext()
    return app.post('/upload', async ({ request }) => ({ bytes: (await readBodyLimited(request, limit)).byteLength }), { parse: 'none' })
  }

  test('a declared body beyond what is left is 503 SERVER_BUSY with Retry-After, in the envelope; the budget is given back', async () => {
    bodyBudget.limit = 100
    const app = appReading(1 * MiB)
    const refused = await app.handle(new Request('http://localhost/upload', { method: 'POST', body: 'x'.repeat(101) }))
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect((await jsonOf(refused)).error.code).toBe('SERVER_BUSY')
    const accepted = await app.handle(new Request('http://localhost/upload', { method: 'POST', body: 'x'.repeat(100) }))
    expect(await jsonOf(accepted)).toEqual({ bytes: 100 })
    expect(bodyBudget.inFlight).toBe(0)
  })

  test('a chunked body counts as it arrives', async () => {
    bodyBudget.limit = 100
    const app = appReading(1 * MiB)
    const chunks = [new Uint8Array(60), new Uint8Array(60)]
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift()
        if (next) controller.enqueue(next)
        else controller.close()
      },
    })
    const refused = await app.handle(new Request('http://localhost/upload', { method: 'POST', body, duplex: 'half' }))
    expect(refused.status).toBe(503)
    expect(bodyBudget.inFlight).toBe(0)
  })
})

describe('favicon', () => {
  test('/favicon.ico is an embedded icon, and every page declares it', async () => {
    const { app } = testContext()
    const icon = await app.handle(new Request('http://localhost/favicon.ico'))
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toBe('image/x-icon')
    const bytes = new Uint8Array(await icon.arrayBuffer())
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0])
    // Every page declares it: the screens and the paired devices' pages.
    for (const path of ['/screens/queue/qu_main', '/pair', '/desk', '/reports', '/kiosk', '/t/abcdefghijklmnopqrstuvwx']) {
      const page = await app.handle(new Request(`http://localhost${path}`))
      expect({ path, declares: (await page.text()).includes('<link rel="icon" href="/favicon.ico">') }).toEqual({ path, declares: true })
    }
  })
})
