import { describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import canonicalize from 'canonicalize'
import { jsonOf } from '../support/app'
import { PrayerCodes } from '../../src/prayer/errors'
import { MAX_MONTH_BODY } from '../../src/prayer/routes'
import { revokeKey } from '../../src/structure/keys'
import {
  EAST_SOURCE,
  OTHER_SOURCE,
  SOURCE,
  broken,
  dayIndexWhere,
  expectError,
  makeMonth,
  newKey,
  pathsOf,
  prayerContext,
  prayerIdempotencyRecords,
  push,
  readStored,
  storedMonths,
  type PrayerContext,
} from './support'

const LOCATION = { name: 'Central Mosque', city: 'London', country: 'GB', latitude: 51.52, longitude: -0.08 }

/** What the checksum of a body must be, computed here from the parsed body. */
const expectedChecksum = (body: unknown) => `sha256:${createHash('sha256').update(canonicalize(body)!).digest('hex')}`

/** A refused push stores nothing: no month, no idempotency record. */
function expectNothingStored(ctx: PrayerContext) {
  expect(storedMonths(ctx)).toEqual([])
  expect(prayerIdempotencyRecords(ctx)).toEqual([])
}

describe('a valid month is stored as revision 1 (201)', () => {
  test.each([
    ['2026-02', 28],
    ['2028-02', 29],
    ['2026-11', 30],
    ['2026-12', 31],
  ])('%s, %i days', async (period, days) => {
    const ctx = prayerContext()
    const month = makeMonth(period)
    const res = await push(ctx, month)
    expect(res.status).toBe(201)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(res.headers.get('location')).toBe(`/api/public/v1/prayer-schedules/sources/${SOURCE}/months/${period}`)
    expect(res.headers.get('x-correlation-id')).toBeTruthy()
    expect(res.headers.get('idempotent-replayed')).toBeNull()
    const body = await jsonOf(res)
    expect(body).toEqual({
      success: true,
      replay: false,
      sourceId: SOURCE,
      period,
      checksum: expectedChecksum(month),
      revision: 1,
      location: LOCATION,
      dayCount: days,
    })
    const rows = storedMonths(ctx)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ source_id: SOURCE, period, revision: 1, checksum: body.checksum, day_count: days, stored_at: ctx.clock.now() })
    // The stored text is the canonical JSON the checksum covers.
    expect(`sha256:${createHash('sha256').update(rows[0]!.body).digest('hex')}`).toBe(body.checksum)
    expect(JSON.parse(rows[0]!.body)).toEqual(month)
  })

  test('a month with no optional field, sent with x-service-api-key and a charset', async () => {
    const ctx = prayerContext()
    const month = makeMonth('2026-11', { iqamah: false, jumuah: false, hijri: false, calculation: false })
    const res = await push(ctx, month, { viaHeader: true, headers: { 'content-type': 'application/json; charset=utf-8' } })
    expect(res.status).toBe(201)
    expect((await jsonOf(res)).dayCount).toBe(30)
  })

  test('a source without a configured location answers nulls, with the source name', async () => {
    const ctx = prayerContext()
    const res = await push(ctx, makeMonth('2026-11'), { sourceId: EAST_SOURCE })
    expect(res.status).toBe(201)
    expect((await jsonOf(res)).location).toEqual({ name: 'East Mosque', city: null, country: null, latitude: null, longitude: null })
  })

  test('periods are independent: each has its own revision 1', async () => {
    const ctx = prayerContext()
    expect((await jsonOf(await push(ctx, makeMonth('2026-11')))).revision).toBe(1)
    expect((await jsonOf(await push(ctx, makeMonth('2026-12')))).revision).toBe(1)
    expect(storedMonths(ctx).map((r) => [r.period, r.revision])).toEqual([['2026-11', 1], ['2026-12', 1]])
  })
})

describe('revisions and replays', () => {
  test('same key, same bytes: 200, replay, same revision, nothing new stored', async () => {
    const ctx = prayerContext()
    const raw = JSON.stringify(makeMonth('2026-11'))
    const key = newKey()
    const first = await jsonOf(await push(ctx, null, { raw, idempotencyKey: key }))
    const storedBefore = storedMonths(ctx)
    ctx.clock.advance(5_000)
    const res = await push(ctx, null, { raw, idempotencyKey: key })
    expect(res.status).toBe(200)
    expect(res.headers.get('location')).toBeNull()
    expect(await jsonOf(res)).toEqual({ ...first, replay: true })
    expect(storedMonths(ctx)).toEqual(storedBefore)
  })

  test('same key, other bytes: 409 IDEMPOTENCY_KEY_REUSED, even for whitespace only', async () => {
    const ctx = prayerContext()
    const month = makeMonth('2026-11')
    const key = newKey()
    expect((await push(ctx, null, { raw: JSON.stringify(month), idempotencyKey: key })).status).toBe(201)
    await expectError(await push(ctx, null, { raw: JSON.stringify(month, null, 2), idempotencyKey: key }), 409, PrayerCodes.IDEMPOTENCY_KEY_REUSED)
    await expectError(await push(ctx, makeMonth('2026-11', { shiftMinutes: 1 }), { idempotencyKey: key }), 409, PrayerCodes.IDEMPOTENCY_KEY_REUSED)
    expect(storedMonths(ctx).map((r) => r.revision)).toEqual([1])
  })

  test('new key, same content with keys reordered and other whitespace: 200, replay, same revision', async () => {
    const ctx = prayerContext()
    const month = makeMonth('2026-11')
    const first = await jsonOf(await push(ctx, month))
    const reordered = {
      days: month.days.map((d) => Object.fromEntries(Object.entries(d).reverse())),
      timezone: month.timezone,
      calculation: Object.fromEntries(Object.entries(month.calculation!).reverse()),
      period: month.period,
    }
    const raw = JSON.stringify(reordered, null, 3)
    expect(raw).not.toBe(JSON.stringify(month))
    const res = await push(ctx, null, { raw })
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual({ ...first, replay: true })
    expect(storedMonths(ctx).map((r) => r.revision)).toEqual([1])
  })

  test('new key, new content: 201 with revision + 1; the GET shows it', async () => {
    const ctx = prayerContext()
    await push(ctx, makeMonth('2026-11'))
    const changed = makeMonth('2026-11', { shiftMinutes: 1 })
    const res = await push(ctx, changed)
    expect(res.status).toBe(201)
    const body = await jsonOf(res)
    expect(body).toMatchObject({ replay: false, revision: 2, checksum: expectedChecksum(changed) })
    expect(storedMonths(ctx).map((r) => [r.period, r.revision, r.checksum])).toEqual([['2026-11', 2, body.checksum]])
    const read = await jsonOf(await readStored(ctx, '2026-11'))
    expect(read.data).toMatchObject({ revision: 2, checksum: body.checksum })
  })

  test('returning to earlier content is a new revision; the old key still replays its own response', async () => {
    const ctx = prayerContext()
    const a = makeMonth('2026-11')
    const keyA = newKey()
    const first = await jsonOf(await push(ctx, a, { idempotencyKey: keyA }))
    await push(ctx, makeMonth('2026-11', { shiftMinutes: 1 }))
    const back = await push(ctx, a)
    expect(back.status).toBe(201)
    expect((await jsonOf(back)).revision).toBe(3)
    const replay = await push(ctx, a, { idempotencyKey: keyA })
    expect(replay.status).toBe(200)
    expect(await jsonOf(replay)).toEqual({ ...first, replay: true })
  })

  test('a refused request records nothing, so its key works for the corrected body', async () => {
    const ctx = prayerContext()
    const key = newKey()
    const bad = broken(makeMonth('2026-11'))
    bad.days[0].isha = '01:00'
    await expectError(await push(ctx, bad, { idempotencyKey: key }), 422, PrayerCodes.SCHEMA_VALIDATION_FAILED)
    expect((await push(ctx, makeMonth('2026-11'), { idempotencyKey: key })).status).toBe(201)
  })

  test('a key is remembered 24 hours: after that, same bytes are judged by content again', async () => {
    const ctx = prayerContext()
    const key = newKey()
    const month = makeMonth('2026-11')
    await push(ctx, month, { idempotencyKey: key })
    ctx.clock.advance(24 * 60 * 60_000)
    // Same content as the current revision: still a replay, by checksum.
    const again = await push(ctx, month, { idempotencyKey: key })
    expect(again.status).toBe(200)
    expect((await jsonOf(again)).revision).toBe(1)
    ctx.clock.advance(24 * 60 * 60_000)
    // Other bytes under the expired key: a new revision, not a conflict.
    expect((await push(ctx, makeMonth('2026-11', { shiftMinutes: 3 }), { idempotencyKey: key })).status).toBe(201)
  })

  test('keys are per source: one key on two sources is two pushes', async () => {
    const ctx = prayerContext()
    const key = newKey()
    expect((await push(ctx, makeMonth('2026-11'), { idempotencyKey: key })).status).toBe(201)
    expect((await push(ctx, makeMonth('2026-11'), { idempotencyKey: key, sourceId: EAST_SOURCE })).status).toBe(201)
    expect(storedMonths(ctx).map((r) => r.source_id).sort()).toEqual([SOURCE, EAST_SOURCE].sort())
  })

  test('Idempotency-Key bounds: 12 and 160 characters are accepted', async () => {
    const ctx = prayerContext()
    expect((await push(ctx, makeMonth('2026-11'), { idempotencyKey: 'k'.repeat(12) })).status).toBe(201)
    expect((await push(ctx, makeMonth('2026-12'), { idempotencyKey: 'k'.repeat(160) })).status).toBe(201)
  })
})

describe('the month contract is enforced (422 SCHEMA_VALIDATION_FAILED, nothing stored)', () => {
  async function refused(ctx: PrayerContext, body: unknown): Promise<string[]> {
    const res = await push(ctx, body)
    const error = await expectError(res, 422, PrayerCodes.SCHEMA_VALIDATION_FAILED)
    expectNothingStored(ctx)
    return pathsOf(error)
  }

  test('one day short', async () => {
    const ctx = prayerContext()
    const month = makeMonth('2026-11')
    month.days.pop()
    const res = await push(ctx, month)
    const error = await expectError(res, 422, PrayerCodes.SCHEMA_VALIDATION_FAILED)
    expect(error.error.details).toEqual([{ path: '/days', message: 'must have exactly 30 entries, one per day of 2026-11' }])
    expectNothingStored(ctx)
  })

  test('days out of order', async () => {
    const ctx = prayerContext()
    const month = makeMonth('2026-11')
    ;[month.days[9], month.days[10]] = [month.days[10]!, month.days[9]!]
    expect(await refused(ctx, month)).toEqual(['/days/9/date', '/days/10/date'])
  })

  test('isha before maghrib', async () => {
    const ctx = prayerContext()
    const month = broken(makeMonth('2026-11'))
    month.days[6].isha = '16:00'
    month.days[6].iqamah.isha = '16:10'
    expect(await refused(ctx, month)).toEqual(['/days/6/isha'])
  })

  test('iqamah before adhan', async () => {
    const ctx = prayerContext()
    const month = broken(makeMonth('2026-11'))
    month.days[0].iqamah.maghrib = '16:00'
    expect(await refused(ctx, month)).toEqual(['/days/0/iqamah/maghrib'])
  })

  test('fajr iqamah not before sunrise', async () => {
    const ctx = prayerContext()
    const month = broken(makeMonth('2026-11'))
    month.days[0].iqamah.fajr = month.days[0].sunrise
    expect(await refused(ctx, month)).toEqual(['/days/0/iqamah/fajr'])
  })

  test('jumuah on a Thursday', async () => {
    const ctx = prayerContext()
    const month = broken(makeMonth('2026-11'))
    const thursday = dayIndexWhere('2026-11', false)
    expect(new Date(`${month.days[thursday].date}T00:00:00Z`).getUTCDay()).not.toBe(5)
    month.days[thursday].jumuah = [{ khutbah: '12:30', iqamah: '13:00' }]
    expect(await refused(ctx, month)).toEqual([`/days/${thursday}/jumuah`])
  })

  test("a time zone other than the source's", async () => {
    const ctx = prayerContext()
    expect(await refused(ctx, makeMonth('2026-11', { timezone: 'Europe/Dublin' }))).toEqual(['/timezone'])
  })

  test('a period that is not a real month', async () => {
    const ctx = prayerContext()
    const month = broken(makeMonth('2026-11'))
    month.period = '2026-13'
    expect(await refused(ctx, month)).toEqual(['/period'])
    month.period = '1899-11'
    expect(await refused(ctx, month)).toEqual(['/period'])
  })

  test('a hijri date a month off', async () => {
    const ctx = prayerContext()
    const month = broken(makeMonth('2026-11'))
    month.days[3].hijri.month = (month.days[3].hijri.month % 12) + 1
    expect(await refused(ctx, month)).toEqual(['/days/3/hijri'])
  })

  test('unknown fields and wrong types, every failing path listed, values not echoed', async () => {
    const ctx = prayerContext()
    const month = broken(makeMonth('2026-11'))
    month.source = 'secret-looking-value'
    month.days[1].fajr = 530
    month.days[2].hijri = { year: 1448, month: 5 }
    const res = await push(ctx, month)
    const error = await expectError(res, 422, PrayerCodes.SCHEMA_VALIDATION_FAILED)
    expect(pathsOf(error)).toEqual(expect.arrayContaining(['/source', '/days/1/fajr', '/days/2/hijri/day']))
    expect(JSON.stringify(error)).not.toContain('secret-looking-value')
    expectNothingStored(ctx)
  })

  test('several rules broken at once are all listed', async () => {
    const ctx = prayerContext()
    const month = broken(makeMonth('2026-11'))
    month.timezone = 'UTC'
    month.days[1].asr = '11:00'
    month.days[2].iqamah.fajr = '05:00'
    month.days.pop()
    expect(await refused(ctx, month)).toEqual(['/timezone', '/days', '/days/1/asr', '/days/2/iqamah/fajr'])
  })

  test('a JSON value that is not an object', async () => {
    const ctx = prayerContext()
    expect(await refused(ctx, [makeMonth('2026-11')])).toEqual(['/'])
  })
})

describe('refusals with their status and code (nothing stored)', () => {
  test('400 INVALID_JSON: malformed, empty, or with a BOM', async () => {
    const ctx = prayerContext()
    await expectError(await push(ctx, null, { raw: '{"period": "2026-11",' }), 400, PrayerCodes.INVALID_JSON)
    await expectError(await push(ctx, null, { raw: '' }), 400, PrayerCodes.INVALID_JSON)
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(JSON.stringify(makeMonth('2026-11')))])
    await expectError(await push(ctx, null, { raw: bom }), 400, PrayerCodes.INVALID_JSON)
    expectNothingStored(ctx)
  })

  test('400 INVALID_REQUEST: content type not JSON, or missing', async () => {
    const ctx = prayerContext()
    const month = makeMonth('2026-11')
    await expectError(await push(ctx, month, { headers: { 'content-type': 'text/plain' } }), 400, PrayerCodes.INVALID_REQUEST)
    const noType = await ctx.app.handle(
      new Request(`http://localhost/api/public/v1/prayer-schedules/sources/${SOURCE}/months`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ctx.key}`, 'idempotency-key': newKey() },
        body: new TextEncoder().encode(JSON.stringify(month)),
      }),
    )
    await expectError(noType, 400, PrayerCodes.INVALID_REQUEST)
    expectNothingStored(ctx)
  })

  test.each(['psrc_short', 'src_centralmosque-0001-london', 'psrc_central_mosque-0001-london', 'psrc_centralmosque-0001-lond%C3%B6n'])(
    '400 INVALID_REQUEST: source ID %p does not match the pattern',
    async (sourceId) => {
      const ctx = prayerContext()
      const body = await expectError(await push(ctx, makeMonth('2026-11'), { sourceId }), 400, PrayerCodes.INVALID_REQUEST)
      expect(body.error.details).toEqual([{ path: 'sourceId', message: 'does not match the source ID pattern' }])
      expectNothingStored(ctx)
    },
  )

  test('400 MULTIPLE_CREDENTIALS: both credential headers, even the same key twice', async () => {
    const ctx = prayerContext()
    await expectError(
      await push(ctx, makeMonth('2026-11'), { headers: { 'x-service-api-key': ctx.key } }),
      400,
      PrayerCodes.MULTIPLE_CREDENTIALS,
    )
    expectNothingStored(ctx)
  })

  test.each([
    ['missing', null],
    ['11 characters', 'k'.repeat(11)],
    ['161 characters', 'k'.repeat(161)],
    ['a control character', 'abcdefghijkl\u0001m'],
  ])('400 INVALID_IDEMPOTENCY_KEY: %s', async (_, idempotencyKey) => {
    const ctx = prayerContext()
    const body = await expectError(await push(ctx, makeMonth('2026-11'), { idempotencyKey }), 400, PrayerCodes.INVALID_IDEMPOTENCY_KEY)
    expect(body.error.details[0].path).toBe('Idempotency-Key')
    expectNothingStored(ctx)
  })

  test('401 AUTHENTICATION_REQUIRED: no key, an empty bearer, or another scheme', async () => {
    const ctx = prayerContext()
    await expectError(await push(ctx, makeMonth('2026-11'), { secret: null }), 401, PrayerCodes.AUTHENTICATION_REQUIRED)
    await expectError(await push(ctx, makeMonth('2026-11'), { secret: null, headers: { authorization: 'Bearer ' } }), 401, PrayerCodes.AUTHENTICATION_REQUIRED)
    await expectError(await push(ctx, makeMonth('2026-11'), { secret: null, headers: { authorization: `Basic ${btoa('a:b')}` } }), 401, PrayerCodes.AUTHENTICATION_REQUIRED)
    expectNothingStored(ctx)
  })

  test("403 SOURCE_NOT_FOUND_OR_FORBIDDEN: another workspace's key, an unknown source, a wrong or revoked key, a display token", async () => {
    const ctx = prayerContext()
    const month = makeMonth('2026-11')
    const forbidden = async (options: Parameters<typeof push>[2]) => {
      const body = await expectError(await push(ctx, month, options), 403, PrayerCodes.SOURCE_NOT_FOUND_OR_FORBIDDEN)
      // One answer for all: nothing tells an unknown source from another workspace's.
      expect(body.error.message).toBe('unknown source, or the key may not push to it')
    }
    await forbidden({ secret: ctx.otherKey })
    await forbidden({ secret: ctx.key, sourceId: OTHER_SOURCE })
    await forbidden({ sourceId: 'psrc_nosuchsource-00000000000' })
    await forbidden({ secret: 'lbw_notarealkeyatall' })
    await forbidden({ secret: ctx.displayToken })
    revokeKey(ctx.db, 'workspace', 'ws_demo', 'cms', ctx.clock.now())
    await forbidden({})
    expectNothingStored(ctx)
  })

  test('413 PAYLOAD_TOO_LARGE: over 256 KiB by Content-Length', async () => {
    const ctx = prayerContext()
    const month = makeMonth('2026-11')
    const padded = JSON.stringify(month) + ' '.repeat(MAX_MONTH_BODY)
    await expectError(await push(ctx, null, { raw: padded }), 413, PrayerCodes.PAYLOAD_TOO_LARGE)
    expectNothingStored(ctx)
  })

  test('413 PAYLOAD_TOO_LARGE: a chunked body, refused without reading it all', async () => {
    const ctx = prayerContext()
    let pulled = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1
        if (pulled > 10_000) return controller.close()
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20))
      },
    })
    await expectError(await push(ctx, null, { raw: stream }), 413, PrayerCodes.PAYLOAD_TOO_LARGE)
    expect(pulled).toBeLessThan(10)
    expectNothingStored(ctx)
  })

  test('exactly 256 KiB is accepted', async () => {
    const ctx = prayerContext()
    const text = JSON.stringify(makeMonth('2026-11'))
    const raw = text + ' '.repeat(MAX_MONTH_BODY - new TextEncoder().encode(text).byteLength)
    expect(new TextEncoder().encode(raw).byteLength).toBe(MAX_MONTH_BODY)
    expect((await push(ctx, null, { raw })).status).toBe(201)
  })
})

describe('rate limit: 30 pushes per source per rolling minute', () => {
  test('the 31st push in a minute is 429 RATE_LIMITED with Retry-After; a minute later it passes', async () => {
    const ctx = prayerContext()
    const month = makeMonth('2026-11')
    for (let i = 0; i < 30; i++) {
      const res = await push(ctx, month)
      expect(res.status).toBe(i === 0 ? 201 : 200)
      ctx.clock.advance(1000)
    }
    const limited = await push(ctx, makeMonth('2026-12'))
    await expectError(limited, 429, PrayerCodes.RATE_LIMITED)
    // The first attempt was 30 s ago: it leaves the window in 30 s.
    expect(limited.headers.get('retry-after')).toBe('30')
    expect(storedMonths(ctx).map((r) => r.period)).toEqual(['2026-11'])
    // A 429 is not itself counted; once the first attempt leaves the window one more passes.
    ctx.clock.advance(30_000)
    expect((await push(ctx, makeMonth('2026-12'))).status).toBe(201)
    await expectError(await push(ctx, makeMonth('2027-01')), 429, PrayerCodes.RATE_LIMITED)
  })

  test('every authenticated attempt counts, refused ones included; unauthenticated ones do not', async () => {
    const ctx = prayerContext()
    for (let i = 0; i < 5; i++) await push(ctx, makeMonth('2026-11'), { secret: null })
    for (let i = 0; i < 5; i++) await push(ctx, makeMonth('2026-11'), { sourceId: EAST_SOURCE, idempotencyKey: null })
    // EAST_SOURCE allows 5 per minute: its 6th authenticated attempt is refused.
    await expectError(await push(ctx, makeMonth('2026-11'), { sourceId: EAST_SOURCE }), 429, PrayerCodes.RATE_LIMITED)
    // Per source: the other source of the workspace is not affected.
    expect((await push(ctx, makeMonth('2026-11'))).status).toBe(201)
  })

  test("a source's own rate from provisioning applies, and another workspace cannot use it up", async () => {
    const ctx = prayerContext()
    for (let i = 0; i < 10; i++) await push(ctx, makeMonth('2026-11'), { secret: ctx.otherKey, sourceId: EAST_SOURCE })
    for (let i = 0; i < 5; i++) expect((await push(ctx, makeMonth('2026-11'), { sourceId: EAST_SOURCE })).status).toBe(i === 0 ? 201 : 200)
    await expectError(await push(ctx, makeMonth('2026-11'), { sourceId: EAST_SOURCE }), 429, PrayerCodes.RATE_LIMITED)
  })
})

describe('order of checks: size → content type → source ID → credential → access → rate → key → idempotency → JSON → schema', () => {
  const tooBig = ' '.repeat(MAX_MONTH_BODY + 1)

  test('size before everything', async () => {
    const ctx = prayerContext()
    await expectError(
      // A declared size (a chunked body is read only after the credential, contract §23).
      await push(ctx, null, { raw: tooBig, secret: null, sourceId: 'bad', idempotencyKey: null, headers: { 'content-type': 'text/plain', 'content-length': String(tooBig.length) } }),
      413,
      PrayerCodes.PAYLOAD_TOO_LARGE,
    )
  })

  test('content type before source ID and credential', async () => {
    const ctx = prayerContext()
    const body = await expectError(await push(ctx, {}, { secret: null, sourceId: 'bad', headers: { 'content-type': 'text/plain' } }), 400, PrayerCodes.INVALID_REQUEST)
    expect(body.error.details[0].path).toBe('Content-Type')
  })

  test('source ID before credential', async () => {
    const ctx = prayerContext()
    const body = await expectError(await push(ctx, {}, { secret: null, sourceId: 'bad' }), 400, PrayerCodes.INVALID_REQUEST)
    expect(body.error.details[0].path).toBe('sourceId')
  })

  test('credential before Idempotency-Key and JSON', async () => {
    const ctx = prayerContext()
    await expectError(await push(ctx, null, { raw: '{', secret: null, idempotencyKey: 'short' }), 401, PrayerCodes.AUTHENTICATION_REQUIRED)
    await expectError(await push(ctx, null, { raw: '{', secret: ctx.otherKey, idempotencyKey: 'short' }), 403, PrayerCodes.SOURCE_NOT_FOUND_OR_FORBIDDEN)
  })

  test('rate limit before Idempotency-Key', async () => {
    const ctx = prayerContext()
    for (let i = 0; i < 5; i++) await push(ctx, {}, { sourceId: EAST_SOURCE })
    await expectError(await push(ctx, {}, { sourceId: EAST_SOURCE, idempotencyKey: 'short' }), 429, PrayerCodes.RATE_LIMITED)
  })

  test('Idempotency-Key before JSON', async () => {
    const ctx = prayerContext()
    await expectError(await push(ctx, null, { raw: '{', idempotencyKey: 'short' }), 400, PrayerCodes.INVALID_IDEMPOTENCY_KEY)
  })

  test('idempotency lookup on raw bytes before JSON: a reused key with broken JSON is 409', async () => {
    const ctx = prayerContext()
    const key = newKey()
    await push(ctx, makeMonth('2026-11'), { idempotencyKey: key })
    await expectError(await push(ctx, null, { raw: '{', idempotencyKey: key }), 409, PrayerCodes.IDEMPOTENCY_KEY_REUSED)
  })
})
