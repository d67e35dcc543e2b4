// The tickets feature's reads for head-office replication (contract §14, docs/replication.md):
// the change sequence is `ticket_events.id`, written in the transaction of every ticket change
// (an AUTOINCREMENT key: never reused, and one writer, so a reader never sees a larger id
// commit before a smaller one). The replicator (src/replication/) keeps its cursor on it and
// reads through these functions only: no SQL over ticket tables outside src/tickets/.
import type { Database, Statement } from 'bun:sqlite'
import type { Db } from '../db/open'
import { inReadTransaction } from '../platform/transactions'
import { HOUR_COLUMNS, SERVED_HOUR_COLUMNS } from './tables'
import { Histogram } from './rollup-encoding'
import type { CounterRollupFigures, DailyRollupFigures } from './rollup-reads'

/** A ticket as head office stores it (times in epoch milliseconds). */
export interface ReplicatedTicket {
  id: string
  queueUnitId: string
  locationId: string
  serviceId: string
  businessDay: string
  prefix: string
  seq: number
  ticketNumber: string
  /** A priority ticket (contract §8), 1 or 0. */
  priority: number
  status: string
  source: string
  externalReference: string | null
  counterId: string | null
  callCount: number
  createdAt: number
  calledAt: number | null
  servingAt: number | null
  completedAt: number | null
  /** The id of the ticket's latest event: the version head office compares before an update. */
  version: number
}

/** One entry of a ticket's history with the ticket's queue unit. */
export interface ReplicatedEvent {
  id: number
  queueUnitId: string
  ticketId: string
  type: string
  fromStatus: string | null
  toStatus: string
  counterId: string | null
  /** As stored, `type:id` (contract §16, src/platform/actor.ts): head office gets the same text. */
  actor: string
  at: number
  detail: string | null
}

/** A duration distribution as head office stores it: [seconds (bucket's lower bound), tickets] pairs, ascending. */
export type HistogramPairs = [number, number][]

/** A `report_daily` row (contract §12) as head office stores it. */
export interface ReplicatedDailyRollup extends DailyRollupFigures {
  queueUnitId: string
  locationId: string
  serviceId: string
  businessDay: string
  issuedByHour: number[]
  servedByHour: number[]
  waitHistogram: HistogramPairs
  serviceHistogram: HistogramPairs
}

/** A `report_counter_daily` row as head office stores it. */
export interface ReplicatedCounterRollup extends CounterRollupFigures {
  queueUnitId: string
  businessDay: string
  serviceHistogram: HistogramPairs
}

/** A `report_staff_daily` row (contract §16: a clerk's figures per unit and business day) as head office stores it. */
export interface ReplicatedStaffRollup {
  queueUnitId: string
  username: string
  businessDay: string
  served: number
  noShow: number
  serviceCount: number
  serviceSum: number
  serviceP50: number | null
  serviceP90: number | null
  serviceHistogram: HistogramPairs
}

/** A batch of changes after a cursor, read as one snapshot. */
export interface ChangeBatch {
  /** In `id` order, so per ticket in the order they happened. */
  events: ReplicatedEvent[]
  /** Each ticket named by `events` once, as it stands now (its version ≥ its events in the batch). */
  tickets: ReplicatedTicket[]
  /**
   * The report roll-ups of every (queue unit, business day) the batch's tickets belong to, as they
   * stand now: every figure of a ticket change belongs to the ticket's business day (rollup-rules.ts).
   */
  daily: ReplicatedDailyRollup[]
  counters: ReplicatedCounterRollup[]
  staff: ReplicatedStaffRollup[]
  /** The largest event id of the batch: the cursor once head office has it; the cursor itself when empty. */
  through: number
}

export interface ReplicationBacklog {
  /** Events after the cursor. */
  pending: number
  /** When the oldest of them was written (epoch ms), or null when none is pending. */
  oldestAt: number | null
}

/**
 * Reads ticket changes for replication on statements prepared once (one per app, built by the
 * replicator). Every read is synchronous, inside one read transaction: a batch is one snapshot.
 */
export class TicketChangeFeed {
  private readonly eventsStmt: Statement<ReplicatedEvent, [number, number]>
  private readonly ticketStmt: Statement<ReplicatedTicket, [string]>
  private readonly pendingStmt: Statement<{ n: number }, [number]>
  private readonly oldestStmt: Statement<{ at: number }, [number]>
  private readonly lastStmt: Statement<{ id: number | null }, []>
  private readonly dailyStmt: Statement<DailyRow, [string, string]>
  private readonly counterStmt: Statement<CounterRow, [string, string]>
  private readonly staffStmt: Statement<StaffRow, [string, string]>

  constructor(private readonly db: Db) {
    const client: Database = db.$client
    // `tickets` joined for the queue unit: an event whose ticket is gone (retention) has no unit
    // to be filed under and is skipped; retention keeps unreplicated tickets while replication runs.
    this.eventsStmt = client.query(`
      SELECT e.id, t.queue_unit_id AS queueUnitId, e.ticket_id AS ticketId, e.type, e.from_status AS fromStatus,
             e.to_status AS toStatus, e.counter_id AS counterId, e.actor, e.at, e.detail
      FROM ticket_events e JOIN tickets t ON t.id = e.ticket_id
      WHERE e.id > ?1 ORDER BY e.id LIMIT ?2`)
    this.ticketStmt = client.query(`
      SELECT id, queue_unit_id AS queueUnitId, location_id AS locationId, service_id AS serviceId,
             business_day AS businessDay, prefix, seq, ticket_number AS ticketNumber, priority, status, source,
             external_reference AS externalReference, counter_id AS counterId, call_count AS callCount,
             created_at AS createdAt, called_at AS calledAt, serving_at AS servingAt, completed_at AS completedAt,
             (SELECT max(e.id) FROM ticket_events e WHERE e.ticket_id = tickets.id) AS version
      FROM tickets WHERE id = ?1`)
    this.pendingStmt = client.query('SELECT count(*) AS n FROM ticket_events WHERE id > ?1')
    this.oldestStmt = client.query('SELECT at FROM ticket_events WHERE id > ?1 ORDER BY id LIMIT 1')
    this.lastStmt = client.query('SELECT max(id) AS id FROM ticket_events')
    this.dailyStmt = client.query(`
      SELECT r.queue_unit_id AS queueUnitId, r.location_id AS locationId, r.service_id AS serviceId, r.business_day AS businessDay,
             issued, served, no_show AS noShow, cancelled, transferred_out AS transferredOut, wait_count AS waitCount,
             wait_sum AS waitSum, wait_max AS waitMax, wait_p50 AS waitP50, wait_p90 AS waitP90, within_target AS withinTarget,
             service_count AS serviceCount, service_sum AS serviceSum, service_p50 AS serviceP50, service_p90 AS serviceP90,
             ${[...HOUR_COLUMNS, ...SERVED_HOUR_COLUMNS].map((c) => `r.${c}`).join(', ')}, d.wait_hist AS waitHist, d.service_hist AS serviceHist
      FROM report_daily r
      LEFT JOIN report_daily_distributions d ON d.location_id = r.location_id AND d.service_id = r.service_id AND d.business_day = r.business_day
      WHERE r.queue_unit_id = ?1 AND r.business_day = ?2`)
    this.counterStmt = client.query(`
      SELECT r.queue_unit_id AS queueUnitId, r.counter_id AS counterId, r.business_day AS businessDay, r.location_id AS locationId,
             served, no_show AS noShow, service_count AS serviceCount, service_sum AS serviceSum, service_p50 AS serviceP50,
             service_p90 AS serviceP90, busy_seconds AS busySeconds, d.service_hist AS serviceHist
      FROM report_counter_daily r
      LEFT JOIN report_counter_distributions d ON d.counter_id = r.counter_id AND d.business_day = r.business_day
      WHERE r.queue_unit_id = ?1 AND r.business_day = ?2`)
    this.staffStmt = client.query(`
      SELECT r.queue_unit_id AS queueUnitId, r.username, r.business_day AS businessDay, served, no_show AS noShow,
             service_count AS serviceCount, service_sum AS serviceSum, service_p50 AS serviceP50, service_p90 AS serviceP90,
             d.service_hist AS serviceHist
      FROM report_staff_daily r
      LEFT JOIN report_staff_distributions d ON d.username = r.username AND d.queue_unit_id = r.queue_unit_id AND d.business_day = r.business_day
      WHERE r.queue_unit_id = ?1 AND r.business_day = ?2`)
  }

  /** Up to `limit` events after `cursor`, oldest first, with their tickets as they stand now. */
  after(cursor: number, limit: number): ChangeBatch {
    return inReadTransaction(this.db, () => {
      const events = this.eventsStmt.all(cursor, limit)
      const tickets: ReplicatedTicket[] = []
      const seen = new Set<string>()
      for (const event of events) {
        if (seen.has(event.ticketId)) continue
        seen.add(event.ticketId)
        const ticket = this.ticketStmt.get(event.ticketId)
        if (ticket !== null) tickets.push(ticket)
      }
      // A short batch read everything there is: events skipped for want of a ticket (none
      // while retention waits for replication) are covered too, up to the newest event.
      const through = events.length === limit ? events.at(-1)!.id : Math.max(cursor, this.lastStmt.get()?.id ?? cursor)
      const days = new Map<string, { unit: string; day: string }>()
      for (const t of tickets) days.set(`${t.queueUnitId}\u0000${t.businessDay}`, { unit: t.queueUnitId, day: t.businessDay })
      const daily: ReplicatedDailyRollup[] = []
      const counters: ReplicatedCounterRollup[] = []
      const staff: ReplicatedStaffRollup[] = []
      for (const { unit, day } of days.values()) {
        for (const row of this.dailyStmt.all(unit, day)) daily.push(dailyOf(row))
        for (const row of this.counterStmt.all(unit, day)) counters.push(counterOf(row))
        for (const { serviceHist, ...row } of this.staffStmt.all(unit, day)) staff.push({ ...row, serviceHistogram: pairsOf(serviceHist) })
      }
      return { events, tickets, daily, counters, staff, through }
    })
  }

  /** How many events wait after `cursor`, and the time of the oldest. */
  backlog(cursor: number): ReplicationBacklog {
    return inReadTransaction(this.db, () => {
      const pending = this.pendingStmt.get(cursor)?.n ?? 0
      return { pending, oldestAt: pending === 0 ? null : (this.oldestStmt.get(cursor)?.at ?? null) }
    })
  }
}

type DailyRow = Omit<ReplicatedDailyRollup, 'issuedByHour' | 'servedByHour' | 'waitHistogram' | 'serviceHistogram'> &
  Record<string, unknown> & { waitHist: Uint8Array | null; serviceHist: Uint8Array | null }
type CounterRow = Omit<ReplicatedCounterRollup, 'serviceHistogram'> & { serviceHist: Uint8Array | null }
type StaffRow = Omit<ReplicatedStaffRollup, 'serviceHistogram'> & { serviceHist: Uint8Array | null }

function pairsOf(bytes: Uint8Array | null): HistogramPairs {
  const pairs = Histogram.fromBytes(bytes).pairs
  const out: HistogramPairs = []
  for (let i = 0; i + 1 < pairs.length; i += 2) out.push([pairs[i]!, pairs[i + 1]!])
  return out
}

function dailyOf(row: DailyRow): ReplicatedDailyRollup {
  const { waitHist, serviceHist, ...rest } = row
  const hourly = new Set([...HOUR_COLUMNS, ...SERVED_HOUR_COLUMNS])
  const figures = Object.fromEntries(Object.entries(rest).filter(([key]) => !hourly.has(key))) as Omit<ReplicatedDailyRollup, 'issuedByHour' | 'servedByHour' | 'waitHistogram' | 'serviceHistogram'>
  return {
    ...figures,
    issuedByHour: HOUR_COLUMNS.map((column) => row[column] as number),
    servedByHour: SERVED_HOUR_COLUMNS.map((column) => row[column] as number),
    waitHistogram: pairsOf(waitHist),
    serviceHistogram: pairsOf(serviceHist),
  }
}

function counterOf(row: CounterRow): ReplicatedCounterRollup {
  const { serviceHist, ...rest } = row
  return { ...rest, serviceHistogram: pairsOf(serviceHist) }
}
