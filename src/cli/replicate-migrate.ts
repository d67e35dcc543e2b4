import { SQL } from 'bun'
import { parseFlags, printJson, UsageError } from './args'
import { parseReplicationTarget } from '../replication'
import { HEAD_OFFICE_SCHEMA_VERSION, migrateHeadOffice } from '../replication'

export const replicateMigrateHelp = `lobby replicate-migrate --replicate-to postgres://OWNER:PASSWORD@HOST:5432/DB[?sslmode=verify-full]

Creates or migrates the head-office schema "lobby" in PostgreSQL and exits: run it once as the
role that owns the schema, so the branches' own roles need no right to create tables (README:
head office). Prints JSON {target, version, applied}. Environment: LOBBY_REPLICATE_TO.`

export async function replicateMigrateCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { 'replicate-to': { type: 'string' } })
  if (flags.help) {
    console.log(replicateMigrateHelp)
    return 0
  }
  const value = flags['replicate-to'] ?? process.env.LOBBY_REPLICATE_TO
  if (value === undefined || value === '') throw new UsageError('--replicate-to postgres://… is required')
  const target = parseReplicationTarget(value)
  const sql = new SQL(target.url, { max: 1, connectionTimeout: 30 })
  try {
    const applied = await migrateHeadOffice(sql)
    printJson({ target: target.display, version: HEAD_OFFICE_SCHEMA_VERSION, applied })
    return 0
  } catch (error) {
    // The driver's message may carry the connection string: never its password.
    throw new Error(target.redact(`${target.display}: ${(error as Error)?.message ?? String(error)}`))
  } finally {
    await sql.close({ timeout: 0 }).catch(() => {})
  }
}
