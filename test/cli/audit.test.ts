import { describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { runCli } from '../support/cli'
import { exampleDocument, provisionedDatabaseFile } from '../support/fixtures'
import { clipDirectory } from '../voice/support'

/*
 * Contract §17: every change the CLI makes is in the audit log, one entry per change, with the
 * console's action names, actor `system:cli:<OS user>`, and never a secret (docs/admin.md
 * "Audit log"). Each test runs the real command in a process, reads the entries back with
 * `lobby audit --format json` and searches the whole audit table for what the command printed.
 */

/** As if `sudo -u lobby` were run by amira: the person is SUDO_USER. */
const AS_AMIRA = { SUDO_USER: 'amira', USER: 'lobby' }
const CLI_AMIRA = { type: 'system', id: 'cli:amira' }

interface Entry {
  at: string
  actor: { type: string; id: string }
  action: string
  entity: { type: string; id: string }
  before: unknown
  after: unknown
}

/** Runs a command that must succeed; its parsed JSON output. */
function lobby(args: string[], env: Record<string, string> = AS_AMIRA): any {
  const run = runCli(args, env)
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  return JSON.parse(run.stdout)
}

/** The CLI's entries (the fixture's provisioning entries left aside), oldest first, via `lobby audit`. */
function cliEntries(path: string): Entry[] {
  const printed = lobby(['audit', '--db', path, '--format', 'json']) as { data: Entry[] }
  return printed.data.filter((e) => e.actor.type === 'system' && e.actor.id.startsWith('cli:'))
}

/** Every column of every audit row, as text: what a secret must not appear in. */
function auditTableText(path: string): string {
  const db = new Database(path, { readonly: true })
  try {
    return JSON.stringify(db.query('SELECT * FROM audit_log').all())
  } finally {
    db.close()
  }
}

/** Every stored secret hash (keys, devices, setup codes, pairing codes): none may be in the log. */
function storedHashes(path: string): string[] {
  const db = new Database(path, { readonly: true })
  try {
    const hashes = db.query<{ h: string | null }, []>('SELECT secret_hash AS h FROM credentials').all().map((r) => r.h)
    return hashes.filter((h): h is string => h !== null && h.length > 0)
  } finally {
    db.close()
  }
}

describe('lobby users appends user.create, user.disable and user.reset', () => {
  test('the entries name the OS user, the account before and after, and never the setup code', () => {
    const path = provisionedDatabaseFile()
    const added = lobby(['users', 'add', '--db', path, '--username', 'nadia', '--role', 'clerk', '--name', 'Nadia', '--queue-units', 'qu_main'])
    lobby(['users', 'disable', '--db', path, '--username', 'nadia'])
    const reset = lobby(['users', 'reset', '--db', path, '--username', 'nadia'])
    const entries = cliEntries(path)
    expect(entries.map((e) => [e.actor, e.action, e.entity])).toEqual([
      [CLI_AMIRA, 'user.create', { type: 'user', id: 'nadia' }],
      [CLI_AMIRA, 'user.disable', { type: 'user', id: 'nadia' }],
      [CLI_AMIRA, 'user.reset', { type: 'user', id: 'nadia' }],
    ])
    expect(entries[0]!.before).toBeNull()
    expect(entries[0]!.after).toMatchObject({ username: 'nadia', displayName: 'Nadia', role: 'clerk', queueUnits: ['qu_main'], state: 'active' })
    expect(entries[1]!.before).toMatchObject({ username: 'nadia', state: 'active' })
    expect(entries[1]!.after).toEqual({ state: 'disabled', sessionsEnded: 0 })
    expect(entries[2]!.before).toMatchObject({ state: 'disabled' })
    expect(entries[2]!.after).toMatchObject({ username: 'nadia', state: 'active' })
    const text = auditTableText(path)
    for (const printed of [added, reset]) {
      const code = new URL(printed.setupPath, 'http://x').searchParams.get('code') ?? printed.setupPath.split('/').pop()
      expect(code!.length).toBeGreaterThan(10)
      expect(text).not.toContain(code!)
    }
  })

  test('a refused change appends nothing; list appends nothing', () => {
    const path = provisionedDatabaseFile()
    expect(runCli(['users', 'disable', '--db', path, '--username', 'nobody'], AS_AMIRA).code).toBe(2)
    lobby(['users', 'list', '--db', path])
    expect(cliEntries(path)).toEqual([])
  })

  test('without sudo the actor is USER', () => {
    const path = provisionedDatabaseFile()
    lobby(['users', 'add', '--db', path, '--username', 'omar', '--role', 'admin'], { SUDO_USER: '', USER: 'ops' })
    expect(cliEntries(path).map((e) => e.actor)).toEqual([{ type: 'system', id: 'cli:ops' }])
  })
})

describe('lobby keys appends key.rotate and key.revoke', () => {
  test('with the grace and the revocation, and neither the new secret nor any hash', () => {
    const path = provisionedDatabaseFile()
    const rotated = lobby(['keys', 'rotate', '--db', path, '--kind', 'workspace', '--owner', 'ws_demo', '--name', 'cms', '--grace', '60'])
    lobby(['keys', 'revoke', '--db', path, '--kind', 'display', '--owner', 'ws_demo', '--name', 'lobby-screens'])
    const entries = cliEntries(path)
    expect(entries.map((e) => [e.actor, e.action, e.entity])).toEqual([
      [CLI_AMIRA, 'key.rotate', { type: 'key', id: 'workspace/ws_demo/cms' }],
      [CLI_AMIRA, 'key.revoke', { type: 'key', id: 'display/ws_demo/lobby-screens' }],
    ])
    expect(entries[0]!.after).toEqual({ graceSeconds: 60, previousWorksUntil: rotated.previousWorksUntil })
    expect(entries[1]!.after).toEqual({ revoked: 1 })
    const text = auditTableText(path)
    expect(rotated.secret.length).toBeGreaterThan(10)
    expect(text).not.toContain(rotated.secret)
    const hashes = storedHashes(path)
    expect(hashes.length).toBeGreaterThan(0)
    for (const hash of hashes) expect(text).not.toContain(hash)
  })

  test('an unknown key appends nothing', () => {
    const path = provisionedDatabaseFile()
    expect(runCli(['keys', 'revoke', '--db', path, '--kind', 'queue', '--owner', 'qu_main', '--name', 'nope'], AS_AMIRA).code).toBe(2)
    expect(cliEntries(path)).toEqual([])
  })
})

describe('lobby devices appends device.pair and device.revoke', () => {
  test('the pairing with its binding and expiry, never its code; the revocation', () => {
    const path = provisionedDatabaseFile()
    const paired = lobby(['devices', 'pair', '--db', path, '--role', 'kiosk', '--queue-unit', 'qu_main', '--location', 'loc_hall', '--name', 'hall-kiosk'])
    const unnamed = lobby(['devices', 'pair', '--db', path, '--role', 'desk', '--counter', 'cnt_1'])
    const entries = cliEntries(path)
    expect(entries.map((e) => [e.actor, e.action, e.entity])).toEqual([
      [CLI_AMIRA, 'device.pair', { type: 'device', id: 'hall-kiosk' }],
      [CLI_AMIRA, 'device.pair', { type: 'device', id: 'desk-cnt_1' }],
    ])
    expect(entries[0]!.after).toEqual({ role: 'kiosk', expiresAt: paired.expiresAt, binding: { queueUnitId: 'qu_main', locationId: 'loc_hall' } })
    expect(entries[1]!.after).toEqual({ role: 'desk', expiresAt: unnamed.expiresAt, binding: { counterId: 'cnt_1' } })
    const text = auditTableText(path)
    for (const printed of [paired, unnamed]) {
      expect(text).not.toContain(printed.pairPath)
      expect(text).not.toContain(`"${printed.code}"`)
      expect(text).not.toContain(`:${printed.code}`)
    }
  })

  test('revoke of a paired device appends device.revoke; of an unknown name nothing', async () => {
    const { openDatabase } = await import('../../src/db/open')
    const { createApp } = await import('../../src/app')
    const { createDeps } = await import('../../src/root/deps')
    const path = provisionedDatabaseFile()
    const { code } = lobby(['devices', 'pair', '--db', path, '--role', 'display', '--workspace', 'ws_demo', '--name', 'lobby-tv'])
    const db = openDatabase(path)
    const response = await createApp(createDeps({ db, log: () => {} })).handle(new Request('http://localhost/api/devices/v1/pair', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }),
    }))
    db.$client.close()
    expect(response.status).toBe(200)
    const cookie = /lobby_device=(lbv_[a-z2-7]+)/.exec(response.headers.get('set-cookie')!)![1]!
    expect(runCli(['devices', 'revoke', '--db', path, '--name', 'ghost'], AS_AMIRA).code).toBe(2)
    lobby(['devices', 'revoke', '--db', path, '--name', 'lobby-tv'])
    const entries = cliEntries(path)
    expect(entries.map((e) => [e.action, e.entity, e.before, e.after])).toEqual([
      ['device.pair', { type: 'device', id: 'lobby-tv' }, null, expect.anything()],
      ['device.revoke', { type: 'device', id: 'lobby-tv' }, { state: 'active' }, { state: 'revoked', revoked: 1 }],
    ])
    const text = auditTableText(path)
    expect(text).not.toContain(cookie)
    for (const hash of storedHashes(path)) expect(text).not.toContain(hash)
  })
})

describe('lobby webhooks redeliver appends webhook.redeliver', () => {
  test('one entry per delivery queued again, with its status and attempts before', () => {
    const path = provisionedDatabaseFile()
    const db = new Database(path)
    const insert = db.query(`INSERT INTO webhook_deliveries (id, webhook_id, ticket_id, event_type, body, status, attempts, next_attempt_at, last_error, created_at, delivered_at)
      VALUES (?1, 'whk_crm', 'tkt_1', 'ticket.created', '{}', ?2, ?3, 1, NULL, 1, NULL)`)
    insert.run('dlv_a', 'FAILED', 9)
    insert.run('dlv_b', 'FAILED', 7)
    insert.run('dlv_c', 'DELIVERED', 1)
    db.close()
    lobby(['webhooks', 'redeliver', '--db', path, '--id', 'dlv_c'])
    expect(lobby(['webhooks', 'redeliver', '--db', path, '--failed'])).toEqual({ redelivered: 2 })
    expect(runCli(['webhooks', 'redeliver', '--db', path, '--id', 'dlv_none'], AS_AMIRA).code).toBe(2)
    lobby(['webhooks', 'deliveries', '--db', path])
    expect(cliEntries(path).map((e) => [e.actor, e.action, e.entity, e.before, e.after])).toEqual([
      [CLI_AMIRA, 'webhook.redeliver', { type: 'webhook-delivery', id: 'dlv_c' }, { status: 'DELIVERED', attempts: 1 }, { status: 'PENDING' }],
      [CLI_AMIRA, 'webhook.redeliver', { type: 'webhook-delivery', id: 'dlv_a' }, { status: 'FAILED', attempts: 9 }, { status: 'PENDING' }],
      [CLI_AMIRA, 'webhook.redeliver', { type: 'webhook-delivery', id: 'dlv_b' }, { status: 'FAILED', attempts: 7 }, { status: 'PENDING' }],
    ])
  })
})

describe('lobby voice appends voice.upload and voice.remove', () => {
  test('one entry per clip stored (a replaced one with its before) and per clip removed', () => {
    const path = provisionedDatabaseFile()
    const clips = clipDirectory(join(path, '..', 'clips'), ['ticket', 'A'])
    lobby(['voice', 'import', '--db', path, '--lang', 'ar', '--dir', clips])
    lobby(['voice', 'import', '--db', path, '--lang', 'ar', '--dir', clips])
    lobby(['voice', 'remove', '--db', path, '--lang', 'ar', '--name', 'A'])
    lobby(['voice', 'remove', '--db', path, '--lang', 'ar'])
    const entries = cliEntries(path)
    expect(entries.map((e) => [e.actor, e.action, e.entity.id])).toEqual([
      [CLI_AMIRA, 'voice.upload', 'ar/A'],
      [CLI_AMIRA, 'voice.upload', 'ar/ticket'],
      [CLI_AMIRA, 'voice.upload', 'ar/A'],
      [CLI_AMIRA, 'voice.upload', 'ar/ticket'],
      [CLI_AMIRA, 'voice.remove', 'ar/A'],
      [CLI_AMIRA, 'voice.remove', 'ar/ticket'],
    ])
    expect(entries.every((e) => e.entity.type === 'voice-clip')).toBe(true)
    expect(entries[0]!.before).toBeNull()
    expect(entries[0]!.after).toEqual({ contentType: 'audio/wav', bytes: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })
    expect(entries[2]!.before).toEqual(entries[0]!.after)
    expect(entries[4]!.before).toEqual(entries[2]!.after)
    expect(entries[4]!.after).toBeNull()
  })
})

describe('lobby edge-authority appends queueUnit.edge-take and queueUnit.edge-release', () => {
  test('the lease before and after on the unit; a release of nothing appends nothing', () => {
    const path = provisionedDatabaseFile()
    lobby(['edge-authority', '--db', path, '--queue-unit', 'qu_main', '--release'])
    const taken = lobby(['edge-authority', '--db', path, '--queue-unit', 'qu_main', '--holder', 'edge-1', '--ttl', '600'])
    lobby(['edge-authority', '--db', path, '--queue-unit', 'qu_main', '--release'])
    expect(runCli(['edge-authority', '--db', path, '--queue-unit', 'qu_none', '--holder', 'edge-1'], AS_AMIRA).code).toBe(2)
    expect(cliEntries(path).map((e) => [e.actor, e.action, e.entity, e.before, e.after])).toEqual([
      [CLI_AMIRA, 'queueUnit.edge-take', { type: 'queueUnit', id: 'qu_main' }, { queueUnitId: 'qu_main', holder: null, expiresAt: null }, { queueUnitId: 'qu_main', holder: 'edge-1', expiresAt: taken.expiresAt }],
      [CLI_AMIRA, 'queueUnit.edge-release', { type: 'queueUnit', id: 'qu_main' }, { queueUnitId: 'qu_main', holder: 'edge-1', expiresAt: taken.expiresAt }, { queueUnitId: 'qu_main', holder: null, expiresAt: null }],
    ])
  })
})

describe('lobby audit prints URLs without user-info (contract §27)', () => {
  test('a webhook provisioned with https://u:p@… and an older entry holding one both print https://…, as JSON and as CSV', async () => {
    const path = provisionedDatabaseFile()
    const file = join(path, '..', 'hook.json')
    const document = exampleDocument()
    document.workspaces[0]!.queueUnits![0]!.webhooks = [{ id: 'whk_crm', url: 'https://u:p@hooks.example/x', events: ['ticket.created'] }]
    await Bun.write(file, JSON.stringify(document))
    lobby(['provision', '--db', path, '--file', file])
    // As an entry written before the rule was: user-info in the table itself.
    const db = new Database(path)
    db.query("INSERT INTO audit_log (at, actor, action, entity_type, entity_id, before, after) VALUES (1, 'user:root', 'webhook.update', 'webhook', 'whk_old', NULL, ?1)").run(JSON.stringify({ url: 'https://old:secret@hooks.example/old' }))
    db.close()
    expect(auditTableText(path)).not.toContain('u:p@')
    const json = runCli(['audit', '--db', path, '--format', 'json'], AS_AMIRA).stdout
    const csv = runCli(['audit', '--db', path, '--format', 'csv'], AS_AMIRA).stdout
    for (const printed of [json, csv]) {
      expect(printed).toContain('https://hooks.example/x')
      expect(printed).toContain('https://hooks.example/old')
      expect(printed).not.toContain('u:p@')
      expect(printed).not.toContain('old:secret@')
    }
  })
})
