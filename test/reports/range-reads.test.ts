import { describe, expect, spyOn, test } from 'bun:test'
import { reportContext, REPORTS, report } from './helpers'
import { get, expectError, issue } from '../queue/helpers'
import { ReportCodes } from '../../src/reports/errors'
import { ReportSummaryReader } from '../../src/reports/service'

describe('reports range reads (contract §23 "Expensive reads")', () => {
  test('summary is kept per roll-up revision: a second call does not recompute; a new ticket changes the answer', async () => {
    const ctx = reportContext()
    const today = new Date(ctx.clock.now()).toISOString().slice(0, 10)
    const spy = spyOn(ReportSummaryReader.prototype, 'summary')
    try {
      const path = `/summary?from=${today}&to=${today}`
      const first = await report(ctx, path) as unknown as { lines: { issued: number }[] }
      expect(spy).toHaveBeenCalledTimes(1)
      const again = await report(ctx, path)
      expect(again).toEqual(first as never)
      expect(spy).toHaveBeenCalledTimes(1)
      const issuedBefore = first.lines.reduce((n, l) => n + l.issued, 0)
      expect((await issue(ctx, ctx.key('all'))).status).toBe(201)
      const after = await report(ctx, path) as unknown as { lines: { issued: number }[] }
      expect(spy).toHaveBeenCalledTimes(2)
      expect(after.lines.reduce((n, l) => n + l.issued, 0)).toBe(issuedBefore + 1)
      // Another reader's scope is another answer.
      await report(ctx, path, 'reports-hall-loans')
      expect(spy).toHaveBeenCalledTimes(3)
    } finally {
      spy.mockRestore()
    }
  })

  test('30 range reads a minute per credential: the 31st is 429 with Retry-After; another credential is not limited', async () => {
    const ctx = reportContext()
    const today = new Date(ctx.clock.now()).toISOString().slice(0, 10)
    const routes = ['summary', 'daily', 'counters']
    for (let i = 0; i < 30; i++) {
      const res = await get(ctx, `${REPORTS}/${routes[i % 3]}?from=${today}&to=${today}`, ctx.key('reports'))
      expect(res.status).toBe(200)
    }
    const limited = await get(ctx, `${REPORTS}/summary?from=${today}&to=${today}`, ctx.key('reports'))
    await expectError(limited, 429, ReportCodes.RATE_LIMITED)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await get(ctx, `${REPORTS}/summary?from=${today}&to=${today}`, ctx.key('reports-hall-loans'))).status).toBe(200)
    ctx.clock.advance(60_000)
    expect((await get(ctx, `${REPORTS}/summary?from=${today}&to=${today}`, ctx.key('reports'))).status).toBe(200)
  })
})
