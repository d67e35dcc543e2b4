import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
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
  /** The lock file, `<db>.lock`. */
  path: string
  release(): void
}

/**
 * Takes the exclusive lock of one database for this process's whole life: an flock on
 * `<db>.lock` (not on the database file, so the CLI's readers and writers — keys, provision,
 * backup — keep working while the server runs), with the holder's PID written into it.
 * A second server of the same database gets DatabaseInUseError naming the holder.
 */
export function lockDatabase(dbPath: string): DatabaseLock {
  const flock = loadFlock()
  const path = `${resolve(dbPath)}.lock`
  let fd: number
  try {
    // The database's directory, as openDatabase would make it (a first start on ./data/lobby.db).
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    fd = openSync(path, 'a+', 0o600)
  } catch (error) {
    throw new DatabaseInUseError(`cannot create the lock file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  if (flock(fd, LOCK_EX | LOCK_NB) !== 0) {
    closeSync(fd)
    let holder = 'unknown'
    try {
      holder = readFileSync(path, 'utf8').trim() || 'unknown'
    } catch {}
    throw new DatabaseInUseError(`database ${dbPath} is already served by another lobby process (PID ${holder}); stop it first`)
  }
  ftruncateSync(fd, 0)
  writeSync(fd, `${process.pid}\n`, 0)
  let released = false
  return {
    path,
    release() {
      if (released) return
      released = true
      flock(fd, LOCK_UN)
      closeSync(fd)
    },
  }
}
