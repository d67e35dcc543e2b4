import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { admin, adminContext, jsonOf, UNIT } from '../admin/helpers'
import { issueHeaders, HALL_ACCOUNTS, TICKETS } from '../queue/helpers'
import { tempDir } from '../support/cli'
import { testContext } from '../support/app'
import { exampleDocument, provision } from '../support/fixtures'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { applyProvisioning } from '../../src/provisioning/service'
import { CONFIGURATION_TABLES } from '../../src/structure/configuration'
import { inReadTransaction } from '../../src/platform/transactions'

/*
 * The one configuration read (src/structure/configuration.ts): a unit read twice with nothing
 * changed is the same object; after each kind of configuration change the next read shows it;
 * what is not configuration (a ticket) leaves the kept unit alone. Each "sees the change" test
 * fails when the cache is not dropped on that change.
 */

describe('the configuration read', () => {
  test('two reads with no change between them return the kept object; a ticket issued between them changes nothing', async () => {
    const ctx = testContext()
    const provisioned = provision(ctx, exampleDocument())
    const first = ctx.deps.configuration.unit('qu_main')!
    expect(first.name).toBe('Main branch')
    expect([...first.locations.keys()]).toEqual(['loc_annex', 'loc_hall'])
    expect(first.services.get('svc_accounts')).toMatchObject({ prefix: 'A', active: true, locationIds: ['loc_annex', 'loc_hall'], hours: null })
    expect(first.counters.get('cnt_1')).toMatchObject({ locationId: 'loc_hall', serviceIds: ['svc_accounts', 'svc_loans'], active: true })
    expect(first.locations.get('loc_hall')!.serviceIds).toEqual(['svc_accounts', 'svc_closed', 'svc_loans'])
    expect(ctx.deps.configuration.unit('qu_main')).toBe(first)
    expect(ctx.deps.configuration.unitOfLocation('loc_annex')).toBe(first)
    // A ticket moves the database but not the configuration: the boards and kiosks keep their unit.
    const headers = issueHeaders(ctx, provisioned.secret('queue', 'qu_main', 'all'))
    expect((await ctx.app.handle(new Request(`http://localhost${TICKETS}`, { method: 'POST', headers, body: JSON.stringify(HALL_ACCOUNTS) }))).status).toBe(201)
    expect(ctx.deps.configuration.unit('qu_main')).toBe(first)
    expect(ctx.deps.configuration.unit('qu_nowhere')).toBeNull()
    expect(ctx.deps.configuration.unitOfLocation('loc_nowhere')).toBeNull()
  })

  test('a console save is seen by the next read (a location renamed, a service added, a unit setting changed)', async () => {
    const ctx = await adminContext()
    const before = ctx.deps.configuration.unit('qu_main')!
    const loaded = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${UNIT}/locations/loc_annex`))
    const { names: _names, id: _id, ...rest } = loaded
    const saved = await admin(ctx, ctx.cookie.root, 'PUT', `${UNIT}/locations/loc_annex`, { ...rest, name: { en: 'Annex', ar: 'الملحق' } })
    expect(saved.status).toBe(200)
    const renamed = ctx.deps.configuration.unit('qu_main')!
    expect(renamed).not.toBe(before)
    expect(renamed.locations.get('loc_annex')!.name).toEqual({ en: 'Annex', ar: 'الملحق' })
    expect(ctx.deps.configuration.unitOfLocation('loc_annex')).toBe(renamed)

    const created = await admin(ctx, ctx.cookie.root, 'POST', `${UNIT}/services`, { name: 'Remittances', prefix: 'R', locations: ['loc_hall'] })
    expect(created.status).toBe(201)
    const service = (await jsonOf(created)).id as string
    const added = ctx.deps.configuration.unit('qu_main')!
    expect(added.services.get(service)).toMatchObject({ prefix: 'R', locationIds: ['loc_hall'] })
    expect(added.locations.get('loc_hall')!.serviceIds).toContain(service)

    const unit = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', UNIT))
    expect((await admin(ctx, ctx.cookie.root, 'PUT', UNIT, { name: 'Main branch', languages: ['en', 'ar'], kioskPriority: true, revision: unit.revision })).status).toBe(200)
    expect(ctx.deps.configuration.unit('qu_main')).toMatchObject({ languages: ['en', 'ar'], kioskPriority: true })
  })

  test('a provisioning apply is seen by the next read', () => {
    const ctx = testContext()
    const doc = exampleDocument()
    provision(ctx, doc)
    const before = ctx.deps.configuration.unit('qu_main')!
    expect(before.counters.get('cnt_2')!.name).toBe('Counter 2')
    const unit = doc.workspaces[0]!.queueUnits![0]!
    unit.counters![1]!.name = 'Window 2'
    unit.locations![0]!.openingHours = { mon: [['08:00', '12:00']] }
    applyProvisioning(ctx.db, doc, ctx.clock.now())
    const after = ctx.deps.configuration.unit('qu_main')!
    expect(after).not.toBe(before)
    expect(after.counters.get('cnt_2')!.name).toBe('Window 2')
    expect(after.locations.get('loc_hall')!.hours.weekly).toEqual({ mon: [['08:00', '12:00']] })
  })

  test('a change written by another connection (the CLI in another process) is seen by the next read', () => {
    const path = join(tempDir(), 'lobby.db')
    const server = openDatabase(path)
    migrateDatabase(server.$client)
    const ctx = testContext({ db: server })
    provision(ctx, exampleDocument())
    const before = ctx.deps.configuration.unit('qu_main')!
    const cli = openDatabase(path)
    cli.$client.query("UPDATE services SET prefix = 'Z' WHERE id = 'svc_loans'").run()
    cli.$client.close()
    expect(ctx.deps.configuration.unit('qu_main')!.services.get('svc_loans')!.prefix).toBe('Z')
    expect(before.services.get('svc_loans')!.prefix).toBe('L')
  })

  test('inside a transaction a read sees that transaction\'s change; after its rollback the read is the stored configuration again', () => {
    const ctx = testContext()
    provision(ctx, exampleDocument())
    const before = ctx.deps.configuration.unit('qu_main')!
    // A transaction that changed nothing reads the kept unit.
    expect(inReadTransaction(ctx.db, () => ctx.deps.configuration.unit('qu_main'))).toBe(before)
    const client = ctx.db.$client
    client.exec('BEGIN IMMEDIATE')
    client.query("UPDATE locations SET name = 'Moved hall' WHERE id = 'loc_hall'").run()
    expect(ctx.deps.configuration.unit('qu_main')!.locations.get('loc_hall')!.name).toBe('Moved hall')
    client.exec('ROLLBACK')
    const after = ctx.deps.configuration.unit('qu_main')!
    expect(after.locations.get('loc_hall')!.name).toBe('Main hall')
    // A later change that commits is seen too (the rolled-back read was never kept).
    client.query("UPDATE locations SET name = 'Big hall' WHERE id = 'loc_hall'").run()
    expect(ctx.deps.configuration.unit('qu_main')!.locations.get('loc_hall')!.name).toBe('Big hall')
    expect(before.locations.get('loc_hall')!.name).toBe('Main hall')
  })

  test('a first read inside a transaction that rolls back keeps nothing of it; the next read is right', () => {
    const ctx = testContext()
    provision(ctx, exampleDocument())
    const client = ctx.db.$client
    client.exec('BEGIN IMMEDIATE')
    client.query("UPDATE services SET prefix = 'Q' WHERE id = 'svc_loans'").run()
    expect(ctx.deps.configuration.unit('qu_main')!.services.get('svc_loans')!.prefix).toBe('Q')
    client.exec('ROLLBACK')
    const after = ctx.deps.configuration.unit('qu_main')!
    expect(after.services.get('svc_loans')!.prefix).toBe('L')
    expect(ctx.deps.configuration.unit('qu_main')).toBe(after)
    // Inside a read transaction that changed nothing, the kept unit.
    expect(inReadTransaction(ctx.db, () => ctx.deps.configuration.unit('qu_main'))).toBe(after)
    client.query("UPDATE services SET prefix = 'P' WHERE id = 'svc_loans'").run()
    expect(inReadTransaction(ctx.db, () => ctx.deps.configuration.unit('qu_main'))!.services.get('svc_loans')!.prefix).toBe('P')
  })

  test('a desk opening its counter is not a configuration change; retiring the counter is', () => {
    const ctx = testContext()
    provision(ctx, exampleDocument())
    const before = ctx.deps.configuration.unit('qu_main')!
    ctx.db.$client.query("UPDATE counters SET open = 1, open_day = '2026-01-01', updated_at = 5 WHERE id = 'cnt_1'").run()
    ctx.db.$client.query("UPDATE queue_units SET state_revision = state_revision + 1 WHERE id = 'qu_main'").run()
    expect(ctx.deps.configuration.unit('qu_main')).toBe(before)
    ctx.db.$client.query("UPDATE counters SET active = 0 WHERE id = 'cnt_1'").run()
    expect(ctx.deps.configuration.unit('qu_main')!.counters.get('cnt_1')!.active).toBe(false)
  })

  test('every column of the configuration tables counts as configuration unless named as runtime state, and each runtime column exists', () => {
    const ctx = testContext()
    for (const [table, runtime] of Object.entries(CONFIGURATION_TABLES)) {
      const columns = ctx.db.$client.query<{ name: string }, [string]>('SELECT name FROM pragma_table_info(?1)').all(table).map((c) => c.name)
      expect(columns.length).toBeGreaterThan(0)
      for (const column of runtime) expect(columns).toContain(column)
    }
  })
})
