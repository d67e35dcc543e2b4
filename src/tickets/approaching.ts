import type { Database } from 'bun:sqlite'
import { planStable } from '../platform/sql'
import type { TicketOutbox } from './transitions'
import type { TicketStore } from './store'
import { ticketJson } from './store'
import { callOrder, DEFAULT_PRIORITY_POLICY, type LinePlace, type PriorityPolicy } from './priority'

/** A (service, location) line a change moved, in its unit. */
export interface TouchedLine {
  queueUnitId: string
  serviceId: string
  locationId: string
  now: number
}

/**
 * The first ?3 tickets of each lane (front, priority, normal) of the line (service ?1,
 * location ?2), each lane one range of `tickets_waiting_line`. The front lane names the index:
 * with `priority` free SQLite preferred `tickets_open_by_status` (status, location), which
 * reads every WAITING ticket of the location, 5.7 ms at 24,000 waiting against 0.03 ms, once per
 * group commit (bench/RESULTS.md: ticket issue at a fifth of the bare insert server).
 */
export const APPROACHING_LANES_SQL = (() => {
  const lane = (where: string, index = '') => `SELECT * FROM (SELECT id, priority, front, queue_rank AS queueRank, created_at AS createdAt, approaching_at AS approachingAt FROM tickets${index}
      WHERE service_id = ?1 AND location_id = ${planStable('?2')} AND status = 'WAITING' AND ${where} ORDER BY queue_rank LIMIT ?3)`
  return `${lane('front = 1', ' INDEXED BY tickets_waiting_line')} UNION ALL ${lane('front = 0 AND priority = 1')} UNION ALL ${lane('front = 0 AND priority = 0')}`
})()

/** Who writes `ticket.approaching`: the server itself, as the line moved (contract §16 actor `system`). */
const APPROACHING_ACTOR = { type: 'system', id: 'approaching' } as const

interface HeadRow { id: string; priority: number; front: number; queueRank: number; createdAt: number; approachingAt: number | null }

/**
 * Contract §20 "Approaching": a WAITING ticket with the unit's `approachingAhead` or fewer
 * tickets ahead gets the event `ticket.approaching` once: its `approaching_at` set and the
 * webhook with the ticket (actor `system:approaching`). It is no transition, so it writes no
 * `ticket_events` row: the history stays the ticket's moves, and `approaching_at` says when.
 *
 * Where it is evaluated (docs/counters.md "Approaching"): every ticket change that puts a ticket
 * into or takes one out of a waiting line names that line (`Tickets.changed`, via
 * `WriteBatcher.gather`), and once per group commit, just before its COMMIT, each line named is
 * looked at once: only its head. The first K+1 tickets in call order (K = approachingAhead)
 * come from the first K+1 of each lane (front, priority, normal: each ordered by rank, one
 * index seek on `tickets_waiting_line` each), so at most 3(K+1) rows are read per line,
 * whatever the length of the line and never the history. The order is `callOrder` as a counter
 * starting at a count of 0: the order the phone page's "people ahead" uses (`callsAhead`).
 */
export class ApproachingWatch {
  private readonly aheadStmt
  private readonly laneStmt
  private readonly markStmt

  constructor(client: Database, private readonly store: Pick<TicketStore, 'byId'>, private readonly outbox: TicketOutbox, private readonly policyOf: (queueUnitId: string) => PriorityPolicy) {
    this.aheadStmt = client.query<{ ahead: number }, [string]>('SELECT approaching_ahead AS ahead FROM queue_units WHERE id = ?1')
    this.laneStmt = client.query<HeadRow, [string, string, number]>(APPROACHING_LANES_SQL)
    this.markStmt = client.query<{ id: string }, [string, number]>(
      "UPDATE tickets SET approaching_at = ?2 WHERE id = ?1 AND status = 'WAITING' AND approaching_at IS NULL RETURNING id",
    )
  }

  /** Looks at the head of each line in `touched` (each line once), inside the write's transaction. */
  readonly evaluate = (touched: TouchedLine[]): void => {
    const seen = new Map<string, TouchedLine>()
    for (const line of touched) {
      const key = `${line.serviceId}\u0000${line.locationId}`
      const known = seen.get(key)
      if (known === undefined || known.now < line.now) seen.set(key, line)
    }
    for (const line of seen.values()) this.evaluateLine(line)
  }

  private evaluateLine({ queueUnitId, serviceId, locationId, now }: TouchedLine): void {
    const ahead = this.aheadStmt.get(queueUnitId)?.ahead
    if (ahead === undefined) return
    const heads = this.laneStmt.all(serviceId, locationId, ahead + 1)
    const order = callOrder(heads.map(toPlace), this.policyOf(queueUnitId) ?? DEFAULT_PRIORITY_POLICY).slice(0, ahead + 1)
    const unmarked = new Set(heads.filter((h) => h.approachingAt === null).map((h) => h.id))
    order.forEach((place) => {
      if (!unmarked.has(place.id)) return
      if (this.markStmt.get(place.id, now) === null) return
      const row = this.store.byId(place.id)
      if (row === null) return
      this.outbox.enqueue(row.queueUnitId, 'ticket.approaching', APPROACHING_ACTOR, ticketJson(row), now)
    })
  }
}

function toPlace(row: HeadRow): LinePlace {
  return { id: row.id, priority: row.priority === 1, front: row.front === 1, queueRank: row.queueRank, createdAt: row.createdAt }
}
