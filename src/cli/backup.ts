import { closeSync, existsSync, fchmodSync, openSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, extname, join, resolve } from 'node:path'
import { Database } from 'bun:sqlite'
import { parseFlags, required, dbPath, printJson, UsageError, openExistingDatabase } from './args'
import { recordBackup } from '../ops'
import { storedTicketCount } from '../tickets'

export const backupHelp = `lobby backup --db PATH --out FILE

A consistent copy of the database while the server runs (SQLite VACUUM INTO: one read
transaction, so the copy holds exactly what was committed when it began). The copy is
checked with PRAGMA integrity_check and written owner-only. An existing FILE is never
overwritten: when the name is taken (a second run the same day of a dated name), the copy is
written beside it with a UTC time suffix (lobby-2026-11-26.20261126T143000Z.db). The JSON
names the file written, by its absolute path (as \`lobby status\` reports it).
Restore: stop the server, replace the database file with the copy (delete PATH-wal and
PATH-shm beside it), start the server.`

export async function backupCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { db: { type: 'string' }, out: { type: 'string' } })
  if (flags.help) {
    console.log(backupHelp)
    return 0
  }
  const asked = resolve(required(flags.out, 'out'))
  const directory = dirname(asked)
  if (!existsSync(directory)) throw new UsageError(`the output directory ${directory} does not exist; create it first`)
  const db = openExistingDatabase(dbPath(flags.db))
  const startedAt = new Date().toISOString()
  // The copy holds every secret hash and webhook signing secret: it is born owner-only. The
  // file is created empty, exclusively (never an existing file, no check-then-use), with mode
  // 0600, before VACUUM INTO writes one byte into it (SQLite accepts an empty target).
  let out: string
  try {
    out = createExclusively(asked, new Date(startedAt))
  } catch (error) {
    db.$client.close()
    const code = (error as NodeJS.ErrnoException).code
    throw new UsageError(`cannot create ${asked}: ${code ?? (error as Error).message}`)
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

/**
 * Creates `path` empty, owner-only and exclusively; when the name is taken, the first free
 * `<stem>.<UTC time><ext>` beside it (then `-2`, `-3`… within the same second). Returns the
 * path created. An existing file is never touched.
 */
function createExclusively(path: string, at: Date): string {
  const ext = extname(path)
  const stem = join(dirname(path), basename(path, ext))
  const stamp = at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
  for (let attempt = 0; attempt < 100; attempt++) {
    const candidate = attempt === 0 ? path : `${stem}.${stamp}${attempt === 1 ? '' : `-${attempt}`}${ext}`
    let fd: number
    try {
      fd = openSync(candidate, 'wx', 0o600)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue
      throw error
    }
    try {
      fchmodSync(fd, 0o600)
    } finally {
      closeSync(fd)
    }
    return candidate
  }
  throw new UsageError(`${path} and 99 time-suffixed names beside it already exist; choose a new file`)
}
