import { describe, expect, test } from 'bun:test'
import { reportContext, act, ok, issued, REPORTS } from './helpers'
import { get, expectError, type QueueTestContext } from '../queue/helpers'
import { jsonOf, request } from '../support/app'
import { CHEAP, withPassword, signedIn } from '../people/helpers'
import { pairedCookie } from '../devices/helpers'
import { ReportCodes } from '../../src/reports/errors'

/*
 * Contract §20's feedback report: the ratings customers gave on their phone pages, per day,
 * location, service, counter and clerk (count, sum, average), the comments as given, and who
 * may read them (the staff report's readers; a key limited to some lines sees those only).
 */

const ORIGIN = { origin: 'http://localhost' }

/** A ticket of `serviceId` completed at `counterId` at `iso` (by `clerk` when given), then rated on its phone page. */
async function rated(ctx: QueueTestContext, iso: string, rating: number, options: { serviceId?: string; counterId?: string; clerk?: string; comment?: string } = {}) {
  ctx.clock.set(iso)
  const { id } = await issued(ctx, { locationId: 'loc_hall', serviceId: options.serviceId ?? 'svc_accounts' })
  await ok(act(ctx, id, 'call', { counterId: options.counterId ?? 'cnt_1' }))
  await ok(act(ctx, id, 'start'))
  if (options.clerk === undefined) await ok(act(ctx, id, 'complete'))
  else ctx.deps.writes.now(() => ctx.deps.tickets.complete(ctx.deps.tickets.byId(id)!, `clerk:${options.clerk}`, ctx.clock.now()))
  const code = (ctx.db.$client.query('SELECT tracking_code AS c FROM tickets WHERE id = ?1').get(id) as { c: string }).c
  const res = await request(ctx.app, 'POST', `/api/phone/v1/tickets/${code}/feedback`, { headers: ORIGIN, body: { rating, ...(options.comment === undefined ? {} : { comment: options.comment }) } })
  expect(res.status).toBe(200)
  return id
}

const feedback = async (ctx: QueueTestContext, query: string, secret: string | null, headers: Record<string, string> = {}) => {
  const res = await get(ctx, `${REPORTS}/feedback?${query}`, secret, headers)
  const body = await jsonOf(res)
  expect({ status: res.status, body }).toMatchObject({ status: 200 })
  return body.data
}

async function day(ctx: QueueTestContext) {
  await rated(ctx, '2026-11-25T09:00:00Z', 5, { clerk: 'alice', comment: '<script>alert(1)</script> very kind' })
  await rated(ctx, '2026-11-25T09:10:00Z', 4, { clerk: 'alice' })
  await rated(ctx, '2026-11-25T09:20:00Z', 4, { clerk: 'alice' })
  await rated(ctx, '2026-11-25T09:30:00Z', 1, { counterId: 'cnt_2', comment: 'waited too long' })
  await rated(ctx, '2026-11-25T09:40:00Z', 3, { serviceId: 'svc_loans', clerk: 'bob' })
  await rated(ctx, '2026-11-26T09:00:00Z', 2, { clerk: 'alice' })
}

describe('GET /api/operator/v1/reports/feedback', () => {
  test('per day, location, service, counter and clerk: count, sum and average; the comments exactly as given', async () => {
    const ctx = reportContext()
    await day(ctx)
    const data = await feedback(ctx, 'from=2026-11-25&to=2026-11-26', ctx.key('reports'))
    expect(data.ratings).toEqual([
      { date: '2026-11-25', locationId: 'loc_hall', serviceId: 'svc_accounts', counterId: 'cnt_1', clerk: 'alice', count: 3, ratingSum: 13, average: 4.33 },
      { date: '2026-11-25', locationId: 'loc_hall', serviceId: 'svc_accounts', counterId: 'cnt_2', clerk: null, count: 1, ratingSum: 1, average: 1 },
      { date: '2026-11-25', locationId: 'loc_hall', serviceId: 'svc_loans', counterId: 'cnt_1', clerk: 'bob', count: 1, ratingSum: 3, average: 3 },
      { date: '2026-11-26', locationId: 'loc_hall', serviceId: 'svc_accounts', counterId: 'cnt_1', clerk: 'alice', count: 1, ratingSum: 2, average: 2 },
    ])
    expect(data.comments).toEqual([
      { date: '2026-11-25', locationId: 'loc_hall', serviceId: 'svc_accounts', counterId: 'cnt_1', clerk: 'alice', rating: 5, comment: '<script>alert(1)</script> very kind', ratedAt: '2026-11-25T09:00:00.000Z' },
      { date: '2026-11-25', locationId: 'loc_hall', serviceId: 'svc_accounts', counterId: 'cnt_2', clerk: null, rating: 1, comment: 'waited too long', ratedAt: '2026-11-25T09:30:00.000Z' },
    ])
    // The range cuts by the ticket's business day.
    expect((await feedback(ctx, 'from=2026-11-26&to=2026-11-26', ctx.key('reports'))).ratings.map((r: any) => r.count)).toEqual([1])
    expect(await feedback(ctx, 'from=2026-11-20&to=2026-11-24', ctx.key('reports'))).toEqual({ ratings: [], comments: [] })
    await expectError(await get(ctx, `${REPORTS}/feedback?from=2026-11-26&to=2026-11-25`, ctx.key('reports')), 422, ReportCodes.VALIDATION_FAILED)
    await expectError(await get(ctx, `${REPORTS}/feedback?from=2026-11-25`, ctx.key('reports')), 422, ReportCodes.VALIDATION_FAILED)
  })

  test('a new rating shows at once (no stale answer kept)', async () => {
    const ctx = reportContext()
    await rated(ctx, '2026-11-25T09:00:00Z', 5)
    expect((await feedback(ctx, 'from=2026-11-25&to=2026-11-25', ctx.key('reports'))).ratings[0].count).toBe(1)
    await rated(ctx, '2026-11-25T09:01:00Z', 3)
    expect((await feedback(ctx, 'from=2026-11-25&to=2026-11-25', ctx.key('reports'))).ratings[0]).toMatchObject({ count: 2, ratingSum: 8, average: 4 })
  })

  test('30 reads a minute per credential in a window of its own: the range reads\' budget stays whole', async () => {
    const ctx = reportContext()
    const path = `${REPORTS}/feedback?from=2026-11-25&to=2026-11-25`
    for (let i = 0; i < 30; i++) expect((await get(ctx, path, ctx.key('reports'))).status).toBe(200)
    const refused = await expectError(await get(ctx, path, ctx.key('reports')), 429, ReportCodes.RATE_LIMITED)
    expect(refused.error.message).toContain('feedback report reads')
    expect((await get(ctx, `${REPORTS}/daily?from=2026-11-25&to=2026-11-25`, ctx.key('reports'))).status).toBe(200)
  })

  test('readers: a reports key (a limited one sees its lines), a reports device, a manager or admin; no credential 401, a key without the scope 403, a clerk 403', async () => {
    const ctx = reportContext(() => {}, { passwordCost: CHEAP })
    await withPassword(ctx, { username: 'mona', role: 'manager', queueUnits: ['qu_main'] })
    await withPassword(ctx, { username: 'root', role: 'admin' })
    await withPassword(ctx, { username: 'alice', role: 'clerk', queueUnits: ['qu_main'] })
    await day(ctx)
    ctx.clock.set('2026-11-26T10:00:00Z')
    const query = 'from=2026-11-25&to=2026-11-26'
    const path = `${REPORTS}/feedback?${query}`
    const limited = await feedback(ctx, query, ctx.key('reports-hall-loans'))
    expect(limited.ratings.map((r: any) => [r.serviceId, r.clerk])).toEqual([['svc_loans', 'bob']])
    expect(limited.comments).toEqual([])
    await expectError(await get(ctx, path, null), 401, ReportCodes.AUTHENTICATION_FAILED)
    await expectError(await get(ctx, path, ctx.key('operator')), 403, ReportCodes.SCOPE_FORBIDDEN)
    const device = await pairedCookie(ctx, { role: 'reports', queueUnitId: 'qu_main' })
    expect((await feedback(ctx, query, null, { cookie: device })).ratings).toHaveLength(4)
    expect((await feedback(ctx, query, null, { cookie: await signedIn(ctx, 'mona') })).ratings).toHaveLength(4)
    expect((await feedback(ctx, query, null, { cookie: await signedIn(ctx, 'root') })).comments).toHaveLength(2)
    await expectError(await get(ctx, path, null, { cookie: await signedIn(ctx, 'alice') }), 403, ReportCodes.ROLE_FORBIDDEN)
  })
})
