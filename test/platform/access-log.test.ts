import { describe, expect, test } from 'bun:test'
import { testContext, request } from '../support/app'
import { ACCESS_SUMMARY_EVERY_MS } from '../../src/platform/http'

const CODE = 'K7Q2M9XW4T'

describe('the access log (contract §23: capabilities stay out of logs; docs/decisions.md "Access log")', () => {
  test('tracking codes are logged as the route template, never in clear, whatever the outcome', async () => {
    const ctx = testContext()
    await request(ctx.app, 'GET', `/api/phone/v1/tickets/${CODE}`)
    await request(ctx.app, 'GET', `/t/${CODE}`)
    await request(ctx.app, 'GET', `/t/${CODE}/qr.svg`)
    await request(ctx.app, 'GET', `/t/${CODE}/no/such/page`)
    ctx.clock.advance(ACCESS_SUMMARY_EVERY_MS)
    await request(ctx.app, 'GET', '/health')
    await Bun.sleep(0)
    const text = JSON.stringify(ctx.logs)
    expect(text).not.toContain(CODE)
    const failed = ctx.logs.find((l) => l.msg === 'request' && l.status === 404 && l.path === '/api/phone/v1/tickets/:code')
    expect(failed).toBeDefined()
    // A path no route matched keeps its first segment only.
    expect(ctx.logs.find((l) => l.msg === 'request' && l.path === '/t/…')).toBeDefined()
  })

  test('state-changing and failed requests in full; successful reads counted per route template in one line a minute', async () => {
    const ctx = testContext()
    for (let i = 0; i < 5; i++) await request(ctx.app, 'GET', '/health')
    await request(ctx.app, 'POST', '/health')
    await request(ctx.app, 'GET', '/nowhere')
    await Bun.sleep(0)
    const lines = () => ctx.logs.filter((l) => l.msg === 'request')
    expect(lines().map((l) => [l.method, l.path, l.status])).toEqual([['POST', '/health', 404], ['GET', '/nowhere', 404]])
    expect(ctx.logs.find((l) => l.msg === 'requests')).toBeUndefined()
    ctx.clock.advance(ACCESS_SUMMARY_EVERY_MS)
    await request(ctx.app, 'GET', '/health')
    await Bun.sleep(0)
    const summary = ctx.logs.find((l) => l.msg === 'requests')
    expect(summary).toMatchObject({ total: 6, counts: { 'GET /health': 6 } })
  })
})
