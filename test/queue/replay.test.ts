import { describe, expect, test } from 'bun:test'
import { QueueCodes } from '../../src/queue/errors'
import { parseRequestTimestamp } from '../../src/queue/replay'
import { IDEMPOTENCY_TTL_MS } from '../../src/platform/idempotency'
import { queueContext, issue, issueHeaders, counts, expectError, jsonOf, HALL_ACCOUNTS, TICKETS } from './helpers'

const MINUTE = 60_000
const iso = (ms: number) => new Date(ms).toISOString()

describe('timestamp window: ±5 minutes of server time, bounds included', () => {
  test('exactly 5 minutes behind and exactly 5 minutes ahead are accepted', async () => {
    const ctx = queueContext()
    const now = ctx.clock.now()
    expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { timestamp: iso(now - 5 * MINUTE) })).status).toBe(201)
    expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { timestamp: iso(now + 5 * MINUTE) })).status).toBe(201)
  })

  test('5 minutes and 1 ms behind, or ahead, is 400 REQUEST_TIMESTAMP_OUT_OF_WINDOW and writes nothing', async () => {
    const ctx = queueContext()
    const now = ctx.clock.now()
    const before = counts(ctx)
    for (const skew of [-(5 * MINUTE + 1), 5 * MINUTE + 1, -24 * 60 * MINUTE, 365 * 24 * 60 * MINUTE]) {
      const body = await expectError(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { timestamp: iso(now + skew) }), 400, QueueCodes.REQUEST_TIMESTAMP_OUT_OF_WINDOW)
      expect(body.error.details).toEqual([{ path: 'X-Request-Timestamp', message: 'outside ±5 minutes of server time' }])
    }
    expect(counts(ctx)).toEqual(before)
  })

  test('the window follows the server clock: a client clock 6 minutes fast works once the server catches up', async () => {
    const ctx = queueContext()
    const clientTime = iso(ctx.clock.now() + 6 * MINUTE)
    await expectError(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { timestamp: clientTime }), 400, QueueCodes.REQUEST_TIMESTAMP_OUT_OF_WINDOW)
    ctx.clock.advance(MINUTE)
    expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { timestamp: clientTime })).status).toBe(201)
  })

  test('parseRequestTimestamp: RFC 3339 date-times only, real dates only, offsets honoured, sub-ms digits dropped', () => {
    expect(parseRequestTimestamp('2026-11-25T09:30:00Z')).toBe(Date.parse('2026-11-25T09:30:00.000Z'))
    expect(parseRequestTimestamp('2026-11-25t09:30:00.5z')).toBe(Date.parse('2026-11-25T09:30:00.500Z'))
    expect(parseRequestTimestamp('2026-11-25T10:30:00.1239+01:00')).toBe(Date.parse('2026-11-25T09:30:00.123Z'))
    expect(parseRequestTimestamp('2026-11-25T04:00:00-05:30')).toBe(Date.parse('2026-11-25T09:30:00.000Z'))
    expect(parseRequestTimestamp('2028-02-29T00:00:00Z')).toBe(Date.parse('2028-02-29T00:00:00Z'))
    for (const bad of ['2026-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-11-25T24:00:00Z', '2026-11-25T09:60:00Z', '2026-11-25T09:30:60Z',
      '2026-11-25T09:30Z', '2026-11-25', '2026-11-25T09:30:00+0100', '2026-11-25T09:30:00+24:00', ' 2026-11-25T09:30:00Z', 'Wed, 25 Nov 2026 09:30:00 GMT']) {
      expect(parseRequestTimestamp(bad)).toBeNull()
    }
  })
})

describe('nonces: unique per mutation, remembered ten minutes per credential', () => {
  test('a reused nonce is 409 NONCE_REPLAYED and writes nothing', async () => {
    const ctx = queueContext()
    expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { nonce: 'nonce-aaaaaaaaaa' })).status).toBe(201)
    const before = counts(ctx)
    // Even with a new Idempotency-Key (a would-be second ticket), the nonce decides.
    await expectError(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { nonce: 'nonce-aaaaaaaaaa' }), 409, QueueCodes.NONCE_REPLAYED)
    expect(counts(ctx)).toEqual(before)
  })

  test('a verbatim replay (same nonce, same key) is refused, not answered with the ticket', async () => {
    const ctx = queueContext()
    const options = { nonce: 'nonce-verbatim-1', idempotencyKey: 'k-verbatim' }
    expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, options)).status).toBe(201)
    await expectError(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, options), 409, QueueCodes.NONCE_REPLAYED)
  })

  test('a nonce is consumed by a request that fails later (bad JSON, bad schema, unknown location, Edge, out of window)', async () => {
    const ctx = queueContext()
    const failing = [
      { nonce: 'nonce-failing-json', raw: '{' },
      { nonce: 'nonce-failing-schema', body: { locationId: 'loc_hall' } },
      { nonce: 'nonce-failing-where', body: { locationId: 'loc_x', serviceId: 'svc_accounts' } },
      { nonce: 'nonce-failing-window', timestamp: iso(ctx.clock.now() - 6 * MINUTE) },
    ]
    for (const f of failing) {
      const res = await issue(ctx, ctx.key('all'), f.body ?? HALL_ACCOUNTS, { nonce: f.nonce, raw: f.raw, timestamp: f.timestamp })
      expect(res.status).toBeGreaterThanOrEqual(400)
    }
    for (const f of failing) {
      await expectError(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { nonce: f.nonce }), 409, QueueCodes.NONCE_REPLAYED)
    }
    expect(counts(ctx).tickets).toBe(0)
  })

  test('a request refused before the header checks (401, 403, 429, bad headers) does not consume its nonce', async () => {
    const ctx = queueContext()
    await expectError(await issue(ctx, 'x', HALL_ACCOUNTS, { nonce: 'nonce-early-0001', headers: { authorization: 'Bearer lbq_unknown' } }), 401, QueueCodes.AUTHENTICATION_FAILED)
    await expectError(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { nonce: 'nonce-early-0001', headers: { 'idempotency-key': undefined } }), 400, QueueCodes.INVALID_REQUEST)
    expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { nonce: 'nonce-early-0001' })).status).toBe(201)
  })

  test('nonces are per credential: another key may use the same nonce', async () => {
    const ctx = queueContext()
    expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { nonce: 'nonce-shared-0001' })).status).toBe(201)
    expect((await issue(ctx, ctx.key('kiosk'), HALL_ACCOUNTS, { nonce: 'nonce-shared-0001' })).status).toBe(201)
  })

  test('after ten minutes a nonce is forgotten (the timestamp window still refuses the old request)', async () => {
    const ctx = queueContext()
    expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { nonce: 'nonce-old-000001' })).status).toBe(201)
    ctx.clock.advance(10 * MINUTE - 1)
    await expectError(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { nonce: 'nonce-old-000001' }), 409, QueueCodes.NONCE_REPLAYED)
    ctx.clock.advance(1)
    expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { nonce: 'nonce-old-000001' })).status).toBe(201)
  })
})

describe('idempotency records', () => {
  test('a retry after a lost response (new nonce and timestamp, same key) gets the same ticket; the count of tickets stays 1', async () => {
    const ctx = queueContext()
    const first = await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'retry-me' })
    const firstText = await first.text()
    ctx.clock.advance(90_000)
    const retry = await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'retry-me' })
    expect(retry.status).toBe(first.status)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(await retry.text()).toBe(firstText)
    expect(counts(ctx).tickets).toBe(1)
  })

  test('records expire after 24 hours: then the key issues a new ticket; prune deletes expired records', async () => {
    const ctx = queueContext()
    const first = await jsonOf(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'daily' }))
    ctx.clock.advance(IDEMPOTENCY_TTL_MS - 1)
    const stillThere = await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'daily' })
    expect(stillThere.headers.get('idempotent-replayed')).toBe('true')
    expect(ctx.deps.idempotency.prune(ctx.clock.now())).toBe(0)
    ctx.clock.advance(1)
    expect(ctx.deps.idempotency.prune(ctx.clock.now())).toBe(1)
    expect(counts(ctx).idempotency).toBe(0)
    const fresh = await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'daily' })
    expect(fresh.status).toBe(201)
    expect(fresh.headers.get('idempotent-replayed')).toBeNull()
    expect((await jsonOf(fresh)).data.id).not.toBe(first.data.id)
  })

  test('an expired record still in the table (not yet pruned) is not replayed; the new ticket replaces it', async () => {
    const ctx = queueContext()
    await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'k' })
    ctx.clock.advance(IDEMPOTENCY_TTL_MS)
    const again = await issue(ctx, ctx.key('all'), { locationId: 'loc_hall', serviceId: 'svc_loans' }, { idempotencyKey: 'k' })
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBeNull()
    expect(counts(ctx)).toMatchObject({ tickets: 2, idempotency: 1 })
  })

  test('50 concurrent identical requests, each with its own nonce, make one ticket and 50 identical answers', async () => {
    const ctx = queueContext()
    const requests = Array.from({ length: 50 }, () => new Request(`http://localhost${TICKETS}`, {
      method: 'POST',
      headers: issueHeaders(ctx, ctx.key('all'), { idempotencyKey: 'burst' }),
      body: JSON.stringify(HALL_ACCOUNTS),
    }))
    const responses = await Promise.all(requests.map((r) => ctx.app.handle(r)))
    const texts = await Promise.all(responses.map((r) => r.text()))
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201))
    expect(new Set(texts).size).toBe(1)
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(49)
    expect(counts(ctx)).toEqual({ tickets: 1, idempotency: 1, sequences: 1, stats: 1, events: 1 })
  })
})
