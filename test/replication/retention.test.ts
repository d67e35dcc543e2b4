// Retention (contract §13) and replication (§14) together: while the branch replicates, a ticket
// head office has not received yet is kept, however old; once the cursor passed it, it goes.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { applyProvisioning } from '../../src/provisioning/service'
import { runRetention } from '../../src/ops/retention'
import { seedTicketHistory } from '../../bench/seed'
import { exampleDocument } from '../support/fixtures'
import { tempDir } from '../support/cli'

const DAY = 86_400_000
const NOW = Date.parse('2026-11-26T12:00:00Z')

describe('retention while replicating', () => {
  test('keeps the old closed tickets whose events are after the replication cursor, deletes those before it', async () => {
    const path = join(tempDir(), 'lobby.db')
    const setup = openDatabase(path)
    migrateDatabase(setup.$client, { log: () => {} })
    applyProvisioning(setup, exampleDocument(), NOW - 90 * DAY)
    setup.$client.close()
    seedTicketHistory(path, { tickets: 2_000, days: 60, now: NOW })
    const db = openDatabase(path)
    const client = db.$client
    const ids = client.query<{ id: number }, []>('SELECT id FROM ticket_events ORDER BY id').all().map((r) => r.id)
    // Head office has the first half of the history.
    const cursor = ids[Math.floor(ids.length / 2)]!
    const unreplicatedOld = client.query<{ n: number }, [number, number]>(
      "SELECT count(DISTINCT t.id) AS n FROM tickets t JOIN ticket_events e ON e.ticket_id = t.id WHERE e.id > ?1 AND t.created_at < ?2 AND t.status IN ('COMPLETED', 'NO_SHOW', 'CANCELLED')",
    ).get(cursor, NOW - 30 * DAY)!.n
    expect(unreplicatedOld).toBeGreaterThan(0)

    const guarded = await runRetention(db, 30, NOW, () => false, () => cursor)
    expect(guarded.tickets).toBeGreaterThan(0)
    // Every event head office lacks is still there, with its ticket.
    const after = client.query<{ id: number }, [number]>('SELECT e.id FROM ticket_events e JOIN tickets t ON t.id = e.ticket_id WHERE e.id > ?1 ORDER BY e.id').all(cursor).map((r) => r.id)
    expect(after).toEqual(ids.filter((id) => id > cursor))

    // Once head office has everything, the same run deletes them too.
    const caughtUp = await runRetention(db, 30, NOW, () => false, () => ids.at(-1)!)
    expect(caughtUp.tickets).toBe(unreplicatedOld)
    client.close()
  })
})
