import { describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { SCHEMA_VERSION } from '../../src/db/migrate'
import { embeddedMigrations } from '../../src/db/migrations.generated'
import { runCli, tempDir } from '../support/cli'
import { startServer } from '../../src/server'

/** A database at the schema before this build's, holding one workspace. */
function previousSchemaDatabase(path: string) {
  const db = openDatabase(path)
  migrateDatabase(db.$client, { migrations: embeddedMigrations.slice(0, -1), log: () => {} })
  db.$client.query("INSERT INTO workspaces VALUES ('ws_old', 'Old branch', 1, 1)").run()
  db.$client.close()
}

describe('backup before a migration (contract §13)', () => {
  test('a database of the previous schema is copied owner-only before it is migrated; the copy opens with the old data', () => {
    const path = join(tempDir(), 'lobby.db')
    previousSchemaDatabase(path)
    const logs: Record<string, unknown>[] = []
    const db = openDatabase(path)
    const result = migrateDatabase(db.$client, { log: (entry) => logs.push(entry) })
    db.$client.close()

    const expected = `${path}.before-schema-${SCHEMA_VERSION}.bak`
    expect(result.backup).toBe(expected)
    expect(result.applied).toEqual([embeddedMigrations.at(-1)!.tag])
    expect(statSync(expected).mode & 0o777).toBe(0o600)
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'backup before migration', path: expected, toSchema: SCHEMA_VERSION }))

    const copy = new Database(expected, { readonly: true })
    expect(copy.query('SELECT id, name FROM workspaces').all()).toEqual([{ id: 'ws_old', name: 'Old branch' }])
    expect(copy.query<{ n: number }, []>('SELECT count(*) AS n FROM lobby_migrations').get()!.n).toBe(SCHEMA_VERSION - 1)
    expect(copy.query<{ integrity_check: string }, []>('PRAGMA integrity_check').get()!.integrity_check).toBe('ok')
    copy.close()

    // The migrated database records the copy (lobby status reports it as the last backup).
    const migrated = new Database(path, { readonly: true })
    expect(migrated.query('SELECT kind, path FROM ops_backups').all()).toEqual([{ kind: 'pre-migration', path: expected }])
    migrated.close()
  })

  test('an existing copy of the same name is kept; the new copy gets a time suffix', () => {
    const dir = tempDir()
    const path = join(dir, 'lobby.db')
    previousSchemaDatabase(path)
    const earlier = `${path}.before-schema-${SCHEMA_VERSION}.bak`
    Bun.write(earlier, 'an earlier copy')
    const db = openDatabase(path)
    const result = migrateDatabase(db.$client, { log: () => {}, now: () => Date.parse('2026-11-26T06:00:00Z') })
    db.$client.close()
    expect(result.backup).toBe(`${path}.before-schema-${SCHEMA_VERSION}.20261126T060000Z.bak`)
    expect(readdirSync(dir).filter((f) => f.endsWith('.bak')).length).toBe(2)
  })

  test('a new or empty database gets no copy, and an up-to-date one none either', () => {
    const path = join(tempDir(), 'new.db')
    const db = openDatabase(path)
    expect(migrateDatabase(db.$client, { log: () => {} }).backup).toBeUndefined()
    expect(migrateDatabase(db.$client, { log: () => {} }).backup).toBeUndefined()
    db.$client.close()
    expect(existsSync(`${path}.before-schema-${SCHEMA_VERSION}.bak`)).toBe(false)
  })

  test('new databases use incremental auto-vacuum; an older one is switched over once by the upgrade', () => {
    const fresh = openDatabase(join(tempDir(), 'fresh.db'))
    migrateDatabase(fresh.$client, { log: () => {} })
    expect(fresh.$client.query('PRAGMA auto_vacuum').get()).toEqual({ auto_vacuum: 2 })

    const path = join(tempDir(), 'old.db')
    const old = new Database(path)
    old.exec('PRAGMA journal_mode = WAL')
    old.exec('CREATE TABLE lobby_migrations (idx INTEGER PRIMARY KEY, tag TEXT NOT NULL, applied_at INTEGER NOT NULL)')
    for (const m of embeddedMigrations.slice(0, -1)) {
      for (const s of m.sql.split('--> statement-breakpoint')) old.exec(s)
      old.query('INSERT INTO lobby_migrations VALUES (?, ?, 1)').run(m.idx, m.tag)
    }
    old.query("INSERT INTO workspaces VALUES ('ws_old', 'Old', 1, 1)").run()
    expect(old.query('PRAGMA auto_vacuum').get()).toEqual({ auto_vacuum: 0 })
    old.close()
    const logs: Record<string, unknown>[] = []
    const db = openDatabase(path)
    migrateDatabase(db.$client, { log: (e) => logs.push(e) })
    expect(db.$client.query('PRAGMA auto_vacuum').get()).toEqual({ auto_vacuum: 2 })
    expect(logs.map((l) => l.msg)).toEqual(['backup before migration', 'switching the database to incremental auto-vacuum (one-time VACUUM)'])
    expect(db.$client.query('SELECT id FROM workspaces').all()).toEqual([{ id: 'ws_old' }])
  })

  test('lobby migrate prints the copy it made and says so on stderr', () => {
    const path = join(tempDir(), 'lobby.db')
    previousSchemaDatabase(path)
    const run = runCli(['migrate', '--db', path])
    expect(run.code).toBe(0)
    const expected = `${path}.before-schema-${SCHEMA_VERSION}.bak`
    expect(JSON.parse(run.stdout).backup).toBe(expected)
    expect(run.stderr).toContain(expected)
    expect(statSync(expected).mode & 0o777).toBe(0o600)
  })

  test('serve makes the copy too, and logs its path', async () => {
    const path = join(tempDir(), 'lobby.db')
    previousSchemaDatabase(path)
    const logs: Record<string, unknown>[] = []
    const server = await startServer({ port: 0, host: '127.0.0.1', dbPath: path, durability: 'full', log: (e) => logs.push(e) })
    await server.stop()
    const expected = `${path}.before-schema-${SCHEMA_VERSION}.bak`
    expect(logs).toContainEqual(expect.objectContaining({ level: 'info', msg: 'backup before migration', path: expected }))
    expect(statSync(expected).mode & 0o777).toBe(0o600)
    const copy = new Database(expected, { readonly: true })
    expect(copy.query('SELECT id FROM workspaces').all()).toEqual([{ id: 'ws_old' }])
    copy.close()
  })

  test('a copy of a database given by a relative path is recorded by its absolute path: status from elsewhere finds it', () => {
    const dir = tempDir()
    previousSchemaDatabase(join(dir, 'lobby.db'))
    expect(runCli(['migrate', '--db', 'lobby.db'], {}, dir).code).toBe(0)
    const status = runCli(['status', '--db', join(dir, 'lobby.db')])
    expect(JSON.parse(status.stdout).lastBackup).toMatchObject({
      kind: 'pre-migration', path: join(dir, `lobby.db.before-schema-${SCHEMA_VERSION}.bak`), exists: true,
    })
  })
})
