import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { admin, adminContext, ADMIN, expectError, jsonOf, UNIT, type AdminTestContext } from './helpers'
import { runCli, tempDir } from '../support/cli'
import { exampleDocument } from '../support/fixtures'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { applyProvisioning } from '../../src/provisioning/service'

/*
 * Contract §17's audit log: every change by the console and by provisioning files, with its
 * actor and the entity before and after, secrets never; the console's audit route (a manager
 * sees its units' entries) and `lobby audit`.
 */

describe('the audit log of configuration changes', () => {
  let ctx: AdminTestContext

  test('a provisioning file appends one entry per entity it created, as the system, without a secret', async () => {
    ctx = await adminContext()
    const entries = ctx.db.$client.query<{ actor: string; action: string; entity_type: string; entity_id: string; before: string | null; after: string | null }, []>(
      'SELECT actor, action, entity_type, entity_id, before, after FROM audit_log ORDER BY id').all()
    expect(entries.every((e) => e.actor === 'system:provision')).toBe(true)
    const created = entries.map((e) => `${e.action} ${e.entity_id}`)
    for (const expected of ['workspace.create ws_demo', 'queueUnit.create qu_main', 'location.create loc_hall', 'service.create svc_accounts', 'counter.create cnt_1', 'webhook.create whk_crm', 'queueKey.create qu_main/kiosk', 'displayToken.create ws_demo/lobby-screens']) {
      expect(created).toContain(expected)
    }
    const text = JSON.stringify(entries)
    for (const secret of ctx.provisioned.secrets) expect(text).not.toContain(secret.secret)
    expect(text).not.toMatch(/secret|hash/i)
    // Applying the same file again changes nothing and appends nothing.
    const before = entries.length
    applyProvisioning(ctx.db, (await import('./helpers')).adminDocument(), ctx.clock.now())
    expect(ctx.db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM audit_log').get()!.n).toBe(before)
  })

  test('a console change is the user\'s, with before and after, and the route shows it newest first', async () => {
    const loaded = await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', `${UNIT}/counters/cnt_2`))
    const { revision, names: _n, name: _name, id: _id, ...rest } = loaded
    expect((await admin(ctx, ctx.cookie.amira, 'PUT', `${UNIT}/counters/cnt_2`, { ...rest, name: { en: 'Counter Two', ar: 'الشباك 2' }, revision })).status).toBe(200)
    const page = await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', `${ADMIN}/audit?limit=1`))
    expect(page.data).toHaveLength(1)
    expect(page.data[0]).toMatchObject({
      actor: { type: 'user', id: 'amira' }, action: 'counter.update', entity: { type: 'counter', id: 'cnt_2' },
      before: { queueUnitId: 'qu_main', id: 'cnt_2', name: 'Counter 2' }, after: { queueUnitId: 'qu_main', id: 'cnt_2', name: { en: 'Counter Two', ar: 'الشباك 2' } },
    })
    expect(page.data[0].at).toBe(new Date(ctx.clock.now()).toISOString())
    expect(typeof page.next).toBe('number')
    const older = await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', `${ADMIN}/audit?limit=1&before=${page.next}`))
    expect(older.data[0].id).toBeLessThan(page.data[0].id)
  })

  test('filters by entity type and action; a manager sees only its units\' entries, an admin every entry', async () => {
    const counters = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${ADMIN}/audit?entityType=counter&limit=200`))
    expect(counters.data.every((e: { entity: { type: string } }) => e.entity.type === 'counter')).toBe(true)
    expect(counters.data.map((e: { entity: { id: string } }) => e.entity.id)).toContain('cnt_other')
    const updates = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${ADMIN}/audit?action=counter.update`))
    expect(updates.data.map((e: { entity: { id: string } }) => e.entity.id)).toEqual(['cnt_2'])
    const amira = await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', `${ADMIN}/audit?limit=200`))
    expect(amira.data.map((e: { entity: { id: string } }) => e.entity.id)).not.toContain('cnt_other')
    expect(amira.data.map((e: { entity: { id: string } }) => e.entity.id)).toContain('qu_main')
    const omar = await jsonOf(await admin(ctx, ctx.cookie.omar, 'GET', `${ADMIN}/audit?limit=200`))
    expect(omar.data.map((e: { entity: { id: string } }) => e.entity.id).sort()).toEqual(['cnt_other', 'loc_other', 'qu_other', 'svc_other'])
    const future = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${ADMIN}/audit?since=${new Date(ctx.clock.now() + 1000).toISOString()}`))
    expect(future).toEqual({ data: [], next: null })
    const bad = await expectError(await admin(ctx, ctx.cookie.root, 'GET', `${ADMIN}/audit?since=yesterday&limit=0`), 422, 'VALIDATION_FAILED')
    expect(bad.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['limit', 'since'])
  })
})

describe('the audit log keeps secrets out for everyone (contract §27)', () => {
  const ADMIN_ONLY = ['webhook', 'webhook-delivery', 'queueKey', 'workspaceKey', 'displayToken', 'key']

  test('a webhook created with https://u:p@hooks.example/x is https://hooks.example/x in the admin\'s audit read, and in the table', async () => {
    const ctx = await adminContext()
    const hook = { queueUnitId: 'qu_main', id: 'whk_basic', url: 'https://u:p@hooks.example/x', events: ['ticket.called'] }
    expect((await admin(ctx, ctx.cookie.root, 'POST', `${ADMIN}/webhooks`, hook)).status).toBe(201)
    expect((await admin(ctx, ctx.cookie.root, 'PATCH', `${ADMIN}/webhooks/whk_basic`, { url: 'https://v:q@hooks.example/y' })).status).toBe(200)
    const response = await admin(ctx, ctx.cookie.root, 'GET', `${ADMIN}/audit?entityType=webhook`)
    const text = await response.clone().text()
    const page = await jsonOf(response)
    const [update, create] = page.data.filter((e: { entity: { id: string } }) => e.entity.id === 'whk_basic')
    expect(create).toMatchObject({ action: 'webhook.create', after: { url: 'https://hooks.example/x' } })
    expect(update).toMatchObject({ action: 'webhook.update', before: { url: 'https://hooks.example/x' }, after: { url: 'https://hooks.example/y' } })
    expect(text).not.toContain('u:p@')
    expect(text).not.toContain('v:q@')
    const stored = JSON.stringify(ctx.db.$client.query('SELECT before, after FROM audit_log').all())
    expect(stored).not.toContain('u:p@')
    expect(stored).not.toContain('v:q@')
  })

  test('a manager never sees webhook or key entries, even of its own unit; an admin does', async () => {
    const ctx = await adminContext()
    expect((await admin(ctx, ctx.cookie.root, 'POST', `${ADMIN}/webhooks`, { queueUnitId: 'qu_main', id: 'whk_main', url: 'https://hooks.example/x', events: ['ticket.called'] })).status).toBe(201)
    expect((await admin(ctx, ctx.cookie.root, 'POST', `${ADMIN}/keys`, { kind: 'queue', owner: 'qu_main', name: 'signage' })).status).toBe(201)
    const types = (page: { data: { entity: { type: string } }[] }) => [...new Set(page.data.map((e) => e.entity.type))]
    const everything = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${ADMIN}/audit?limit=200`))
    expect(types(everything)).toEqual(expect.arrayContaining(['webhook', 'queueKey', 'displayToken', 'workspaceKey', 'key']))
    const amira = await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', `${ADMIN}/audit?limit=200`))
    expect(types(amira)).toEqual(expect.arrayContaining(['queueUnit', 'counter']))
    expect(types(amira).filter((t) => ADMIN_ONLY.includes(t))).toEqual([])
    // Asked for by name, still none; and nothing of them leaks through another filter.
    for (const type of ADMIN_ONLY) {
      expect(await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', `${ADMIN}/audit?entityType=${type}`))).toEqual({ data: [], next: null })
    }
    expect((await jsonOf(await admin(ctx, ctx.cookie.amira, 'GET', `${ADMIN}/audit?action=webhook.create`))).data).toEqual([])
  })
})

describe('lobby audit', () => {
  test('prints the log oldest first as JSON or CSV; the CLI\'s provisioning is the OS user\'s', async () => {
    const path = join(tempDir(), 'audit.db')
    const db = openDatabase(path)
    migrateDatabase(db.$client)
    applyProvisioning(db, exampleDocument(), Date.parse('2026-11-25T08:00:00Z'))
    db.$client.close()
    const file = join(tempDir(), 'more.json')
    const doc = exampleDocument()
    doc.workspaces[0]!.queueUnits![0]!.counters![0]!.name = 'Window 1'
    await Bun.write(file, JSON.stringify(doc))
    expect(runCli(['provision', '--db', path, '--file', file]).code).toBe(0)

    const json = JSON.parse(runCli(['audit', '--db', path]).stdout)
    const last = json.data[json.data.length - 1]
    expect(last).toMatchObject({ action: 'counter.update', entity: { type: 'counter', id: 'cnt_1' }, after: { name: 'Window 1' } })
    expect(last.actor.type).toBe('system')
    expect(last.actor.id).toMatch(/^provision:.+/)
    expect(json.data[0].action).toBe('workspace.create')
    expect(JSON.stringify(json)).not.toMatch(/secret|hash/i)

    const since = JSON.parse(runCli(['audit', '--db', path, '--since', '2026-11-25T09:00:00Z']).stdout)
    expect(since.data.map((e: { action: string }) => e.action)).toEqual(['counter.update'])

    const csv = runCli(['audit', '--db', path, '--format', 'csv', '--since', '2026-11-25T09:00:00Z']).stdout.split('\r\n')
    expect(csv[0]).toBe('id,at,actorType,actorId,action,entityType,entityId,before,after')
    expect(csv[1]).toContain(',system,provision:')
    expect(csv[1]).toContain(',counter.update,counter,cnt_1,"{""queueUnitId"":""qu_main""')
    expect(runCli(['audit', '--db', path, '--since', 'soon']).code).toBe(2)
  }, 60_000)
})
