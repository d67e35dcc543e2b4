import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { RunningBinary } from '../support/binary'
import { makeMonth } from '../prayer/support'
import { DATA_BY_TYPE } from '../widgets/support'
import { MARKER, fuzzCases, type FuzzCase, type FuzzContext } from './fuzz-cases'
import {
  IDS, alive, envelopeProblems, issueTicket, pool, provisionBranch, pushMonth, pushWidget, rowCounts, scenario, ticketBody,
} from './support'

/** `RELIABILITY_SEED=n bun run test:reliability` replays another run. */
const SEED = Number(process.env.RELIABILITY_SEED ?? 20261125)
const COUNT = 12_000
const CONCURRENCY = 16

const s = scenario(
  'bad input',
  `A seeded fast-check fuzzer (seed ${SEED}) sends ${COUNT.toLocaleString('en-US')} requests with valid credentials to every public route ` +
    '(services, ticket issue, ticket read, state, widget push for the four widget types, prayer month push and read, display ' +
    'reads): byte-order marks, invalid UTF-8, UTF-16 and gzip bodies, truncated and malformed JSON, nesting up to 60,000 deep, ' +
    'huge and unrepresentable numbers, duplicate keys, wrong types, unknown fields (`__proto__` too), overlong strings, HTML, ' +
    'bodies over the limit, wrong content types, bad Idempotency-Keys, nonces and timestamps, reused keys and nonces, odd paths, ' +
    'queries and correlation IDs. Every POST is invalid by construction and must get the status of its earliest defect in the ' +
    "route's order of checks; no response is 5xx; every non-2xx is the envelope with X-Correlation-ID; no submitted value is " +
    'echoed; the row counts of tickets, snapshots, months and idempotency records do not change.',
)

const fill = (value: string) => value
  .replace(/^@NOW([+-]\d+)?$/, (_, offset) => new Date(Date.now() + Number(offset ?? 0)).toISOString())
  .replace('@NONCE', randomUUID())

describe('bad input: a seeded fuzzer against every public route', () => {
  const branch = provisionBranch()
  let server: RunningBinary
  let ctx: FuzzContext

  beforeAll(async () => {
    server = await branch.serve()
    const sec = branch.secrets
    // Seeded state the cases refer to: a used ticket key and nonce, widgets at the highest sequence, a stored month
    // (of a period the generator never uses, so a reused month key always comes with other bytes).
    const ticketIds: string[] = []
    for (let i = 0; i < 3; i++) {
      const res = await issueTicket(server.url, sec.queue.main, i === 0 ? 'fuzz-used-ticket-key' : `fuzz-seed-${i}`, ticketBody(IDS.hall, IDS.accounts, 'fuzz-seed'))
      expect(res.status).toBe(201)
      ticketIds.push(JSON.parse(await res.text()).data.id)
    }
    const consume = await issueTicket(server.url, sec.queue.main, 'fuzz-nonce-consumer', '{}', { nonce: 'fuzz-used-nonce-0001' })
    expect(consume.status).toBe(422)
    for (const [type, widgetId] of Object.entries(IDS.fuzzWidgets)) {
      const body = JSON.stringify({ pushVersion: 1, widgetType: type, writeMode: 'REPLACE_SNAPSHOT', source: { sequence: Number.MAX_SAFE_INTEGER }, data: DATA_BY_TYPE[type as keyof typeof DATA_BY_TYPE](1) })
      const res = await pushWidget(server.url, sec.workspace.cms, widgetId, 'fuzz-used-widget-key', body)
      expect(res.status).toBe(200)
    }
    const month = await pushMonth(server.url, sec.workspace.cms, IDS.source, 'fuzz-used-month-key', JSON.stringify(makeMonth('2024-02')))
    expect(month.status).toBe(201)
    const doc = (await (await fetch(`${server.url}/swagger/json`)).json()) as { paths: Record<string, unknown> }
    ctx = {
      queueKey: sec.queue.main,
      workspaceKey: sec.workspace.cms,
      displayToken: sec.display.screens,
      usedTicketKey: 'fuzz-used-ticket-key',
      usedNonce: 'fuzz-used-nonce-0001',
      usedWidgetKey: 'fuzz-used-widget-key',
      usedMonthKey: 'fuzz-used-month-key',
      ticketIds,
      storedPeriod: '2024-02',
      displayQueueState: doc.paths['/api/display/v1/queue-units/{queueUnitId}/state'] !== undefined,
    }
  })
  afterAll(async () => {
    if (alive(server)) expect(await server.stop('SIGTERM')).toBe(0)
  })

  s.test(`${COUNT.toLocaleString('en-US')} malformed requests: no 5xx, every refusal in the envelope, nothing stored`, async () => {
    const t0 = performance.now()
    const cases = fuzzCases(ctx, SEED, COUNT)
    s.set('_generation ms', Math.round(performance.now() - t0))
    const before = rowCounts(branch.db)

    const problems: string[] = []
    const byRoute = new Map<string, number>()
    const byStatus = new Map<number, number>()
    let defects = 0
    const describeCase = (c: FuzzCase, i: number) =>
      `#${i} ${c.route} ${c.method} ${c.path.slice(0, 100)} defects=[${c.defects.map((d) => d.name).join(' | ').slice(0, 200)}] ` +
      `headers=${JSON.stringify(c.headers).slice(0, 300)} body=${c.body ? JSON.stringify(Buffer.from(c.body.subarray(0, 160)).toString('latin1')) : '-'}`

    await pool(cases, CONCURRENCY, async (c, i) => {
      byRoute.set(c.route, (byRoute.get(c.route) ?? 0) + 1)
      defects += c.defects.length
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(c.headers)) headers[k] = fill(v)
      let res: Response
      let text: string
      try {
        res = await fetch(`${server.url}${c.path}`, { method: c.method, headers, body: c.body, redirect: 'manual' })
        text = await res.text()
      } catch (error) {
        problems.push(`connection failed (${error}) — ${describeCase(c, i)}`)
        return
      }
      byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1)
      const found = envelopeProblems(res.status, res.headers, text)
      if (c.expect !== null && !c.expect.includes(res.status)) found.push(`expected ${c.expect.join('/')}, got ${res.status} ${text.slice(0, 160)}`)
      if (c.method === 'POST' && res.status < 300) found.push(`an invalid request was accepted: ${res.status} ${text.slice(0, 160)}`)
      if (text.includes(MARKER)) found.push(`a submitted value is echoed: ${text.slice(0, 200)}`)
      const echoed = res.headers.get('x-correlation-id')
      if (c.correlationId !== undefined && /^[A-Za-z0-9_.:-]{1,120}$/.test(c.correlationId) && echoed !== c.correlationId) found.push(`X-Correlation-ID ${c.correlationId} came back as ${echoed}`)
      if (c.correlationId !== undefined && !/^[A-Za-z0-9_.:-]{1,120}$/.test(c.correlationId) && echoed === c.correlationId) found.push('an invalid X-Correlation-ID was echoed')
      if (found.length > 0) problems.push(`${found.join('; ')} — ${describeCase(c, i)}`)
    })
    const ms = performance.now() - t0

    s.set('inputs tried', cases.length)
    s.set('requests sent', cases.length)
    s.set('defects planted', defects)
    s.set('requests per second', Math.round(cases.length / (ms / 1000)))
    s.set('by route', [...byRoute].sort().map(([r, n]) => `${r} ${n}`).join(', '))
    s.set('statuses', [...byStatus].sort(([a], [b]) => a - b).map(([st, n]) => `${st}×${n}`).join(' '))
    s.set('failures', problems.length)
    const after = rowCounts(branch.db)
    s.set('records stored by invalid requests', Object.keys(before).reduce((n, k) => n + Math.abs(after[k as keyof typeof after] - before[k as keyof typeof before]), 0))
    if (problems.length > 0) {
      for (const p of problems.slice(0, 8)) s.note(p.slice(0, 700))
      throw new Error(`${problems.length} of ${cases.length} requests failed a check (seed ${SEED}); first ones:\n${problems.slice(0, 15).map((p) => p.slice(0, 900)).join('\n')}`)
    }
    expect(alive(server)).toBe(true)
    expect(cases.length).toBeGreaterThanOrEqual(10_000)
    expect(after).toEqual(before)
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
  }, 240_000)
})
