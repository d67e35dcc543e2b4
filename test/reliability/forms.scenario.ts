import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { RunningBinary } from '../support/binary'
import { HOST, IDS, RawConnection, alive, issueTicket, provisionBranch, scenario, ticketBody } from './support'

const s = scenario(
  'forms',
  'Issue 45: header-only form posts to /book/{locationId} and /b/{code}/cancel held open against `--body-memory-mib 1` while a Queue key issues tickets; ' +
    '200 wrong booking codes as fast as one client sends them.',
)

/** Loopback connections the flood holds open (each declares a 4 KiB form and sends none of it: 256 of them are the whole 1 MiB). */
const HELD = 400
const DECLARED = 4096
const GUESSES = 200
/** Of the booking alphabet: a code no booking has (the branch takes no appointments). */
const wrongCode = (i: number) => `WRNG${'23456789ABCDEFGH'[i % 16]}${'JKMNPQRS'[(i >> 4) % 8]}ZZ`

describe('anonymous forms do not take the authenticated body budget (contract §27, issue 45 F1)', () => {
  const branch = provisionBranch()
  let server: RunningBinary
  beforeAll(async () => {
    server = await branch.serve(['--durability', 'normal', '--body-memory-mib', '1'])
  })
  afterAll(async () => {
    if (alive(server)) expect(await server.stop('SIGTERM')).toBe(0)
  })

  s.test(`${HELD} header-only form posts held open (/book and /b/{code}/cancel, ${DECLARED} bytes declared each): a Queue key's ticket issue still answers 201`, async () => {
    const port = new URL(server.url).port
    const held: RawConnection[] = []
    try {
      for (let i = 0; i < HELD; i++) {
        const conn = await RawConnection.open(server.url)
        held.push(conn)
        const path = i % 2 === 0 ? `/book/${IDS.hall}` : `/b/${wrongCode(i)}/cancel`
        await conn.write(`POST ${path} HTTP/1.1\r\nHost: ${HOST}:${port}\r\nOrigin: http://${HOST}:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${DECLARED}\r\n\r\n`)
      }
      // Every post has been seen by the server (its head is answered or its body awaited).
      await Bun.sleep(500)
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) {
        const response = await issueTicket(server.url, branch.secrets.queue.main, `forms-${randomUUID()}`, ticketBody())
        statuses.push(response.status)
        await response.arrayBuffer()
      }
      const answered = held.filter((c) => c.responses().length > 0)
      const refused = answered.filter((c) => c.responses()[0]!.status === 429 || c.responses()[0]!.status === 404)
      s.set('held form posts: answered at once (404, 429) / still waiting for their body', `${refused.length} / ${held.length - answered.length}`)
      s.set('ticket issues during the flood: statuses', statuses.join(' '))
      expect(statuses).toEqual([201, 201, 201, 201, 201])
      // Admitted before the body: only the address's window of posts waits for a body (3 bookings an hour here), the rest are refused and closed.
      expect(held.length - answered.length).toBeLessThanOrEqual(3 + 30)
      expect(await held[held.length - 1]!.until(() => held[held.length - 1]!.closed, 2000)).toBe(true)
    } finally {
      for (const conn of held) conn.end()
    }
  }, 60_000)
})

describe('booking codes cannot be guessed without limit (contract §27, issue 45 F2)', () => {
  const branch = provisionBranch()
  let server: RunningBinary
  beforeAll(async () => {
    server = await branch.serve(['--durability', 'normal'])
  })
  afterAll(async () => {
    if (alive(server)) expect(await server.stop('SIGTERM')).toBe(0)
  })

  s.test(`${GUESSES} wrong codes from one address as fast as it sends them: 10 are 404, then 429 with Retry-After`, async () => {
    const counts = new Map<number, number>()
    let retryAfter: string | null = null
    const t0 = performance.now()
    for (let i = 0; i < GUESSES; i++) {
      const response = i % 2 === 0
        ? await fetch(`${server.url}/b/${wrongCode(i)}`)
        : await fetch(`${server.url}/b/${wrongCode(i)}/cancel`, { method: 'POST', headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' }, body: '' })
      counts.set(response.status, (counts.get(response.status) ?? 0) + 1)
      if (response.status === 429) retryAfter ??= response.headers.get('retry-after')
      await response.arrayBuffer()
    }
    s.set(`${GUESSES} wrong booking codes: answers`, [...counts].map(([status, n]) => `${n} × ${status}`).join(', '))
    s.set(`${GUESSES} wrong booking codes: seconds`, Number(((performance.now() - t0) / 1000).toFixed(2)))
    expect(counts.get(404)).toBe(10)
    expect(counts.get(429)).toBe(GUESSES - 10)
    expect(Number(retryAfter)).toBeGreaterThan(0)
  }, 60_000)
})
