import { openDatabase, type Db } from '../db/open'
import { migrateDatabase } from '../root/migrate'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from '../platform/usage-error'

/** A bad flag or file (src/platform/usage-error.ts): one line on stderr, exit 2. */
export { UsageError }

export type Options = NonNullable<ParseArgsConfig['options']>

/** `util.parseArgs` with strict flags, `--help` on every command, and errors as UsageError. */
export function parseFlags<O extends Options>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false })
      .values as { [K in keyof O]?: O[K] extends { type: 'boolean' } ? boolean : string } & { help?: boolean }
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!)
  }
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`missing --${flag}`)
  return value
}

export function integerFlag(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value)) throw new UsageError(`--${flag} must be a whole number`)
  const n = Number(value)
  if (n < min || n > max) throw new UsageError(`--${flag} must be between ${min} and ${max}`)
  return n
}

export function oneOf<T extends string>(value: string | undefined, flag: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}`)
  return value as T
}

/** `--db`, else `LOBBY_DB`, else ./data/lobby.db (contract §1). */
export function dbPath(flag: string | undefined): string {
  return flag ?? process.env.LOBBY_DB ?? './data/lobby.db'
}

/** Writes a JSON document to stdout, pretty for people reading a terminal. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n')
}

/**
 * Opens the database for a command that writes (contract §24: no separate `migrate` step): a
 * missing file is created, and the migrations this build carries are applied.
 */
export function openWritableDatabase(path: string): Db {
  const db = openDatabase(path)
  try {
    migrateDatabase(db.$client)
  } catch (error) {
    db.$client.close()
    throw error
  }
  return db
}

/** Opens an existing database for a command that only reads (status, report, audit, backup): a missing one is an error, never created. */
export function openExistingDatabase(path: string) {
  try {
    return openDatabase(path, { create: false })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}
