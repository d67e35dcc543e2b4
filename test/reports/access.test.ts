import { describe, expect, test } from 'bun:test'
import { reportContext, REPORTS } from './helpers'
import { get, expectError } from '../queue/helpers'
import { ReportCodes } from '../../src/reports/errors'

describe('report routes: who may read, and bad input in the envelope', () => {
  test('no key 401; a key without reports:read 403 (it is not a default scope)', async () => {
    const ctx = reportContext()
    await expectError(await get(ctx, `${REPORTS}/daily?from=2026-11-25&to=2026-11-25`, null), 401, ReportCodes.AUTHENTICATION_FAILED)
    await expectError(await get(ctx, `${REPORTS}/daily?from=2026-11-25&to=2026-11-25`, ctx.key('all')), 403, ReportCodes.SCOPE_FORBIDDEN)
    await expectError(await get(ctx, `${REPORTS}/counters?from=2026-11-25&to=2026-11-25`, ctx.key('operator')), 403, ReportCodes.SCOPE_FORBIDDEN)
  })

  const bad: [string, string[]][] = [
    ['', ['/from', '/to']],
    ['?from=2026-11-25', ['/to']],
    ['?from=2026-02-30&to=2026-03-01', ['/from']],
    ['?from=25.11.2026&to=2026-11-25', ['/from']],
    ['?from=2026-11-26&to=2026-11-25', ['/to']],
    ['?from=2024-01-01&to=2026-11-25', ['/to']],
    ['?from=2026-11-25&to=2026-11-25&locationId=loc_nowhere', ['/locationId']],
    ['?from=2026-11-25&to=2026-11-25&serviceId=svc_nowhere', ['/serviceId']],
    ['?from=%FF&to=2026-11-25', ['/from']],
  ]
  for (const [query, paths] of bad) {
    test(`daily${query || ' (no query)'} → 422 on ${paths.join(', ')}`, async () => {
      const ctx = reportContext()
      const body = await expectError(await get(ctx, `${REPORTS}/daily${query}`, ctx.key('reports')), 422, ReportCodes.VALIDATION_FAILED)
      expect(body.error.details.map((d: { path: string }) => d.path)).toEqual(paths)
    })
  }

  test('a location outside the key\'s list is refused like an unknown one', async () => {
    const ctx = reportContext()
    const body = await expectError(await get(ctx, `${REPORTS}/counters?from=2026-11-25&to=2026-11-25&locationId=loc_annex`, ctx.key('reports-hall-loans')), 422, ReportCodes.VALIDATION_FAILED)
    expect(body.error.details).toEqual([{ path: '/locationId', message: 'no such location for this reader' }])
  })

  test('the OpenAPI document lists both routes with their query parameters', async () => {
    const ctx = reportContext()
    const doc: any = await (await ctx.app.handle(new Request('http://localhost/swagger/json'))).json()
    const daily = doc.paths['/api/operator/v1/reports/daily'].get
    expect(daily.parameters.map((p: { name: string }) => p.name)).toEqual(['from', 'to', 'queueUnitId', 'locationId', 'serviceId'])
    // Contract §24: a manager's or admin's session reads them too, and the document says so.
    expect(daily.security).toEqual([{ queueBearer: [] }, { deviceCookie: [] }, { sessionCookie: [] }])
    expect(daily.description).toContain('signed-in manager (the units it works in) or admin (every unit)')
    expect(Object.keys(daily.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '422', '429']))
    expect(daily.operationId).toBe('readDailyReport')
    expect(doc.paths['/api/operator/v1/reports/counters'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['from', 'to', 'queueUnitId', 'locationId'])
  })
})
