import { closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

/** The database is served by another process; its message is the one line `serve` prints. */
export class DatabaseInUseError extends Error {}

const LOCK_EX = 2
const LOCK_NB = 4
const LOCK_UN = 8

type Flock = (fd: number, operation: number) => number

let flockFn: Flock | null = null

/**
 * flock(2) from the C library through bun:ffi: Bun has no file-lock API of its own. A flock
 * belongs to the open file, so the kernel drops it when the process dies however it dies
 * (kill -9 included): no stale lock to clean up by hand.
 */
function loadFlock(): Flock {
  if (flockFn !== null) return flockFn
  // Loaded on first use only: `serve` needs it, the other commands never pay for it.
  const { dlopen, FFIType } = require('bun:ffi') as typeof import('bun:ffi')
  const errors: string[] = []
  for (const name of ['libc.so.6', 'libc.so', 'libc.musl-x86_64.so.1', 'libc.musl-aarch64.so.1', 'libc.dylib']) {
    try {
      const lib = dlopen(name, { flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } })
      flockFn = lib.symbols.flock as Flock
      return flockFn
    } catch (error) {
      errors.push(`${name}: ${(error as Error).message}`)
    }
  }
  throw new Error(`cannot lock the database: flock(2) not found in the C library (${errors.join('; ')})`)
}

export interface DatabaseLock {
  /** The database file as given (the lock is on the file it names, whatever the path). */
  path: string
  /** True when this lock created the (empty) database file: a failed start removes it again. */
  created: boolean
  release(): void
}

/**
 * Takes the exclusive lock of one database for this process's whole life: an flock on the
 * database file itself (contract §23), so every path to it — the same path spelt otherwise, a
 * symlink, a hard link, a symlinked directory — meets the same lock: a lock belongs to the
 * file (its inode), not to a name. The file is created (empty, owner-only) when missing.
 *
 * SQLite locks with fcntl(2) byte ranges, which on Linux are independent of flock(2): the CLI's
 * readers and writers (keys, provision, backup) keep working beside the server, and SQLite's
 * locking is not disturbed. The lock's fd is closed only after the server's connection is.
 * A second server of the same database gets DatabaseInUseError naming the holder's PID (from
 * /proc/locks; "unknown" where there is none).
 */
export function lockDatabase(dbPath: string): DatabaseLock {
  const flock = loadFlock()
  const path = resolve(dbPath)
  let fd: number
  let created = false
  try {
    // The database's directory, as openDatabase would make it (a first start on ./data/lobby.db).
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    created = !existsSync(path)
    // Read-only is enough for flock; O_CREAT makes a new database owner-only from its first byte.
    fd = openSync(path, constants.O_RDONLY | constants.O_CREAT, 0o600)
  } catch (error) {
    throw new DatabaseInUseError(`cannot open the database ${dbPath} to lock it: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  if (flock(fd, LOCK_EX | LOCK_NB) !== 0) {
    const holder = flockHolder(fd) ?? 'unknown'
    closeSync(fd)
    throw new DatabaseInUseError(`database ${dbPath} is already served by another lobby process (PID ${holder}); stop it first`)
  }
  let released = false
  return {
    path: dbPath,
    created,
    release() {
      if (released) return
      released = true
      flock(fd, LOCK_UN)
      closeSync(fd)
    },
  }
}

/**
 * The PID holding an flock on the file of `fd`, read from /proc/locks (Linux): lines like
 * `1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234567 0 EOF`, the device as hex major:minor.
 */
function flockHolder(fd: number): number | null {
  let table: string
  try {
    table = readFileSync('/proc/locks', 'utf8')
  } catch {
    return null
  }
  const stat = fstatSync(fd, { bigint: true })
  const dev = stat.dev
  const major = Number(((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn))
  const minor = Number((dev & 0xffn) | ((dev >> 12n) & ~0xffn))
  for (const line of table.split('\n')) {
    const match = /^\d+:\s+FLOCK\s+\S+\s+WRITE\s+(\d+)\s+([0-9a-f]+):([0-9a-f]+):(\d+)\s/.exec(line)
    if (match === null) continue
    if (BigInt(match[4]!) !== stat.ino) continue
    if (parseInt(match[2]!, 16) !== major || parseInt(match[3]!, 16) !== minor) continue
    return Number(match[1])
  }
  return null
}
