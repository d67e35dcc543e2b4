import { dereferencedDocument, errorCodeEnum } from '../support/openapi'
import { describe, expect, test } from 'bun:test'
import { jsonOf, request, testContext } from '../support/app'
import { PrayerCodes } from '../../src/prayer/errors'
import { OTHER_SOURCE, SOURCE, expectError, makeMonth, prayerContext, push, readStored } from './support'

describe('GET .../sources/{sourceId}/months/{period}', () => {
  test('the stored month with revision, checksum, storedAt and location', async () => {
    const ctx = prayerContext()
    const month = makeMonth('2026-11')
    // Sent with keys in another order: the month comes back canonical, equal in content.
    const reordered = { days: month.days, period: month.period, calculation: month.calculation, timezone: month.timezone }
    const pushed = await jsonOf(await push(ctx, reordered))
    const storedAt = new Date(ctx.clock.now()).toISOString()
    ctx.clock.advance(60_000)
    const res = await readStored(ctx, '2026-11')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/json')
    const body = await jsonOf(res)
    expect(body).toEqual({
      data: {
        sourceId: SOURCE,
        period: '2026-11',
        revision: 1,
        checksum: pushed.checksum,
        storedAt,
        dayCount: 30,
        location: pushed.location,
        month,
      },
    })
    expect(Object.keys(body.data.month)).toEqual(['calculation', 'days', 'period', 'timezone'])
  })

  test('x-service-api-key works too', async () => {
    const ctx = prayerContext()
    await push(ctx, makeMonth('2026-11'))
    const res = await readStored(ctx, '2026-11', { secret: null, headers: { 'x-service-api-key': ctx.key } })
    expect(res.status).toBe(200)
  })

  test('404 MONTH_NOT_FOUND when nothing is stored for the period', async () => {
    const ctx = prayerContext()
    await push(ctx, makeMonth('2026-11'))
    await expectError(await readStored(ctx, '2026-12'), 404, PrayerCodes.MONTH_NOT_FOUND)
  })

  test.each(['2026-13', '2026-1', '202611', 'latest'])('400 INVALID_REQUEST for period %p', async (period) => {
    const ctx = prayerContext()
    const body = await expectError(await readStored(ctx, period), 400, PrayerCodes.INVALID_REQUEST)
    expect(body.error.details[0].path).toBe('period')
  })

  test('400 INVALID_REQUEST for a malformed source ID', async () => {
    const ctx = prayerContext()
    await expectError(await readStored(ctx, '2026-11', { sourceId: 'psrc_short' }), 400, PrayerCodes.INVALID_REQUEST)
  })

  test('401 without a key, 400 with both headers', async () => {
    const ctx = prayerContext()
    await expectError(await readStored(ctx, '2026-11', { secret: null }), 401, PrayerCodes.AUTHENTICATION_REQUIRED)
    await expectError(await readStored(ctx, '2026-11', { headers: { 'x-service-api-key': ctx.key } }), 400, PrayerCodes.MULTIPLE_CREDENTIALS)
  })

  test("403 for another workspace's source, even when a month is stored there", async () => {
    const ctx = prayerContext()
    expect((await push(ctx, makeMonth('2026-11', { timezone: 'Asia/Karachi' }), { secret: ctx.otherKey, sourceId: OTHER_SOURCE })).status).toBe(201)
    await expectError(await readStored(ctx, '2026-11', { sourceId: OTHER_SOURCE }), 403, PrayerCodes.SOURCE_NOT_FOUND_OR_FORBIDDEN)
    await expectError(await readStored(ctx, '2026-11', { secret: ctx.otherKey }), 403, PrayerCodes.SOURCE_NOT_FOUND_OR_FORBIDDEN)
    expect((await readStored(ctx, '2026-11', { secret: ctx.otherKey, sourceId: OTHER_SOURCE })).status).toBe(200)
  })

  test('reads are not counted against the push rate', async () => {
    const ctx = prayerContext()
    for (let i = 0; i < 40; i++) await readStored(ctx, '2026-11')
    expect((await push(ctx, makeMonth('2026-11'))).status).toBe(201)
  })
})

describe('OpenAPI', () => {
  test('/swagger/json documents both routes, their statuses and both security schemes', async () => {
    const { app } = testContext()
    const doc = await dereferencedDocument(app)
    const base = '/api/public/v1/prayer-schedules/sources/{sourceId}/months'
    const post = doc.paths[base]?.post
    const get = doc.paths[`${base}/{period}`]?.get
    expect(post).toBeDefined()
    expect(get).toBeDefined()
    expect(Object.keys(post.responses).sort()).toEqual(['200', '201', '400', '401', '403', '409', '413', '422', '429', '500', '503'])
    expect(Object.keys(get.responses).sort()).toEqual(['200', '400', '401', '403', '404', '500'])
    for (const operation of [post, get]) {
      expect(operation.security).toEqual([{ workspaceBearer: [] }, { workspaceHeader: [] }])
      expect(operation.tags).toEqual(['Prayer schedules'])
      expect(errorCodeEnum(operation, '403')).toContain(PrayerCodes.SOURCE_NOT_FOUND_OR_FORBIDDEN)
      expect(operation.responses['403'].description).toContain(PrayerCodes.SOURCE_NOT_FOUND_OR_FORBIDDEN)
    }
    expect(post.responses['400'].description).toContain(PrayerCodes.INVALID_IDEMPOTENCY_KEY)
    expect(post.responses['409'].description).toContain(PrayerCodes.IDEMPOTENCY_KEY_REUSED)
    expect(get.responses['404'].description).toContain(PrayerCodes.MONTH_NOT_FOUND)
    expect(post.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(['path:sourceId', 'header:Idempotency-Key'])
    const month = post.requestBody.content['application/json'].schema
    expect(month.required).toEqual(['period', 'timezone', 'days'])
    expect(month.additionalProperties).toBe(false)
    expect(month.properties.days.items.additionalProperties).toBe(false)
    expect(post.responses['201'].content['application/json'].schema.properties).toHaveProperty('checksum')
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(['workspaceBearer', 'workspaceHeader']))
  })
})
