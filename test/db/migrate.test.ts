import { describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { statSync } from 'node:fs'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { NewerDatabaseError, SCHEMA_VERSION } from '../../src/db/migrate'
import { embeddedMigrations } from '../../src/db/migrations.generated'
import { tempDir } from '../support/cli'

const tables = (client: Database) =>
  client.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((r) => r.name)

describe('embedded migrations', () => {
  test('an empty database gets every migration, and a second run is a no-op', () => {
    const db = openDatabase(join(tempDir(), 'lobby.db'))
    const first = migrateDatabase(db.$client)
    expect(first.applied).toEqual(embeddedMigrations.map((m) => m.tag))
    expect(tables(db.$client)).toContain('tickets')
    expect(tables(db.$client)).toContain('workspaces')
    const before = tables(db.$client)
    const second = migrateDatabase(db.$client)
    expect(second.applied).toEqual([])
    expect(tables(db.$client)).toEqual(before)
  })

  test('a database made by the first migration only is upgraded in place, keeping its rows', () => {
    const path = join(tempDir(), 'old.db')
    const old = new Database(path)
    old.exec('CREATE TABLE lobby_migrations (idx INTEGER PRIMARY KEY, tag TEXT NOT NULL, applied_at INTEGER NOT NULL)')
    for (const s of embeddedMigrations[0]!.sql.split('--> statement-breakpoint')) old.exec(s)
    old.query('INSERT INTO lobby_migrations VALUES (0, ?, 1)').run(embeddedMigrations[0]!.tag)
    old.query("INSERT INTO workspaces VALUES ('ws_old', 'Old', 1, 1)").run()
    expect(tables(old)).not.toContain('tickets')
    old.close()

    const db = openDatabase(path)
    const result = migrateDatabase(db.$client)
    expect(result.applied).toEqual(embeddedMigrations.slice(1).map((m) => m.tag))
    expect(tables(db.$client)).toContain('tickets')
    expect(db.$client.query('SELECT id FROM workspaces').all()).toEqual([{ id: 'ws_old' }])
  })

  test('a database with a migration this build does not know is refused and not modified', () => {
    const path = join(tempDir(), 'newer.db')
    const db = openDatabase(path)
    migrateDatabase(db.$client)
    db.$client.query("INSERT INTO lobby_migrations VALUES (99, '0099_from_the_future', 1)").run()
    db.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    const schemaBefore = db.$client.query('SELECT sql FROM sqlite_master ORDER BY name').all()
    const versionBefore = db.$client.query<{ user_version: number }, []>('PRAGMA data_version').get()
    expect(() => migrateDatabase(db.$client)).toThrow(NewerDatabaseError)
    expect(db.$client.query('SELECT sql FROM sqlite_master ORDER BY name').all()).toEqual(schemaBefore)
    expect(db.$client.query('PRAGMA data_version').get()).toEqual(versionBefore)
    expect(db.$client.query('SELECT count(*) AS n FROM lobby_migrations').get()).toEqual({ n: SCHEMA_VERSION + 1 })
  })

  test('the database file is created owner-only with WAL, foreign keys, the chosen durability and statement journals in memory', () => {
    const path = join(tempDir(), 'perm', 'lobby.db')
    const full = openDatabase(path)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(full.$client.query('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
    expect(full.$client.query('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 })
    expect(full.$client.query('PRAGMA synchronous').get()).toEqual({ synchronous: 2 })
    expect(full.$client.query('PRAGMA busy_timeout').get()).toEqual({ timeout: 5000 })
    // Savepoints' statement journals in memory (2), not in temporary files (docs/decisions.md).
    expect(full.$client.query('PRAGMA temp_store').get()).toEqual({ temp_store: 2 })
    full.$client.close()
    const normal = openDatabase(path, { durability: 'normal' })
    expect(normal.$client.query('PRAGMA synchronous').get()).toEqual({ synchronous: 1 })
  })
})
