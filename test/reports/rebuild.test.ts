import { describe, expect, test } from 'bun:test'
import { reportContext } from './helpers'
import { smallDay } from './small-day'
import { migrateDatabase } from '../../src/root/migrate'
import { Histogram, bucketOf, rebuildReportRollups } from '../../src/tickets'

const rowsOf = (ctx: ReturnType<typeof reportContext>) => ({
  daily: ctx.db.$client.query('SELECT * FROM report_daily ORDER BY location_id, service_id, business_day').all(),
  counters: ctx.db.$client.query('SELECT * FROM report_counter_daily ORDER BY counter_id, business_day').all(),
  distributions: ctx.db.$client.query('SELECT * FROM report_daily_distributions ORDER BY location_id, service_id, business_day').all(),
  counterDistributions: ctx.db.$client.query('SELECT * FROM report_counter_distributions ORDER BY counter_id, business_day').all(),
})

describe('roll-ups of a database that had tickets before them', () => {
  test('the migration that adds the roll-ups computes them from the ticket history, as the live writes did', async () => {
    const ctx = reportContext()
    await smallDay(ctx)
    const live = rowsOf(ctx)
    expect(live.daily.length).toBe(2)
    // The database as it was before migration 0007: no roll-up tables, no wait target column.
    const client = ctx.db.$client
    client.exec('DROP TABLE report_daily; DROP TABLE report_counter_daily; DROP TABLE report_daily_distributions; DROP TABLE report_counter_distributions')
    client.exec("UPDATE services SET wait_target_seconds = 900 WHERE id <> 'svc_accounts'")
    client.exec('ALTER TABLE services DROP COLUMN wait_target_seconds')
    client.exec("DELETE FROM lobby_migrations WHERE tag = '0007_report_rollups'")
    expect(migrateDatabase(client).applied).toEqual(['0007_report_rollups'])
    const rebuilt = rowsOf(ctx)
    // Accounts' 600 s target went with the column (the default 900 now): its 900 s wait is within
    // target too (3 of 3, live 2 of 3); every other figure is the same.
    const accounts = (rows: unknown[]) => rows.find((r) => (r as { service_id: string }).service_id === 'svc_accounts') as Record<string, unknown>
    expect([accounts(live.daily).within_target, accounts(rebuilt.daily).within_target]).toEqual([2, 3])
    expect({ ...accounts(rebuilt.daily), within_target: 2 }).toEqual({ ...accounts(live.daily), within_target: 2 })
    expect(rebuilt.daily.filter((r) => r !== accounts(rebuilt.daily))).toEqual(live.daily.filter((r) => r !== accounts(live.daily)))
    expect(rebuilt.counters).toEqual(live.counters)
    expect(rebuilt.distributions).toEqual(live.distributions)
    expect(rebuilt.counterDistributions).toEqual(live.counterDistributions)
    expect(live.distributions.length).toBe(2)
  })

  test('a rebuild of an up-to-date database writes the same rows', async () => {
    const ctx = reportContext()
    await smallDay(ctx)
    const live = rowsOf(ctx)
    ctx.db.$client.transaction(() => rebuildReportRollups(ctx.db.$client)).immediate()
    expect(rowsOf(ctx)).toEqual(live)
  })
})

describe('distributions', () => {
  test('buckets: every second below an hour, every minute below a day, every hour beyond', () => {
    expect([0, 59, 3599, 3600, 3659, 3660, 86_399, 86_400, 93_599].map(bucketOf)).toEqual([0, 59, 3599, 3600, 3600, 3660, 86_340, 86_400, 90_000])
  })

  test('nearest rank over 10 values; p90 of 1..10 is 9, p50 is 5', () => {
    const h = new Histogram()
    for (const s of [7, 3, 10, 1, 9, 2, 8, 4, 6, 5]) h.add(s)
    expect([h.percentile(0.5), h.percentile(0.9), h.percentile(1), h.total()]).toEqual([5, 9, 10, 10])
    const back = Histogram.fromBytes(h.bytes())
    expect(back.percentile(0.9)).toBe(9)
    expect(new Histogram().percentile(0.5)).toBeNull()
  })
})
