import { describe, expect, test } from 'bun:test'
import { testContext } from '../support/app'
import { exampleDocument } from '../support/fixtures'
import { applyProvisioning } from '../../src/provisioning/service'
import { exportProvisioning } from '../../src/provisioning/export'
import { refusal, unitOf, UNIT } from './helpers'

const row = (ctx: ReturnType<typeof testContext>, sql: string) => ctx.db.$client.query(sql).get()

describe('provisioning: the customer journey settings (contract §20)', () => {
  test('absent: no remote join, a 30-minute no-show grace, approaching at 3 ahead', () => {
    const ctx = testContext()
    applyProvisioning(ctx.db, exampleDocument(), ctx.clock.now())
    expect(row(ctx, "SELECT no_show_grace_minutes AS g, approaching_ahead AS a FROM queue_units WHERE id = 'qu_main'")).toEqual({ g: 30, a: 3 })
    expect(row(ctx, "SELECT remote_join AS r FROM locations WHERE id = 'loc_hall'")).toEqual({ r: null })
  })

  test('remoteJoin is stored with its defaults filled in, the unit settings as given, and the export writes them back as no change', () => {
    const ctx = testContext()
    const doc = exampleDocument()
    const unit = unitOf(doc)
    unit.noShowGraceMinutes = 10
    unit.approachingAhead = 5
    unit.locations[0].remoteJoin = { enabled: true, allowedNetworks: ['192.168.1.0/24', 'fd00::/8'] }
    applyProvisioning(ctx.db, doc, ctx.clock.now())
    expect(row(ctx, "SELECT no_show_grace_minutes AS g, approaching_ahead AS a FROM queue_units WHERE id = 'qu_main'")).toEqual({ g: 10, a: 5 })
    expect(row(ctx, "SELECT remote_join AS r FROM locations WHERE id = 'loc_hall'"))
      .toEqual({ r: '{"enabled":true,"maxWaiting":50,"allowedNetworks":["192.168.1.0/24","fd00::/8"],"perAddressPer10Min":3,"guestNetworks":[]}' })
    const exported = exportProvisioning(ctx.db)
    const again = applyProvisioning(ctx.db, exported, ctx.clock.now()).applied
    for (const kind of ['queueUnits', 'locations']) expect(again[kind]).toMatchObject({ created: 0, updated: 0 })
  })

  test('contract §27: perAddressPer10Min and guestNetworks are stored as given, exported, and export → apply changes nothing', () => {
    const ctx = testContext()
    const doc = exampleDocument()
    unitOf(doc).locations[0].remoteJoin = { enabled: true, perAddressPer10Min: 0, guestNetworks: ['192.168.50.0/24', '2001:db8:50::/48'] }
    applyProvisioning(ctx.db, doc, ctx.clock.now())
    const exported = exportProvisioning(ctx.db)
    const hallOf = (file: typeof exported) => file.workspaces.flatMap((w) => w.queueUnits ?? []).flatMap((u) => u.locations ?? []).find((l) => l.id === 'loc_hall')!
    expect(hallOf(exported).remoteJoin)
      .toEqual({ enabled: true, maxWaiting: 50, allowedNetworks: [], perAddressPer10Min: 0, guestNetworks: ['192.168.50.0/24', '2001:db8:50::/48'] })
    expect(applyProvisioning(ctx.db, exported, ctx.clock.now()).applied.locations).toMatchObject({ created: 0, updated: 0 })
    // A row stored before the settings existed exports their defaults.
    ctx.db.$client.run(`UPDATE locations SET remote_join = '{"enabled":true,"maxWaiting":50,"allowedNetworks":[]}' WHERE id = 'loc_hall'`)
    expect(hallOf(exportProvisioning(ctx.db)).remoteJoin).toMatchObject({ perAddressPer10Min: 3, guestNetworks: [] })
  })

  test('a bad network is refused at its pointer; the bounds at theirs; nothing applied', () => {
    expect(refusal((u) => { u.locations[0].remoteJoin = { enabled: true, allowedNetworks: ['10.0.0.0/8', '10.0.0.0/33'] } }))
      .toEqual([{ path: `${UNIT}/locations/0/remoteJoin/allowedNetworks/1`, message: 'not a CIDR network (e.g. 192.168.1.0/24 or fd00::/8)' }])
    expect(refusal((u) => { u.locations[0].remoteJoin = { enabled: true, maxWaiting: 0 } })[0]?.path).toBe(`${UNIT}/locations/0/remoteJoin/maxWaiting`)
    expect(refusal((u) => { u.locations[0].remoteJoin = { enabled: true, guestNetworks: ['fd00::/8', 'guest-wifi'] } }))
      .toEqual([{ path: `${UNIT}/locations/0/remoteJoin/guestNetworks/1`, message: 'not a CIDR network (e.g. 192.168.1.0/24 or fd00::/8)' }])
    for (const bad of [-1, 1001, 2.5]) {
      expect(refusal((u) => { u.locations[0].remoteJoin = { enabled: true, perAddressPer10Min: bad } })[0]?.path).toBe(`${UNIT}/locations/0/remoteJoin/perAddressPer10Min`)
    }
    expect(refusal((u) => { u.locations[0].remoteJoin = { enabled: true, guestNetworks: Array.from({ length: 51 }, (_, i) => `10.0.${i}.0/24`) } })[0]?.path)
      .toBe(`${UNIT}/locations/0/remoteJoin/guestNetworks`)
    expect(refusal((u) => { u.noShowGraceMinutes = 1441 })[0]?.path).toBe(`${UNIT}/noShowGraceMinutes`)
    expect(refusal((u) => { u.approachingAhead = 0 })[0]?.path).toBe(`${UNIT}/approachingAhead`)
  })
})

describe('provisioning: a service\'s appointment settings (contract §21)', () => {
  test('stored with defaults filled in (capacity stays absent: counted from the counters), exported back as no change', () => {
    const ctx = testContext()
    const doc = exampleDocument()
    const unit = unitOf(doc)
    unit.services[0].appointments = { enabled: true, checkIn: { lateMinutes: 5 } }
    applyProvisioning(ctx.db, doc, ctx.clock.now())
    expect(JSON.parse((row(ctx, "SELECT appointments AS a FROM services WHERE id = 'svc_accounts'") as { a: string }).a))
      .toEqual({ enabled: true, slotMinutes: 15, bookAheadDays: 14, checkIn: { earlyMinutes: 15, lateMinutes: 5 }, retainDays: 30 })
    expect(row(ctx, "SELECT appointments AS a FROM services WHERE id = 'svc_loans'")).toEqual({ a: null })
    const again = applyProvisioning(ctx.db, exportProvisioning(ctx.db), ctx.clock.now()).applied
    expect(again.services).toMatchObject({ created: 0, updated: 0 })
  })

  test('out-of-bounds settings are refused at their pointer', () => {
    expect(refusal((u) => { u.services[0].appointments = { enabled: true, slotMinutes: 1 } })[0]?.path).toBe(`${UNIT}/services/0/appointments/slotMinutes`)
    expect(refusal((u) => { u.services[0].appointments = { enabled: true, checkIn: { earlyMinutes: -1 } } })[0]?.path).toBe(`${UNIT}/services/0/appointments/checkIn/earlyMinutes`)
    expect(refusal((u) => { u.services[0].appointments = { enabled: true, colour: 'red' } })[0]?.path).toContain(`${UNIT}/services/0/appointments`)
  })
})
