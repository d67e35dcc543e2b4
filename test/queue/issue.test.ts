import { describe, expect, test } from 'bun:test'
import { QueueCodes } from '../../src/queue/errors'
import { revokeKey, rotateKey } from '../../src/structure/keys'
import { takeEdgeAuthority } from '../../src/queue/edge'
import { SequentialIds } from '../../src/platform/ids'
import {
  queueContext, mainUnit, issue, issueHeaders, counts, expectError, jsonOf, HALL_ACCOUNTS, TICKETS,
  type QueueTestContext,
} from './helpers'

/** Runs `act` and asserts that no table a ticket issue writes changed. */
async function nothingWritten(ctx: QueueTestContext, act: () => Promise<unknown>) {
  const before = counts(ctx)
  await act()
  expect(counts(ctx)).toEqual(before)
}

describe('endpoint 2, rule 1: issues one ticket for an allowed location and service', () => {
  test('201 with the QueueTicket, a Location header, and one row in each table it keeps', async () => {
    const ctx = queueContext()
    const res = await issue(ctx, ctx.key('all'), { ...HALL_ACCOUNTS, externalReference: 'crm-42' })
    expect(res.status).toBe(201)
    const { data } = await jsonOf(res)
    expect(data).toEqual({
      id: 'tkt_000001', ticketId: 'tkt_000001', ticketNumber: 'A001', status: 'WAITING', source: 'API',
      queueUnitId: 'qu_main', locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: 'crm-42',
      createdAt: '2026-11-25T09:30:00.000Z', calledAt: null, servingAt: null, completedAt: null,
    })
    expect(res.headers.get('location')).toBe(`${TICKETS}/tkt_000001`)
    expect(res.headers.get('idempotent-replayed')).toBeNull()
    expect(counts(ctx)).toEqual({ tickets: 1, idempotency: 1, sequences: 1, stats: 1, events: 1 })
  })

  test('numbers count per location and prefix: A001, A002 at the hall, A001 at the annex, L001 for loans', async () => {
    const ctx = queueContext()
    const numbers = []
    for (const body of [HALL_ACCOUNTS, HALL_ACCOUNTS, { locationId: 'loc_annex', serviceId: 'svc_accounts' }, { locationId: 'loc_hall', serviceId: 'svc_loans' }]) {
      numbers.push((await jsonOf(await issue(ctx, ctx.key('all'), body))).data.ticketNumber)
    }
    expect(numbers).toEqual(['A001', 'A002', 'A001', 'L001'])
  })

  test('externalReference may be absent or null; it is stored as null', async () => {
    const ctx = queueContext()
    const res = await issue(ctx, ctx.key('all'), { ...HALL_ACCOUNTS, externalReference: null })
    expect(res.status).toBe(201)
    expect((await jsonOf(res)).data.externalReference).toBeNull()
  })

  test('Content-Type with a charset is JSON; bounds count code points (160 emoji IDs pass the schema)', async () => {
    const ctx = queueContext()
    const charset = await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { headers: { 'content-type': 'application/json; charset=utf-8' } })
    expect(charset.status).toBe(201)
    // 160 code points (320 UTF-16 units): within the bound, so the answer is "unknown location", not a bound.
    const body = await expectError(await issue(ctx, ctx.key('all'), { locationId: '😀'.repeat(160), serviceId: 'svc_accounts' }), 422, QueueCodes.VALIDATION_FAILED)
    expect(body.error.details).toEqual([{ path: '/locationId', message: 'no such location in this Queue Unit' }])
  })
})

describe('endpoint 2, rules 2 and 3: idempotency', () => {
  test('rule 2: a retry with a new nonce and the same key and payload returns the same ticket, status and body', async () => {
    const ctx = queueContext()
    const first = await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'order-1' })
    const firstBody = await first.text()
    ctx.clock.advance(30_000)
    // Field order and whitespace differ: the same parsed payload.
    const raw = '{ "serviceId" : "svc_accounts",\n  "locationId": "loc_hall" }'
    const retry = await issue(ctx, ctx.key('all'), undefined, { idempotencyKey: 'order-1', raw })
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.headers.get('location')).toBe(first.headers.get('location'))
    expect(await retry.text()).toBe(firstBody)
    expect(counts(ctx)).toMatchObject({ tickets: 1, idempotency: 1 })
  })

  test('absent externalReference and null are the same payload', async () => {
    const ctx = queueContext()
    await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'k' })
    const retry = await issue(ctx, ctx.key('all'), { ...HALL_ACCOUNTS, externalReference: null }, { idempotencyKey: 'k' })
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
  })

  test('rule 3: the same key with another payload is 409 IDEMPOTENCY_KEY_REUSED and writes nothing', async () => {
    const ctx = queueContext()
    await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'order-1' })
    await nothingWritten(ctx, async () => {
      await expectError(await issue(ctx, ctx.key('all'), { ...HALL_ACCOUNTS, externalReference: 'x' }, { idempotencyKey: 'order-1' }), 409, QueueCodes.IDEMPOTENCY_KEY_REUSED)
      await expectError(await issue(ctx, ctx.key('all'), { locationId: 'loc_hall', serviceId: 'svc_loans' }, { idempotencyKey: 'order-1' }), 409, QueueCodes.IDEMPOTENCY_KEY_REUSED)
    })
  })

  test('keys are scoped to the credential: another key may use the same Idempotency-Key for its own ticket', async () => {
    const ctx = queueContext()
    const a = await jsonOf(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'shared' }))
    const b = await issue(ctx, ctx.key('kiosk'), HALL_ACCOUNTS, { idempotencyKey: 'shared' })
    expect(b.status).toBe(201)
    expect(b.headers.get('idempotent-replayed')).toBeNull()
    expect((await jsonOf(b)).data.id).not.toBe(a.data.id)
  })

  test('a rotated key is the same credential: its new secret replays the old secret\'s ticket', async () => {
    const ctx = queueContext()
    const first = await jsonOf(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'k' }))
    const { secret } = rotateKey(ctx.db, new SequentialIds(), 'queue', 'qu_main', 'all', 0, ctx.clock.now())
    const retry = await issue(ctx, secret, HALL_ACCOUNTS, { idempotencyKey: 'k' })
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect((await jsonOf(retry)).data.id).toBe(first.data.id)
  })

  test('a failed request stores no record, so the same key can be used after fixing it', async () => {
    const ctx = queueContext()
    await expectError(await issue(ctx, ctx.key('all'), { locationId: 'loc_nowhere', serviceId: 'svc_accounts' }, { idempotencyKey: 'fix-me' }), 422, QueueCodes.VALIDATION_FAILED)
    const fixed = await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'fix-me' })
    expect(fixed.status).toBe(201)
    expect(fixed.headers.get('idempotent-replayed')).toBeNull()
  })
})

describe('endpoint 2, rule 4: Edge authority', () => {
  test('refused with 409 QUEUE_UNIT_EDGE_MANAGED while an Edge holds authority; nothing is written', async () => {
    const ctx = queueContext()
    takeEdgeAuthority(ctx.db, 'qu_main', 'edge-1', null, ctx.clock.now())
    await nothingWritten(ctx, async () => {
      await expectError(await issue(ctx, ctx.key('all')), 409, QueueCodes.QUEUE_UNIT_EDGE_MANAGED)
    })
  })
})

describe('Queue error table, ticket issue', () => {
  test('401 AUTHENTICATION_FAILED: no key, unknown, malformed, another kind, the x-service-api-key header', async () => {
    const ctx = queueContext()
    const workspaceKey = ctx.provisioned.secret('workspace', 'ws_demo', 'cms')
    const displayToken = ctx.provisioned.secret('display', 'ws_demo', 'lobby-screens')
    await nothingWritten(ctx, async () => {
      for (const authorization of [undefined, 'Bearer lbq_unknownunknownunknown', 'Basic abc', 'Bearer', `Bearer ${workspaceKey}`, `Bearer ${displayToken}`]) {
        const res = await issue(ctx, 'x', HALL_ACCOUNTS, { headers: { authorization } })
        await expectError(res, 401, QueueCodes.AUTHENTICATION_FAILED)
        expect(res.headers.get('www-authenticate')).toBe('Bearer')
      }
      const viaHeader = await issue(ctx, 'x', HALL_ACCOUNTS, { headers: { authorization: undefined, 'x-service-api-key': ctx.key('all') } })
      await expectError(viaHeader, 401, QueueCodes.AUTHENTICATION_FAILED)
    })
  })

  test('401 AUTHENTICATION_FAILED: a revoked key and a rotated-out key', async () => {
    const ctx = queueContext()
    const old = ctx.key('all')
    rotateKey(ctx.db, new SequentialIds(), 'queue', 'qu_main', 'all', 60, ctx.clock.now())
    expect((await issue(ctx, old)).status).toBe(201)
    ctx.clock.advance(60_000)
    await nothingWritten(ctx, async () => {
      await expectError(await issue(ctx, old), 401, QueueCodes.AUTHENTICATION_FAILED)
      revokeKey(ctx.db, 'queue', 'qu_main', 'kiosk', ctx.clock.now())
      await expectError(await issue(ctx, ctx.key('kiosk')), 401, QueueCodes.AUTHENTICATION_FAILED)
    })
  })

  test('403 SCOPE_FORBIDDEN: a key without tickets:write', async () => {
    const ctx = queueContext()
    await nothingWritten(ctx, async () => {
      await expectError(await issue(ctx, ctx.key('operator')), 403, QueueCodes.SCOPE_FORBIDDEN)
    })
  })

  test('403 LOCATION_FORBIDDEN and SERVICE_FORBIDDEN: existing, active, offered, but outside the key\'s lists', async () => {
    const ctx = queueContext((doc) => {
      mainUnit(doc).services!.find((s) => s.id === 'svc_loans')!.locations.push('loc_annex')
    })
    await nothingWritten(ctx, async () => {
      await expectError(await issue(ctx, ctx.key('kiosk'), { locationId: 'loc_annex', serviceId: 'svc_accounts' }), 403, QueueCodes.LOCATION_FORBIDDEN)
      await expectError(await issue(ctx, ctx.key('kiosk'), { locationId: 'loc_hall', serviceId: 'svc_loans' }), 403, QueueCodes.SERVICE_FORBIDDEN)
      // Both outside: the location is named first.
      await expectError(await issue(ctx, ctx.key('kiosk'), { locationId: 'loc_annex', serviceId: 'svc_loans' }), 403, QueueCodes.LOCATION_FORBIDDEN)
    })
  })

  test('403 QUEUE_UNIT_INACTIVE: the key\'s Queue Unit is switched off', async () => {
    const ctx = queueContext((doc) => {
      mainUnit(doc).active = false
    })
    await nothingWritten(ctx, async () => {
      await expectError(await issue(ctx, ctx.key('all')), 403, QueueCodes.QUEUE_UNIT_INACTIVE)
    })
  })

  test('400 INVALID_REQUEST: each missing or malformed header is named in details', async () => {
    const ctx = queueContext()
    const cases: [Record<string, string | undefined>, string][] = [
      [{ 'content-type': undefined }, 'Content-Type'],
      [{ 'content-type': 'text/plain' }, 'Content-Type'],
      [{ 'x-request-timestamp': undefined }, 'X-Request-Timestamp'],
      [{ 'x-request-timestamp': 'yesterday' }, 'X-Request-Timestamp'],
      [{ 'x-request-timestamp': '2026-11-25 09:30:00Z' }, 'X-Request-Timestamp'],
      [{ 'x-request-timestamp': '2026-02-30T09:30:00Z' }, 'X-Request-Timestamp'],
      [{ 'x-request-timestamp': '2026-11-25T09:30:00' }, 'X-Request-Timestamp'],
      [{ 'x-request-timestamp': '1795599000000' }, 'X-Request-Timestamp'],
      [{ 'x-request-nonce': undefined }, 'X-Request-Nonce'],
      [{ 'x-request-nonce': 'a'.repeat(11) }, 'X-Request-Nonce'],
      [{ 'x-request-nonce': 'a'.repeat(161) }, 'X-Request-Nonce'],
      [{ 'idempotency-key': undefined }, 'Idempotency-Key'],
      [{ 'idempotency-key': 'k'.repeat(161) }, 'Idempotency-Key'],
    ]
    await nothingWritten(ctx, async () => {
      for (const [headers, name] of cases) {
        const body = await expectError(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { headers }), 400, QueueCodes.INVALID_REQUEST)
        expect(body.error.details.map((d: { path: string }) => d.path)).toEqual([name])
      }
      const all = await expectError(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, {
        headers: { 'content-type': undefined, 'x-request-timestamp': undefined, 'x-request-nonce': 'short', 'idempotency-key': undefined },
      }), 400, QueueCodes.INVALID_REQUEST)
      expect(all.error.details.map((d: { path: string }) => d.path)).toEqual(['Content-Type', 'X-Request-Timestamp', 'X-Request-Nonce', 'Idempotency-Key'])
    })
  })

  test('header bounds are inclusive: a 12- and a 160-character nonce, a 1- and a 160-character key, an offset timestamp', async () => {
    const ctx = queueContext()
    const local = '2026-11-25T10:30:00.000+01:00' // the clock's instant, written with an offset
    for (const options of [
      { nonce: 'n'.repeat(12) }, { nonce: 'm'.repeat(160) }, { idempotencyKey: 'k' }, { idempotencyKey: 'q'.repeat(160) }, { timestamp: local },
      { timestamp: '2026-11-25T09:30:00Z' }, { timestamp: '2026-11-25T09:30:00.123456789Z' },
    ]) {
      expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, options)).status).toBe(201)
    }
  })

  test('400 INVALID_JSON: not JSON, empty, a BOM, invalid UTF-8; the nonce is consumed anyway', async () => {
    const ctx = queueContext()
    const enc = new TextEncoder()
    await nothingWritten(ctx, async () => {
      for (const raw of ['{"locationId":', '', new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(JSON.stringify(HALL_ACCOUNTS))]), new Uint8Array([0x22, 0xff, 0x22])]) {
        await expectError(await issue(ctx, ctx.key('all'), undefined, { raw }), 400, QueueCodes.INVALID_JSON)
      }
    })
  })

  test('422 VALIDATION_FAILED: bad fields, unknown fields and bounds, each path named, values not echoed', async () => {
    const ctx = queueContext()
    const cases: [unknown, string[]][] = [
      [{ serviceId: 'svc_accounts' }, ['/locationId']],
      [{ locationId: 'loc_hall' }, ['/serviceId']],
      [{ locationId: '', serviceId: 'svc_accounts' }, ['/locationId']],
      [{ locationId: 'l'.repeat(161), serviceId: 'svc_accounts' }, ['/locationId']],
      [{ locationId: 'loc_hall', serviceId: 's'.repeat(161) }, ['/serviceId']],
      [{ ...HALL_ACCOUNTS, externalReference: 'r'.repeat(256) }, ['/externalReference']],
      [{ ...HALL_ACCOUNTS, externalReference: '' }, ['/externalReference']],
      [{ ...HALL_ACCOUNTS, externalReference: 42 }, ['/externalReference']],
      [{ locationId: 7, serviceId: 'svc_accounts' }, ['/locationId']],
      [{ ...HALL_ACCOUNTS, priority: 'secret-value' }, ['/priority']],
      [[HALL_ACCOUNTS], ['/']],
      ['loc_hall', ['/']],
      [null, ['/']],
    ]
    await nothingWritten(ctx, async () => {
      for (const [body, paths] of cases) {
        const res = await issue(ctx, ctx.key('all'), body)
        const err = await expectError(res, 422, QueueCodes.VALIDATION_FAILED)
        expect([...new Set(err.error.details.map((d: { path: string }) => d.path))]).toEqual(paths)
        expect(JSON.stringify(err)).not.toContain('secret-value')
      }
    })
  })

  test('255 characters of externalReference are accepted', async () => {
    const ctx = queueContext()
    expect((await issue(ctx, ctx.key('all'), { ...HALL_ACCOUNTS, externalReference: 'é'.repeat(255) })).status).toBe(201)
  })

  test('422 VALIDATION_FAILED: unknown, inactive or unavailable location or service, and IDs are matched exactly', async () => {
    const ctx = queueContext((doc) => {
      mainUnit(doc).locations!.push({ id: 'loc_closed', name: 'Closed wing', timezone: 'Europe/Berlin', active: false })
      mainUnit(doc).services!.find((s) => s.id === 'svc_loans')!.locations.push('loc_closed')
      doc.workspaces[0]!.queueUnits!.push({
        id: 'qu_other', name: 'Other branch',
        locations: [{ id: 'loc_other', name: 'Other', timezone: 'Europe/Berlin' }],
        services: [{ id: 'svc_other', name: 'Other', prefix: 'O', locations: ['loc_other'] }],
      })
    })
    const cases: [unknown, { path: string; message: string }[]][] = [
      [{ locationId: 'loc_nowhere', serviceId: 'svc_accounts' }, [{ path: '/locationId', message: 'no such location in this Queue Unit' }]],
      [{ locationId: 'loc_hall', serviceId: 'svc_nothing' }, [{ path: '/serviceId', message: 'no such service in this Queue Unit' }]],
      [{ locationId: 'loc_closed', serviceId: 'svc_loans' }, [{ path: '/locationId', message: 'location is not active' }]],
      [{ locationId: 'loc_hall', serviceId: 'svc_closed' }, [{ path: '/serviceId', message: 'service is not active' }]],
      [{ locationId: 'loc_annex', serviceId: 'svc_loans' }, [{ path: '/serviceId', message: 'service is not offered at this location' }]],
      [{ locationId: 'loc_other', serviceId: 'svc_other' }, [
        { path: '/locationId', message: 'no such location in this Queue Unit' },
        { path: '/serviceId', message: 'no such service in this Queue Unit' },
      ]],
      [{ locationId: 'LOC_HALL', serviceId: 'svc_accounts' }, [{ path: '/locationId', message: 'no such location in this Queue Unit' }]],
      [{ locationId: ' loc_hall', serviceId: 'svc_accounts' }, [{ path: '/locationId', message: 'no such location in this Queue Unit' }]],
    ]
    await nothingWritten(ctx, async () => {
      for (const [body, details] of cases) {
        const err = await expectError(await issue(ctx, ctx.key('all'), body), 422, QueueCodes.VALIDATION_FAILED)
        expect(err.error.details).toEqual(details)
      }
    })
  })

  test('413 PAYLOAD_TOO_LARGE over 16,384 bytes, by Content-Length and chunked; 16,384 bytes exactly is accepted', async () => {
    const ctx = queueContext()
    const exact = JSON.stringify(HALL_ACCOUNTS).padEnd(16_384, ' ')
    expect((await issue(ctx, ctx.key('all'), undefined, { raw: exact })).status).toBe(201)
    await nothingWritten(ctx, async () => {
      await expectError(await issue(ctx, ctx.key('all'), undefined, { raw: exact + ' ' }), 413, QueueCodes.PAYLOAD_TOO_LARGE)
      let pulled = 0
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1
          if (pulled > 100) return controller.close()
          controller.enqueue(new Uint8Array(1024).fill(0x20))
        },
      })
      const chunked = await ctx.app.handle(new Request(`http://localhost${TICKETS}`, { method: 'POST', headers: issueHeaders(ctx, ctx.key('all')), body: stream }))
      await expectError(chunked, 413, QueueCodes.PAYLOAD_TOO_LARGE)
      expect(pulled).toBeLessThan(20)
    })
  })

  test('429 RATE_LIMITED on the 61st issue in a rolling minute, with Retry-After; recovers as the window moves', async () => {
    const ctx = queueContext()
    for (let i = 0; i < 60; i++) {
      expect((await issue(ctx, ctx.key('all'))).status).toBe(201)
      ctx.clock.advance(500) // 60 issues over 30 s
    }
    const before = counts(ctx)
    const limited = await issue(ctx, ctx.key('all'))
    await expectError(limited, 429, QueueCodes.RATE_LIMITED)
    expect(limited.headers.get('retry-after')).toBe('30') // the first issue leaves the window 30 s from now
    expect(counts(ctx)).toEqual(before)
    // The window is per key: another key is not limited.
    expect((await issue(ctx, ctx.key('kiosk'))).status).toBe(201)
    ctx.clock.advance(29_999)
    expect((await issue(ctx, ctx.key('all'))).status).toBe(429)
    ctx.clock.advance(1)
    expect((await issue(ctx, ctx.key('all'))).status).toBe(201)
  })

  test('every authenticated request counts toward the limit, whatever its outcome; a 429 is not counted', async () => {
    const ctx = queueContext((doc) => {
      mainUnit(doc).apiKeys!.find((k) => k.name === 'all')!.rateLimits = { issuePerMinute: 3 }
    })
    await expectError(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { headers: { 'x-request-nonce': undefined } }), 400, QueueCodes.INVALID_REQUEST)
    await expectError(await issue(ctx, ctx.key('all'), { locationId: 'nope', serviceId: 'svc_accounts' }), 422, QueueCodes.VALIDATION_FAILED)
    expect((await issue(ctx, ctx.key('all'))).status).toBe(201)
    for (let i = 0; i < 5; i++) await expectError(await issue(ctx, ctx.key('all')), 429, QueueCodes.RATE_LIMITED)
    ctx.clock.advance(60_000)
    // The five 429s were not counted: three fresh attempts are allowed again.
    for (let i = 0; i < 3; i++) expect((await issue(ctx, ctx.key('all'))).status).toBe(201)
    await expectError(await issue(ctx, ctx.key('all')), 429, QueueCodes.RATE_LIMITED)
  })

  test('reads and issues have separate windows', async () => {
    const ctx = queueContext((doc) => {
      mainUnit(doc).apiKeys!.find((k) => k.name === 'all')!.rateLimits = { issuePerMinute: 1, readPerMinute: 1 }
    })
    expect((await issue(ctx, ctx.key('all'))).status).toBe(201)
    expect((await ctx.app.handle(new Request('http://localhost/api/public/v1/queue/state', { headers: { authorization: `Bearer ${ctx.key('all')}` } }))).status).toBe(200)
    await expectError(await issue(ctx, ctx.key('all')), 429, QueueCodes.RATE_LIMITED)
  })
})

describe('order of checks (contract §3)', () => {
  // Each case breaks two steps at once; the earlier step answers.
  test('a declared body size before credential; a chunked body is read only after it (contract §23)', async () => {
    const ctx = queueContext()
    await expectError(await issue(ctx, 'x', undefined, { raw: 'x'.repeat(16_385), headers: { authorization: undefined, 'content-length': '16385' } }), 413, QueueCodes.PAYLOAD_TOO_LARGE)
    // Without Content-Length (chunked) the size is known only by reading, which waits for the credential.
    await expectError(await issue(ctx, 'x', undefined, { raw: 'x'.repeat(16_385), headers: { authorization: undefined } }), 401, QueueCodes.AUTHENTICATION_FAILED)
    await expectError(await issue(ctx, ctx.key('all'), undefined, { raw: 'x'.repeat(16_385) }), 413, QueueCodes.PAYLOAD_TOO_LARGE)
  })

  test('credential before scope, scope before rate limit, rate limit before headers', async () => {
    const ctx = queueContext((doc) => {
      mainUnit(doc).apiKeys!.push({ name: 'reader', scopes: ['services:read'], rateLimits: { issuePerMinute: 1 } })
      mainUnit(doc).apiKeys!.find((k) => k.name === 'all')!.rateLimits = { issuePerMinute: 1 }
    })
    await expectError(await issue(ctx, 'x', HALL_ACCOUNTS, { headers: { authorization: 'Bearer lbq_nope', 'content-type': 'text/plain' } }), 401, QueueCodes.AUTHENTICATION_FAILED)
    for (let i = 0; i < 3; i++) await expectError(await issue(ctx, ctx.key('reader'), HALL_ACCOUNTS, { headers: { 'content-type': 'text/plain' } }), 403, QueueCodes.SCOPE_FORBIDDEN)
    expect((await issue(ctx, ctx.key('all'))).status).toBe(201)
    await expectError(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { headers: { 'content-type': 'text/plain' } }), 429, QueueCodes.RATE_LIMITED)
  })

  test('headers before the timestamp window; window before nonce; nonce before JSON', async () => {
    const ctx = queueContext()
    const late = new Date(ctx.clock.now() - 10 * 60_000).toISOString()
    await expectError(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { timestamp: late, headers: { 'idempotency-key': undefined } }), 400, QueueCodes.INVALID_REQUEST)
    await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { nonce: 'used-nonce-0001' })
    await expectError(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { nonce: 'used-nonce-0001', timestamp: late }), 400, QueueCodes.REQUEST_TIMESTAMP_OUT_OF_WINDOW)
    await expectError(await issue(ctx, ctx.key('all'), undefined, { nonce: 'used-nonce-0001', raw: '{' }), 409, QueueCodes.NONCE_REPLAYED)
  })

  test('JSON before schema, schema before idempotency lookup', async () => {
    const ctx = queueContext()
    await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'k1' })
    await expectError(await issue(ctx, ctx.key('all'), undefined, { raw: '{"locationId": 1,', idempotencyKey: 'k1' }), 400, QueueCodes.INVALID_JSON)
    await expectError(await issue(ctx, ctx.key('all'), { locationId: 'loc_hall' }, { idempotencyKey: 'k1' }), 422, QueueCodes.VALIDATION_FAILED)
  })

  test('idempotency before Edge authority: a replay during an Edge lease returns the ticket, a conflict is still 409 REUSED', async () => {
    const ctx = queueContext()
    const first = await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'k1' })
    takeEdgeAuthority(ctx.db, 'qu_main', 'edge-1', null, ctx.clock.now())
    const replay = await issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'k1' })
    expect(replay.status).toBe(201)
    expect(await replay.text()).toBe(await first.text())
    await expectError(await issue(ctx, ctx.key('all'), { locationId: 'loc_hall', serviceId: 'svc_loans' }, { idempotencyKey: 'k1' }), 409, QueueCodes.IDEMPOTENCY_KEY_REUSED)
  })

  test('Edge authority before location and service, and before an inactive unit', async () => {
    const ctx = queueContext((doc) => {
      mainUnit(doc).active = false
    })
    takeEdgeAuthority(ctx.db, 'qu_main', 'edge-1', null, ctx.clock.now())
    await expectError(await issue(ctx, ctx.key('all'), { locationId: 'loc_nowhere', serviceId: 'svc_accounts' }), 409, QueueCodes.QUEUE_UNIT_EDGE_MANAGED)
  })

  test('an inactive unit before location and service; 422 facts before 403 key restrictions', async () => {
    const inactive = queueContext((doc) => {
      mainUnit(doc).active = false
    })
    await expectError(await issue(inactive, inactive.key('all'), { locationId: 'loc_nowhere', serviceId: 'svc_accounts' }), 403, QueueCodes.QUEUE_UNIT_INACTIVE)
    const ctx = queueContext()
    await expectError(await issue(ctx, ctx.key('kiosk'), { locationId: 'loc_nowhere', serviceId: 'svc_accounts' }), 422, QueueCodes.VALIDATION_FAILED)
    await expectError(await issue(ctx, ctx.key('kiosk'), { locationId: 'loc_annex', serviceId: 'svc_accounts' }), 403, QueueCodes.LOCATION_FORBIDDEN)
  })
})

describe('walk-ins reuse the issue service', () => {
  test('QueueService.issueTicket with source OPERATOR writes a ticket inside the caller\'s transaction, and refuses to write outside one', async () => {
    const { QueueService } = await import('../../src/queue/service')
    const ctx = queueContext()
    const queue = new QueueService(ctx.deps)
    const caller = ctx.deps.credentials.authenticate(ctx.key('operator'), 'queue', ctx.clock.now())!
    const row = ctx.deps.writes.now(() => queue.issueTicket(caller, HALL_ACCOUNTS, 'OPERATOR', ctx.clock.now()))
    expect(row).toMatchObject({ source: 'OPERATOR', ticketNumber: 'A001', status: 'WAITING' })
    expect(() => queue.issueTicket(caller, HALL_ACCOUNTS, 'OPERATOR', ctx.clock.now())).toThrow('immediate transaction')
    expect(counts(ctx).tickets).toBe(1)
  })
})
