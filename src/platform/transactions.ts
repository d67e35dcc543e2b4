import type { Database, Statement } from 'bun:sqlite'
import type { Db } from '../db/open'

/**
 * Transactions on statements prepared once per connection. `db.transaction(fn)` (drizzle's and
 * bun:sqlite's) builds a new wrapper, and drizzle a transaction object, on every call: a few
 * microseconds a request that these helpers do not spend. Nested calls use a savepoint of the
 * transaction already open, as bun:sqlite's own transactions do.
 */
interface Controls {
  begin: Statement
  beginImmediate: Statement
  commit: Statement
  rollback: Statement
  savepoint: Statement
  release: Statement
  rollbackTo: Statement
}

const controlsByClient = new WeakMap<Database, Controls>()

function controlsOf(client: Database): Controls {
  let controls = controlsByClient.get(client)
  if (controls === undefined) {
    controls = {
      begin: client.prepare('BEGIN'),
      beginImmediate: client.prepare('BEGIN IMMEDIATE'),
      commit: client.prepare('COMMIT'),
      rollback: client.prepare('ROLLBACK'),
      savepoint: client.prepare('SAVEPOINT lobby_nested'),
      release: client.prepare('RELEASE lobby_nested'),
      rollbackTo: client.prepare('ROLLBACK TO lobby_nested'),
    }
    controlsByClient.set(client, controls)
  }
  return controls
}

/**
 * Runs `read` inside one read transaction. In WAL mode SQLite takes and drops its shared
 * locks for every statement run outside a transaction (two `fcntl` and an `fstat`, about
 * 6 µs per statement on this kind of machine); a request's reads in one transaction pay that
 * once, and they all see one snapshot of the database. Already inside a transaction, `read`
 * just runs. `read` must not write: a write would have to upgrade this snapshot, which SQLite
 * refuses when another process committed since it began.
 */
export function inReadTransaction<T>(db: Db, read: () => T): T {
  const client = db.$client
  if (client.inTransaction) return read()
  const controls = controlsOf(client)
  controls.begin.run()
  let result: T
  try {
    result = read()
  } catch (error) {
    if (client.inTransaction) controls.rollback.run()
    throw error
  }
  controls.commit.run()
  return result
}

/**
 * Runs `write` in an immediate transaction (the write lock taken at once, so its reads and
 * writes are one atomic step), or, inside a transaction already open, in a savepoint of it.
 * A throw undoes everything `write` did and is rethrown.
 */
export function inWriteTransaction<T>(db: Db, write: () => T): T {
  const client = db.$client
  const controls = controlsOf(client)
  if (client.inTransaction) {
    controls.savepoint.run()
    let result: T
    try {
      result = write()
    } catch (error) {
      controls.rollbackTo.run()
      controls.release.run()
      throw error
    }
    controls.release.run()
    return result
  }
  controls.beginImmediate.run()
  let result: T
  try {
    result = write()
    controls.commit.run()
  } catch (error) {
    if (client.inTransaction) controls.rollback.run()
    throw error
  }
  return result
}
