import type { Db } from '../db/open'

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
  return client.transaction(read)()
}
