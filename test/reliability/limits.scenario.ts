import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { readFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { ensureBinary, type RunningBinary } from '../support/binary'
import {
  HOST, IDS, RawConnection, alive, announcementsPush, envelopeProblems, issueTicket, pollHealth, provisionBranch, scenario,
  ticketBody, widgetPushPath, type PollStats,
} from './support'

const s = scenario(
  'limits',
  'Issue 16: one display token opens 300 websockets (and a second token 50 more against a total of 80); oversized, repeated and ' +
    'flooding websocket messages; a display token revoked with the CLI while its screen is connected; 300 concurrent unauthenticated ' +
    '1 MiB widget pushes; authorized 1 MB pushes beyond the body budget. A separate process polls `GET /health` every 20 ms throughout.',
)

const HEALTH_BOUND_MS = 100
const FLOOD_SOCKETS = 300
const PER_CREDENTIAL = 50
const TOTAL = 80
const UNAUTHENTICATED_BODIES = 300
const MiB = 1024 * 1024

/** Peak and current resident memory of a process, in KiB (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
  return { rss: kib('VmRSS'), peak: kib('VmHWM') }
}

interface Live {
  socket: WebSocket
  messages: any[]
  opened: Promise<boolean>
  closed: Promise<{ code: number; reason: string; at: number }>
}

/** A websocket on the display live route, with its messages and its close collected. */
function live(base: string, token: string): Live {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/display/v1/live?token=${token}`)
  const messages: any[] = []
  socket.addEventListener('message', (e) => messages.push(JSON.parse(String(e.data))))
  const opened = new Promise<boolean>((resolve) => {
    socket.addEventListener('open', () => resolve(true))
    socket.addEventListener('error', () => resolve(false))
  })
  const closed = new Promise<{ code: number; reason: string; at: number }>((resolve) =>
    socket.addEventListener('close', (e) => resolve({ code: e.code, reason: e.reason, at: performance.now() })),
  )
  return { socket, messages, opened, closed }
}

const settle = <T>(p: Promise<T>, ms: number) => Promise.race([p, Bun.sleep(ms).then(() => null)])

function recordHealth(stats: PollStats, what: string): PollStats {
  s.set(`/health during ${what}: max / p99 ms`, `${stats.maxMs.toFixed(1)} / ${stats.p99Ms.toFixed(1)} over ${stats.samples} polls`)
  return stats
}

/** The bound is its own test, so a miss on a loaded machine does not hide what the attack's test proved. */
function expectHealthy(stats: PollStats | undefined, what: string) {
  expect(stats).toBeDefined()
  expect({ what, failures: stats!.failures, slow: stats!.maxMs > HEALTH_BOUND_MS ? stats!.slowest : [] }).toEqual({ what, failures: 0, slow: [] })
}

describe('websockets are bounded', () => {
  const branch = provisionBranch()
  let server: RunningBinary
  let floodHealth: PollStats | undefined
  const sockets: Live[] = []
  beforeAll(async () => {
    // `--durability normal`, as in the hostile scenario: /health measures what the clients do to the event loop,
    // not the disk's fsync latency under the one ticket this test issues (docs/reliability.md "Known limits").
    server = await branch.serve(['--durability', 'normal', '--ws-max', String(TOTAL)])
  })
  afterAll(async () => {
    for (const l of sockets) l.socket.close()
    if (alive(server)) expect(await server.stop('SIGTERM')).toBe(0)
  })

  s.test(`one token opening ${FLOOD_SOCKETS} sockets keeps ${PER_CREDENTIAL}; the total stops at ${TOTAL}; the excess is closed 1013 with a reason; ticket issue keeps working`, async () => {
    // One socket opened and closed first: the once-only work of a route's first use (Elysia compiles
    // handlers lazily) is not what the bound is about. Then the machine's own noise, with no attack.
    const warm = live(server.url, branch.secrets.display.other)
    await warm.opened
    warm.socket.close()
    await warm.closed
    const idle = await pollHealth(server.url, 2_000).done
    s.set('/health idle before the attacks: max / p99 ms', `${idle.maxMs.toFixed(1)} / ${idle.p99Ms.toFixed(1)} over ${idle.samples} polls`)
    const poll = pollHealth(server.url, 6_000)
    await poll.ready
    const flood: Live[] = []
    for (let i = 0; i < FLOOD_SOCKETS; i += 50) {
      const batch = Array.from({ length: Math.min(50, FLOOD_SOCKETS - i) }, () => live(server.url, branch.secrets.display.screens))
      flood.push(...batch)
      await Promise.all(batch.map((l) => l.opened))
    }
    sockets.push(...flood)
    s.add('websockets opened', flood.length)
    // A refused socket is closed by the server right after the upgrade.
    const closes = await Promise.all(flood.map((l) => settle(l.closed, 1_500)))
    const refused = closes.filter((c) => c !== null)
    expect(refused).toHaveLength(FLOOD_SOCKETS - PER_CREDENTIAL)
    for (const c of refused) {
      expect(c!.code).toBe(1013)
      expect(c!.reason).toContain(`maximum of ${PER_CREDENTIAL}`)
    }
    // A second token gets in up to the server's total.
    const second = Array.from({ length: PER_CREDENTIAL }, () => live(server.url, branch.secrets.display.rotated))
    sockets.push(...second)
    s.add('websockets opened', second.length)
    await Promise.all(second.map((l) => l.opened))
    const secondCloses = (await Promise.all(second.map((l) => settle(l.closed, 1_500)))).filter((c) => c !== null)
    expect(secondCloses).toHaveLength(PER_CREDENTIAL - (TOTAL - PER_CREDENTIAL))
    for (const c of secondCloses) expect([c!.code, c!.reason.includes(`maximum of ${TOTAL}`)]).toEqual([1013, true])
    // The branch still works: a ticket is issued while the sockets are held.
    const issued = await issueTicket(server.url, branch.secrets.queue.main, `limits-${randomUUID()}`, ticketBody())
    s.add('requests sent')
    expect(issued.status).toBe(201)
    floodHealth = recordHealth(await poll.done, 'the websocket flood')
  }, 60_000)

  s.test(`/health answered every poll within ${HEALTH_BOUND_MS} ms during the websocket flood`, async () => {
    expectHealthy(floodHealth, 'the websocket flood')
  }, 5_000)

  s.test('a message over 64 KiB closes the socket (1009); re-subscribing at the current revision sends nothing; a message flood is answered once and closed (1008)', async () => {
    for (const l of sockets.splice(0)) l.socket.close()
    await Bun.sleep(300)
    const big = live(server.url, branch.secrets.display.other)
    expect(await big.opened).toBe(true)
    big.socket.send('x'.repeat(100 * 1024))
    const bigClose = await settle(big.closed, 3_000)
    expect(bigClose?.code).toBe(1009)

    const screen = live(server.url, branch.secrets.display.screens)
    sockets.push(screen)
    expect(await screen.opened).toBe(true)
    const topic = { kind: 'queue', id: IDS.unit }
    screen.socket.send(JSON.stringify({ type: 'subscribe', topics: [topic] }))
    await Bun.sleep(300)
    expect(screen.messages.map((m) => m.type)).toEqual(['snapshot'])
    const revision = screen.messages[0].revision
    // Again without sinceRevision, and again with the current one: the client has it already.
    screen.socket.send(JSON.stringify({ type: 'subscribe', topics: [topic] }))
    screen.socket.send(JSON.stringify({ type: 'subscribe', topics: [{ ...topic, sinceRevision: revision }] }))
    await Bun.sleep(300)
    expect(screen.messages).toHaveLength(1)

    const flooder = live(server.url, branch.secrets.display.screens)
    sockets.push(flooder)
    expect(await flooder.opened).toBe(true)
    for (let i = 0; i < 200; i++) flooder.socket.send(JSON.stringify({ type: 'subscribe', topics: [topic] }))
    s.add('websocket messages sent', 203)
    const floodClose = await settle(flooder.closed, 3_000)
    expect(floodClose?.code).toBe(1008)
    const types = flooder.messages.map((m) => m.type === 'error' ? m.code : m.type)
    expect(types.filter((t) => t === 'snapshot')).toHaveLength(1)
    expect(types.filter((t) => t === 'RATE_LIMITED')).toHaveLength(1)
  }, 30_000)

  s.test('a display token revoked with the CLI closes its open screen within 2 seconds', async () => {
    const screen = live(server.url, branch.secrets.display.revoked)
    sockets.push(screen)
    expect(await screen.opened).toBe(true)
    // Asynchronous, so the close is timestamped when it arrives, even while the CLI still runs.
    const cli = Bun.spawn([ensureBinary(), 'keys', 'revoke', '--db', branch.db, '--kind', 'display', '--owner', IDS.workspace, '--name', 'revoked'], { stdout: 'ignore', stderr: 'pipe' })
    expect(await cli.exited).toBe(0)
    // The revocation is committed by the time the CLI exits: an upper bound of the delay from there.
    const revokedAt = performance.now()
    const closed = await settle(screen.closed, 4_000)
    expect(closed).not.toBeNull()
    expect(closed!.code).toBe(4401)
    const ms = Math.max(0, closed!.at - revokedAt)
    s.set('revoked display token: socket closed after (ms)', Math.round(ms))
    expect(ms).toBeLessThan(2_000)
  }, 30_000)
})

describe('request bodies are bounded', () => {
  const branch = provisionBranch()
  let server: RunningBinary
  let bodiesHealth: PollStats | undefined
  const open: RawConnection[] = []
  beforeAll(async () => {
    server = await branch.serve(['--durability', 'normal', '--body-memory-mib', '4'])
  })
  afterAll(async () => {
    for (const c of open) c.end()
    if (alive(server)) expect(await server.stop('SIGTERM')).toBe(0)
  })

  s.test(`${UNAUTHENTICATED_BODIES} concurrent unauthenticated 1 MiB widget pushes are refused without being read: 401s, small memory growth`, async () => {
    const poll = pollHealth(server.url, 5_000)
    await poll.ready
    const before = memoryOf(server.proc.pid)
    const body = new Uint8Array(MiB).fill(0x20)
    const t0 = performance.now()
    const statuses = await Promise.all(Array.from({ length: UNAUTHENTICATED_BODIES }, async () => {
      const r = await fetch(`${server.url}${widgetPushPath(IDS.lobbyWidget)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      const text = await r.text()
      expect(envelopeProblems(r.status, r.headers, text)).toEqual([])
      return r.status
    }))
    s.add('requests sent', UNAUTHENTICATED_BODIES)
    s.set('unauthenticated 1 MiB pushes: all answered after (ms)', Math.round(performance.now() - t0))
    expect(new Set(statuses)).toEqual(new Set([401]))
    const after = memoryOf(server.proc.pid)
    const growthMiB = (after.peak - before.peak) / 1024
    s.set(`server peak memory growth over ${UNAUTHENTICATED_BODIES} unauthenticated 1 MiB pushes (MiB)`, Math.round(growthMiB))
    expect(growthMiB).toBeLessThan(64)
    bodiesHealth = recordHealth(await poll.done, 'the unauthenticated bodies')
  }, 60_000)

  s.test(`/health answered every poll within ${HEALTH_BOUND_MS} ms during the unauthenticated bodies`, async () => {
    expectHealthy(bodiesHealth, 'the unauthenticated bodies')
  }, 5_000)

  s.test('authorized 1 MB pushes beyond the 4 MiB body budget get 503 with Retry-After at once; those within it complete', async () => {
    const payload = announcementsPush(Date.now(), 'budget')
    const size = 1_000_000
    const bodyText = payload + ' '.repeat(size - payload.length)
    const conns: RawConnection[] = []
    for (let i = 0; i < 8; i++) {
      const c = await RawConnection.open(server.url)
      open.push(c)
      conns.push(c)
      await c.write(
        `POST ${widgetPushPath(IDS.lobbyWidget)} HTTP/1.1\r\nHost: ${HOST}\r\nAuthorization: Bearer ${branch.secrets.workspace.cms}\r\n` +
          `Content-Type: application/json\r\nIdempotency-Key: budget-${randomUUID()}\r\nContent-Length: ${size}\r\n\r\n` + bodyText.slice(0, 10),
      )
      s.add('requests sent')
      await Bun.sleep(30)
    }
    // Four bodies of 1,000,000 bytes fit in 4 MiB; the other four are refused before their bodies come.
    await Promise.all(conns.map((c) => c.until(() => c.responses().length > 0, 1_500)))
    const refused = conns.filter((c) => c.responses()[0]?.status === 503)
    expect(refused).toHaveLength(4)
    for (const c of refused) {
      const r = c.responses()[0]!
      expect(r.headers['retry-after']).toBe('1')
      expect(JSON.parse(r.body).error.code).toBe('SERVER_BUSY')
      // A 503 is the expected answer here; everything else about the envelope must hold.
      expect(envelopeProblems(r.status, r.headers, r.body).filter((p) => p !== 'status 503')).toEqual([])
    }
    const held = conns.filter((c) => c.responses().length === 0)
    expect(held).toHaveLength(4)
    await Promise.all(held.map((c) => c.write(bodyText.slice(10))))
    await Promise.all(held.map((c) => c.until(() => c.responses().length > 0, 10_000)))
    for (const c of held) {
      const r = c.responses()[0]
      expect(r).toBeDefined()
      // The same source.sequence four times at once: one is stored, the others are stale (409); none is refused for memory.
      expect([200, 409]).toContain(r!.status)
      expect(envelopeProblems(r!.status, r!.headers, r!.body)).toEqual([])
    }
    expect(held.filter((c) => c.responses()[0]!.status === 200)).toHaveLength(1)
  }, 30_000)
})
