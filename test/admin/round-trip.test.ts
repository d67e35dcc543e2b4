import { describe, expect, test } from 'bun:test'
import demoYaml from '../../src/provisioning/demo.yaml' with { type: 'text' }
import { testContext } from '../support/app'
import { applyProvisioning } from '../../src/provisioning/service'
import { exportProvisioning } from '../../src/provisioning/export'
import type { ProvisioningFile } from '../../src/provisioning/model'

/*
 * Contract §17: `provision --export` re-applies to the same database as no change (no row
 * written, no audit entry), and to an empty database as the same structure; on the demo and on
 * a large generated branch (100 services, 300 counters, names in two languages, hours).
 */

function largeBranch(): ProvisioningFile {
  const hours = { mon: [['08:00', '12:00'], ['13:00', '17:00']], tue: [['08:00', '17:00']], wed: [['08:00', '17:00']], thu: [['08:00', '17:00']], fri: [], sat: [['09:00', '13:00']], sun: [] }
  const locations = Array.from({ length: 4 }, (_, i) => ({ id: `loc_${i}`, name: { en: `Hall ${i}`, ar: `القاعة ${i}` }, timezone: 'Asia/Riyadh', openingHours: hours, closedDates: ['2026-12-02'] }))
  const services = Array.from({ length: 100 }, (_, i) => ({
    id: `svc_${i}`, name: { en: `Service ${i}`, ar: `الخدمة ${i}` }, prefix: String.fromCharCode(65 + (i % 26)) + (i >= 26 ? String.fromCharCode(65 + Math.floor(i / 26)) : ''),
    locations: [`loc_${i % 4}`], defaultServiceSeconds: 120 + i, ...(i % 10 === 0 ? { openingHours: { mon: [['09:00', '11:00']] } } : {}),
  }))
  const counters = Array.from({ length: 300 }, (_, i) => ({
    id: `cnt_${i}`, name: { en: `Counter ${i}`, ar: `الشباك ${i}` }, locationId: `loc_${i % 4}`,
    services: [`svc_${i % 100}`, ...(i % 3 === 0 ? [`svc_${(i + 4) % 100}`] : [])],
    ...(i % 50 === 49 ? { active: false } : {}),
  }))
  return { workspaces: [{ id: 'ws_big', name: 'Big bank', queueUnits: [{ id: 'qu_big', name: { en: 'Big branch', ar: 'الفرع الكبير' }, languages: ['en', 'ar'], locations, services, counters }] }] }
}

const auditCount = (ctx: ReturnType<typeof testContext>) => ctx.db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM audit_log').get()!.n
const changed = (applied: Record<string, { created: number; updated: number }>) => Object.entries(applied).filter(([, c]) => c.created + c.updated > 0).map(([kind]) => kind)

describe('export round trip', () => {
  for (const [what, document] of [['the demo', () => Bun.YAML.parse(demoYaml)], ['a large branch (100 services, 300 counters)', largeBranch]] as const) {
    test(`${what}: apply → export → apply again changes nothing; an empty database gets the same structure`, () => {
      const ctx = testContext()
      applyProvisioning(ctx.db, document(), ctx.clock.now())
      const exported = exportProvisioning(ctx.db)
      const entries = auditCount(ctx)
      const again = applyProvisioning(ctx.db, JSON.parse(JSON.stringify(exported)), ctx.clock.now() + 1000)
      expect(changed(again.applied)).toEqual([])
      expect(again.secrets).toEqual([])
      expect(auditCount(ctx)).toBe(entries)
      expect(exportProvisioning(ctx.db)).toEqual(exported)

      const empty = testContext()
      applyProvisioning(empty.db, JSON.parse(JSON.stringify(exported)), empty.clock.now())
      expect(exportProvisioning(empty.db)).toEqual(exported)
    }, 60_000)
  }

  test('the large branch: every counter and service is in the export, retired ones as active: false', () => {
    const ctx = testContext()
    applyProvisioning(ctx.db, largeBranch(), ctx.clock.now())
    const unit = exportProvisioning(ctx.db).workspaces[0]!.queueUnits![0]!
    expect(unit.services).toHaveLength(100)
    expect(unit.counters).toHaveLength(300)
    expect(unit.counters!.filter((c) => c.active === false)).toHaveLength(6)
  }, 60_000)
})
