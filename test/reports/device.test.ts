import { describe, expect, test } from 'bun:test'
import { reportContext, REPORTS, hours } from './helpers'
import { smallDay } from './small-day'
import { pairedCookie, asDevice } from '../devices/helpers'
import { expectError } from '../queue/helpers'
import { ReportCodes } from '../../src/reports/errors'

const DAY = 'from=2026-11-25&to=2026-11-25'

describe('a paired reports device, the summary and the page', () => {
  test('a reports device reads its unit by cookie; a desk device and a revoked-looking cookie are 401', async () => {
    const ctx = reportContext()
    await smallDay(ctx)
    const cookie = await pairedCookie(ctx, { role: 'reports', queueUnitId: 'qu_main', name: 'manager-pc' })
    const res = await asDevice(ctx, cookie, 'GET', `${REPORTS}/daily?${DAY}`)
    expect(res.status).toBe(200)
    expect(((await res.json()) as any).data.map((r: { serviceId: string }) => r.serviceId)).toEqual(['svc_accounts', 'svc_loans'])
    expect((await asDevice(ctx, cookie, 'GET', `${REPORTS}/counters?${DAY}`)).status).toBe(200)
    const desk = await pairedCookie(ctx, { role: 'desk', counterId: 'cnt_1', name: 'desk-1' })
    await expectError(await asDevice(ctx, desk, 'GET', `${REPORTS}/daily?${DAY}`), 401, ReportCodes.AUTHENTICATION_FAILED)
    await expectError(await asDevice(ctx, 'lobby_device=lbv_aaaaaaaaaaaaaaaaaaaaaaaaaa', 'GET', `${REPORTS}/daily?${DAY}`), 401, ReportCodes.AUTHENTICATION_FAILED)
  })

  test('summary: names, served by hour, waits in bins and within target over the range', async () => {
    const ctx = reportContext()
    await smallDay(ctx)
    const cookie = await pairedCookie(ctx, { role: 'reports', queueUnitId: 'qu_main', name: 'manager-pc' })
    const body: any = await (await asDevice(ctx, cookie, 'GET', `${REPORTS}/summary?${DAY}`)).json()
    expect(body.data.services.find((s: { id: string }) => s.id === 'svc_accounts')).toEqual({ id: 'svc_accounts', name: 'Accounts', names: { en: 'Accounts' }, waitTargetSeconds: 600 })
    expect(body.data.counters.map((c: { id: string }) => c.id)).toEqual(['cnt_1', 'cnt_2'])
    expect(body.data.lines).toEqual([
      {
        locationId: 'loc_hall', serviceId: 'svc_accounts', issued: 4, served: 1, called: 3, withinTarget: 2,
        issuedByHour: hours({ 9: 3, 10: 1 }),
        // A1 completed 08:07:30 UTC = 09:07 Berlin.
        servedByHour: hours({ 9: 1 }),
        // Waits 120 s (0–5 min), 600 s (10–15), 900 s (15–20).
        waitBins: [1, 0, 1, 1, 0, 0, 0, 0],
      },
      {
        locationId: 'loc_hall', serviceId: 'svc_loans', issued: 1, served: 2, called: 1, withinTarget: 0,
        issuedByHour: hours({ 10: 1 }),
        // A3 at 10:25 and L1 at 10:42 Berlin.
        servedByHour: hours({ 10: 2 }),
        // 1,800 s: the 30–45 minute bin.
        waitBins: [0, 0, 0, 0, 0, 1, 0, 0],
      },
    ])
  })

  test('/reports is a page with its embedded script and stylesheet, no CDN', async () => {
    const ctx = reportContext()
    const page = await ctx.app.handle(new Request('http://localhost/reports?lang=ar'))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    const html = await page.text()
    expect(html).toContain('dir="rtl"')
    const assets = [...html.matchAll(/(?:src|href)="(\/reports\/assets\/[^"]+)"/g)].map((m) => m[1]!)
    expect(assets.length).toBe(2)
    for (const path of assets) {
      const res = await ctx.app.handle(new Request(`http://localhost${path}`))
      expect(res.status).toBe(200)
      const text = await res.text()
      expect(text).not.toMatch(/https?:\/\/(cdn|unpkg|jsdelivr)/)
      if (path.endsWith('.css')) expect(text).toContain('.uplot')
      else expect(text).toContain('u-legend') // uPlot's class names: the chart library is in the bundle
    }
    expect((await ctx.app.handle(new Request('http://localhost/reports/assets/other.js'))).status).toBe(404)
  })
})
