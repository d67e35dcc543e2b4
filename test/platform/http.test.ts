import { describe, expect, test } from 'bun:test'
import { Type as t } from '@sinclair/typebox'
import { testContext, request, jsonOf } from '../support/app'
import { readBodyLimited, parseJsonBytes } from '../../src/platform/body'
import { compile, assertSchema } from '../../src/platform/validation'
import { presentedSecret } from '../../src/platform/credentials'
import { pathOf } from '../../src/platform/http'

// A route built the way features build theirs, to test the shared machinery on its own.
const Thing = t.Object({ name: t.String({ maxLength: 5 }), count: t.Integer({ minimum: 0 }) }, { additionalProperties: false })
const checkThing = compile(Thing)

function appWithTestRoutes() {
  const ctx = testContext()
  const app = ctx.app
    .post('/things', async ({ request }) => {
      const raw = await readBodyLimited(request, 64)
      const value = parseJsonBytes(raw)
      assertSchema(checkThing, value, 'VALIDATION_FAILED')
      return { ok: true, bytes: raw.byteLength }
    }, { parse: 'none' })
    .get('/whoami', ({ request }) => ({ secret: presentedSecret(request, { allowApiKeyHeader: true }) }))
    .get('/boom', () => {
      throw new Error('database password is hunter2')
    })
  return { ...ctx, app }
}

const expectEnvelope = async (response: Response, status: number, code: string) => {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toContain('application/json')
  expect(response.headers.get('x-correlation-id')).toBeTruthy()
  const body = await jsonOf(response)
  expect(body.error.code).toBe(code)
  expect(typeof body.error.message).toBe('string')
  expect(body.error.correlationId).toBe(response.headers.get('x-correlation-id'))
  return body
}

describe('one HTTP convention', () => {
  test('unknown route: 404 NOT_FOUND in the envelope', async () => {
    const { app } = appWithTestRoutes()
    await expectEnvelope(await request(app, 'GET', '/no/such/thing'), 404, 'NOT_FOUND')
  })

  test('wrong method: 404 NOT_FOUND in the envelope', async () => {
    const { app } = appWithTestRoutes()
    await expectEnvelope(await request(app, 'DELETE', '/health'), 404, 'NOT_FOUND')
  })

  test('malformed JSON: 400 INVALID_JSON without an excerpt of the input', async () => {
    const { app } = appWithTestRoutes()
    const body = await expectEnvelope(
      await request(app, 'POST', '/things', { raw: '{"name": "secretvalue",', headers: { 'content-type': 'application/json' } }),
      400,
      'INVALID_JSON',
    )
    expect(JSON.stringify(body)).not.toContain('secretvalue')
  })

  test('a BOM or invalid UTF-8 is not JSON', async () => {
    const { app } = appWithTestRoutes()
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"name":"a","count":1}')])
    await expectEnvelope(await request(app, 'POST', '/things', { raw: bom }), 400, 'INVALID_JSON')
    const bad = new Uint8Array([...new TextEncoder().encode('{"name":"'), 0xff, ...new TextEncoder().encode('","count":1}')])
    await expectEnvelope(await request(app, 'POST', '/things', { raw: bad }), 400, 'INVALID_JSON')
  })

  test('an unknown field is 422 with its JSON Pointer, and the value is not echoed', async () => {
    const { app } = appWithTestRoutes()
    const body = await expectEnvelope(
      await request(app, 'POST', '/things', { body: { name: 'ab', count: 1, extra: 'leaked-value' } }),
      422,
      'VALIDATION_FAILED',
    )
    expect(body.error.details).toEqual([{ path: '/extra', message: 'unknown property', rule: 'unknownField' }])
    expect(JSON.stringify(body)).not.toContain('leaked-value')
  })

  test('a number sent as a string is 422, not coerced', async () => {
    const { app } = appWithTestRoutes()
    const body = await expectEnvelope(await request(app, 'POST', '/things', { body: { name: 'ab', count: '3' } }), 422, 'VALIDATION_FAILED')
    expect(body.error.details.map((d: { path: string }) => d.path)).toEqual(['/count'])
  })

  test('string bounds count code points, not UTF-16 units', async () => {
    const { app } = appWithTestRoutes()
    const ok = await request(app, 'POST', '/things', { body: { name: '😀😀😀😀😀', count: 1 } })
    expect(ok.status).toBe(200)
    const body = await expectEnvelope(await request(app, 'POST', '/things', { body: { name: '😀😀😀😀😀😀', count: 1 } }), 422, 'VALIDATION_FAILED')
    expect(body.error.details[0].path).toBe('/name')
  })

  test('a body over the route limit is 413 in the envelope, by Content-Length', async () => {
    const { app } = appWithTestRoutes()
    const res = await request(app, 'POST', '/things', { raw: 'x'.repeat(65), headers: { 'content-type': 'application/json' } })
    await expectEnvelope(res, 413, 'PAYLOAD_TOO_LARGE')
  })

  test('a chunked body over the limit is 413, and the stream is not read to its end', async () => {
    const { app } = appWithTestRoutes()
    let pulled = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1
        if (pulled > 1000) return controller.close()
        controller.enqueue(new Uint8Array(40).fill(0x20))
      },
    })
    const res = await app.handle(new Request('http://localhost/things', { method: 'POST', body: stream, headers: { 'content-type': 'application/json' } }))
    expect(res.headers.get('content-length')).not.toBe('0')
    await expectEnvelope(res, 413, 'PAYLOAD_TOO_LARGE')
    expect(pulled).toBeLessThan(10)
  })

  test('a lone surrogate in a string is 422 with its path, not a 500 later', async () => {
    const { app } = appWithTestRoutes()
    const res = await request(app, 'POST', '/things', { raw: '{"name":"\\ud800","count":1}', headers: { 'content-type': 'application/json' } })
    const body = await expectEnvelope(res, 422, 'VALIDATION_FAILED')
    expect(body.error.details).toEqual([{ path: '/name', message: expect.stringContaining('well-formed'), rule: 'unicode' }])
  })

  test('any declared body over 1 MiB is 413 in the envelope before a route runs', async () => {
    const { app } = appWithTestRoutes()
    const res = await app.handle(new Request('http://localhost/health', { method: 'GET', headers: { 'content-length': String(2 * 1024 * 1024) } }))
    await expectEnvelope(res, 413, 'PAYLOAD_TOO_LARGE')
  })

  test('a body that breaks off while being read is 400 INVALID_REQUEST, not a 500', async () => {
    const { app, logs } = appWithTestRoutes()
    let sent = false
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true
          return controller.enqueue(new TextEncoder().encode('{"name":'))
        }
        controller.error(new Error('connection reset'))
      },
    })
    const res = await app.handle(new Request('http://localhost/things', { method: 'POST', body: stream, headers: { 'content-type': 'application/json' } }))
    await expectEnvelope(res, 400, 'INVALID_REQUEST')
    expect(logs.some((l) => l.level === 'error')).toBe(false)
  })

  test('the path of a request is found without new URL (Bun gives a bare path when Host is missing)', () => {
    expect(pathOf(new Request('http://localhost/a/b?c=1'))).toBe('/a/b')
    expect(pathOf({ url: '/health' } as Request)).toBe('/health')
    expect(pathOf({ url: '/health?x=1' } as Request)).toBe('/health')
    expect(pathOf({ url: 'http://h' } as Request)).toBe('/')
  })

  test('an uncaught error is 500 INTERNAL_ERROR with no stack or message leaked, and is logged', async () => {
    const { app, logs } = appWithTestRoutes()
    const res = await request(app, 'GET', '/boom')
    const body = await expectEnvelope(res, 500, 'INTERNAL_ERROR')
    const text = JSON.stringify(body)
    expect(text).not.toContain('hunter2')
    expect(text).not.toContain('at ')
    expect(logs.some((l) => l.level === 'error' && String(l.error).includes('hunter2'))).toBe(true)
  })

  test('a valid X-Correlation-ID is echoed; an invalid one is replaced', async () => {
    const { app } = appWithTestRoutes()
    const echoed = await request(app, 'GET', '/health', { headers: { 'x-correlation-id': 'abc.DEF_1:2-3' } })
    expect(echoed.headers.get('x-correlation-id')).toBe('abc.DEF_1:2-3')
    const replaced = await request(app, 'GET', '/health', { headers: { 'x-correlation-id': 'has spaces!' } })
    expect(replaced.status).toBe(200)
    expect(replaced.headers.get('x-correlation-id')).toMatch(/^[A-Za-z0-9_.:-]{1,120}$/)
    expect(replaced.headers.get('x-correlation-id')).not.toBe('has spaces!')
    const tooLong = await request(app, 'GET', '/no-route', { headers: { 'x-correlation-id': 'a'.repeat(121) } })
    expect(tooLong.headers.get('x-correlation-id')).not.toBe('a'.repeat(121))
  })

  test('every request is logged as one line with method, path, status, ms and correlation ID', async () => {
    const { app, logs } = appWithTestRoutes()
    await request(app, 'GET', '/nowhere', { headers: { 'x-correlation-id': 'log-me' } })
    await Bun.sleep(0)
    const line = logs.find((l) => l.msg === 'request' && l.correlationId === 'log-me')
    expect(line).toMatchObject({ method: 'GET', path: '/nowhere', status: 404 })
    expect(typeof line?.ms).toBe('number')
  })

  test('both credential headers at once are refused with 400 MULTIPLE_CREDENTIALS', async () => {
    const { app } = appWithTestRoutes()
    const res = await request(app, 'GET', '/whoami', { headers: { authorization: 'Bearer lbw_a', 'x-service-api-key': 'lbw_b' } })
    await expectEnvelope(res, 400, 'MULTIPLE_CREDENTIALS')
    const bearer = await jsonOf(await request(app, 'GET', '/whoami', { headers: { authorization: 'Bearer lbw_a' } }))
    expect(bearer.secret).toBe('lbw_a')
    const header = await jsonOf(await request(app, 'GET', '/whoami', { headers: { 'x-service-api-key': 'lbw_b' } }))
    expect(header.secret).toBe('lbw_b')
  })
})

describe('OpenAPI', () => {
  test('/swagger/json declares the security schemes and an error schema per operation', async () => {
    const { app } = testContext()
    const doc = await jsonOf(await request(app, 'GET', '/swagger/json'))
    expect(doc.openapi).toStartWith('3.1')
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(['queueBearer', 'workspaceBearer', 'workspaceHeader']))
    expect(doc.components.securitySchemes.workspaceHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-service-api-key' })
    expect(doc.components.schemas.ErrorDetail.required).toEqual(['path', 'message'])
    expect(doc.components.schemas.IssueTicketError.required).toEqual(['error'])
    expect(doc.components.schemas.IssueTicketError.properties.error.properties.details.items).toEqual({ $ref: '#/components/schemas/ErrorDetail' })
  })

  test('/swagger loads its assets from this server only', async () => {
    const { app } = testContext()
    const html = await (await request(app, 'GET', '/swagger')).text()
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    expect(urls.length).toBeGreaterThanOrEqual(2)
    for (const url of urls) expect(url).toStartWith('/swagger/assets/')
    for (const url of urls) expect((await request(app, 'GET', url)).status).toBe(200)
  })
})
