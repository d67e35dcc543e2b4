import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { runCli, tempDir } from '../support/cli'
import { exampleDocument } from '../support/fixtures'
import { openDatabase } from '../../src/db/open'
import { CredentialStore } from '../../src/platform/credentials'

/** A provisioned database file and the secrets the first run printed. */
function provisionedFile(format: 'json' | 'yaml' = 'json') {
  const dir = tempDir()
  const db = join(dir, 'lobby.db')
  const file = join(dir, `lobby.${format}`)
  Bun.write(file, format === 'json' ? JSON.stringify(exampleDocument()) : Bun.YAML.stringify(exampleDocument(), null, 2))
  const run = runCli(['provision', '--db', db, '--file', file])
  expect(run.code).toBe(0)
  const output = JSON.parse(run.stdout) as { secrets: { kind: string; owner: string; name: string; secret: string }[] }
  const secret = (kind: string, name: string) => output.secrets.find((s) => s.kind === kind && s.name === name)!.secret
  return { db, file, output, secret }
}

describe('lobby provision', () => {
  test('prints secrets on the first run only; YAML works like JSON', () => {
    const { db, file, output } = provisionedFile('yaml')
    expect(output.secrets).toHaveLength(6)
    const again = runCli(['provision', '--db', db, '--file', file])
    expect(again.code).toBe(0)
    expect(JSON.parse(again.stdout).secrets).toEqual([])
  })

  test('a bad file exits 2 with one line and changes nothing', () => {
    const { db, dir } = { db: join(tempDir(), 'lobby.db'), dir: tempDir() }
    const bad = exampleDocument() as any
    bad.workspaces[0].widgets[0].pushSource = 'MAYBE'
    const file = join(dir, 'bad.json')
    Bun.write(file, JSON.stringify(bad))
    const run = runCli(['provision', '--db', db, '--file', file])
    expect(run.code).toBe(2)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expect(run.stderr).toContain('/workspaces/0/widgets/0/pushSource')
    // The run created the database and failed: it leaves no database behind (issue 16).
    expect(existsSync(db)).toBe(false)
    for (const args of [['--file', join(dir, 'missing.json')], ['--file', join(dir, 'x.yaml')]]) {
      if (args[1]!.endsWith('.yaml')) Bun.write(args[1]!, 'workspaces: [unclosed')
      const r = runCli(['provision', '--db', db, ...args])
      expect(r.code).toBe(2)
    }
  })
})

describe('lobby keys', () => {
  test('list shows kind, owner, name, state, created, last used — and no secret or hash', () => {
    const { db, secret } = provisionedFile()
    const run = runCli(['keys', 'list', '--db', db])
    expect(run.code).toBe(0)
    const list = JSON.parse(run.stdout)
    expect(list).toHaveLength(6)
    expect(list[0]).toEqual({ kind: expect.any(String), owner: expect.any(String), name: expect.any(String), state: 'active', created: expect.any(String), lastUsed: null, expires: null })
    for (const kind of ['workspace', 'queue', 'display', 'webhook']) {
      const s = kind === 'webhook' ? secret('webhook', 'whk_crm') : undefined
      if (s) expect(run.stdout).not.toContain(s)
    }
    expect(run.stdout).not.toMatch(/lb[wqdh]_/)
    expect(run.stdout).not.toMatch(/[0-9a-f]{64}/)
  })

  test('rotate without grace: the old key is refused at once and the new one works, seen by a running store', () => {
    const { db, secret } = provisionedFile()
    const live = new CredentialStore(openDatabase(db))
    const old = secret('queue', 'kiosk')
    expect(live.authenticate(old, 'queue', Date.now())?.name).toBe('kiosk')
    const run = runCli(['keys', 'rotate', '--db', db, '--kind', 'queue', '--owner', 'qu_main', '--name', 'kiosk'])
    expect(run.code).toBe(0)
    const rotated = JSON.parse(run.stdout)
    expect(rotated.secret).toStartWith('lbq_')
    expect(live.authenticate(old, 'queue', Date.now())).toBeNull()
    const fresh = live.authenticate(rotated.secret, 'queue', Date.now())
    expect(fresh?.locations).toEqual(['loc_hall'])
    expect(fresh?.scopes).toEqual(['services:read', 'tickets:write', 'tickets:read', 'state:read'])
  })

  test('rotate with grace: the old key works until the grace ends', () => {
    const { db, secret } = provisionedFile()
    const live = new CredentialStore(openDatabase(db))
    const old = secret('workspace', 'cms')
    const run = runCli(['keys', 'rotate', '--db', db, '--kind', 'workspace', '--owner', 'ws_demo', '--name', 'cms', '--grace', '3600'])
    expect(run.code).toBe(0)
    const rotated = JSON.parse(run.stdout)
    expect(live.authenticate(old, 'workspace', Date.now())?.ownerId).toBe('ws_demo')
    expect(live.authenticate(old, 'workspace', Date.now() + 3_601_000)).toBeNull()
    expect(live.authenticate(rotated.secret, 'workspace', Date.now() + 3_601_000)?.ownerId).toBe('ws_demo')
    const states = JSON.parse(runCli(['keys', 'list', '--db', db]).stdout).filter((k: any) => k.name === 'cms').map((k: any) => k.state)
    expect(states).toEqual(['grace', 'active'])
  })

  test('revoke: every version stops working, seen without restart; re-provisioning does not revive it', () => {
    const { db, file, secret } = provisionedFile()
    const live = new CredentialStore(openDatabase(db))
    const token = secret('display', 'lobby-screens')
    expect(live.authenticate(token, 'display', Date.now())).not.toBeNull()
    const run = runCli(['keys', 'revoke', '--db', db, '--kind', 'display', '--owner', 'ws_demo', '--name', 'lobby-screens'])
    expect(run.code).toBe(0)
    expect(live.authenticate(token, 'display', Date.now())).toBeNull()
    const again = JSON.parse(runCli(['provision', '--db', db, '--file', file]).stdout)
    expect(again.secrets).toEqual([])
    expect(live.authenticate(token, 'display', Date.now())).toBeNull()
  })

  test('a key of another kind is not accepted in its place', () => {
    const { db, secret } = provisionedFile()
    const live = new CredentialStore(openDatabase(db))
    expect(live.authenticate(secret('queue', 'kiosk'), 'workspace', Date.now())).toBeNull()
    expect(live.authenticate(secret('display', 'lobby-screens'), 'queue', Date.now())).toBeNull()
    expect(live.authenticate(secret('workspace', 'cms'), 'display', Date.now())).toBeNull()
  })

  test('bad flags and unknown credentials exit 2', () => {
    const { db } = provisionedFile()
    expect(runCli(['keys', 'rotate', '--db', db, '--kind', 'robot', '--owner', 'x', '--name', 'y']).code).toBe(2)
    expect(runCli(['keys', 'rotate', '--db', db, '--kind', 'queue', '--owner', 'qu_main', '--name', 'nobody']).code).toBe(2)
    expect(runCli(['keys', 'rotate', '--db', db, '--kind', 'queue', '--owner', 'qu_main', '--name', 'kiosk', '--grace', '-5']).code).toBe(2)
    expect(runCli(['keys', 'list', '--db', join(tempDir(), 'none.db')]).code).toBe(2)
    expect(runCli(['keys', 'explode', '--db', db]).code).toBe(2)
  })
})
