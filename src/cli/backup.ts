import { closeSync, existsSync, fchmodSync, openSync, rmSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { Database } from 'bun:sqlite'
import { parseFlags, required, dbPath, printJson, UsageError, openExistingDatabase } from './args'
import { recordBackup } from '../ops/status'
import { storedTicketCount } from '../tickets'

export const backupHelp = `lobby backup --db PATH --out FILE

A consistent copy of the database while the server runs (SQLite VACUUM INTO: one read
transaction, so the copy holds exactly what was committed when it began). The copy is
checked with PRAGMA integrity_check and written owner-only. FILE must not exist yet.
Restore: stop the server, replace the database file with the copy (delete PATH-wal and
PATH-shm beside it), start the server.`

export async function backupCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { db: { type: 'string' }, out: { type: 'string' } })
  if (flags.help) {
    console.log(backupHelp)
    return 0
  }
  const out = required(flags.out, 'out')
  const directory = dirname(resolve(out))
  if (!existsSync(directory)) throw new UsageError(`the output directory ${directory} does not exist; create it first`)
  const db = openExistingDatabase(dbPath(flags.db))
  const startedAt = new Date().toISOString()
  // The copy holds every secret hash and webhook signing secret: it is born owner-only. The
  // file is created empty, exclusively (never an existing file, no check-then-use), with mode
  // 0600, before VACUUM INTO writes one byte into it (SQLite accepts an empty target).
  try {
    const fd = openSync(out, 'wx', 0o600)
    try {
      fchmodSync(fd, 0o600)
    } finally {
      closeSync(fd)
    }
  } catch (error) {
    db.$client.close()
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') throw new UsageError(`${out} already exists; choose a new file`)
    throw new UsageError(`cannot create ${out}: ${code ?? (error as Error).message}`)
  }
  try {
    db.$client.query('VACUUM INTO ?').run(out)
  } catch (error) {
    rmSync(out, { force: true })
    throw new UsageError(`backup failed: ${(error as Error).message}`)
  } finally {
    db.$client.close()
  }
  const copy = new Database(out, { readonly: true })
  const check = copy.query<{ integrity_check: string }, []>('PRAGMA integrity_check').get()
  const tickets = storedTicketCount(copy)
  copy.close()
  if (check?.integrity_check !== 'ok') throw new Error(`the copy failed its integrity check: ${check?.integrity_check}`)
  // Remembered in the database for `lobby status` ("last backup").
  const source = openExistingDatabase(dbPath(flags.db))
  try {
    recordBackup(source, out, statSync(out).size, Date.now())
  } finally {
    source.$client.close()
  }
  printJson({ out, bytes: statSync(out).size, startedAt, integrity: 'ok', tickets })
  return 0
}
