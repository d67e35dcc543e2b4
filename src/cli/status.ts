import { parseFlags, dbPath, printJson, openExistingDatabase } from './args'
import { collectStatus } from '../ops'

export const statusHelp = `lobby status --db PATH

Prints JSON: version, schema (database and this build), database size, today's tickets per
location, tickets waiting now, webhook backlog and failed deliveries, paired devices, the
last backup, and head-office replication (lag, pending, last error). Read-only; safe while the
server runs.`

export async function statusCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { db: { type: 'string' } })
  if (flags.help) {
    console.log(statusHelp)
    return 0
  }
  const path = dbPath(flags.db)
  const db = openExistingDatabase(path)
  try {
    printJson(collectStatus(db, path, Date.now()))
  } finally {
    db.$client.close()
  }
  return 0
}
