import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { Database } from 'bun:sqlite'
import { Value } from '@sinclair/typebox/value'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { SCHEMA_VERSION } from '../../src/db/migrate'
import { applyProvisioning, parseProvisioningText } from '../../src/provisioning/service'
import { ProvisioningFile } from '../../src/provisioning/model'
import { startServer, type RunningServer } from '../../src/server'
import { silentLogger } from '../../src/platform/log'
import pkg from '../../package.json'
import { exampleDocument } from '../support/fixtures'
import { runCli, tempDir } from '../support/cli'

const servers: RunningServer[] = []
afterAll(async () => {
  for (const s of servers) await s.stop()
})

function provisionedDatabase() {
  const path = join(tempDir(), 'lobby.db')
  const db = openDatabase(path)
  migrateDatabase(db.$client, { log: () => {} })
  const result = applyProvisioning(db, exampleDocument(), Date.now())
  db.$client.close()
  return { path, key: result.secrets.find((s) => s.kind === 'queue' && s.name === 'all')!.secret }
}

describe('lobby status (contract §13)', () => {
  test('on a live database: version, schema, size, today\'s tickets, webhook backlog, devices, last backup', async () => {
    const { path, key } = provisionedDatabase()
    const server = await startServer({ port: 0, host: '127.0.0.1', dbPath: path, durability: 'full', log: silentLogger })
    servers.push(server)
    for (const [location, service] of [['loc_hall', 'svc_accounts'], ['loc_hall', 'svc_loans'], ['loc_annex', 'svc_accounts']]) {
      const issued = await fetch(`${server.url}/api/public/v1/queue/tickets`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-timestamp': new Date().toISOString(),
          'x-request-nonce': randomUUID(), 'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({ locationId: location, serviceId: service }),
      })
      expect(issued.status).toBe(201)
    }
    const out = join(tempDir(), 'copy.db')
    expect(runCli(['backup', '--db', path, '--out', out]).code).toBe(0)

    const run = runCli(['status', '--db', path])
    expect(run.code).toBe(0)
    const status = JSON.parse(run.stdout)
    expect(status.version).toBe(pkg.version)
    expect(status.commit).toMatch(/^[0-9a-f]{4,40}(\+dirty)?$|^unknown$/)
    expect(status.schema).toEqual({ database: SCHEMA_VERSION, build: SCHEMA_VERSION })
    expect(status.database).toMatchObject({ path, autoVacuum: 'incremental' })
    expect(status.database.bytes).toBeGreaterThan(0)
    expect(status.ticketsToday.total).toBe(3)
    expect(status.ticketsToday.byLocation).toContainEqual(expect.objectContaining({ queueUnitId: 'qu_main', locationId: 'loc_hall', issued: 2 }))
    expect(status.ticketsToday.byLocation).toContainEqual(expect.objectContaining({ locationId: 'loc_annex', issued: 1 }))
    expect(status.waitingNow).toBe(3)
    // The example's webhook takes ticket.created at a dead port: three deliveries wait, none failed yet.
    expect(status.webhooks).toEqual({ pending: 3, failed: 0 })
    expect(status.devices).toEqual({ count: 0, list: [] })
    expect(status.lastBackup).toMatchObject({ kind: 'backup', path: out, exists: true })
    expect(status.lastBackup.bytes).toBeGreaterThan(0)
  })

  test('paired devices are read from the credentials of kind device', () => {
    const { path } = provisionedDatabase()
    const db = new Database(path)
    db.query(`INSERT INTO credentials (id, kind, owner_id, name, secret_hash, created_at, last_used_at)
      VALUES ('cred_dev1', 'device', 'cnt_1', 'desk-1', 'h1', 1795600000000, NULL),
             ('cred_dev2', 'device', 'loc_hall', 'kiosk-1', 'h2', 1795600000000, 1795600060000)`).run()
    db.query("INSERT INTO credentials (id, kind, owner_id, name, secret_hash, created_at, revoked_at) VALUES ('cred_dev3', 'device', 'x', 'gone', 'h3', 1, 2)").run()
    db.close()
    const status = JSON.parse(runCli(['status', '--db', path]).stdout)
    expect(status.devices.count).toBe(2)
    expect(status.devices.list).toEqual([
      { name: 'desk-1', owner: 'cnt_1', pairedAt: new Date(1795600000000).toISOString(), lastUsedAt: null },
      { name: 'kiosk-1', owner: 'loc_hall', pairedAt: new Date(1795600000000).toISOString(), lastUsedAt: new Date(1795600060000).toISOString() },
    ])
  })

  test('a missing database is an error, not a new file', () => {
    const run = runCli(['status', '--db', join(tempDir(), 'none.db')])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('not found')
  })
})

describe('lobby webhooks redeliver --failed', () => {
  test('queues every failed delivery again and leaves the others', () => {
    const { path } = provisionedDatabase()
    const db = new Database(path)
    const insert = db.query(`INSERT INTO webhook_deliveries (id, webhook_id, ticket_id, event_type, body, status, attempts, next_attempt_at, last_error, created_at, delivered_at)
      VALUES (?1, 'whk_crm', 'tkt_1', 'ticket.created', '{}', ?2, 9, 1, 'HTTP 500', 1, ?3)`)
    insert.run('dlv_failed1', 'FAILED', null)
    insert.run('dlv_failed2', 'FAILED', null)
    insert.run('dlv_done', 'DELIVERED', 5)
    db.close()
    const run = runCli(['webhooks', 'redeliver', '--db', path, '--failed'])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({ redelivered: 2 })
    const after = new Database(path)
    expect(after.query('SELECT id, status, attempts, last_error AS lastError FROM webhook_deliveries ORDER BY id').all()).toEqual([
      { id: 'dlv_done', status: 'DELIVERED', attempts: 9, lastError: 'HTTP 500' },
      { id: 'dlv_failed1', status: 'PENDING', attempts: 0, lastError: null },
      { id: 'dlv_failed2', status: 'PENDING', attempts: 0, lastError: null },
    ])
    after.close()
    expect(JSON.parse(runCli(['webhooks', 'redeliver', '--db', path, '--failed']).stdout)).toEqual({ redelivered: 0 })
    expect(runCli(['webhooks', 'redeliver', '--db', path, '--failed', '--id', 'dlv_done']).code).toBe(2)
  })
})

/** Every property path of a TypeBox schema, arrays written as `[]` (e.g. `/workspaces[]/id`). */
function schemaPaths(schema: any, prefix = ''): string[] {
  if (schema.type === 'array') return schemaPaths(schema.items, `${prefix}[]`)
  if (schema.anyOf) return [...new Set(schema.anyOf.flatMap((s: any) => schemaPaths(s, prefix)))] as string[]
  if (schema.type !== 'object' || !schema.properties) return []
  return Object.entries(schema.properties).flatMap(([key, sub]) => [`${prefix}/${key}`, ...schemaPaths(sub, `${prefix}/${key}`)])
}

/** The same paths of a document. */
function documentPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => documentPaths(item, `${prefix}[]`))
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, sub]) => [`${prefix}/${key}`, ...documentPaths(sub, `${prefix}/${key}`)])
}

describe('lobby provision --example', () => {
  test('covers every field of the provisioning schema, each annotated, and applies cleanly (twice: nothing changes)', async () => {
    const run = runCli(['provision', '--example'])
    expect(run.code).toBe(0)
    const document = parseProvisioningText(run.stdout, 'example.yaml')
    expect(Value.Check(ProvisioningFile, document)).toBe(true)
    const present = new Set(documentPaths(document))
    const missing = schemaPaths(ProvisioningFile).filter((path) => !present.has(path))
    expect(missing).toEqual([])
    // Every field name is explained by a comment on (or just above) at least one of its lines.
    const lines = run.stdout.split('\n')
    const unexplained = new Set(present.size > 0 ? [...present].map((p) => p.split('/').at(-1)!.replace('[]', '')) : [])
    lines.forEach((line, i) => {
      const key = /^\s*(?:- )?([A-Za-z][A-Za-z0-9]*):/.exec(line)?.[1]
      if (key && (line.includes('#') || lines[i - 1]?.trim().startsWith('#'))) unexplained.delete(key)
    })
    expect([...unexplained]).toEqual([])

    const dir = tempDir()
    const file = join(dir, 'branch.yaml')
    await Bun.write(file, run.stdout)
    const first = runCli(['provision', '--db', join(dir, 'lobby.db'), '--file', file])
    expect(first.code).toBe(0)
    const applied = JSON.parse(first.stdout)
    expect(applied.secrets.map((s: { kind: string }) => s.kind).sort()).toEqual(['display', 'queue', 'webhook', 'workspace'])
    const second = JSON.parse(runCli(['provision', '--db', join(dir, 'lobby.db'), '--file', file]).stdout)
    expect(second.secrets).toEqual([])
    for (const counts of Object.values(second.applied) as { created: number; updated: number }[]) {
      expect([counts.created, counts.updated]).toEqual([0, 0])
    }
  })
})

describe('lobby service-unit', () => {
  test('prints a hardened unit: own user, StateDirectory, restart on failure, sandboxing', () => {
    const run = runCli(['service-unit'])
    expect(run.code).toBe(0)
    for (const line of [
      'User=lobby', 'Group=lobby', 'StateDirectory=lobby', 'StateDirectoryMode=0700', 'Environment=LOBBY_DB=/var/lib/lobby/lobby.db',
      'ExecStart=/usr/local/bin/lobby serve', 'Restart=on-failure', 'NoNewPrivileges=yes', 'ProtectSystem=strict',
      'ProtectHome=yes', 'PrivateTmp=yes', 'PrivateDevices=yes', 'CapabilityBoundingSet=', 'KillSignal=SIGTERM',
    ]) expect(run.stdout.split('\n')).toContain(line)
    const low = runCli(['service-unit', '--port', '443', '--user', 'queue', '--binary', '/opt/lobby/lobby'])
    expect(low.stdout.split('\n')).toContain('AmbientCapabilities=CAP_NET_BIND_SERVICE')
    expect(low.stdout.split('\n')).toContain('User=queue')
    expect(low.stdout.split('\n')).toContain('ExecStart=/opt/lobby/lobby serve')
  })

  test('passes systemd-analyze verify', async () => {
    const analyze = Bun.which('systemd-analyze')
    if (analyze === null) {
      console.log('skipped: systemd-analyze is not installed here')
      return
    }
    // verify checks that ExecStart is executable: point it at a binary that exists.
    const run = runCli(['service-unit', '--binary', process.execPath])
    const unit = join(tempDir(), 'lobby.service')
    await Bun.write(unit, run.stdout)
    const verify = Bun.spawnSync([analyze, 'verify', unit], { stdout: 'pipe', stderr: 'pipe' })
    const output = verify.stdout.toString() + verify.stderr.toString()
    expect(output).toBe('')
    expect(verify.exitCode).toBe(0)
  })
})
