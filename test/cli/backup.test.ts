import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { Database } from 'bun:sqlite'
import { runCli, tempDir } from '../support/cli'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { applyProvisioning } from '../../src/provisioning/service'
import { exampleDocument } from '../support/fixtures'

test('backup copies a live database, including writes still only in the WAL', () => {
  const dir = tempDir()
  const path = join(dir, 'lobby.db')
  const live = openDatabase(path)
  migrateDatabase(live.$client)
  live.$client.exec('PRAGMA wal_autocheckpoint = 0') // keep the writes in the WAL, as a busy server would
  applyProvisioning(live, exampleDocument(), Date.now())
  const out = join(dir, 'backup.db')
  const run = runCli(['backup', '--db', path, '--out', out])
  expect(run.code).toBe(0)
  expect(JSON.parse(run.stdout)).toMatchObject({ out, integrity: 'ok' })
  expect(statSync(out).mode & 0o777).toBe(0o600)
  const copy = new Database(out, { readonly: true })
  expect(copy.query('SELECT id FROM workspaces').all()).toEqual([{ id: 'ws_demo' }])
  expect(copy.query('SELECT count(*) AS n FROM services').get()).toEqual({ n: 3 })
  // The live database is still usable by its server.
  expect(live.$client.query('SELECT count(*) AS n FROM widgets').get()).toEqual({ n: 5 })

  expect(runCli(['backup', '--db', join(dir, 'missing.db'), '--out', join(dir, 'b2.db')]).code).toBe(2)
})

test('a backup to a relative path is recorded by its absolute path: `lobby status` from elsewhere finds it', () => {
  const dir = tempDir()
  mkdirSync(join(dir, 'backups'))
  expect(runCli(['migrate', '--db', 'lobby.db'], {}, dir).code).toBe(0)
  const run = runCli(['backup', '--db', 'lobby.db', '--out', 'backups/lobby.db'], {}, dir)
  expect(run.code).toBe(0)
  expect(JSON.parse(run.stdout).out).toBe(join(dir, 'backups', 'lobby.db'))
  const status = runCli(['status', '--db', join(dir, 'lobby.db')])
  expect(status.code).toBe(0)
  expect(JSON.parse(status.stdout).lastBackup).toMatchObject({ kind: 'backup', path: join(dir, 'backups', 'lobby.db'), exists: true })
})

test('a second backup to a name already taken (the same day of a dated name) keeps the first and writes beside it', () => {
  const dir = tempDir()
  const path = join(dir, 'lobby.db')
  expect(runCli(['migrate', '--db', path]).code).toBe(0)
  const out = join(dir, 'lobby-2026-11-26.db')
  const first = runCli(['backup', '--db', path, '--out', out])
  expect(first.code).toBe(0)
  const before = statSync(out).mtimeMs
  const second = runCli(['backup', '--db', path, '--out', out])
  expect({ code: second.code, stderr: second.stderr }).toEqual({ code: 0, stderr: '' })
  const written = JSON.parse(second.stdout).out as string
  expect(written).toMatch(/\/lobby-2026-11-26\.\d{8}T\d{6}Z(-\d+)?\.db$/)
  expect(statSync(out).mtimeMs).toBe(before)
  expect(statSync(written).mode & 0o777).toBe(0o600)
  // A third in the same second still gets a name of its own.
  const third = runCli(['backup', '--db', path, '--out', out])
  expect(third.code).toBe(0)
  expect(new Set([out, written, JSON.parse(third.stdout).out]).size).toBe(3)
  expect(readdirSync(dir).filter((f) => f.startsWith('lobby-2026-11-26')).length).toBe(3)
  expect(JSON.parse(runCli(['status', '--db', path]).stdout).lastBackup).toMatchObject({ path: JSON.parse(third.stdout).out, exists: true })
  expect(existsSync(out)).toBe(true)
})
