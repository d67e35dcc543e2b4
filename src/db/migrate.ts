import type { Database } from 'bun:sqlite'
import { closeSync, openSync, statSync, unlinkSync } from 'node:fs'
import { resolve } from 'node:path'
import { embeddedMigrations } from './migrations.generated'

/**
 * Data steps that belong to a migration and run in its transaction, after its SQL (what SQL
 * alone cannot do), by the migration's tag. They are the features' code, so the caller hands
 * them in: src/root/migrate.ts, the `migrateDatabase` every command and the server use.
 */
export type DataSteps = Readonly<Record<string, (client: Database) => void>>

/** Schema version of this build: the number of migrations it carries. */
export const SCHEMA_VERSION = embeddedMigrations.length

export type Migration = (typeof embeddedMigrations)[number]

export class NewerDatabaseError extends Error {
  constructor(public readonly unknownTags: string[]) {
    super(
      `database was written by a newer Lobby (unknown migrations: ${unknownTags.join(', ')}); ` +
        `upgrade lobby or use a backup — the file was not modified`,
    )
  }
}

export interface MigrationResult {
  applied: string[]
  schemaVersion: number
  /** The owner-only copy written before this run changed a database holding data (contract §13). */
  backup?: string
}

export interface MigrateOptions {
  /**
   * Told about the pre-migration backup and the one-time switch to incremental auto-vacuum;
   * default: one line on stderr (CLI commands migrate too, and their stdout is JSON).
   */
  log?: (entry: Record<string, unknown>) => void
  /** Tests migrate to an older schema by passing the first migrations only. */
  migrations?: readonly Migration[]
  now?: () => number
}

/** A database backed by a file (not `:memory:` nor a temporary database). */
function filePathOf(client: Database): string | null {
  const name = client.filename
  return name === '' || name === ':memory:' || name.startsWith('file::memory:') ? null : name
}

function userTables(client: Database): string[] {
  return client
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all()
    .map((row) => row.name)
}

/** True when any table other than the migration log has a row: a copy is worth keeping. */
function holdsData(client: Database): boolean {
  return userTables(client)
    .filter((name) => name !== 'lobby_migrations')
    .some((name) => client.query(`SELECT 1 FROM "${name.replaceAll('"', '""')}" LIMIT 1`).get() !== null)
}

/**
 * `<db>.before-schema-<n>.bak`, n being the schema about to be applied: a consistent copy
 * (`VACUUM INTO`, one read transaction) into a file created owner-only (0600) before a byte
 * is written to it. If that name exists already (an earlier attempt), it is kept and the new
 * copy gets a UTC time suffix.
 */
export function backupBeforeMigration(client: Database, path: string, schema: number, now: number): string {
  let target = `${path}.before-schema-${schema}.bak`
  let fd: number
  try {
    fd = openSync(target, 'wx', 0o600)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    target = `${path}.before-schema-${schema}.${new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z')}.bak`
    fd = openSync(target, 'wx', 0o600)
  }
  closeSync(fd)
  try {
    client.query('VACUUM INTO ?').run(target)
  } catch (error) {
    unlinkSync(target)
    throw new Error(`the backup before migrating could not be written (${target}): ${(error as Error).message}; nothing was migrated`)
  }
  return target
}

/**
 * Applies the migrations embedded in the binary (drizzle-kit's SQL, imported as text),
 * never reading drizzle/ from disk. Each migration runs in its own immediate transaction
 * and is recorded in `lobby_migrations`. A database holding a migration this build does not
 * know is refused before anything is written.
 *
 * Before changing a file that holds data, a copy is written beside it (contract §13); if that
 * copy fails, nothing is migrated. A new database is created with incremental auto-vacuum (the
 * retention job returns freed pages with `PRAGMA incremental_vacuum`); a database made before
 * that is switched over once, by a VACUUM right after the upgrade that its backup covers.
 */
export function applyMigrations(client: Database, dataSteps: DataSteps, options: MigrateOptions = {}): MigrationResult {
  const migrations = options.migrations ?? embeddedMigrations
  const now = options.now ?? Date.now
  const log = options.log ?? ((entry: Record<string, unknown>) => process.stderr.write(`lobby: ${JSON.stringify(entry)}\n`))
  const path = filePathOf(client)
  const fresh = userTables(client).length === 0
  // On a file without tables the VACUUM that makes auto_vacuum take effect costs nothing
  // (opening in WAL mode has already written the header, so the pragma alone is not enough).
  if (fresh) {
    client.exec('PRAGMA auto_vacuum = INCREMENTAL')
    client.exec('VACUUM')
  }
  client.exec(
    'CREATE TABLE IF NOT EXISTS lobby_migrations (idx INTEGER PRIMARY KEY, tag TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  )
  const known = new Set(migrations.map((m) => m.tag))
  const done = client.query<{ idx: number; tag: string }, []>('SELECT idx, tag FROM lobby_migrations ORDER BY idx').all()
  const unknown = done.filter((row) => !known.has(row.tag)).map((row) => row.tag)
  if (unknown.length > 0) throw new NewerDatabaseError(unknown)

  const doneTags = new Set(done.map((row) => row.tag))
  const pending = migrations.filter((m) => !doneTags.has(m.tag))
  if (pending.length === 0) return { applied: [], schemaVersion: migrations.length }

  let backup: string | undefined
  if (path !== null && !fresh && holdsData(client)) {
    backup = backupBeforeMigration(client, path, migrations.length, now())
    log({ level: 'info', msg: 'backup before migration', path: backup, fromSchema: done.length, toSchema: migrations.length })
  }

  const applied: string[] = []
  const alreadyApplied = client.query<{ n: number }, [string]>('SELECT count(*) AS n FROM lobby_migrations WHERE tag = ?')
  for (const migration of pending) {
    const statements = migration.sql
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter((s) => s.length > 0)
    const ran = client.transaction(() => {
      // Another process (a CLI command beside `serve`) may have applied it since we looked.
      if (alreadyApplied.get(migration.tag)!.n > 0) return false
      for (const statement of statements) client.exec(statement)
      dataSteps[migration.tag]?.(client)
      client
        .query('INSERT INTO lobby_migrations (idx, tag, applied_at) VALUES (?, ?, ?)')
        .run(migration.idx, migration.tag, now())
      return true
    }).immediate()
    if (ran) applied.push(migration.tag)
  }

  if (backup !== undefined && userTables(client).includes('ops_backups')) {
    client
      .query("INSERT INTO ops_backups (kind, path, bytes, created_at) VALUES ('pre-migration', ?, ?, ?)")
      // Absolute: `lobby status` may run from another directory than this migration.
      .run(resolve(backup), statSync(backup).size, now())
  }
  const autoVacuum = client.query<{ auto_vacuum: number }, []>('PRAGMA auto_vacuum').get()?.auto_vacuum
  if (path !== null && !fresh && autoVacuum !== 2) {
    log({ level: 'info', msg: 'switching the database to incremental auto-vacuum (one-time VACUUM)', path })
    client.exec('PRAGMA auto_vacuum = INCREMENTAL')
    client.exec('VACUUM')
  }
  return { applied, schemaVersion: migrations.length, ...(backup !== undefined ? { backup } : {}) }
}
