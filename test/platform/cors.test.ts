import { describe, expect, test } from 'bun:test'
import { request, jsonOf } from '../support/app'
import { HALL_ACCOUNTS, TICKETS, issueHeaders, queueContext } from '../queue/helpers'
import { corsOriginsFrom } from '../../src/cli/serve'
import { parseOrigin } from '../../src/platform/cors'
import { UsageError } from '../../src/cli/args'

const KIOSK = 'https://kiosk.example.com'
const OTHER = 'https://evil.example.net'

function preflight(origin: string, path: string, method: string, headers: string) {
  return { method: 'OPTIONS', path, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } }
}

const headerList = (res: Response, name: string) => (res.headers.get(name) ?? '').split(',').map((h) => h.trim()).filter((h) => h !== '').map((h) => (name.endsWith('methods') ? h : h.toLowerCase()))

describe('CORS for the public and operator APIs (contract §15)', () => {
  test('an allowed origin\'s preflight gets the methods and request headers the route accepts', async () => {
    const ctx = queueContext(() => {}, { corsOrigins: [KIOSK] })
    const p = preflight(KIOSK, TICKETS, 'POST', 'authorization, content-type, x-request-timestamp, x-request-nonce, idempotency-key')
    const res = await request(ctx.app, p.method, p.path, { headers: p.headers })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(KIOSK)
    expect(headerList(res, 'access-control-allow-methods')).toEqual(['POST'])
    expect(headerList(res, 'access-control-allow-headers').sort()).toEqual(
      ['authorization', 'content-type', 'idempotency-key', 'x-correlation-id', 'x-request-nonce', 'x-request-timestamp'],
    )
    expect(res.headers.get('vary')).toContain('Origin')
    expect(res.headers.get('x-correlation-id')).toBeTruthy()

    // A read route: GET only, no body headers; the widget push reads the workspace key header.
    const read = await request(ctx.app, 'OPTIONS', '/api/public/v1/queue/tickets/tkt_x', { headers: preflight(KIOSK, '', 'GET', 'authorization').headers })
    expect(read.status).toBe(204)
    expect(headerList(read, 'access-control-allow-methods')).toEqual(['GET'])
    expect(headerList(read, 'access-control-allow-headers')).not.toContain('content-type')
    const push = await request(ctx.app, 'OPTIONS', '/api/public/v1/widgets/wdg_schedule_lobby/data/push', { headers: preflight(KIOSK, '', 'POST', 'x-service-api-key').headers })
    expect(headerList(push, 'access-control-allow-headers')).toEqual(expect.arrayContaining(['authorization', 'x-service-api-key', 'content-type', 'idempotency-key']))
    const operator = await request(ctx.app, 'OPTIONS', '/api/operator/v1/counters/cnt_1/call-next', { headers: preflight(KIOSK, '', 'POST', 'authorization').headers })
    expect(operator.status).toBe(204)
    expect(headerList(operator, 'access-control-allow-methods')).toEqual(['POST'])
  })

  test('the actual request from an allowed origin, success and error, carries Access-Control-Allow-Origin', async () => {
    const ctx = queueContext(() => {}, { corsOrigins: [KIOSK, 'http://localhost:5173'] })
    const ok = await request(ctx.app, 'POST', TICKETS, { headers: { ...issueHeaders(ctx, ctx.key('kiosk')), origin: KIOSK }, body: HALL_ACCOUNTS })
    expect(ok.status).toBe(201)
    expect(ok.headers.get('access-control-allow-origin')).toBe(KIOSK)
    expect(headerList(ok, 'access-control-expose-headers')).toEqual(expect.arrayContaining(['x-correlation-id', 'location', 'idempotent-replayed']))
    const refused = await request(ctx.app, 'GET', '/api/public/v1/queue/state', { headers: { origin: 'http://localhost:5173' } })
    expect(refused.status).toBe(401)
    expect((await jsonOf(refused)).error.code).toBe('AUTHENTICATION_FAILED')
    expect(refused.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
  })

  test('another origin gets no Access-Control-Allow-Origin, on the preflight or the request', async () => {
    const ctx = queueContext(() => {}, { corsOrigins: [KIOSK] })
    const p = preflight(OTHER, TICKETS, 'POST', 'authorization, content-type')
    const pre = await request(ctx.app, p.method, p.path, { headers: p.headers })
    expect(pre.headers.get('access-control-allow-origin')).toBeNull()
    expect(pre.status).toBe(404)
    expect(pre.headers.get('vary')).toContain('Origin')
    const res = await request(ctx.app, 'POST', TICKETS, { headers: { ...issueHeaders(ctx, ctx.key('kiosk')), origin: OTHER }, body: HALL_ACCOUNTS })
    expect(res.status).toBe(201) // the server does not refuse it: the browser refuses to hand it to the page
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    // An allowed origin's preflight for a path that does not exist: the 404 as for anyone.
    const unknown = await request(ctx.app, 'OPTIONS', '/api/public/v1/queue/nothing', { headers: preflight(KIOSK, '', 'GET', 'authorization').headers })
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('off by default: no origin is allowed, the preflight is 404 as before', async () => {
    const ctx = queueContext()
    const p = preflight(KIOSK, TICKETS, 'POST', 'authorization')
    const pre = await request(ctx.app, p.method, p.path, { headers: p.headers })
    expect(pre.status).toBe(404)
    expect(pre.headers.get('access-control-allow-origin')).toBeNull()
    const res = await request(ctx.app, 'GET', '/api/public/v1/queue/state', { headers: { origin: KIOSK, authorization: `Bearer ${ctx.key('kiosk')}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('display routes keep their own CORS (any origin), with or without configured origins', async () => {
    for (const corsOrigins of [[], [KIOSK]]) {
      const ctx = queueContext(() => {}, { corsOrigins })
      const pre = await request(ctx.app, 'OPTIONS', '/api/display/v1/queue-units/qu_main/state', { headers: preflight(OTHER, '', 'GET', 'authorization').headers })
      expect(pre.status).toBe(204)
      expect(pre.headers.get('access-control-allow-origin')).toBe('*')
      const res = await request(ctx.app, 'GET', '/api/display/v1/queue-units/qu_main/state', { headers: { origin: OTHER } })
      expect(res.status).toBe(401)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
    }
  })
})

describe('--cors-origin and LOBBY_CORS_ORIGINS', () => {
  test('flags win over the environment; each value must be exactly an origin', () => {
    expect(corsOriginsFrom(['https://Kiosk.Example.com', 'http://localhost:5173'], 'https://ignored.example')).toEqual(['https://kiosk.example.com', 'http://localhost:5173'])
    expect(corsOriginsFrom(undefined, ' https://a.example , https://b.example:8443 ')).toEqual(['https://a.example', 'https://b.example:8443'])
    expect(corsOriginsFrom(undefined, undefined)).toEqual([])
    for (const bad of ['*', 'kiosk.example.com', 'https://kiosk.example.com/', 'https://kiosk.example.com/path', 'ftp://x.example', 'https://user:pw@x.example']) {
      expect(parseOrigin(bad)).toBeNull()
      expect(() => corsOriginsFrom([bad], undefined)).toThrow(UsageError)
    }
  })
})
