import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import type { RunningBinary } from '../support/binary'
import { makeMonth } from '../prayer/support'
import {
  HOST, IDS, QUEUE, RawConnection, alive, announcementsPush, envelopeProblems, issueTicket, lobby, monthsPath, pollHealth, provisionBranch, rowCounts,
  scenario, ticketBody, widgetPushPath, type PollStats, type RawResponse,
} from './support'

const s = scenario(
  'hostile',
  'Raw TCP clients (`Bun.connect` to 127.0.0.1) attack while a separate process polls `GET /health` every 20 ms: slow-loris ' +
    'bodies trickled a byte every 40 ms and slow-loris headers, 100 unauthenticated connections holding unfinished chunked bodies ' +
    'while authenticated ticket issues and kiosk taps must succeed, lying `Content-Length` (shorter and longer than the body sent, ' +
    'and a huge declared length), 10 MB chunked bodies at ~12 MB/s each to widget push, ticket issue and prayer push (413 in the envelope, ' +
    'without the server buffering them), header floods, hundreds of idle connections. /health answers every poll within ' +
    '100 ms; every answer the app gives is in the envelope; a request without a valid Host header is answered, not fatal.',
)

const SLOW_BODIES = 120
const SLOW_HEADERS = 60
const TRICKLE_MS = 40
/** Pace of each 10 MB chunked upload: 64 KiB every 5 ms, about 12 MB/s (six at once: a saturated 1 Gbit/s LAN link is ~110 MB/s). */
const CHUNK_PAUSE_MS = 5
const IDLE = 300
const HEALTH_BOUND_MS = 100
/** Requests whose body stops arriving; the server must drop them by itself within STALL_BOUND_MS. */
const STALLED = 5
const STALL_BOUND_MS = 45_000
/** Unauthenticated connections that start chunked bodies and never finish them (contract §23: they must not take the body budget). */
const UNAUTH_CHUNKED = 100

/** Peak and current resident memory of a process, in KiB (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
  return { rss: kib('VmRSS'), peak: kib('VmHWM') }
}

const responseProblems = (r: RawResponse | undefined): string[] => (r === undefined ? ['no response'] : envelopeProblems(r.status, r.headers, r.body))

describe('hostile clients: the server keeps answering', () => {
  const branch = provisionBranch()
  let server: RunningBinary
  let poll: { done: Promise<PollStats>; ready: Promise<void> }
  const open: RawConnection[] = []
  /** Requests whose body stops arriving, opened first so the server's timeout runs while the other attacks do. */
  const stalled: { c: RawConnection; correlationId: string }[] = []
  beforeAll(async () => {
    // `--durability normal`: this scenario measures what hostile clients do to the event loop, not the disk's fsync
    // latency (with `full`, each commit's fsync runs on the one JS thread; see docs/reliability.md).
    server = await branch.serve(['--durability', 'normal'])
    for (let i = 0; i < STALLED; i++) {
      const c = await RawConnection.open(server.url)
      const correlationId = `stalled-body-${i}`
      const body = ticketBody()
      await c.write(ticketHead(body.length + 100, `X-Correlation-ID: ${correlationId}\r\n`) + body)
      stalled.push({ c, correlationId })
      s.add('requests sent')
    }
  })
  afterAll(async () => {
    for (const c of open) c.end()
    if (alive(server)) expect(await server.stop('SIGTERM')).toBe(0)
  })

  /** A raw connection; every one but the idle ones carries a request. */
  const connect = async (idle = false) => {
    const c = await RawConnection.open(server.url)
    open.push(c)
    s.add('connections opened')
    if (!idle) s.add('requests sent')
    return c
  }
  const ticketHead = (length: number | 'chunked', extra = '') =>
    `POST ${QUEUE}/tickets HTTP/1.1\r\nHost: ${HOST}\r\nAuthorization: Bearer ${branch.secrets.queue.main}\r\nContent-Type: application/json\r\n` +
    `X-Request-Timestamp: ${new Date().toISOString()}\r\nX-Request-Nonce: ${randomUUID()}\r\nIdempotency-Key: hostile-${randomUUID()}\r\n` +
    `${length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`}\r\n${extra}\r\n`
  const widgetHead = (length: number | 'chunked', widgetId: string = IDS.lobbyWidget) =>
    `POST ${widgetPushPath(widgetId)} HTTP/1.1\r\nHost: ${HOST}\r\nAuthorization: Bearer ${branch.secrets.workspace.cms}\r\nContent-Type: application/json\r\n` +
    `Idempotency-Key: hostile-${randomUUID()}\r\n${length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`}\r\n\r\n`
  const monthHead = (length: number | 'chunked') =>
    `POST ${monthsPath(IDS.source)} HTTP/1.1\r\nHost: ${HOST}\r\nAuthorization: Bearer ${branch.secrets.workspace.cms}\r\nContent-Type: application/json\r\n` +
    `Idempotency-Key: hostile-${randomUUID()}\r\n${length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`}\r\n\r\n`

  s.test(`/health within ${HEALTH_BOUND_MS} ms while slow-loris, lying Content-Length, 10 MB chunked bodies and header floods attack`, async () => {
    const before = rowCounts(branch.db)
    poll = pollHealth(server.url, 9_000, 20)
    await poll.ready
    const problems: string[] = []
    const phases: [number, string][] = []
    const phase = (name: string) => phases.push([Date.now(), name])

    phase('idle connections')
    // Idle connections that never send a byte.
    for (let i = 0; i < IDLE; i++) await connect(true)

    phase('slow-loris')
    // Slow-loris bodies: valid ticket issues and widget pushes whose bodies arrive one byte every TRICKLE_MS.
    const slowBodies = await Promise.all(Array.from({ length: SLOW_BODIES }, async (_, i) => {
      const c = await connect()
      const widget = i % 4 === 0
      const body = widget ? JSON.stringify({ pushVersion: 1, widgetType: 'ANNOUNCEMENTS', writeMode: 'REPLACE_SNAPSHOT', data: { schemaVersion: 2, items: [] } }) : ticketBody(IDS.hall, IDS.accounts, `slow-loris-${i}`)
      await c.write(widget ? widgetHead(Buffer.byteLength(body), IDS.crashWidgets[i % 3]) : ticketHead(Buffer.byteLength(body)))
      // Staggered starts: the bodies complete over ~2 s, not all in one tick (a burst of writes is not what this measures).
      return { c, widget, bytes: new TextEncoder().encode(body), sent: 0, startTick: i % 50 }
    }))
    // Slow-loris headers: a header block that never ends, one byte at a time.
    const slowHeaders = await Promise.all(Array.from({ length: SLOW_HEADERS }, async () => {
      const c = await connect()
      await c.write(`GET /health HTTP/1.1\r\nHost: ${HOST}\r\n`)
      return c
    }))
    let trickling = true
    const trickle = (async () => {
      const filler = new TextEncoder().encode('X-Slow: a\r\n')
      for (let tick = 0; trickling; tick++) {
        for (const b of slowBodies) if (tick >= b.startTick && b.sent < b.bytes.length) void b.c.write(b.bytes.subarray(b.sent, ++b.sent))
        for (const c of slowHeaders) if (!c.closed) void c.write(filler.subarray(tick % filler.length, (tick % filler.length) + 1))
        await Bun.sleep(TRICKLE_MS)
      }
    })()

    phase('shorter Content-Length')
    // Lying Content-Length, shorter than the body: the server reads the declared bytes (truncated JSON → 400 INVALID_JSON
    // in the envelope); the rest is not an HTTP request and the connection is closed.
    const shorter = await Promise.all(Array.from({ length: 20 }, async () => {
      const c = await connect()
      await c.write(ticketHead(10) + ticketBody())
      await c.until(() => c.closed, 5_000)
      return c
    }))
    for (const c of shorter) {
      const [first, ...rest] = c.responses()
      if (first?.status !== 400 || JSON.parse(first.body).error?.code !== 'INVALID_JSON' || responseProblems(first).length) problems.push(`shorter Content-Length: ${first?.status} ${first?.body.slice(0, 120)}`)
      if (rest.some((r) => r.status < 400)) problems.push(`shorter Content-Length: the leftover bytes were answered ${rest.map((r) => r.status)}`)
      if (!c.closed) problems.push('shorter Content-Length: connection left open after the leftover bytes')
    }

    phase('longer Content-Length')
    // Lying Content-Length, longer than the body: the server waits for the rest and answers nothing meanwhile.
    const longer = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
      const c = await connect()
      const body = i % 2 ? ticketBody() : announcementsPush(1, 'longer')
      await c.write((i % 2 ? ticketHead(body.length + 500) : widgetHead(body.length + 500)) + body)
      return c
    }))

    phase('declared too large')
    // Declared bodies over the route's limit, only a few bytes sent: 413 in the envelope at once.
    const declared = await Promise.all(([
      ['ticket issue, 20 KB declared', ticketHead(20_000)],
      ['ticket issue, 10 MB declared', ticketHead(10_000_000)],
      ['widget push, 2 MB declared', widgetHead(2_000_000)],
      ['widget push, 10 MB declared', widgetHead(10_000_000)],
      ['prayer push, 10 MB declared', monthHead(10_000_000)],
    ] as const).map(async ([what, head]) => {
      const c = await connect()
      await c.write(head + '{"a":')
      await c.until(() => c.responses().length > 0 || c.closed, 3_000)
      return { what, c }
    }))
    for (const { what, c } of declared) {
      const r = c.responses()[0]
      if (r?.status !== 413 || responseProblems(r).length > 0 || JSON.parse(r.body || '{}').error?.code !== 'PAYLOAD_TOO_LARGE') {
        problems.push(`${what}: expected 413 PAYLOAD_TOO_LARGE in the envelope, got ${r?.status ?? 'nothing'} ${JSON.stringify(r?.headers ?? {})} ${r?.body.slice(0, 80) ?? ''} ${responseProblems(r).join('; ')}`)
      }
    }

    phase('10 MB chunked')
    // 10 MB chunked bodies, sent as fast as the socket takes them: 413 in the envelope, and the server does not buffer them.
    const memoryBefore = memoryOf(server.proc.pid)
    const chunk = new Uint8Array(64 * 1024).fill(0x20)
    const frame = new Uint8Array([...new TextEncoder().encode(`${chunk.length.toString(16)}\r\n`), ...chunk, 13, 10])
    const uploads = await Promise.all(([
      ['ticket issue', () => ticketHead('chunked')],
      ['ticket issue', () => ticketHead('chunked')],
      ['widget push', () => widgetHead('chunked')],
      ['widget push', () => widgetHead('chunked')],
      ['prayer push', () => monthHead('chunked')],
      ['prayer push', () => monthHead('chunked')],
    ] as const).map(async ([what, head]) => {
      const c = await connect()
      await c.write(head())
      let sent = 0
      let answeredAt: number | null = null
      while (sent < 10 * 1024 * 1024 && !c.closed) {
        if (!(await c.write(frame))) break
        sent += chunk.length
        if (answeredAt === null && c.responses().length > 0) answeredAt = sent
        await Bun.sleep(CHUNK_PAUSE_MS)
      }
      if (!c.closed && sent >= 10 * 1024 * 1024) await c.write('0\r\n\r\n')
      await c.until(() => c.responses().length > 0 || c.closed, 5_000)
      s.add('chunked bytes sent', sent)
      return { what, c, sent, answeredAt: answeredAt ?? sent }
    }))
    const memoryAfter = memoryOf(server.proc.pid)
    for (const { what, c } of uploads) {
      const r = c.responses()[0]
      if (r?.status !== 413 || JSON.parse(r.body || '{}').error?.code !== 'PAYLOAD_TOO_LARGE' || responseProblems(r).length > 0) problems.push(`10 MB chunked ${what}: ${r?.status ?? 'nothing'} ${r?.body.slice(0, 100) ?? ''}`)
    }
    s.set('server peak memory growth during 6 × 10 MB uploads (MiB)', Math.round((memoryAfter.peak - memoryBefore.peak) / 1024))
    s.set('bytes sent before the first 413 arrived (max)', Math.max(...uploads.map((u) => u.answeredAt)))
    if (memoryAfter.peak - memoryBefore.peak > 40 * 1024) problems.push(`server peak memory grew ${memoryAfter.peak - memoryBefore.peak} KiB during 60 MB of chunked uploads: bodies are buffered`)

    phase('header floods')
    // Header floods: many headers, and one huge header. Refused before any route: 431, connection closed.
    const floods = await Promise.all(Array.from({ length: 30 }, async (_, i) => {
      const c = await connect()
      const headers = i % 2 ? Array.from({ length: 10_000 }, (_, n) => `X-Flood-${n}: ${'v'.repeat(8)}\r\n`).join('') : `X-Huge: ${'h'.repeat(1_000_000)}\r\n`
      await c.write(`GET /health HTTP/1.1\r\nHost: ${HOST}\r\n${headers}\r\n`)
      await c.until(() => c.closed, 5_000)
      return { c, many: i % 2 === 1 }
    }))
    let floodEnvelopes = 0
    for (const { c, many } of floods) {
      const statuses = c.responses().map((r) => r.status)
      if (!c.closed || statuses.some((status) => status !== 431)) problems.push(`header flood (${many ? '10,000 headers' : 'one 1 MB header'}): answered ${statuses.join(',') || 'nothing'}, closed ${c.closed}`)
      if (c.responses().every((r) => responseProblems(r).length === 0) && statuses.length > 0) floodEnvelopes++
    }
    s.set('header floods answered 431', floods.length)
    if (floodEnvelopes < floods.length) s.note(`header floods are refused by Bun's HTTP parser with a bare 431 (no envelope, no X-Correlation-ID): ${floods.length - floodEnvelopes} of ${floods.length}; the app never sees the request`)

    phase('waiting for slow-loris')
    // Let the slow bodies finish; they must get their normal answers.
    await Promise.all(slowBodies.map(async (b) => {
      await b.c.until(() => b.sent >= b.bytes.length, 15_000)
      await b.c.until(() => b.c.responses().length > 0 || b.c.closed, 5_000)
    }))
    trickling = false
    await trickle
    for (const [i, b] of slowBodies.entries()) {
      const r = b.c.responses()[0]
      const expected = b.widget ? 200 : 201
      if (r?.status !== expected || responseProblems(r).length > 0) problems.push(`slow-loris body ${i}: expected ${expected}, got ${r?.status ?? 'nothing'} ${r?.body.slice(0, 120) ?? ''}`)
    }
    s.set('slow-loris bodies completed', slowBodies.filter((b) => b.c.responses()[0]?.status === (b.widget ? 200 : 201)).length)
    for (const c of longer) {
      if (c.responses().length > 0) problems.push(`longer Content-Length: answered ${c.responses()[0]!.status} before the body was complete`)
    }

    phase('done')
    const stats = await poll.done
    const during = (at: number) => [...phases].reverse().find(([t]) => t <= stats.startedAt + at)?.[1] ?? 'before the attacks'
    s.note(`slowest /health polls: ${stats.slowest.map((p) => `${p.ms} ms during ${during(p.at)}`).join(', ')}`)
    s.set('/health polls', stats.samples)
    s.add('requests sent', stats.samples)
    s.set('/health max latency (ms)', stats.maxMs)
    s.set('/health p99 latency (ms)', stats.p99Ms)
    s.set('/health failures', stats.failures)
    expect(alive(server)).toBe(true)
    expect(problems).toEqual([])
    expect(stats.failures).toBe(0)
    expect(stats.samples).toBeGreaterThan(100)
    if (stats.maxMs >= HEALTH_BOUND_MS) throw new Error(`/health took ${stats.maxMs} ms (bound ${HEALTH_BOUND_MS} ms): ${JSON.stringify(stats.slowest)}`)

    // What was stored: exactly the slow-loris tickets and pushes, nothing from the lying or oversized requests.
    const after = rowCounts(branch.db)
    const slowTickets = slowBodies.filter((b) => !b.widget).length
    expect(after.tickets).toBe(before.tickets + slowTickets)
    expect(after.prayerMonths).toBe(before.prayerMonths)
    expect(after.widgetRevisionSum).toBe(before.widgetRevisionSum + slowBodies.length - slowTickets)
    for (const c of open.splice(0)) c.end()
  }, 60_000)

  s.test(`${UNAUTH_CHUNKED} connections without a credential holding unfinished chunked bodies: authenticated ticket issues and kiosk taps still succeed`, async () => {
    // A kiosk, paired the way a branch does it.
    const printed = lobby(['devices', 'pair', '--db', branch.db, '--role', 'kiosk', '--queue-unit', IDS.unit, '--location', IDS.hall])
    expect(printed.code).toBe(0)
    const paired = await fetch(`${server.url}/api/devices/v1/pair`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: JSON.parse(printed.stdout).code }) })
    expect(paired.status).toBe(200)
    const kioskCookie = /^(lobby_device=lbv_[a-z2-7]+);/.exec(paired.headers.get('set-cookie') ?? '')![1]!
    const before = rowCounts(branch.db)

    // The attackers: no credential, chunked bodies that never end. On a server that reads a chunked body before the credential, what
    // they send is held against the body budget (64 MiB) until their connections time out. Sent one after another, largest first,
    // each within its route's limit, they fill the budget to the byte: 62 widget pushes of 1 MiB, prayer pushes of 256 KiB, then
    // one of each power of two from 128 KiB down to 1 byte (what no longer fits is refused 503 and holds nothing), then kiosk taps.
    const sizes = [
      ...Array.from({ length: 62 }, () => 1024 * 1024),
      ...Array.from({ length: 8 }, () => 256 * 1024),
      ...Array.from({ length: 18 }, (_, k) => 2 ** (17 - k)),
    ]
    const pathFor = (size: number) => (size > 256 * 1024 ? 'widget' : size > 16 * 1024 ? 'prayer' : 'ticket')
    const heads = {
      widget: (i: number) => `POST ${widgetPushPath(IDS.crashWidgets[i % 3]!)} HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nIdempotency-Key: unauth-${i}-0123456789\r\nTransfer-Encoding: chunked\r\n\r\n`,
      prayer: (i: number) => `POST ${monthsPath(IDS.source)} HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nIdempotency-Key: unauth-${i}-0123456789\r\nTransfer-Encoding: chunked\r\n\r\n`,
      ticket: (i: number) => `POST ${QUEUE}/tickets HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nX-Request-Timestamp: ${new Date().toISOString()}\r\n` +
        `X-Request-Nonce: ${randomUUID()}\r\nIdempotency-Key: unauth-${i}\r\nTransfer-Encoding: chunked\r\n\r\n`,
      kiosk: (i: number) => `POST /api/devices/v1/kiosk/tickets HTTP/1.1\r\nHost: ${HOST}\r\nOrigin: ${server.url}\r\nContent-Type: application/json\r\nIdempotency-Key: unauth-${i}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    }
    const frameOf = (size: number) => new Uint8Array([...new TextEncoder().encode(`${size.toString(16)}\r\n`), ...new Uint8Array(size).fill(0x20), 13, 10])
    const FRAME = frameOf(64 * 1024)
    const started = performance.now()
    const attackers: { c: RawConnection; sent: number }[] = []
    for (let i = 0; i < UNAUTH_CHUNKED; i++) {
      const size = sizes[i] ?? 1024
      const c = await connect()
      let sent = 0
      if (await c.write(heads[i < sizes.length ? pathFor(size) : 'kiosk'](i))) {
        while (sent < size && !c.closed) {
          const piece = Math.min(64 * 1024, size - sent)
          if (!(await c.write(piece === 64 * 1024 ? FRAME : frameOf(piece)))) break
          sent += piece
        }
      }
      // Let the server take (or refuse) what was sent before the next one starts.
      await c.until(() => c.closed || c.responses().length > 0, size >= 64 * 1024 ? 40 : 15)
      s.add('unauthenticated chunked bytes sent', sent)
      attackers.push({ c, sent })
    }
    s.set('unauthenticated chunked connections', attackers.length)
    s.set('attackers sending (s)', Math.round((performance.now() - started) / 100) / 10)

    // While they hold their connections (none sends the last chunk): authenticated requests of both kinds.
    const problems: string[] = []
    let succeeded = 0
    for (let i = 0; i < 10; i++) {
      const issued = await issueTicket(server.url, branch.secrets.queue.main, `under-unauth-${i}-${randomUUID()}`, ticketBody())
      const text = await issued.text()
      if (issued.status === 201) succeeded++
      else problems.push(`ticket issue ${i}: ${issued.status} ${text.slice(0, 120)}`)
      const tap = await fetch(`${server.url}/api/devices/v1/kiosk/tickets`, {
        method: 'POST',
        headers: { cookie: kioskCookie, origin: server.url, 'content-type': 'application/json', 'idempotency-key': `tap-under-unauth-${i}-${randomUUID()}` },
        body: JSON.stringify({ serviceId: IDS.accounts }),
      })
      const tapText = await tap.text()
      if (tap.status === 201) succeeded++
      else problems.push(`kiosk tap ${i}: ${tap.status} ${tapText.slice(0, 120)}`)
    }
    s.set('authenticated issues and taps that succeeded under the attack', `${succeeded} of 20`)

    // Every attacker was refused before its body was read, in the envelope, and its connection closed by the server.
    await Promise.all(attackers.map(({ c }) => c.until(() => c.closed, 5_000)))
    let refused = 0
    for (const [i, { c }] of attackers.entries()) {
      if (!c.closed) problems.push(`attacker ${i}: connection still open`)
      const answers = c.responses()
      if (answers.some((r) => r.status !== 401 || responseProblems(r).length > 0 || r.headers.connection !== 'close')) {
        problems.push(`attacker ${i}: answered ${answers.map((r) => `${r.status} ${r.headers.connection ?? ''} ${r.body.slice(0, 60)}`).join(', ')}`)
      }
      if (answers.length === 1) refused++
    }
    s.set('attackers answered 401 with Connection: close', refused)
    s.set('bytes an attacker wrote before its connection closed (max)', Math.max(...attackers.map((a) => a.sent)))
    for (const { c } of attackers) c.end()
    expect(problems).toEqual([])
    expect(succeeded).toBe(20)
    expect(rowCounts(branch.db).tickets).toBe(before.tickets + 20)
    expect(alive(server)).toBe(true)
  }, 60_000)

  s.test(`a request whose body stops arriving is dropped by the server within ${STALL_BOUND_MS / 1000} s, and never logged as a 5xx`, async () => {
    await Promise.all(stalled.map(({ c }) => c.until(() => c.closed, STALL_BOUND_MS - (performance.now() - c.openedAt))))
    const problems: string[] = []
    for (const { c, correlationId } of stalled) {
      if (!c.closed) problems.push(`${correlationId}: still open after ${STALL_BOUND_MS / 1000} s`)
      if (c.responses().some((r) => r.status < 400)) problems.push(`${correlationId}: answered ${c.responses()[0]!.status} to an incomplete body`)
      await Bun.sleep(50)
      const logged = server.lines.filter((l) => l.includes(`"correlationId":"${correlationId}"`))
      for (const line of logged) if (/"status":5\d\d/.test(line) || /"level":"error"/.test(line)) problems.push(`${correlationId}: logged ${line.slice(0, 240)}`)
    }
    s.set('stalled bodies dropped after (s, max)', Math.round(Math.max(...stalled.map(({ c }) => ((c.closedAt ?? performance.now()) - c.openedAt) / 1000))))
    expect(problems).toEqual([])
  }, STALL_BOUND_MS + 10_000)

  s.test('requests without a valid Host header are answered in the envelope and the server stays up', async () => {
    const problems: string[] = []
    for (const [what, request] of [
      ['HTTP/1.0 without Host', 'GET /health HTTP/1.0\r\n\r\n'],
      ['HTTP/1.1 with an empty Host', 'GET /health HTTP/1.1\r\nHost: \r\n\r\n'],
      ['HTTP/1.1 with a Host holding a space', 'GET /api/public/v1/queue/services HTTP/1.1\r\nHost: a b\r\n\r\n'],
      ['HTTP/1.1 with a malformed IPv6 Host', `GET /api/display/v1/widgets/${IDS.lobbyWidget} HTTP/1.1\r\nHost: [::1\r\n\r\n`],
    ] as const) {
      if (!alive(server)) {
        problems.push(`${what}: not sent, the server had exited`)
        continue
      }
      const c = await connect()
      await c.write(request)
      await c.until(() => c.responses().length > 0 || c.closed, 3_000)
      c.end()
      const r = c.responses()[0]
      await Bun.sleep(100)
      if (r === undefined || r.status >= 500 || (r.status >= 400 && responseProblems(r).length > 0)) problems.push(`${what}: answered ${r?.status ?? 'nothing'} ${r?.body.slice(0, 100) ?? ''}`)
      if (!alive(server)) problems.push(`${what}: the server process exited (${server.proc.exitCode ?? server.proc.signalCode}): ${server.lines.slice(-3).join(' ').slice(0, 300)}`)
    }
    expect(problems).toEqual([])
    const health = await fetch(`${server.url}/health`)
    expect(health.status).toBe(200)
  }, 30_000)
})

// ---- §23: addresses behind a trusted proxy (admission kit) ----
describe('hostile clients behind a trusted proxy: attribution, the overall limit, /metrics', () => {
  const servers: { stop(): Promise<void> }[] = []
  afterAll(async () => {
    for (const server of servers) await server.stop()
  })

  test('an address flood through the proxy never resets the overall pairing limit, and never opens /metrics', async () => {
    const { startServer } = await import('../../src/server')
    const { parseTrustedProxies } = await import('../../src/platform/client-address')
    const { PAIR_ATTEMPTS_OVERALL } = await import('../../src/devices/routes')
    const { silentLogger } = await import('../../src/platform/log')
    const { tempDir } = await import('../support/cli')
    const { join } = await import('node:path')
    const server = await startServer({
      port: 0, host: '127.0.0.1', dbPath: join(tempDir(), 'lobby.db'), durability: 'normal', log: silentLogger,
      trustedProxies: parseTrustedProxies(['127.0.0.1', '::1']),
    })
    servers.push(server)
    const attempts = PAIR_ATTEMPTS_OVERALL + 400
    const statuses: number[] = []
    const problems: string[] = []
    for (let i = 0; i < attempts; i += 50) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, attempts - i) }, (_, j) => {
        const n = i + j
        return fetch(`${server.url}/api/devices/v1/pair`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
          body: JSON.stringify({ code: '000000' }),
        }).then(async (r) => {
          const body = await r.text()
          if (r.status === 429 && r.headers.get('retry-after') === null) problems.push('429 without Retry-After')
          if (!/^\{"error":\{"code":"[A-Z_]+"/.test(body)) problems.push(`not the envelope: ${r.status} ${body.slice(0, 80)}`)
          return r.status
        })
      }))
      statuses.push(...batch)
    }
    expect(problems).toEqual([])
    // Every address is new, so only the overall window refuses: exactly its limit got through.
    expect(statuses.filter((s) => s === 400)).toHaveLength(PAIR_ATTEMPTS_OVERALL)
    expect(statuses.filter((s) => s === 429)).toHaveLength(attempts - PAIR_ATTEMPTS_OVERALL)
    // A forwarded LAN client is remote for /metrics, whatever it claims further left.
    for (const xff of ['192.168.1.50', '127.0.0.1, 192.168.1.50', '::1, 2001:db8::9']) {
      expect((await fetch(`${server.url}/metrics`, { headers: { 'x-forwarded-for': xff } })).status).toBe(403)
    }
  }, 60_000)
})
