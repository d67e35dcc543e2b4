import type { Database } from 'bun:sqlite'
import type { Db } from '../db/open'

/**
 * Tickets issued at a location on a business day, read from the day's number counters (one
 * row per service): for `lobby status`, which runs beside the server in its own process.
 */
export function issuedCounter(db: Db): (locationId: string, businessDay: string) => number {
  const query = db.$client.query<{ n: number | null }, [string, string]>(
    'SELECT sum(last_seq) AS n FROM ticket_sequences WHERE location_id = ?1 AND business_day = ?2',
  )
  return (locationId, businessDay) => query.get(locationId, businessDay)?.n ?? 0
}

/** Every ticket stored in `client` (a backup's copy, checked after `VACUUM INTO`). */
export function storedTicketCount(client: Database): number {
  return client.query<{ n: number }, []>('SELECT count(*) AS n FROM tickets').get()!.n
}
