import { describe, expect, test } from 'bun:test'
import { testDb } from '../support/app'
import { APPROACHING_LANES_SQL } from '../../src/tickets/approaching'
import { LANE_HEADS_SQL } from '../../src/tickets/service'

/*
 * The reads of a line's head run on every call-next and once per group commit of ticket
 * issue: each lane must be one range of `tickets_waiting_line`, never a read of every WAITING
 * ticket of the location (`tickets_open_by_status`), which made ticket issue slow down with the
 * length of the line (5.7 ms a commit at 24,000 waiting; bench/RESULTS.md).
 */

/** What SQLite's planner says it will do for `sql`: one line per step. */
function plan(sql: string, params: (string | number)[]): string[] {
  const db = testDb()
  return db.$client.query<{ detail: string }, (string | number)[]>(`EXPLAIN QUERY PLAN ${sql}`).all(...params).map((row) => row.detail)
}

const ticketReads = (steps: string[]) => steps.filter((step) => /^(SEARCH|SCAN) (tickets|f|p|n|t)\b/.test(step))

describe('the heads of a line are read through tickets_waiting_line', () => {
  test('the approaching watch: each of the three lanes is a range of the line index', () => {
    const reads = ticketReads(plan(APPROACHING_LANES_SQL, ['svc_accounts', 'loc_hall', 3]))
    expect(reads).toHaveLength(3)
    for (const read of reads) expect(read).toStartWith('SEARCH tickets USING INDEX tickets_waiting_line (service_id=? AND location_id=? AND status=? AND front=?')
  })

  test('call-next: the head of each lane is a range of the line index', () => {
    const reads = ticketReads(plan(LANE_HEADS_SQL, ['["svc_accounts"]', 'loc_hall']))
    const lanes = reads.filter((read) => /^SEARCH (f|p|n)\b/.test(read))
    expect(lanes).toHaveLength(3)
    for (const read of lanes) expect(read).toMatch(/^SEARCH (f|p|n) USING INDEX tickets_waiting_line \(service_id=\? AND location_id=\? AND status=\? AND front=\?/)
  })
})
