import { parseFlags, dbPath, printJson } from './args'
import { openDatabase } from '../db/open'
import { migrateDatabase } from '../root/migrate'

export const migrateHelp = `lobby migrate --db PATH

Applies the migrations this build carries and exits. A second run is a no-op; a database
written by a newer Lobby is refused and left untouched.`

export async function migrateCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { db: { type: 'string' } })
  if (flags.help) {
    console.log(migrateHelp)
    return 0
  }
  const db = openDatabase(dbPath(flags.db))
  try {
    printJson(migrateDatabase(db.$client))
  } finally {
    db.$client.close()
  }
  return 0
}
