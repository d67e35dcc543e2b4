/**
 * Bytes per ticket on disk (README "Retention"): a database with the bench's branch
 * (bench/provision.json) and 1,000,000 closed tickets with their events (bench/seed.ts, two
 * events each, as the daily close leaves them), measured
 *
 *   1. as seeded,
 *   2. after retention deleted the older half (days beyond the retention) and the incremental
 *      vacuum returned the space: what a branch at its steady state holds.
 *
 *   bun bench/bytes-per-ticket.ts [tickets=1000000] [days=400]
 */
import { statSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../src/db/open'
import { migrateDatabase } from '../src/root/migrate'
import { applyProvisioning } from '../src/provisioning/service'
import { runRetention } from '../src/ops/retention'
import { seedTicketHistory } from './seed'
import provisionFile from './provision.json'

const tickets = Number(process.argv[2] ?? 1_000_000)
const days = Number(process.argv[3] ?? 400)
const DAY = 86_400_000
const now = Date.now()
const dir = mkdtempSync(join(tmpdir(), 'lobby-bytes-'))
const path = join(dir, 'lobby.db')

const setup = openDatabase(path)
migrateDatabase(setup.$client, { log: () => {} })
applyProvisioning(setup, provisionFile, now - (days + 10) * DAY)
setup.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)')
const emptyBytes = statSync(path).size
setup.$client.close()

const seed = seedTicketHistory(path, { tickets, days, now })
const db = openDatabase(path)
db.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)')
const seededBytes = statSync(path).size
const count = (sql: string) => db.$client.query<{ n: number }, []>(sql).get()!.n
const events = count('SELECT count(*) AS n FROM ticket_events')

const half = Math.round(days / 2)
const report = await runRetention(db, half, now)
const remaining = count('SELECT count(*) AS n FROM tickets')
const afterBytes = statSync(path).size
db.$client.close()
rmSync(dir, { recursive: true, force: true })

const perTicket = (bytes: number, n: number) => ((bytes - emptyBytes) / n).toFixed(0)
console.log(JSON.stringify({
  tickets, events, days, seedMs: seed.ms,
  emptyBytes, seededBytes, bytesPerTicket: Number(perTicket(seededBytes, tickets)),
  retention: { retainDays: half, deletedTickets: report.tickets, deletedEvents: report.events, ms: report.ms, vacuumMs: report.vacuumMs },
  remainingTickets: remaining, afterRetentionBytes: afterBytes, bytesPerTicketAfter: Number(perTicket(afterBytes, remaining)),
}, null, 2))
