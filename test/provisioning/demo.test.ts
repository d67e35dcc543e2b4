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
