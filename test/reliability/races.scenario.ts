import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { RunningBinary } from '../support/binary'
import { makeMonth } from '../prayer/support'
import {
  IDS, announcementsPush, duplicateTicketNumbers, issueTicket, pool, provisionBranch, pushMonth, pushWidget, rowCounts, scenario,
  ticketBody, withDb,
} from './support'

const s = scenario(
  'races',
  'Concurrent requests over separate connections: 50 same-key ticket issues make one ticket, 50 same-key widget pushes one ' +
    'revision, 50 same-key prayer pushes one revision; 200 concurrent issues get 200 distinct numbers; call-next from ' +
    'eight counters at once never calls a ticket twice, and concurrent call-next on one counter calls one ticket.',
)

const SAME_KEY = 50
const ROUNDS = 3
const OPERATOR = '/api/operator/v1'

describe('races: concurrent same-key requests and concurrent call-next', () => {
  const branch = provisionBranch()
  let server: RunningBinary
  beforeAll(async () => {
    server = await branch.serve()
  })
  afterAll(async () => {
    expect(await server.stop('SIGTERM')).toBe(0)
  })

  s.test(`${ROUNDS} rounds of ${SAME_KEY} concurrent ticket issues with one Idempotency-Key and body (new nonces) → one ticket each`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const key = `race-ticket-${round}-${randomUUID()}`
      const reference = `race-${round}-${randomUUID()}`
      const body = ticketBody(IDS.hall, IDS.accounts, reference)
      const before = rowCounts(branch.db).tickets
      const answers = await Promise.all(Array.from({ length: SAME_KEY }, async () => {
        const res = await issueTicket(server.url, branch.secrets.queue.main, key, body)
        return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', text: await res.text() }
      }))
      s.add('requests sent', SAME_KEY)
      expect(answers.map((a) => a.status)).toEqual(Array(SAME_KEY).fill(201))
      expect(answers.filter((a) => !a.replayed)).toHaveLength(1)
      expect(new Set(answers.map((a) => a.text)).size).toBe(1)
      expect(rowCounts(branch.db).tickets).toBe(before + 1)
      const stored = withDb(branch.db, (db) => (db.query('SELECT count(*) AS n FROM tickets WHERE external_reference = ?').get(reference) as { n: number }).n)
      expect(stored).toBe(1)
    }
  }, 30_000)

  s.test(`${ROUNDS} rounds of ${SAME_KEY} concurrent widget pushes with one Idempotency-Key and the same bytes → one revision each`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const key = `race-widget-${round}-${randomUUID()}`
      const body = announcementsPush(round + 1, `race-${round}`)
      const before = rowCounts(branch.db).widgetRevisionSum
      const answers = await Promise.all(Array.from({ length: SAME_KEY }, async () => {
        const res = await pushWidget(server.url, branch.secrets.workspace.cms, IDS.raceWidget, key, body)
        return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', text: await res.text() }
      }))
      s.add('requests sent', SAME_KEY)
      expect(answers.map((a) => a.status)).toEqual(Array(SAME_KEY).fill(200))
      expect(answers.filter((a) => !a.replayed)).toHaveLength(1)
      expect(new Set(answers.map((a) => a.text)).size).toBe(1)
      expect(JSON.parse(answers[0]!.text).dataRevision).toBe(round + 1)
      expect(rowCounts(branch.db).widgetRevisionSum).toBe(before + 1)
    }
  }, 30_000)

  s.test(`${SAME_KEY} concurrent prayer month pushes with one Idempotency-Key and the same bytes → one revision`, async () => {
    const key = `race-month-${randomUUID()}`
    const body = JSON.stringify(makeMonth('2027-02'))
    const answers = await Promise.all(Array.from({ length: SAME_KEY }, async () => {
      const res = await pushMonth(server.url, branch.secrets.workspace.cms, IDS.source, key, body)
      return { status: res.status, body: JSON.parse(await res.text()) }
    }))
    s.add('requests sent', SAME_KEY)
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1)
    expect(answers.filter((a) => a.status === 200 && a.body.replay === true)).toHaveLength(SAME_KEY - 1)
    expect(new Set(answers.map((a) => `${a.body.revision} ${a.body.checksum}`)).size).toBe(1)
    const row = withDb(branch.db, (db) => db.query('SELECT revision FROM prayer_months WHERE source_id = ? AND period = ?').get(IDS.source, '2027-02'))
    expect(row).toEqual({ revision: 1 })
  }, 30_000)

  s.test('200 concurrent ticket issues with distinct keys at one location → 200 distinct, gap-free numbers', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, async (_, i) => {
      const res = await issueTicket(server.url, branch.secrets.queue.main, `race-numbers-${i}-${randomUUID()}`, ticketBody(IDS.annex, IDS.accounts))
      return { status: res.status, text: await res.text() }
    }))
    s.add('requests sent', 200)
    expect(answers.filter((a) => a.status !== 201).map((a) => a.text)).toEqual([])
    const numbers = answers.map((a) => JSON.parse(a.text).data.ticketNumber as string)
    expect(new Set(numbers).size).toBe(200)
    expect(duplicateTicketNumbers(branch.db)).toEqual([])
    // Per business day at the annex, the sequence runs 1..n with no gap (a day may turn over mid-test).
    const days = withDb(branch.db, (db) => db.query(
      'SELECT business_day, count(*) AS n, min(seq) AS lo, max(seq) AS hi FROM tickets WHERE location_id = ? GROUP BY business_day',
    ).all(IDS.annex) as { n: number; lo: number; hi: number }[])
    for (const day of days) expect([day.lo, day.hi]).toEqual([1, day.n])
  }, 30_000)

  const operatorPost = (path: string, body?: unknown) => fetch(`${server.url}${OPERATOR}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${branch.secrets.queue.operator}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

  s.test('call-next from 8 counters at once over 160 waiting tickets: every ticket called exactly once', async () => {
    const doc = (await (await fetch(`${server.url}/swagger/json`)).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(doc.paths)).toContain('/api/operator/v1/counters/{counterId}/call-next')

    const issued = new Set<string>()
    await pool(Array.from({ length: 160 }, (_, i) => i), 16, async (i) => {
      const res = await issueTicket(server.url, branch.secrets.queue.main, `race-call-${i}-${randomUUID()}`, ticketBody(IDS.hall, i % 2 ? IDS.accounts : IDS.loans))
      expect(res.status).toBe(201)
      issued.add(JSON.parse(await res.text()).data.id)
    })
    // The hall also holds the same-key tickets of the first test: they are waiting too.
    const waiting = withDb(branch.db, (db) => (db.query("SELECT id FROM tickets WHERE location_id = ? AND status = 'WAITING'").all(IDS.hall) as { id: string }[]).map((r) => r.id))
    expect(waiting.length).toBeGreaterThanOrEqual(issued.size)

    // Every counter opens first: call-next at a closed counter is 409 COUNTER_CLOSED (contract §27).
    for (const counter of IDS.counters) {
      const opened = await operatorPost(`/counters/${counter}/open`)
      expect({ counter, status: opened.status, body: await opened.text() }).toMatchObject({ counter, status: 200 })
    }
    const calls: { counter: string; id: string }[] = []
    const problems: string[] = []
    await Promise.all(IDS.counters.map(async (counter) => {
      for (;;) {
        const res = await operatorPost(`/counters/${counter}/call-next`)
        s.add('requests sent')
        const text = await res.text()
        if (res.status === 404 && JSON.parse(text).error.code === 'NO_TICKET_WAITING') return
        if (res.status !== 200) {
          problems.push(`${counter} call-next: ${res.status} ${text.slice(0, 160)}`)
          return
        }
        const ticket = JSON.parse(text).data
        if (ticket.status !== 'CALLED') problems.push(`${counter} got ${ticket.id} in status ${ticket.status}`)
        calls.push({ counter, id: ticket.id })
        const done = await operatorPost(`/tickets/${ticket.id}/no-show`)
        s.add('requests sent')
        if (done.status !== 200) {
          problems.push(`${counter} no-show ${ticket.id}: ${done.status} ${(await done.text()).slice(0, 160)}`)
          return
        }
        await done.text()
      }
    }))
    expect(problems).toEqual([])
    const ids = calls.map((c) => c.id)
    const twice = ids.filter((id, i) => ids.indexOf(id) !== i)
    s.set('tickets called twice', twice.length)
    expect(twice).toEqual([])
    expect(new Set(ids)).toEqual(new Set(waiting))
    expect(new Set(calls.map((c) => c.counter)).size).toBeGreaterThan(1)
    const calledEvents = withDb(branch.db, (db) => db.query(
      "SELECT ticket_id, count(*) AS n FROM ticket_events WHERE to_status = 'CALLED' GROUP BY ticket_id HAVING count(*) > 1",
    ).all())
    expect(calledEvents).toEqual([])
    s.set('tickets called by racing counters', ids.length)
  }, 60_000)

  s.test('20 concurrent call-next on one counter: one ticket called, the others 409 COUNTER_BUSY', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await issueTicket(server.url, branch.secrets.queue.main, `race-busy-${i}-${randomUUID()}`, ticketBody(IDS.hall, IDS.accounts))
      expect(res.status).toBe(201)
      await res.text()
    }
    const answers = await Promise.all(Array.from({ length: 20 }, async () => {
      const res = await operatorPost(`/counters/${IDS.counters[0]}/call-next`)
      return { status: res.status, body: JSON.parse(await res.text()) }
    }))
    s.add('requests sent', 20)
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
    expect(answers.filter((a) => a.status === 409 && a.body.error.code === 'COUNTER_BUSY')).toHaveLength(19)
    const called = withDb(branch.db, (db) => (db.query("SELECT count(*) AS n FROM tickets WHERE status = 'CALLED'").get() as { n: number }).n)
    expect(called).toBe(1)
  }, 30_000)
})
