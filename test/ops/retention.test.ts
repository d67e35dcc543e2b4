import { describe, expect, test } from 'bun:test'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { openDatabase, type Db } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { applyProvisioning } from '../../src/provisioning/service'
import { runRetention, retentionTask, DELIVERY_RETAIN_DAYS } from '../../src/ops/retention'
import { ManualClock } from '../../src/platform/clock'
import { retainDaysOption } from '../../src/ops/config'
import { seedTicketHistory } from '../../bench/seed'
import { exampleDocument } from '../support/fixtures'
import { tempDir } from '../support/cli'

const DAY = 86_400_000
const NOW = Date.parse('2026-11-26T12:00:00Z')

/** A file database with 60 days of closed tickets (two events each) ending yesterday. */
function seededDatabase(tickets: number): { path: string; db: Db } {
  const path = join(tempDir(), 'lobby.db')
  const setup = openDatabase(path)
  migrateDatabase(setup.$client, { log: () => {} })
  applyProvisioning(setup, exampleDocument(), NOW - 90 * DAY)
  setup.$client.close()
  seedTicketHistory(path, { tickets, days: 60, now: NOW })
  return { path, db: openDatabase(path) }
}

const count = (db: Db, sql: string, ...params: (string | number)[]) =>
  db.$client.query<{ n: number }, (string | number)[]>(sql).get(...params)!.n

let fixtureSeq = 900_000
/** A copy of a seeded ticket with another ID, status and creation time (test fixture). */
function addTicket(db: Db, id: string, createdAt: number, status: string) {
  db.$client.query(`INSERT INTO tickets (id, queue_unit_id, location_id, service_id, prefix, business_day, seq, ticket_number, status,
      source, call_count, queue_rank, created_at)
    SELECT ?1, queue_unit_id, location_id, service_id, prefix, '2000-01-01', ?2, ticket_number, ?3, source, 0, 0, ?4 FROM tickets LIMIT 1`)
    .run(id, fixtureSeq++, status, createdAt)
  db.$client.query(`INSERT INTO ticket_events (ticket_id, type, to_status, actor, at) VALUES (?1, 'created', 'WAITING', 'system', ?2)`).run(id, createdAt)
}

function addDelivery(db: Db, id: string, createdAt: number, status: string) {
  db.$client.query(`INSERT INTO webhook_deliveries (id, webhook_id, ticket_id, event_type, body, status, attempts, next_attempt_at, created_at)
    VALUES (?1, 'whk_crm', 'tkt_x', 'ticket.created', ?2, ?3, 1, ?4, ?4)`).run(id, 'x'.repeat(500), status, createdAt)
}

describe('retention (contract §13)', () => {
  test('deletes exactly the closed tickets (with events and calls) older than N days and deliveries older than 30 days; the file shrinks', async () => {
    const { path, db } = seededDatabase(12_000)
    const retainDays = 30
    const cutoff = NOW - retainDays * DAY
    addTicket(db, 'tkt_boundary_old', cutoff - 1, 'COMPLETED')
    addTicket(db, 'tkt_boundary_kept', cutoff, 'COMPLETED')
    addTicket(db, 'tkt_open_old', cutoff - 100 * DAY, 'WAITING')
    for (let i = 0; i < 500; i++) addDelivery(db, `dlv_old_${i}`, NOW - (DELIVERY_RETAIN_DAYS * DAY) - 1 - i, i % 2 ? 'DELIVERED' : 'FAILED')
    addDelivery(db, 'dlv_recent', NOW - DELIVERY_RETAIN_DAYS * DAY, 'DELIVERED')
    addDelivery(db, 'dlv_pending_old', NOW - 40 * DAY, 'PENDING')

    const total = count(db, 'SELECT count(*) AS n FROM tickets')
    const old = count(db, "SELECT count(*) AS n FROM tickets WHERE created_at < ? AND status <> 'WAITING'", cutoff)
    const keptIds = db.$client.query<{ id: string }, [number]>("SELECT id FROM tickets WHERE created_at >= ? OR status = 'WAITING' ORDER BY id").all(cutoff)
    const keptEvents = count(db, "SELECT count(*) AS n FROM ticket_events WHERE ticket_id IN (SELECT id FROM tickets WHERE created_at >= ? OR status = 'WAITING')", cutoff)
    expect(old).toBeGreaterThan(5_000)
    expect(total - old).toBeGreaterThan(5_000)
    const eventsBefore = count(db, 'SELECT count(*) AS n FROM ticket_events')
    db.$client.query('PRAGMA wal_checkpoint(TRUNCATE)').get()
    const sizeBefore = statSync(path).size

    const report = await runRetention(db, retainDays, NOW)

    expect(report.tickets).toBe(old)
    expect(report.events).toBe(eventsBefore - keptEvents)
    expect(db.$client.query('SELECT id FROM tickets ORDER BY id').all()).toEqual(keptIds)
    expect(count(db, 'SELECT count(*) AS n FROM ticket_events')).toBe(keptEvents)
    expect(count(db, 'SELECT count(*) AS n FROM ticket_events WHERE ticket_id NOT IN (SELECT id FROM tickets)')).toBe(0)
    expect(count(db, "SELECT count(*) AS n FROM tickets WHERE id IN ('tkt_boundary_kept', 'tkt_open_old')")).toBe(2)
    expect(count(db, "SELECT count(*) AS n FROM tickets WHERE id = 'tkt_boundary_old'")).toBe(0)
    expect(report.deliveries).toBe(500)
    expect(db.$client.query('SELECT id FROM webhook_deliveries ORDER BY id').all()).toEqual([{ id: 'dlv_pending_old' }, { id: 'dlv_recent' }])
    // Number counters of days long gone are removed; recent days keep theirs.
    expect(count(db, 'SELECT count(*) AS n FROM ticket_sequences WHERE business_day < ?', new Date(cutoff - DAY).toISOString().slice(0, 10))).toBe(0)
    expect(count(db, 'SELECT count(*) AS n FROM ticket_sequences WHERE business_day >= ?', new Date(cutoff).toISOString().slice(0, 10))).toBeGreaterThan(0)
    // Roll-ups stay.
    expect(count(db, 'SELECT count(*) AS n FROM service_stats WHERE completed_count > 0')).toBeGreaterThan(0)

    expect(db.$client.query('PRAGMA freelist_count').get()).toEqual({ freelist_count: 0 })
    const sizeAfter = statSync(path).size
    expect(sizeAfter).toBeLessThan(sizeBefore * 0.75)
    expect(report.bytesAfter).toBe(sizeAfter)
    expect(db.$client.query<{ integrity_check: string }, []>('PRAGMA integrity_check').get()!.integrity_check).toBe('ok')

    // A second run the same day finds nothing.
    const again = await runRetention(db, retainDays, NOW)
    expect([again.tickets, again.events, again.deliveries]).toEqual([0, 0, 0])
    db.$client.close()
   }, 30_000)

  test('contract §20: an old ticket\'s rating goes first (ticket_feedback references the ticket); a kept ticket keeps its rating', async () => {
    const { db } = seededDatabase(200)
    const cutoff = NOW - 30 * DAY
    addTicket(db, 'tkt_rated_old', cutoff - 1, 'COMPLETED')
    addTicket(db, 'tkt_rated_kept', cutoff, 'COMPLETED')
    for (const id of ['tkt_rated_old', 'tkt_rated_kept']) {
      db.$client.query(`INSERT INTO ticket_feedback (ticket_id, queue_unit_id, location_id, service_id, business_day, rating, created_at)
        SELECT id, queue_unit_id, location_id, service_id, business_day, 5, created_at FROM tickets WHERE id = ?1`).run(id)
    }
    expect(db.$client.query<{ foreign_keys: number }, []>('PRAGMA foreign_keys').get()!.foreign_keys).toBe(1)
    const report = await runRetention(db, 30, NOW)
    expect(report.feedback).toBe(1)
    expect(db.$client.query('SELECT ticket_id AS id FROM ticket_feedback').all()).toEqual([{ id: 'tkt_rated_kept' }])
    expect(count(db, "SELECT count(*) AS n FROM tickets WHERE id = 'tkt_rated_old'")).toBe(0)
    db.$client.close()
  }, 30_000)

  test('--retain-days and LOBBY_RETAIN_DAYS: default 400, whole days from 1', () => {
    expect(retainDaysOption(undefined)).toBe(400)
    expect(retainDaysOption('30')).toBe(30)
    for (const bad of ['0', '-1', '1.5', 'ten', '99999']) expect(() => retainDaysOption(bad)).toThrow('--retain-days')
  })

  test('the job serve runs: its run deletes by the injected clock and logs what it did', async () => {
    const { db } = seededDatabase(2_000)
    const logs: Record<string, unknown>[] = []
    const clock = new ManualClock(NOW)
    let logged!: () => void
    const done = new Promise<void>((resolve) => (logged = resolve))
    const task = retentionTask({ db, clock, retainDays: 30, firstRunDelayMs: 0, log: (e) => { logs.push(e); logged() } })
    const old = count(db, 'SELECT count(*) AS n FROM tickets WHERE created_at < ?', NOW - 30 * DAY)
    task.start!()
    await done
    await task.stop!()
    expect(logs).toEqual([expect.objectContaining({ level: 'info', msg: 'retention', retainDays: 30, tickets: old, ticketsBefore: new Date(NOW - 30 * DAY).toISOString() })])
    expect(count(db, 'SELECT count(*) AS n FROM tickets WHERE created_at < ?', NOW - 30 * DAY)).toBe(0)
    db.$client.close()
  }, 30_000)
})
