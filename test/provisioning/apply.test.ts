import { describe, expect, test } from 'bun:test'
import { testContext } from '../support/app'
import { exampleDocument, provision } from '../support/fixtures'
import { applyProvisioning, parseProvisioningText, ProvisioningError } from '../../src/provisioning/service'
import { hashSecret } from '../../src/platform/credentials'
import { credentials } from '../../src/structure/credentials'

const tableCounts = (ctx: ReturnType<typeof testContext>) =>
  Object.fromEntries(
    ['workspaces', 'credentials', 'widgets', 'prayer_sources', 'queue_units', 'locations', 'services', 'service_locations', 'counters', 'counter_services', 'webhooks']
      .map((t) => [t, (ctx.db.$client.query(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]),
  )

describe('provisioning', () => {
  test('applies every entity and returns one prefixed secret of ≥128 bits per credential', () => {
    const ctx = testContext()
    const result = provision(ctx, exampleDocument())
    expect(result.applied.workspaces).toEqual({ created: 1, updated: 0, unchanged: 0 })
    expect(result.applied.widgets!.created).toBe(5)
    expect(result.applied.services!.created).toBe(3)
    const kinds = result.secrets.map((s) => `${s.kind}:${s.owner}:${s.name}`).sort()
    expect(kinds).toEqual([
      'display:ws_demo:lobby-screens', 'queue:qu_main:all', 'queue:qu_main:kiosk', 'queue:qu_main:operator',
      'webhook:whk_crm:whk_crm', 'workspace:ws_demo:cms',
    ])
    const prefix = { workspace: 'lbw_', queue: 'lbq_', display: 'lbd_', webhook: 'lbh_' }
    for (const s of result.secrets) {
      expect(s.secret).toStartWith(prefix[s.kind])
      // base32: 5 bits a character.
      expect((s.secret.length - 4) * 5).toBeGreaterThanOrEqual(128)
    }
  })

  test('API keys and display tokens are stored only as SHA-256; webhook secrets stay readable to sign', () => {
    const ctx = testContext()
    const result = provision(ctx, exampleDocument())
    const rows = ctx.db.select().from(credentials).all()
    for (const s of result.secrets) {
      const row = rows.find((r) => r.kind === s.kind && r.name === s.name)!
      if (s.kind === 'webhook') {
        expect(row.secret).toBe(s.secret)
      } else {
        expect(row.secret).toBeNull()
        expect(row.secretHash).toBe(hashSecret(s.secret))
      }
    }
    const dump = JSON.stringify(ctx.db.$client.query('SELECT * FROM credentials WHERE kind != ?').all('webhook'))
    for (const s of result.secrets.filter((s) => s.kind !== 'webhook')) expect(dump).not.toContain(s.secret)
  })

  test('re-applying the same file changes nothing and prints no secret', () => {
    const ctx = testContext()
    provision(ctx, exampleDocument())
    const before = ctx.db.$client.query('SELECT * FROM workspaces, widgets').all()
    ctx.clock.advance(60_000)
    const again = provision(ctx, exampleDocument())
    expect(again.secrets).toEqual([])
    for (const counts of Object.values(again.applied)) expect(counts.created + counts.updated).toBe(0)
    expect(ctx.db.$client.query('SELECT * FROM workspaces, widgets').all()).toEqual(before)
  })

  test('a changed field is updated in place; absent entities are left alone', () => {
    const ctx = testContext()
    provision(ctx, exampleDocument())
    const doc = exampleDocument()
    doc.workspaces[0]!.widgets = [{ id: 'wdg_events', type: 'EVENTS', name: 'Renamed', pushSource: 'INACTIVE' }]
    doc.workspaces[0]!.queueUnits = []
    const result = provision(ctx, doc)
    expect(result.applied.widgets).toEqual({ created: 0, updated: 1, unchanged: 0 })
    expect(ctx.db.$client.query("SELECT name, push_source FROM widgets WHERE id = 'wdg_events'").get()).toEqual({ name: 'Renamed', push_source: 'INACTIVE' })
    expect(tableCounts(ctx).widgets).toBe(5)
    expect(tableCounts(ctx).services).toBe(3)
  })

  test('YAML and JSON of the same document apply the same', () => {
    const doc = exampleDocument()
    const yaml = Bun.YAML.stringify(doc, null, 2)
    expect(parseProvisioningText(yaml, 'lobby.yaml')).toEqual(doc)
    const fromJson = testContext()
    const fromYaml = testContext()
    const a = provision(fromJson, parseProvisioningText(JSON.stringify(doc), 'lobby.json') as never)
    const b = provision(fromYaml, parseProvisioningText(yaml, 'lobby.yml') as never)
    expect(b.applied).toEqual(a.applied)
    const strip = (ctx: ReturnType<typeof testContext>) =>
      ctx.db.$client.query('SELECT kind, owner_id, name, scopes, locations, services, issue_per_minute, read_per_minute FROM credentials ORDER BY kind, name').all()
    expect(strip(fromYaml)).toEqual(strip(fromJson))
    expect(tableCounts(fromYaml)).toEqual(tableCounts(fromJson))
  })

  test('every invalid field is reported with its path, and nothing is written', () => {
    const ctx = testContext()
    const doc = exampleDocument() as any
    const ws = doc.workspaces[0]
    ws.widgets[0].type = 'CLOCK'
    ws.widgets[1].extra = true
    ws.prayerSources[0].timezone = 'Mars/Olympus'
    ws.queueUnits[0].locations[0].timezone = '+02:00'
    ws.queueUnits[0].services[1].locations = ['loc_nowhere']
    ws.queueUnits[0].services[2].prefix = 'lower'
    ws.queueUnits[0].counters[0].services = ['svc_nowhere']
    ws.queueUnits[0].apiKeys[0].scopes = ['tickets:delete']
    ws.queueUnits[0].apiKeys[1].locations = ['loc_elsewhere']
    ws.queueUnits[0].webhooks[0].url = 'ftp://x'
    ws.apiKeys.push({ name: 'cms' })
    let error: ProvisioningError | undefined
    try {
      applyProvisioning(ctx.db, doc, ctx.clock.now())
    } catch (e) {
      error = e as ProvisioningError
    }
    expect(error).toBeInstanceOf(ProvisioningError)
    const paths = error!.details.map((d) => d.path)
    expect(paths).toEqual(expect.arrayContaining([
      '/workspaces/0/widgets/0/type',
      '/workspaces/0/widgets/1/extra',
      '/workspaces/0/queueUnits/0/services/2/prefix',
      '/workspaces/0/queueUnits/0/apiKeys/0/scopes/0',
      '/workspaces/0/queueUnits/0/webhooks/0/url',
    ]))
    expect(Object.values(tableCounts(ctx)).every((n) => n === 0)).toBe(true)

    // Schema-valid but inconsistent: the references are checked, each with its path.
    const doc2 = exampleDocument() as any
    const ws2 = doc2.workspaces[0]
    ws2.prayerSources[0].timezone = 'Mars/Olympus'
    ws2.queueUnits[0].locations[0].timezone = '+02:00'
    ws2.queueUnits[0].services[1].locations = ['loc_nowhere']
    ws2.queueUnits[0].counters[0].services = ['svc_nowhere']
    ws2.queueUnits[0].apiKeys[1].locations = ['loc_elsewhere']
    ws2.apiKeys.push({ name: 'cms' })
    ws2.widgets.push({ ...ws2.widgets[0] })
    try {
      applyProvisioning(ctx.db, doc2, ctx.clock.now())
      throw new Error('expected a ProvisioningError')
    } catch (e) {
      expect((e as ProvisioningError).details.map((d) => d.path).sort()).toEqual([
        '/workspaces/0/apiKeys/1/name',
        '/workspaces/0/prayerSources/0/timezone',
        '/workspaces/0/queueUnits/0/apiKeys/1/locations/0',
        '/workspaces/0/queueUnits/0/counters/0/services/0',
        '/workspaces/0/queueUnits/0/locations/0/timezone',
        '/workspaces/0/queueUnits/0/services/1/locations/0',
        '/workspaces/0/widgets/5/id',
      ])
    }
    expect(Object.values(tableCounts(ctx)).every((n) => n === 0)).toBe(true)
  })

  test('an ID already owned by another parent is refused', () => {
    const ctx = testContext()
    provision(ctx, exampleDocument())
    const other = { workspaces: [{ id: 'ws_other', name: 'Other', widgets: [{ id: 'wdg_events', type: 'EVENTS' as const, name: 'Stolen', pushSource: 'ACTIVE' as const }] }] }
    expect(() => applyProvisioning(ctx.db, other, ctx.clock.now())).toThrow(/wdg_events|already belongs/)
    expect(ctx.db.$client.query("SELECT workspace_id FROM widgets WHERE id = 'wdg_events'").get()).toEqual({ workspace_id: 'ws_demo' })
    expect(ctx.db.$client.query("SELECT count(*) AS n FROM workspaces WHERE id = 'ws_other'").get()).toEqual({ n: 0 })
  })
})
