import { expect, test } from 'bun:test'
import demoYaml from '../../src/provisioning/demo.yaml' with { type: 'text' }
import { testContext } from '../support/app'
import { applyProvisioning } from '../../src/provisioning/service'

test('the demo file applies cleanly and covers every entity kind of contract §1', () => {
  const ctx = testContext()
  const result = applyProvisioning(ctx.db, Bun.YAML.parse(demoYaml), ctx.clock.now())
  for (const kind of ['workspaces', 'widgets', 'prayerSources', 'queueUnits', 'locations', 'services', 'counters', 'webhooks', 'workspaceKeys', 'displayKeys', 'queueKeys', 'webhookKeys']) {
    expect(result.applied[kind]?.created ?? 0).toBeGreaterThan(0)
  }
  const types = ctx.db.$client.query('SELECT DISTINCT type FROM widgets ORDER BY type').all()
  expect(types).toEqual([{ type: 'ANNOUNCEMENTS' }, { type: 'EVENTS' }, { type: 'TODAYS_SCHEDULE' }, { type: 'TRANSPORT_BOARD' }])
})

test('the demo branch is bilingual (contract §18) and always open: English by default, Arabic beside it, no opening hours', () => {
  const ctx = testContext()
  applyProvisioning(ctx.db, Bun.YAML.parse(demoYaml), ctx.clock.now())
  const unit = ctx.db.$client.query("SELECT name, names, default_language AS d, languages FROM queue_units WHERE id = 'qu_main'").get() as Record<string, string>
  expect(unit).toEqual({ name: 'Main branch', names: JSON.stringify({ en: 'Main branch', ar: 'الفرع الرئيسي' }), d: 'en', languages: '["en","ar"]' })
  for (const table of ['locations', 'services', 'counters']) {
    const rows = ctx.db.$client.query(`SELECT id, name, names FROM ${table} WHERE queue_unit_id = 'qu_main'`).all() as { id: string; name: string; names: string | null }[]
    for (const row of rows) {
      const names = JSON.parse(row.names ?? '{}') as Record<string, string>
      expect({ id: row.id, languages: Object.keys(names).sort(), name: row.name }).toEqual({ id: row.id, languages: ['ar', 'en'], name: names.en! })
    }
  }
  const hours = ctx.db.$client.query("SELECT count(*) AS n FROM locations WHERE opening_hours IS NOT NULL OR closed_dates != '[]'").get() as { n: number }
  const serviceHours = ctx.db.$client.query('SELECT count(*) AS n FROM services WHERE opening_hours IS NOT NULL').get() as { n: number }
  expect(hours.n + serviceHours.n).toBe(0)
})

test('the demo\'s main hall offers joining from a phone (contract §20): its join page and poster are served, the annex\'s is not', async () => {
  const ctx = testContext()
  applyProvisioning(ctx.db, Bun.YAML.parse(demoYaml), ctx.clock.now())
  const page = await ctx.app.handle(new Request('http://127.0.0.1:8080/join/loc_hall'))
  expect(page.status).toBe(200)
  expect(await page.text()).toContain('aria-label="Take a ticket for Accounts"')
  expect((await ctx.app.handle(new Request('http://127.0.0.1:8080/join/loc_hall/poster'))).status).toBe(200)
  expect((await ctx.app.handle(new Request('http://127.0.0.1:8080/join/loc_annex'))).status).toBe(404)
})
