import type { Database } from 'bun:sqlite'
import { applyMigrations, type DataSteps, type MigrateOptions, type MigrationResult } from '../db/migrate'
import { rebuildReportRollups } from '../tickets'

/**
 * The data steps of Lobby's migrations: `0007_report_rollups` builds the report roll-ups of the
 * tickets a database already had (src/tickets/rollup-rebuild.ts), so it has its reports.
 */
const DATA_STEPS: DataSteps = {
  '0007_report_rollups': (client) => void rebuildReportRollups(client),
}

/** The database brought to this build's schema, with the features' data steps (src/db/migrate.ts `applyMigrations`). */
export function migrateDatabase(client: Database, options: MigrateOptions = {}): MigrationResult {
  return applyMigrations(client, DATA_STEPS, options)
}
