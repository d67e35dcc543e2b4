import type { Database } from 'bun:sqlite'
import { embeddedMigrations } from './migrations.generated'
import { rebuildReportRollups } from '../tickets/rollups'

/**
 * Data steps that belong to a migration and run in its transaction, after its SQL: what SQL
 * alone cannot compute. The roll-ups' distributions are built in code, from the ticket history
 * (src/tickets/rollups.ts), so a database with tickets from before has its reports.
 */
const DATA_STEPS: Record<string, (client: Database) => void> = {
  '0003_report_rollups': (client) => void rebuildReportRollups(client),
}

/** Schema version of this build: the number of migrations it carries. */
export const SCHEMA_VERSION = embeddedMigrations.length

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
}

/**
 * Applies the migrations embedded in the binary (drizzle-kit's SQL, imported as text),
 * never reading drizzle/ from disk. Each migration runs in its own immediate transaction
 * and is recorded in `lobby_migrations`. A database holding a migration this build does not
 * know is refused before anything is written.
 */
export function migrateDatabase(client: Database): MigrationResult {
  client.exec(
    'CREATE TABLE IF NOT EXISTS lobby_migrations (idx INTEGER PRIMARY KEY, tag TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  )
  const known = new Set(embeddedMigrations.map((m) => m.tag))
  const done = client.query<{ idx: number; tag: string }, []>('SELECT idx, tag FROM lobby_migrations ORDER BY idx').all()
  const unknown = done.filter((row) => !known.has(row.tag)).map((row) => row.tag)
  if (unknown.length > 0) throw new NewerDatabaseError(unknown)

  const doneTags = new Set(done.map((row) => row.tag))
  const applied: string[] = []
  for (const migration of embeddedMigrations) {
    if (doneTags.has(migration.tag)) continue
    const statements = migration.sql
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter((s) => s.length > 0)
    client.transaction(() => {
      for (const statement of statements) client.exec(statement)
      DATA_STEPS[migration.tag]?.(client)
      client
        .query('INSERT INTO lobby_migrations (idx, tag, applied_at) VALUES (?, ?, ?)')
        .run(migration.idx, migration.tag, Date.now())
    }).immediate()
    applied.push(migration.tag)
  }
  return { applied, schemaVersion: SCHEMA_VERSION }
}
