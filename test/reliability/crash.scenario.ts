import { describe, expect } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { RunningBinary } from '../support/binary'
import {
  IDS, alive, announcementsPush, duplicateTicketNumbers, integrityCheck, issueTicket, pool, provisionBranch, pushWidget,
  scenario, ticketBody, withDb,
} from './support'

const s = scenario(
  'crash',
  '`kill -9` of dist/lobby (`--durability full`) while client loops issue tickets and push widget snapshots; ' +
    'after each restart every acknowledged ticket and snapshot revision is there, no ticket number is duplicated ' +
    '(per location, prefix and business day), an idempotent retry of every acknowledged request returns the original ' +
    'byte for byte, and a retry of every request whose answer was lost in the crash yields exactly one ticket.',
)

const CYCLES = 5
const LOAD_MS = 3_000
/** Ticket loops per cycle; each cycles through three (location, service) lines, so three numbering sequences race. */
const TICKET_LOOPS = 6
const LINES = [
  { locationId: IDS.hall, serviceId: IDS.accounts },
  { locationId: IDS.hall, serviceId: IDS.loans },
  { locationId: IDS.annex, serviceId: IDS.accounts },
] as const

interface TicketAttempt {
  key: string
  body: string
  cycle: number
  /** The 201 received in full: an acknowledgement. */
  ack?: { text: string; id: string; number: string }
  /** The connection died with the server before a full answer: outcome unknown. */
  lost?: string
  /** Anything else (a non-201 answer, an error while the server was alive): a defect. */
  unexpected?: string
}

interface PushAttempt {
  widgetId: string
  key: string
  body: string
  sequence: number
  ack?: { text: string; revision: number }
  lost?: string
  unexpected?: string
}

describe('crash: kill -9 during sustained writes', () => {
  const branch = provisionBranch()
  const tickets: TicketAttempt[] = []
  const pushes: PushAttempt[] = []
  const sequences = new Map<string, number>(IDS.crashWidgets.map((w) => [w, 0]))

  async function ticketLoop(server: RunningBinary, cycle: number, loop: number, killed: () => boolean) {
    for (let i = 0; !killed(); i++) {
      const line = LINES[(loop + i) % LINES.length]!
      const attempt: TicketAttempt = { key: `crash-${cycle}-${loop}-${i}-${randomUUID()}`, body: ticketBody(line.locationId, line.serviceId, `crash-${cycle}-${loop}-${i}`), cycle }
      tickets.push(attempt)
      try {
        const res = await issueTicket(server.url, branch.secrets.queue.main, attempt.key, attempt.body)
        const text = await res.text()
        if (res.status !== 201) {
          attempt.unexpected = `status ${res.status}: ${text.slice(0, 200)}`
          continue
        }
        const ticket = JSON.parse(text).data
        attempt.ack = { text, id: ticket.id, number: ticket.ticketNumber }
      } catch (error) {
        if (killed()) attempt.lost = String(error)
        else attempt.unexpected = `error while the server was alive: ${error}`
      }
    }
  }

  async function pushLoop(server: RunningBinary, widgetId: string, killed: () => boolean) {
    while (!killed()) {
      const sequence = sequences.get(widgetId)! + 1
      sequences.set(widgetId, sequence)
      const attempt: PushAttempt = { widgetId, key: `crash-${widgetId}-${sequence}`, body: announcementsPush(sequence, widgetId), sequence }
      pushes.push(attempt)
      try {
        const res = await pushWidget(server.url, branch.secrets.workspace.cms, widgetId, attempt.key, attempt.body)
        const text = await res.text()
        if (res.status !== 200) {
          attempt.unexpected = `status ${res.status}: ${text.slice(0, 200)}`
          continue
        }
        attempt.ack = { text, revision: JSON.parse(text).dataRevision }
      } catch (error) {
        if (killed()) attempt.lost = String(error)
        else attempt.unexpected = `error while the server was alive: ${error}`
      }
    }
  }

  s.test(`${CYCLES} × (${LOAD_MS / 1000} s of ${TICKET_LOOPS} ticket loops + ${IDS.crashWidgets.length} push loops, then SIGKILL): nothing acknowledged is lost`, async () => {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const server = await branch.serve()
      let killedFlag = false
      const killed = () => killedFlag
      const loops = [
        ...Array.from({ length: TICKET_LOOPS }, (_, loop) => ticketLoop(server, cycle, loop, killed)),
        ...IDS.crashWidgets.map((w) => pushLoop(server, w, killed)),
      ]
      await Bun.sleep(LOAD_MS)
      expect(alive(server)).toBe(true)
      killedFlag = true
      server.proc.kill('SIGKILL')
      await Promise.all(loops)
      await server.proc.exited
      expect(server.proc.signalCode).toBe('SIGKILL')
      s.add('crashes survived')
    }

    const unexpectedTickets = tickets.filter((t) => t.unexpected)
    const unexpectedPushes = pushes.filter((p) => p.unexpected)
    const ackedTickets = tickets.filter((t) => t.ack)
    const lostTickets = tickets.filter((t) => t.lost)
    const ackedPushes = pushes.filter((p) => p.ack)
    const lostPushes = pushes.filter((p) => p.lost)
    s.set('ticket requests sent', tickets.length)
    s.set('tickets acknowledged', ackedTickets.length)
    s.set('widget pushes sent', pushes.length)
    s.set('snapshots acknowledged', ackedPushes.length)
    s.set('requests in flight at a kill', lostTickets.length + lostPushes.length)
    expect(unexpectedTickets.map((t) => t.unexpected)).toEqual([])
    expect(unexpectedPushes.map((p) => p.unexpected)).toEqual([])
    expect(ackedTickets.length).toBeGreaterThan(100)
    expect(ackedPushes.length).toBeGreaterThan(30)

    // Restart once more and check what survived.
    const server = await branch.serve()

    // Every acknowledged ticket is stored with the number it was acknowledged with.
    const stored = withDb(branch.db, (db) => new Map(
      (db.query('SELECT id, ticket_number FROM tickets').all() as { id: string; ticket_number: string }[]).map((r) => [r.id, r.ticket_number]),
    ))
    const missingTickets = ackedTickets.filter((t) => stored.get(t.ack!.id) !== t.ack!.number)
    expect(duplicateTicketNumbers(branch.db)).toEqual([])
    // The sequence never points below a number already handed out (else the next number would repeat one).
    const behind = withDb(branch.db, (db) => db.query(
      `SELECT t.location_id, t.prefix, t.business_day, max(t.seq) AS max_seq, s.last_seq FROM tickets t
       LEFT JOIN ticket_sequences s ON s.location_id = t.location_id AND s.prefix = t.prefix AND s.business_day = t.business_day
       GROUP BY t.location_id, t.prefix, t.business_day HAVING s.last_seq IS NULL OR s.last_seq < max(t.seq)`,
    ).all())
    expect(behind).toEqual([])

    // Every acknowledged snapshot revision is there: the stored revision and sequence are at least the acknowledged ones,
    // and no revision was acknowledged twice (two acks of one revision would mean one snapshot overwrote another).
    const missingPushes: string[] = []
    for (const widgetId of IDS.crashWidgets) {
      const acks = ackedPushes.filter((p) => p.widgetId === widgetId)
      const revisions = acks.map((p) => p.ack!.revision)
      expect(new Set(revisions).size).toBe(revisions.length)
      const row = withDb(branch.db, (db) => db.query('SELECT data_revision, last_sequence FROM widget_snapshots WHERE widget_id = ?').get(widgetId) as
        { data_revision: number; last_sequence: number } | null)
      const maxAck = acks.reduce((best, p) => (p.ack!.revision > best.ack!.revision ? p : best), acks[0]!)
      if (row === null || row.data_revision < maxAck.ack!.revision || row.last_sequence < maxAck.sequence) missingPushes.push(`${widgetId}: stored ${JSON.stringify(row)}, acknowledged revision ${maxAck.ack!.revision} sequence ${maxAck.sequence}`)
    }
    s.set('records lost', missingTickets.length + missingPushes.length)
    expect(missingTickets.map((t) => `${t.ack!.id} ${t.ack!.number}`)).toEqual([])
    expect(missingPushes).toEqual([])

    // An idempotent retry of every acknowledged request returns the original, byte for byte.
    const replayProblems: string[] = []
    await pool(ackedTickets, 16, async (t) => {
      const res = await issueTicket(server.url, branch.secrets.queue.main, t.key, t.body)
      const text = await res.text()
      if (res.status !== 201 || res.headers.get('idempotent-replayed') !== 'true' || text !== t.ack!.text) {
        replayProblems.push(`ticket ${t.key}: ${res.status} replayed=${res.headers.get('idempotent-replayed')} ${text.slice(0, 120)}`)
      }
    })
    await pool(ackedPushes, 16, async (p) => {
      const res = await pushWidget(server.url, branch.secrets.workspace.cms, p.widgetId, p.key, p.body)
      const text = await res.text()
      if (res.status !== 200 || res.headers.get('idempotent-replayed') !== 'true' || text !== p.ack!.text) {
        replayProblems.push(`push ${p.key}: ${res.status} replayed=${res.headers.get('idempotent-replayed')} ${text.slice(0, 120)}`)
      }
    })
    s.set('retries of acknowledged requests', ackedTickets.length + ackedPushes.length)
    s.set('requests sent', tickets.length + pushes.length + ackedTickets.length + ackedPushes.length + lostTickets.length + lostPushes.length)
    expect(replayProblems).toEqual([])

    // A retry of every request whose answer the crash swallowed: each key ends with exactly one ticket. A lost push
    // is either replayed (its write had committed) or, not committed and overtaken by later sequences, stale; only
    // the last push of a widget may still be accepted fresh.
    const retryProblems: string[] = []
    let committedBeforeKill = 0
    await pool(lostTickets, 16, async (t) => {
      const res = await issueTicket(server.url, branch.secrets.queue.main, t.key, t.body)
      const text = await res.text()
      if (res.status !== 201) retryProblems.push(`ticket ${t.key}: ${res.status} ${text.slice(0, 120)}`)
      else if (res.headers.get('idempotent-replayed') === 'true') committedBeforeKill++
    })
    const lastSequence = new Map<string, number>(IDS.crashWidgets.map((w) => [w, Math.max(...pushes.filter((p) => p.widgetId === w).map((p) => p.sequence))]))
    await pool(lostPushes, 4, async (p) => {
      const res = await pushWidget(server.url, branch.secrets.workspace.cms, p.widgetId, p.key, p.body)
      const text = await res.text()
      const replayed = res.headers.get('idempotent-replayed') === 'true'
      if (res.status === 200 && replayed) committedBeforeKill++
      else if (res.status === 200 && p.sequence === lastSequence.get(p.widgetId)) return
      else if (res.status !== 409 || JSON.parse(text).error.code !== 'STALE_SOURCE_SEQUENCE') retryProblems.push(`push ${p.key}: ${res.status} replayed=${replayed} ${text.slice(0, 120)}`)
    })
    s.set('writes committed whose answer a kill swallowed', committedBeforeKill)
    expect(retryProblems).toEqual([])
    const ticketCount = withDb(branch.db, (db) => (db.query('SELECT count(*) AS n FROM tickets').get() as { n: number }).n)
    expect(ticketCount).toBe(ackedTickets.length + lostTickets.length)
    expect(duplicateTicketNumbers(branch.db)).toEqual([])
    s.set('duplicate ticket numbers', 0)

    expect(integrityCheck(branch.db)).toBe('ok')
    expect(await server.stop('SIGTERM')).toBe(0)
  }, 90_000)
})
