import { dereferencedDocument, errorCodeEnum } from '../support/openapi'
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { jsonOf, testContext, request } from '../support/app'
import { tempDir } from '../support/cli'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { MiB } from '../../src/platform/body'
import { revokeKey } from '../../src/structure/keys'
import { WidgetCodes, WidgetWarnings } from '../../src/widgets/errors'
import { DEFAULT_PUSH_RATE_LIMIT, WIDGET_TYPES, PAYLOADS } from '../../src/widgets/model'
import { getWidgetSnapshot, type WidgetSnapshot } from '../../src/widgets/service'
import {
  DATA_BY_TYPE, WIDGET_BY_TYPE, announcementsData, envelope, pushTo, schedulePush, scheduleData, snapshotRow, transportData,
  widgetContext, type WidgetTestContext,
} from './support'

const SCHEDULE = WIDGET_BY_TYPE.TODAYS_SCHEDULE
const encoder = new TextEncoder()

/** An error answer in the envelope with this status and code; returns the parsed body. */
async function expectError(response: Response, status: number, code: string) {
  const body = await jsonOf(response)
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code })
  expect(typeof body.error.message).toBe('string')
  expect(response.headers.get('content-type')).toContain('application/json')
  expect(body.error.correlationId).toBe(response.headers.get('x-correlation-id')!)
  expect(response.headers.get('x-service-data-revision')).toBeNull()
  return body
}

/** A stream delivering `bytes` in 64 KiB chunks, with no Content-Length (chunked). */
function chunked(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close()
      controller.enqueue(bytes.slice(offset, offset + 64 * 1024))
      offset += 64 * 1024
    },
  })
}

/** A valid ANNOUNCEMENTS push of exactly `size` bytes: 200 long items, padded with trailing whitespace. */
function announcementsOfSize(size: number): Uint8Array {
  const data = announcementsData(200)
  for (const item of data.items) {
    item.title = '📣'.repeat(200)
    item.body = '🗞'.repeat(1000)
  }
  const json = JSON.stringify(envelope('ANNOUNCEMENTS', data, { sequence: 1 }))
  const length = encoder.encode(json).byteLength
  if (length > size) throw new Error(`payload already ${length} bytes`)
  return encoder.encode(json + ' '.repeat(size - length))
}

describe('accepted push', () => {
  test('200 with the spec body, X-Service-Data-Revision, and the snapshot stored with revision and sequence', async () => {
    const ctx = widgetContext()
    const res = await ctx.push(SCHEDULE, schedulePush(1), { headers: { 'x-correlation-id': 'cms-42' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-service-data-revision')).toBe('1')
    expect(res.headers.get('x-correlation-id')).toBe('cms-42')
    expect(res.headers.get('idempotent-replayed')).toBeNull()
    expect(await jsonOf(res)).toEqual({
      accepted: true,
      widgetId: SCHEDULE,
      widgetType: 'TODAYS_SCHEDULE',
      dataRevision: 1,
      schemaVersion: 2,
      acceptedAt: '2026-11-25T09:30:00.000Z',
      itemCount: 2,
      warnings: [],
    })
    const row = snapshotRow(ctx, SCHEDULE)!
    expect(row).toMatchObject({ data_revision: 1, last_sequence: 1, item_count: 2, accepted_at: ctx.clock.now() })
    const expected = scheduleData()
    for (const item of expected.items) Object.assign(item, { status: 'SCHEDULED' })
    expect(JSON.parse(row.data)).toEqual(expected)
  })

  test('each accepted push replaces the whole snapshot and adds one to the revision', async () => {
    const ctx = widgetContext()
    expect((await ctx.push(SCHEDULE, schedulePush(1, 3))).status).toBe(200)
    ctx.clock.advance(1000)
    const res = await ctx.push(SCHEDULE, schedulePush(2, 1))
    expect(res.headers.get('x-service-data-revision')).toBe('2')
    expect(await jsonOf(res)).toMatchObject({ dataRevision: 2, itemCount: 1, acceptedAt: '2026-11-25T09:30:01.000Z' })
    const row = snapshotRow(ctx, SCHEDULE)!
    expect(row).toMatchObject({ data_revision: 2, last_sequence: 2, item_count: 1 })
    expect(JSON.parse(row.data).items.map((i: { id: string }) => i.id)).toEqual(['session-0'])
  })

  test('the x-service-api-key header works instead of Authorization', async () => {
    const ctx = widgetContext()
    const res = await ctx.push(SCHEDULE, schedulePush(1), { anonymous: true, headers: { 'x-service-api-key': ctx.key } })
    expect(res.status).toBe(200)
  })

  test('Content-Type only has to include application/json', async () => {
    const ctx = widgetContext()
    const res = await ctx.push(SCHEDULE, schedulePush(1), { headers: { 'content-type': 'application/json; charset=utf-8' } })
    expect(res.status).toBe(200)
  })

  test('warnings: SEQUENCE_MISSING without source.sequence, ITEM_OUTSIDE_DATE for a schedule item on another day', async () => {
    const ctx = widgetContext()
    const data = scheduleData(2)
    data.items[1]!.startAt = '2026-11-26T08:00:00+01:00'
    data.items[1]!.endAt = '2026-11-26T09:00:00+01:00'
    const res = await ctx.push(SCHEDULE, envelope('TODAYS_SCHEDULE', data))
    expect(res.status).toBe(200)
    expect((await jsonOf(res)).warnings).toEqual([
      { code: WidgetWarnings.SEQUENCE_MISSING, message: expect.any(String), path: '/source/sequence' },
      { code: WidgetWarnings.ITEM_OUTSIDE_DATE, message: expect.any(String), path: '/data/items/1/startAt' },
    ])
  })

  test('getWidgetSnapshot reads the widget with its current snapshot; revision 0 before the first push', async () => {
    const ctx = widgetContext()
    expect(getWidgetSnapshot(ctx.deps, SCHEDULE)).toEqual({
      widgetId: SCHEDULE, workspaceId: 'ws_demo', widgetType: 'TODAYS_SCHEDULE', name: 'Lobby schedule',
      dataRevision: 0, acceptedAt: null, itemCount: 0, dataJson: null,
    })
    expect(getWidgetSnapshot(ctx.deps, 'wdg_nope')).toBeNull()
    await ctx.push(SCHEDULE, schedulePush(1))
    const snapshot = getWidgetSnapshot(ctx.deps, SCHEDULE)!
    expect(snapshot).toMatchObject({ dataRevision: 1, acceptedAt: '2026-11-25T09:30:00.000Z', itemCount: 2 })
    expect(snapshot.dataJson).toBe(snapshotRow(ctx, SCHEDULE)!.data)
  })

  test('snapshot listeners hear each accepted push once, after commit; not replays or refusals', async () => {
    const ctx = widgetContext()
    const heard: WidgetSnapshot[] = []
    const stop = ctx.deps.events.widgetSnapshots.on((snapshot) => {
      expect(snapshotRow(ctx, snapshot.widgetId)!.data_revision).toBe(snapshot.dataRevision)
      heard.push(snapshot)
    })
    testContext().deps.events.widgetSnapshots.on(() => {
      throw new Error('another database must not be told')
    })
    await ctx.push(SCHEDULE, schedulePush(1), { idempotencyKey: 'key-00000001' })
    await ctx.push(SCHEDULE, schedulePush(1), { idempotencyKey: 'key-00000001' }) // replay
    await ctx.push(SCHEDULE, schedulePush(1)) // stale
    await ctx.push(SCHEDULE, '{') // invalid
    await ctx.push(SCHEDULE, schedulePush(2))
    expect(heard.map((s) => s.dataRevision)).toEqual([1, 2])
    expect(heard[0]).toMatchObject({ widgetId: SCHEDULE, workspaceId: 'ws_demo', widgetType: 'TODAYS_SCHEDULE', name: 'Lobby schedule', itemCount: 2 })
    stop()
    await ctx.push(SCHEDULE, schedulePush(3))
    expect(heard).toHaveLength(2)
  })

  test('a throwing listener is logged and does not fail the push', async () => {
    const ctx = widgetContext()
    ctx.deps.events.widgetSnapshots.on(() => {
      throw new Error('screen gone')
    })
    const res = await ctx.push(SCHEDULE, schedulePush(1))
    expect(res.status).toBe(200)
    expect(ctx.logs.some((l) => l.msg === 'widget snapshot listener failed')).toBe(true)
  })

  test('an accepted push is logged with its revision, sequence and source event ID', async () => {
    const ctx = widgetContext()
    await ctx.push(SCHEDULE, schedulePush(7))
    expect(ctx.logs).toContainEqual(
      expect.objectContaining({ msg: 'widget snapshot accepted', widgetId: SCHEDULE, dataRevision: 1, sequence: 7, eventId: 'evt-7' }),
    )
  })
})

describe('item limits (500 schedule and events, 200 announcements, 1000 transport)', () => {
  for (const type of WIDGET_TYPES) {
    const limit = PAYLOADS[type].itemLimit
    test(`${type}: ${limit} items are accepted, ${limit + 1} refused at /data/items`, async () => {
      const ctx = widgetContext()
      const widgetId = WIDGET_BY_TYPE[type]
      const ok = await ctx.push(widgetId, envelope(type, DATA_BY_TYPE[type](limit), { sequence: 1 }))
      expect(ok.status).toBe(200)
      expect((await jsonOf(ok)).itemCount).toBe(limit)
      const over = await ctx.push(widgetId, envelope(type, DATA_BY_TYPE[type](limit + 1), { sequence: 2 }))
      const body = await expectError(over, 422, WidgetCodes.SCHEMA_VALIDATION_FAILED)
      expect(body.error.details).toContainEqual({ path: '/data/items', message: `Expected array length to be less or equal to ${limit}` })
      expect(snapshotRow(ctx, widgetId)).toMatchObject({ data_revision: 1, item_count: limit })
    })
  }
})

describe('body size: 1 MiB', () => {
  const widgetId = WIDGET_BY_TYPE.ANNOUNCEMENTS

  test('a valid push of exactly 1 MiB is accepted, with Content-Length and chunked', async () => {
    const bytes = announcementsOfSize(MiB)
    expect(bytes.byteLength).toBe(1_048_576)
    const ctx = widgetContext()
    const sized = await ctx.push(widgetId, bytes)
    expect(sized.status).toBe(200)
    expect((await jsonOf(sized)).itemCount).toBe(200)
    const other = widgetContext()
    const streamed = await other.push(widgetId, chunked(bytes))
    expect(streamed.status).toBe(200)
  })

  test('1 MiB + 1 byte is 413 PAYLOAD_TOO_LARGE, by Content-Length and chunked, before any other check', async () => {
    const ctx = widgetContext()
    const bytes = announcementsOfSize(MiB + 1)
    await expectError(await ctx.push(widgetId, bytes), 413, WidgetCodes.PAYLOAD_TOO_LARGE)
    await expectError(await ctx.push(widgetId, chunked(bytes)), 413, WidgetCodes.PAYLOAD_TOO_LARGE)
    // First in the order: no content type and no credential still get 413 for a declared size (a chunked body is read only
    // after the credential, contract §23).
    const bare = await ctx.push(widgetId, bytes, { anonymous: true, headers: { 'content-type': null, 'content-length': String(bytes.byteLength) } })
    await expectError(bare, 413, WidgetCodes.PAYLOAD_TOO_LARGE)
    expect(snapshotRow(ctx, widgetId)).toBeNull()
  })
})

describe('content type', () => {
  test.each([[null], ['text/plain'], ['application/x-www-form-urlencoded']])('Content-Type %p is 415 UNSUPPORTED_CONTENT_TYPE', async (type) => {
    const ctx = widgetContext()
    await expectError(await ctx.push(SCHEDULE, schedulePush(1), { headers: { 'content-type': type } }), 415, WidgetCodes.UNSUPPORTED_CONTENT_TYPE)
  })

  test('the content type is checked before the credential', async () => {
    const ctx = widgetContext()
    const res = await ctx.push(SCHEDULE, schedulePush(1), { anonymous: true, headers: { 'content-type': 'text/plain' } })
    await expectError(res, 415, WidgetCodes.UNSUPPORTED_CONTENT_TYPE)
  })
})

describe('credential', () => {
  test('both headers at once are 400 MULTIPLE_CREDENTIALS, even with valid keys', async () => {
    const ctx = widgetContext()
    const res = await ctx.push(SCHEDULE, schedulePush(1), { headers: { 'x-service-api-key': ctx.key } })
    await expectError(res, 400, WidgetCodes.MULTIPLE_CREDENTIALS)
  })

  test.each([
    ['no credential header', {}],
    ['an Authorization scheme other than Bearer', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['an empty x-service-api-key', { 'x-service-api-key': ' ' }],
  ])('%s is 401 AUTHENTICATION_REQUIRED', async (_, headers) => {
    const ctx = widgetContext()
    await expectError(await ctx.push(SCHEDULE, schedulePush(1), { anonymous: true, headers }), 401, WidgetCodes.AUTHENTICATION_REQUIRED)
  })

  const forbidden: [string, (ctx: WidgetTestContext) => [widgetId: string, key: string]][] = [
    ['an unknown key', () => [SCHEDULE, 'lbw_notarealkeynotarealkeynotarealkey']],
    ['a queue key', (ctx) => [SCHEDULE, ctx.queueKey]],
    ["another workspace's key", (ctx) => [SCHEDULE, ctx.otherKey]],
    ["a key for another workspace's widget", (ctx) => ['wdg_other', ctx.key]],
    ['a widget whose push source is inactive', (ctx) => ['wdg_inactive', ctx.key]],
    ['an unknown widget', (ctx) => ['wdg_nope', ctx.key]],
  ]
  test.each(forbidden)('%s is 403 WIDGET_NOT_FOUND_OR_FORBIDDEN, all alike', async (_, target) => {
    const ctx = widgetContext()
    const [widgetId, key] = target(ctx)
    const body = await expectError(await pushTo(ctx.app, key, widgetId, schedulePush(1)), 403, WidgetCodes.WIDGET_NOT_FOUND_OR_FORBIDDEN)
    expect(body.error.message).toBe('no widget with an active push source for this key')
  })

  test('a revoked key is 403 from the next request on', async () => {
    const ctx = widgetContext()
    expect((await ctx.push(SCHEDULE, schedulePush(1))).status).toBe(200)
    revokeKey(ctx.db, 'workspace', 'ws_demo', 'cms', ctx.clock.now())
    await expectError(await ctx.push(SCHEDULE, schedulePush(2)), 403, WidgetCodes.WIDGET_NOT_FOUND_OR_FORBIDDEN)
  })

  test('widget access is checked before the Idempotency-Key and the body', async () => {
    const ctx = widgetContext()
    const res = await pushTo(ctx.app, ctx.otherKey, SCHEDULE, 'not json', { idempotencyKey: 'short' })
    await expectError(res, 403, WidgetCodes.WIDGET_NOT_FOUND_OR_FORBIDDEN)
  })
})

describe('rate limit: 120 attempts per widget per rolling minute', () => {
  test('every authorized attempt counts whatever its outcome; the 121st is 429 with Retry-After; the window rolls on', async () => {
    const ctx = widgetContext()
    expect(DEFAULT_PUSH_RATE_LIMIT).toBe(120)
    for (let i = 0; i < 120; i++) {
      const res = await ctx.push(SCHEDULE, i % 2 === 0 ? '{' : schedulePush(i + 1))
      expect(res.status).toBe(i % 2 === 0 ? 400 : 200)
    }
    const limited = await ctx.push(SCHEDULE, schedulePush(1000))
    await expectError(limited, 429, WidgetCodes.RATE_LIMITED)
    expect(limited.headers.get('retry-after')).toBe('60')
    expect(snapshotRow(ctx, SCHEDULE)!.last_sequence).toBe(120)

    ctx.clock.advance(59_999)
    const stillLimited = await ctx.push(SCHEDULE, schedulePush(1000))
    await expectError(stillLimited, 429, WidgetCodes.RATE_LIMITED)
    expect(stillLimited.headers.get('retry-after')).toBe('1')

    ctx.clock.advance(1)
    expect((await ctx.push(SCHEDULE, schedulePush(1000))).status).toBe(200)
  })

  test('the window is rolling, not fixed, and a 429 is not itself counted', async () => {
    const ctx = widgetContext()
    for (let i = 0; i < 60; i++) await ctx.push(SCHEDULE, '{')
    ctx.clock.advance(30_000)
    for (let i = 0; i < 60; i++) await ctx.push(SCHEDULE, '{')
    ctx.clock.advance(15_000)
    for (let i = 0; i < 5; i++) {
      const res = await ctx.push(SCHEDULE, '{')
      await expectError(res, 429, WidgetCodes.RATE_LIMITED)
      expect(res.headers.get('retry-after')).toBe('15')
    }
    ctx.clock.advance(15_000) // the first 60 leave the window; the 429s were never counted
    for (let i = 0; i < 60; i++) expect((await ctx.push(SCHEDULE, '{')).status).toBe(400)
    expect((await ctx.push(SCHEDULE, '{')).status).toBe(429)
  })

  test('the limit is per widget', async () => {
    const ctx = widgetContext()
    for (let i = 0; i < 120; i++) await ctx.push(SCHEDULE, '{')
    expect((await ctx.push(SCHEDULE, '{')).status).toBe(429)
    const other = await ctx.push(WIDGET_BY_TYPE.ANNOUNCEMENTS, envelope('ANNOUNCEMENTS', announcementsData()))
    expect(other.status).toBe(200)
  })

  test("a widget's provisioned pushRateLimitPerMinute replaces the default", async () => {
    const ctx = widgetContext()
    const push = () => ctx.push('wdg_slow', envelope('ANNOUNCEMENTS', announcementsData()))
    for (let i = 0; i < 3; i++) expect((await push()).status).toBe(200)
    await expectError(await push(), 429, WidgetCodes.RATE_LIMITED)
  })

  test('refused credentials do not use up the widget budget', async () => {
    const ctx = widgetContext()
    for (let i = 0; i < 150; i++) expect((await pushTo(ctx.app, ctx.otherKey, SCHEDULE, '{')).status).toBe(403)
    for (let i = 0; i < 150; i++) expect((await ctx.push(SCHEDULE, '{', { anonymous: true })).status).toBe(401)
    expect((await ctx.push(SCHEDULE, schedulePush(1))).status).toBe(200)
  })

  test('the rate limit comes before the Idempotency-Key check', async () => {
    const ctx = widgetContext()
    for (let i = 0; i < 120; i++) await ctx.push(SCHEDULE, '{')
    await expectError(await ctx.push(SCHEDULE, schedulePush(1), { idempotencyKey: 'short' }), 429, WidgetCodes.RATE_LIMITED)
  })
})

describe('Idempotency-Key format: 8 to 180 characters', () => {
  test.each([[''], ['1234567'], ['k'.repeat(181)]])('%p is 400 INVALID_IDEMPOTENCY_KEY', async (key) => {
    const ctx = widgetContext()
    const body = await expectError(await ctx.push(SCHEDULE, schedulePush(1), { idempotencyKey: key }), 400, WidgetCodes.INVALID_IDEMPOTENCY_KEY)
    expect(body.error.details).toEqual([{ path: 'Idempotency-Key', message: 'must be 8 to 180 characters' }])
    expect(snapshotRow(ctx, SCHEDULE)).toBeNull()
  })

  test.each([['12345678'], ['k'.repeat(180)]])('%p is accepted', async (key) => {
    const ctx = widgetContext()
    expect((await ctx.push(SCHEDULE, schedulePush(1), { idempotencyKey: key })).status).toBe(200)
  })

  test('the key format is checked before the body is parsed', async () => {
    const ctx = widgetContext()
    await expectError(await ctx.push(SCHEDULE, '{', { idempotencyKey: 'short' }), 400, WidgetCodes.INVALID_IDEMPOTENCY_KEY)
  })
})

describe('idempotency on the raw bytes', () => {
  test('the same key and bytes replay the original status, body and revision header; the revision does not increase', async () => {
    const ctx = widgetContext()
    const raw = JSON.stringify(schedulePush(1))
    const first = await ctx.push(SCHEDULE, raw, { idempotencyKey: 'push-0001' })
    const firstText = await first.text()
    ctx.clock.advance(5 * 60_000)
    const again = await ctx.push(SCHEDULE, raw, { idempotencyKey: 'push-0001' })
    expect(again.status).toBe(200)
    expect(await again.text()).toBe(firstText)
    expect(again.headers.get('x-service-data-revision')).toBe('1')
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(snapshotRow(ctx, SCHEDULE)).toMatchObject({ data_revision: 1, accepted_at: Date.parse('2026-11-25T09:30:00.000Z') })
  })

  test('one added space under the same key is 409 IDEMPOTENCY_KEY_REUSED, and nothing changes', async () => {
    const ctx = widgetContext()
    const raw = JSON.stringify(schedulePush(1))
    expect((await ctx.push(SCHEDULE, raw, { idempotencyKey: 'push-0001' })).status).toBe(200)
    const before = snapshotRow(ctx, SCHEDULE)
    const spaced = raw.replace('"pushVersion":1', '"pushVersion": 1')
    expect(spaced.length).toBe(raw.length + 1)
    await expectError(await ctx.push(SCHEDULE, spaced, { idempotencyKey: 'push-0001' }), 409, WidgetCodes.IDEMPOTENCY_KEY_REUSED)
    await expectError(await ctx.push(SCHEDULE, raw + ' ', { idempotencyKey: 'push-0001' }), 409, WidgetCodes.IDEMPOTENCY_KEY_REUSED)
    expect(snapshotRow(ctx, SCHEDULE)).toEqual(before)
  })

  test('the lookup comes before JSON parsing: a reused key with a broken body is 409', async () => {
    const ctx = widgetContext()
    await ctx.push(SCHEDULE, schedulePush(1), { idempotencyKey: 'push-0001' })
    await expectError(await ctx.push(SCHEDULE, '{', { idempotencyKey: 'push-0001' }), 409, WidgetCodes.IDEMPOTENCY_KEY_REUSED)
  })

  test('a refused request records nothing: the same key works with a corrected body', async () => {
    const ctx = widgetContext()
    const broken = envelope('TODAYS_SCHEDULE', { ...scheduleData(), date: '2026-02-30' }, { sequence: 1 })
    await expectError(await ctx.push(SCHEDULE, broken, { idempotencyKey: 'push-0001' }), 422, WidgetCodes.SCHEMA_VALIDATION_FAILED)
    const fixed = await ctx.push(SCHEDULE, schedulePush(1), { idempotencyKey: 'push-0001' })
    expect(fixed.status).toBe(200)
    expect(fixed.headers.get('idempotent-replayed')).toBeNull()
  })

  test('a replay answers the original revision even after newer pushes', async () => {
    const ctx = widgetContext()
    await ctx.push(SCHEDULE, schedulePush(1), { idempotencyKey: 'push-0001' })
    await ctx.push(SCHEDULE, schedulePush(2), { idempotencyKey: 'push-0002' })
    const replay = await ctx.push(SCHEDULE, schedulePush(1), { idempotencyKey: 'push-0001' })
    expect(replay.status).toBe(200)
    expect(replay.headers.get('x-service-data-revision')).toBe('1')
    expect((await jsonOf(replay)).dataRevision).toBe(1)
    expect(snapshotRow(ctx, SCHEDULE)!.data_revision).toBe(2)
  })

  test('keys belong to a widget: the same key on another widget is a new request', async () => {
    const ctx = widgetContext()
    await ctx.push(SCHEDULE, schedulePush(1), { idempotencyKey: 'push-0001' })
    const other = await ctx.push(WIDGET_BY_TYPE.ANNOUNCEMENTS, envelope('ANNOUNCEMENTS', announcementsData()), { idempotencyKey: 'push-0001' })
    expect(other.status).toBe(200)
    expect(other.headers.get('idempotent-replayed')).toBeNull()
  })

  test('keys are kept 24 hours', async () => {
    const ctx = widgetContext()
    const raw = JSON.stringify(envelope('TODAYS_SCHEDULE', scheduleData()))
    await ctx.push(SCHEDULE, raw, { idempotencyKey: 'push-0001' })
    ctx.clock.advance(24 * 60 * 60_000 - 1)
    expect((await ctx.push(SCHEDULE, raw, { idempotencyKey: 'push-0001' })).headers.get('idempotent-replayed')).toBe('true')
    ctx.clock.advance(1)
    const later = await ctx.push(SCHEDULE, raw, { idempotencyKey: 'push-0001' })
    expect(later.headers.get('idempotent-replayed')).toBeNull()
    expect(later.headers.get('x-service-data-revision')).toBe('2')
  })

  test('without a key, an identical push is a new snapshot (when it carries no sequence)', async () => {
    const ctx = widgetContext()
    const raw = JSON.stringify(envelope('TODAYS_SCHEDULE', scheduleData()))
    await ctx.push(SCHEDULE, raw)
    const second = await ctx.push(SCHEDULE, raw)
    expect(second.headers.get('x-service-data-revision')).toBe('2')
  })
})

describe('JSON and schema', () => {
  test.each([
    ['malformed JSON', '{"pushVersion": 1,'],
    ['an empty body', ''],
    ['a byte-order mark', new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(JSON.stringify(schedulePush(1)))])],
  ])('%s is 400 INVALID_JSON', async (_, body) => {
    const ctx = widgetContext()
    await expectError(await ctx.push(SCHEDULE, body), 400, WidgetCodes.INVALID_JSON)
  })

  test('a widgetType none of the four is 422 UNSUPPORTED_WIDGET_TYPE', async () => {
    const ctx = widgetContext()
    const body = await expectError(await ctx.push(SCHEDULE, envelope('WEATHER', scheduleData())), 422, WidgetCodes.UNSUPPORTED_WIDGET_TYPE)
    expect(body.error.details).toEqual([{ path: '/widgetType', message: 'must be one of TODAYS_SCHEDULE, ANNOUNCEMENTS, EVENTS, TRANSPORT_BOARD' }])
  })

  test("another of the four than the widget's type is 422 WIDGET_TYPE_MISMATCH", async () => {
    const ctx = widgetContext()
    const res = await ctx.push(SCHEDULE, envelope('ANNOUNCEMENTS', announcementsData()))
    const body = await expectError(res, 422, WidgetCodes.WIDGET_TYPE_MISMATCH)
    expect(body.error.details).toEqual([{ path: '/widgetType', message: 'this widget is TODAYS_SCHEDULE' }])
  })

  test('HTML in a nested field is 422 SCHEMA_VALIDATION_FAILED with that path, every failing path listed', async () => {
    const ctx = widgetContext()
    const data = transportData(3)
    data.items[1]!.line.shortName = 'S<sup>1</sup>'
    ;(data.items[2] as Record<string, unknown>).status = 'DELAYED'
    const res = await ctx.push(WIDGET_BY_TYPE.TRANSPORT_BOARD, envelope('TRANSPORT_BOARD', data, { sequence: 1, extra: true }))
    const body = await expectError(res, 422, WidgetCodes.SCHEMA_VALIDATION_FAILED)
    expect(body.error.details).toEqual([
      { path: '/source/extra', message: 'unknown property' },
      { path: '/data/items/1/line/shortName', message: 'must not contain HTML markup' },
      { path: '/data/items/2/estimatedAt', message: 'required when status is DELAYED' },
    ])
    expect(JSON.stringify(body)).not.toContain('<sup>')
  })

  test('the schema is checked before the sequence', async () => {
    const ctx = widgetContext()
    await ctx.push(SCHEDULE, schedulePush(5))
    const invalid = envelope('TODAYS_SCHEDULE', { ...scheduleData(), timezone: 'Berlin' }, { sequence: 5 })
    await expectError(await ctx.push(SCHEDULE, invalid), 422, WidgetCodes.SCHEMA_VALIDATION_FAILED)
  })
})

describe('source.sequence', () => {
  test('equal or lower is 409 STALE_SOURCE_SEQUENCE naming the last accepted one; absent is accepted and keeps it', async () => {
    const ctx = widgetContext()
    expect((await ctx.push(SCHEDULE, schedulePush(5))).status).toBe(200)
    for (const stale of [5, 4, 0]) {
      const body = await expectError(await ctx.push(SCHEDULE, schedulePush(stale)), 409, WidgetCodes.STALE_SOURCE_SEQUENCE)
      expect(body.error.details).toEqual([{ path: '/source/sequence', message: 'must be greater than the last accepted sequence 5' }])
    }
    const absent = await ctx.push(SCHEDULE, envelope('TODAYS_SCHEDULE', scheduleData(1)))
    expect(absent.status).toBe(200)
    expect((await jsonOf(absent)).warnings.map((w: { code: string }) => w.code)).toEqual([WidgetWarnings.SEQUENCE_MISSING])
    expect(snapshotRow(ctx, SCHEDULE)).toMatchObject({ data_revision: 2, last_sequence: 5 })
    await expectError(await ctx.push(SCHEDULE, schedulePush(5)), 409, WidgetCodes.STALE_SOURCE_SEQUENCE)
    const next = await ctx.push(SCHEDULE, schedulePush(6))
    expect(next.headers.get('x-service-data-revision')).toBe('3')
    expect(snapshotRow(ctx, SCHEDULE)).toMatchObject({ data_revision: 3, last_sequence: 6 })
  })

  test('the first push may carry any sequence, 0 included, and sequences may skip', async () => {
    const ctx = widgetContext()
    expect((await ctx.push(SCHEDULE, schedulePush(0))).status).toBe(200)
    expect((await ctx.push(SCHEDULE, schedulePush(1_000_000))).status).toBe(200)
    expect((await ctx.push(SCHEDULE, schedulePush(Number.MAX_SAFE_INTEGER))).status).toBe(200)
    expect(snapshotRow(ctx, SCHEDULE)!.last_sequence).toBe(Number.MAX_SAFE_INTEGER)
  })

  test('sequences are per widget', async () => {
    const ctx = widgetContext()
    await ctx.push(SCHEDULE, schedulePush(9))
    const other = await ctx.push(WIDGET_BY_TYPE.ANNOUNCEMENTS, envelope('ANNOUNCEMENTS', announcementsData(), { sequence: 1 }))
    expect(other.status).toBe(200)
  })
})

describe('after a restart', () => {
  test('a replay gets the original response and the last sequence still holds', async () => {
    const path = join(tempDir(), 'lobby.db')
    const firstDb = openDatabase(path)
    migrateDatabase(firstDb.$client)
    const first = widgetContext(testContext({ db: firstDb }))
    const raw = JSON.stringify(schedulePush(7))
    const original = await first.push(SCHEDULE, raw, { idempotencyKey: 'push-0007' })
    expect(original.status).toBe(200)
    const originalText = await original.text()
    firstDb.$client.close()

    const db = openDatabase(path)
    migrateDatabase(db.$client)
    const ctx = testContext({ db })
    const replay = await pushTo(ctx.app, first.key, SCHEDULE, raw, { idempotencyKey: 'push-0007' })
    expect(replay.status).toBe(200)
    expect(await replay.text()).toBe(originalText)
    expect(replay.headers.get('x-service-data-revision')).toBe('1')
    expect(replay.headers.get('idempotent-replayed')).toBe('true')

    const stale = await pushTo(ctx.app, first.key, SCHEDULE, schedulePush(7), { idempotencyKey: 'push-0008' })
    const body = await expectError(stale, 409, WidgetCodes.STALE_SOURCE_SEQUENCE)
    expect(body.error.details[0].message).toContain('7')
    const next = await pushTo(ctx.app, first.key, SCHEDULE, schedulePush(8))
    expect(next.headers.get('x-service-data-revision')).toBe('2')
    db.$client.close()
  })
})

describe('a refused request leaves the stored snapshot as it was', () => {
  const refusals: [string, number, string, (ctx: WidgetTestContext) => Promise<Response>][] = [
    ['too large', 413, WidgetCodes.PAYLOAD_TOO_LARGE, (ctx) => ctx.push(SCHEDULE, ' '.repeat(MiB + 1))],
    ['not JSON content', 415, WidgetCodes.UNSUPPORTED_CONTENT_TYPE, (ctx) => ctx.push(SCHEDULE, schedulePush(20), { headers: { 'content-type': 'text/plain' } })],
    ['two credentials', 400, WidgetCodes.MULTIPLE_CREDENTIALS, (ctx) => ctx.push(SCHEDULE, schedulePush(20), { headers: { 'x-service-api-key': ctx.key } })],
    ['no credential', 401, WidgetCodes.AUTHENTICATION_REQUIRED, (ctx) => ctx.push(SCHEDULE, schedulePush(20), { anonymous: true })],
    ['wrong workspace', 403, WidgetCodes.WIDGET_NOT_FOUND_OR_FORBIDDEN, (ctx) => pushTo(ctx.app, ctx.otherKey, SCHEDULE, schedulePush(20))],
    ['bad key format', 400, WidgetCodes.INVALID_IDEMPOTENCY_KEY, (ctx) => ctx.push(SCHEDULE, schedulePush(20), { idempotencyKey: 'x' })],
    ['key reused', 409, WidgetCodes.IDEMPOTENCY_KEY_REUSED, (ctx) => ctx.push(SCHEDULE, schedulePush(20), { idempotencyKey: 'push-0010' })],
    ['invalid JSON', 400, WidgetCodes.INVALID_JSON, (ctx) => ctx.push(SCHEDULE, '{"pushVersion":')],
    ['schema', 422, WidgetCodes.SCHEMA_VALIDATION_FAILED, (ctx) => ctx.push(SCHEDULE, envelope('TODAYS_SCHEDULE', scheduleData(1), { sequence: -20 }))],
    ['unsupported type', 422, WidgetCodes.UNSUPPORTED_WIDGET_TYPE, (ctx) => ctx.push(SCHEDULE, envelope('CLOCK', scheduleData(1), { sequence: 20 }))],
    ['type mismatch', 422, WidgetCodes.WIDGET_TYPE_MISMATCH, (ctx) => ctx.push(SCHEDULE, envelope('EVENTS', scheduleData(1), { sequence: 20 }))],
    ['stale sequence', 409, WidgetCodes.STALE_SOURCE_SEQUENCE, (ctx) => ctx.push(SCHEDULE, schedulePush(10, 1))],
    ['rate limited', 429, WidgetCodes.RATE_LIMITED, async (ctx) => {
      for (let i = 0; i < 120; i++) await ctx.push(SCHEDULE, '{')
      return ctx.push(SCHEDULE, schedulePush(20, 1))
    }],
  ]

  test.each(refusals)('%s: %d %s', async (_, status, code, refuse) => {
    const ctx = widgetContext()
    expect((await ctx.push(SCHEDULE, schedulePush(10), { idempotencyKey: 'push-0010' })).status).toBe(200)
    const before = snapshotRow(ctx, SCHEDULE)
    const beforeRead = getWidgetSnapshot(ctx.deps, SCHEDULE)
    let heard = 0
    ctx.deps.events.widgetSnapshots.on(() => heard++)
    ctx.clock.advance(1000)
    await expectError(await refuse(ctx), status, code)
    expect(snapshotRow(ctx, SCHEDULE)).toEqual(before)
    expect(getWidgetSnapshot(ctx.deps, SCHEDULE)).toEqual(beforeRead)
    expect(heard).toBe(0)
  })
})

describe('OpenAPI', () => {
  test('/swagger/json documents the push: security, envelope with the four payloads, 200 with its header, every error status', async () => {
    const { app } = testContext()
    const doc = await dereferencedDocument(app)
    const op = doc.paths['/api/public/v1/widgets/{widgetId}/data/push']?.post
    expect(op).toBeDefined()
    expect(op.security).toEqual([{ workspaceBearer: [] }, { workspaceHeader: [] }])
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503'])
    expect(op.responses['200'].headers['X-Service-Data-Revision']).toBeDefined()
    expect(op.responses['200'].content['application/json'].schema.required).toEqual(
      ['accepted', 'widgetId', 'widgetType', 'dataRevision', 'schemaVersion', 'acceptedAt', 'itemCount', 'warnings'],
    )
    for (const [status, codes] of Object.entries({
      400: ['INVALID_JSON', 'INVALID_IDEMPOTENCY_KEY', 'MULTIPLE_CREDENTIALS'],
      401: ['AUTHENTICATION_REQUIRED'],
      403: ['WIDGET_NOT_FOUND_OR_FORBIDDEN'],
      409: ['IDEMPOTENCY_KEY_REUSED', 'STALE_SOURCE_SEQUENCE'],
      413: ['PAYLOAD_TOO_LARGE'],
      415: ['UNSUPPORTED_CONTENT_TYPE'],
      422: ['SCHEMA_VALIDATION_FAILED', 'UNSUPPORTED_WIDGET_TYPE', 'WIDGET_TYPE_MISMATCH'],
      429: ['RATE_LIMITED'],
    })) {
      for (const code of codes) expect(op.responses[status].description).toContain(code)
      for (const code of codes) expect(errorCodeEnum(op, status)).toContain(code)
    }
    const variants = op.requestBody.content['application/json'].schema.oneOf
    expect(variants.map((v: { properties: { widgetType: { const: string } } }) => v.properties.widgetType.const)).toEqual([...WIDGET_TYPES])
    const schedule = variants[0].properties.data
    expect(schedule.additionalProperties).toBe(false)
    expect(schedule.properties.items.maxItems).toBe(500)
    expect(schedule.properties.items.items.properties.startAt.format).toBe('offset-date-time')
    const transport = variants[3].properties.data
    expect(transport.properties.items.maxItems).toBe(1000)
    expect(transport.properties.items.items.properties.line.required).toEqual(['shortName'])
    expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['path:widgetId', 'header:Idempotency-Key']),
    )
  })
})

