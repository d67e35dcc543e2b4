import { Database } from 'bun:sqlite'
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import { mkdirSync, closeSync, openSync, chmodSync, existsSync, statSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'

export type Durability = 'full' | 'normal'
/**
 * No relational schema: nothing reads through `db.query`, and `drizzle({ schema })` walks every
 * table's relations (and evaluates every table module) at each open (cold start, issue 37).
 * Features import their own tables for the query builder.
 */
export type Db = BunSQLiteDatabase & { $client: Database }

export interface OpenOptions {
  durability?: Durability
  /** Create the file (and its directory) when missing. Default true. */
  create?: boolean
}

/**
 * Opens the Lobby database with the pragmas bun:sqlite does not set for us:
 * WAL, a busy timeout (bun defaults to 0: an instant SQLITE_BUSY under a concurrent CLI
 * write), foreign keys, and `synchronous` FULL (an acknowledged write survives power loss)
 * or NORMAL when the operator chose `--durability normal`.
 * A new file is created with owner-only permissions: it holds webhook signing secrets.
 */
export function openDatabase(path: string, options: OpenOptions = {}): Db {
  const { durability = 'full', create = true } = options
  if (path !== ':memory:' && !existsSync(path)) {
    if (!create) throw new Error(`database not found: ${path}`)
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    closeSync(openSync(path, 'a', 0o600))
    chmodSync(path, 0o600)
  }
  return withLobbyPragmas(new Database(path, { create, strict: true }), durability)
}

/**
 * An open connection with the pragmas `openDatabase` names, wrapped for the query builder: what
 * `openDatabase` does once the file is there, and what the tests do with a copy of a migrated
 * database (`Database.deserialize`).
 */
export function withLobbyPragmas(client: Database, durability: Durability = 'full'): Db {
  client.exec('PRAGMA journal_mode = WAL')
  client.exec('PRAGMA busy_timeout = 5000')
  client.exec('PRAGMA foreign_keys = ON')
  client.exec(`PRAGMA synchronous = ${durability === 'normal' ? 'NORMAL' : 'FULL'}`)
  // Statement journals in memory, not in a temporary file: every request write of a group
  // commit runs in a savepoint, and SQLite copies each page it first changes there into the
  // savepoint's journal. On a file that was two write() calls per page, ~15 pages per ticket
  // issue (strace), for a journal that never outlives its transaction and is never synced.
  client.exec('PRAGMA temp_store = MEMORY')
  return drizzle({ client }) as Db
}

/** A file of the database whose permissions `makeOwnerOnly` changed. */
export interface ModeChange {
  path: string
  /** The permissions it had, octal (`0644`). */
  was: string
  /** Set when chmod failed (another user's file): the mode stays as it was. */
  error?: string
}

/**
 * Contract §23: the database (and its WAL and shared-memory files, which SQLite creates with the
 * database's permissions) is owner-only: it holds webhook signing secrets. An existing file that
 * others may read or write is made 0600; returns what was changed (or could not be: a file of
 * another user), for the log.
 */
export function makeOwnerOnly(path: string): ModeChange[] {
  const changed: ModeChange[] = []
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    let mode: number
    try {
      mode = statSync(file).mode & 0o777
    } catch {
      continue
    }
    if (mode === 0o600) continue
    const was = `0${mode.toString(8).padStart(3, '0')}`
    try {
      chmodSync(file, 0o600)
      changed.push({ path: file, was })
    } catch (error) {
      changed.push({ path: file, was, error: (error as NodeJS.ErrnoException).code ?? (error as Error).message })
    }
  }
  return changed
}

/** Removes a database this process created and could not serve (a failed first start leaves nothing behind). */
export function removeDatabaseFiles(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(file, { force: true })
}
