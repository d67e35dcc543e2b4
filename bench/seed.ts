/**
 * Seeds a stopped Lobby database with a ticket history by a direct SQLite bulk insert, so the
 * bench can compare ticket issue and state read on a database holding 1,000,000 tickets with
 * the same reads on an empty one. What it writes follows the schema and the invariants the
 * server keeps:
 *
 * - `tickets`: `days` past business days (the location's time zone), the same number of
 *   tickets each day spread over every offered (service, location) line, numbered 1, 2, 3, …
 *   per (location, prefix, day) so `tickets_number_per_day` holds; `tkt_` IDs made as the
 *   server makes them, at the ticket's creation time. All closed, as the daily close leaves them: 90 % COMPLETED, 6 % NO_SHOW, 4 %
 *   CANCELLED, with their call/serving/completion times and counter.
 * - `ticket_events`: each ticket's `created` event and its closing event.
 * - `ticket_sequences`: the last number of every (location, prefix, day).
 * - `service_stats`: `waiting` stays 0 (nothing is waiting), `completed_count` and the average
 *   service time from the completions.
 * - `queue_units.state_revision`: + one per event written.
 *
 * Run it only while no server has the file open.
 */
import { Database } from 'bun:sqlite'
import { timeOrderedId } from '../src/platform/ids'

export interface SeedOptions {
  tickets: number
  days: number
  /** The day the history ends before (epoch ms); default now. */
  now?: number
  /**
   * Also write each ticket's `called` and `serving` events and close it at its counter (not by
   * the daily close), with waits spread over 1–30 minutes: the history the report roll-ups are
   * rebuilt from (bench/reports.ts). Off: the two events per ticket the issue/state bench uses.
   */
  fullHistory?: boolean
}

export interface SeedResult {
  tickets: number
  events: number
  days: number
  ms: number
}

const DAY_MS = 86_400_000

export function seedTicketHistory(path: string, options: SeedOptions): SeedResult {
  const started = performance.now()
  const now = options.now ?? Date.now()
  const db = new Database(path, { strict: true })
  let events = 0
  try {
    // A bulk load into a stopped database: no journal needed; the file returns to WAL below.
    db.exec('PRAGMA journal_mode = OFF')
    db.exec('PRAGMA synchronous = OFF')
    db.exec('PRAGMA cache_size = -1048576')
    db.exec('PRAGMA foreign_keys = ON')

    const lines = db.query<{ serviceId: string; locationId: string; prefix: string; queueUnitId: string; timezone: string }, []>(`
      SELECT s.id AS serviceId, l.id AS locationId, s.prefix AS prefix, s.queue_unit_id AS queueUnitId, l.timezone AS timezone
      FROM service_locations sl JOIN services s ON s.id = sl.service_id JOIN locations l ON l.id = sl.location_id
      WHERE s.queue_unit_id = l.queue_unit_id ORDER BY l.id, s.id`).all()
    if (lines.length === 0) throw new Error('seed: the database has no offered services')
    const countersByLine = new Map<string, string[]>()
    for (const row of db.query<{ counterId: string; serviceId: string; locationId: string }, []>(
      'SELECT c.id AS counterId, cs.service_id AS serviceId, c.location_id AS locationId FROM counters c JOIN counter_services cs ON cs.counter_id = c.id',
    ).all()) {
      const key = `${row.serviceId}\u0000${row.locationId}`
      countersByLine.set(key, [...(countersByLine.get(key) ?? []), row.counterId])
    }
    const credential = db.query<{ id: string }, []>("SELECT id FROM credentials WHERE kind = 'queue' ORDER BY id LIMIT 1").get()?.id ?? null

    const insertTicket = db.prepare(`INSERT INTO tickets (id, queue_unit_id, location_id, service_id, prefix, business_day, seq,
      ticket_number, status, source, external_reference, credential_id, counter_id, call_count, queue_rank, created_at, called_at,
      serving_at, completed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'API', NULL, ?, ?, ?, ?, ?, ?, ?, ?)`)
    const insertEvent = db.prepare(`INSERT INTO ticket_events (ticket_id, type, from_status, to_status, counter_id, actor, at, detail)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
    const insertSequence = db.prepare(`INSERT INTO ticket_sequences (location_id, prefix, business_day, last_seq) VALUES (?, ?, ?, ?)
      ON CONFLICT (location_id, prefix, business_day) DO UPDATE SET last_seq = max(last_seq, excluded.last_seq)`)
    const upsertStats = db.prepare(`INSERT INTO service_stats (service_id, location_id, waiting, avg_service_seconds, completed_count)
      VALUES (?, ?, 0, ?, ?) ON CONFLICT (service_id, location_id) DO UPDATE SET
      avg_service_seconds = excluded.avg_service_seconds, completed_count = completed_count + excluded.completed_count`)
    const bumpRevision = db.prepare('UPDATE queue_units SET state_revision = state_revision + ? WHERE id = ?')

    const dayFormat = new Map<string, Intl.DateTimeFormat>()
    const businessDay = (ms: number, tz: string) => {
      let fmt = dayFormat.get(tz)
      if (fmt === undefined) {
        fmt = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' })
        dayFormat.set(tz, fmt)
      }
      return fmt.format(ms)
    }
    // IDs as the server makes them at the ticket's creation time (src/platform/ids.ts).
    const ticketId = (createdAt: number) => timeOrderedId('tkt_', createdAt)

    // Bulk-load technique: drop the secondary indexes of the two big tables, insert, and create
    // them again from their own SQL (one sort each instead of a million random inserts).
    const indexes = db.query<{ name: string; sql: string }, []>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('tickets', 'ticket_events') AND sql IS NOT NULL",
    ).all()

    const perDay = Math.ceil(options.tickets / options.days)
    const completions = new Map<string, { n: number; seconds: number }>()
    const revisions = new Map<string, number>()
    let written = 0
    db.transaction(() => {
      for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`)
      for (let d = options.days; d >= 1 && written < options.tickets; d--) {
        // Business hours of that day: 07:00 UTC on, one ticket every 36 s across the lines.
        const opening = Math.floor((now - d * DAY_MS) / DAY_MS) * DAY_MS + 7 * 3_600_000
        const seqs = new Map<string, number>()
        const todayCount = Math.min(perDay, options.tickets - written)
        const days = new Map(lines.map((l) => [l.timezone, businessDay(opening, l.timezone)]))
        for (let i = 0; i < todayCount; i++) {
          const line = lines[i % lines.length]!
          const day = days.get(line.timezone)!
          const seqKey = `${line.locationId}\u0000${line.prefix}`
          const seq = (seqs.get(seqKey) ?? 0) + 1
          seqs.set(seqKey, seq)
          const createdAt = opening + i * 36_000
          const lineKey = `${line.serviceId}\u0000${line.locationId}`
          const counters = countersByLine.get(lineKey) ?? [null]
          const counterId = counters[i % counters.length] ?? null
          const roll = i % 50
          const status = roll < 45 ? 'COMPLETED' : roll < 48 ? 'NO_SHOW' : 'CANCELLED'
          const waitMs = options.fullHistory ? (60 + ((i * 97) % 1740)) * 1000 : 600_000
          const calledAt = status === 'CANCELLED' ? null : createdAt + waitMs
          const servingAt = status === 'COMPLETED' ? calledAt! + 60_000 : null
          const serviceSeconds = 120 + (i % 7) * 40
          const completedAt = status === 'COMPLETED' ? servingAt! + serviceSeconds * 1000 : status === 'NO_SHOW' ? calledAt! + 180_000 : createdAt + 300_000
          const id = ticketId(createdAt)
          insertTicket.run(
            id, line.queueUnitId, line.locationId, line.serviceId, line.prefix, day, seq,
            line.prefix + String(seq).padStart(3, '0'), status, credential,
            status === 'CANCELLED' ? null : counterId, status === 'CANCELLED' ? 0 : 1, i + 1, createdAt, calledAt, servingAt, completedAt,
          )
          insertEvent.run(id, 'created', null, 'WAITING', null, credential ?? 'system', createdAt, '{"source":"API"}')
          const closing = status === 'COMPLETED' ? 'completed' : status === 'NO_SHOW' ? 'no_show' : 'cancelled'
          const from = status === 'COMPLETED' ? 'SERVING' : status === 'NO_SHOW' ? 'CALLED' : 'WAITING'
          let closer = 'system'
          if (options.fullHistory && status !== 'CANCELLED') {
            closer = credential ?? 'system'
            insertEvent.run(id, 'called', 'WAITING', 'CALLED', counterId, closer, calledAt, null)
            if (status === 'COMPLETED') insertEvent.run(id, 'serving', 'CALLED', 'SERVING', counterId, closer, servingAt, null)
            events += status === 'COMPLETED' ? 2 : 1
          }
          insertEvent.run(id, closing, from, status, status === 'CANCELLED' ? null : counterId, closer, completedAt, null)
          events += 2
          revisions.set(line.queueUnitId, (revisions.get(line.queueUnitId) ?? 0) + 2)
          if (status === 'COMPLETED') {
            const c = completions.get(lineKey) ?? { n: 0, seconds: 0 }
            c.n += 1
            c.seconds += serviceSeconds
            completions.set(lineKey, c)
          }
          written += 1
        }
        for (const [key, last] of seqs) {
          const [locationId, prefix] = key.split('\u0000') as [string, string]
          const tz = lines.find((l) => l.locationId === locationId)!.timezone
          insertSequence.run(locationId, prefix, days.get(tz)!, last)
        }
      }
      for (const [key, c] of completions) {
        const [serviceId, locationId] = key.split('\u0000') as [string, string]
        upsertStats.run(serviceId, locationId, c.seconds / c.n, c.n)
      }
      for (const [unit, n] of revisions) bumpRevision.run(n, unit)
      for (const index of indexes) db.exec(index.sql)
    }).immediate()
    db.exec('PRAGMA journal_mode = WAL')
    const check = db.query<{ n: number }, []>('SELECT count(*) AS n FROM tickets').get()!.n
    if (check < written) throw new Error(`seed: expected at least ${written} tickets, found ${check}`)
  } finally {
    db.close()
  }
  return { tickets: options.tickets, events, days: options.days, ms: Math.round(performance.now() - started) }
}
