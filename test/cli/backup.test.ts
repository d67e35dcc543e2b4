import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { statSync } from 'node:fs'
import { Database } from 'bun:sqlite'
import { runCli, tempDir } from '../support/cli'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/db/migrate'
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

  const again = runCli(['backup', '--db', path, '--out', out])
  expect(again.code).toBe(2)
  expect(again.stderr).toContain('already exists')
  expect(runCli(['backup', '--db', join(dir, 'missing.db'), '--out', join(dir, 'b2.db')]).code).toBe(2)
})
