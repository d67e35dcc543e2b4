import { describe, expect } from 'bun:test'
import { randomUUID } from 'node:crypto'
import {
  HOST, IDS, QUEUE, RawConnection, integrityCheck, issueTicket, provisionBranch, scenario, ticketBody, withDb,
} from './support'

const s = scenario(
  'shutdown',
  'SIGTERM while ticket issue runs at full speed on keep-alive connections and slow uploads are half-sent. "In flight" means ' +
    'the server has read the request line and headers (and maybe part of the body) when the signal arrives: every such request ' +
    'gets a complete 201, none is reset (a request still unread on an idle keep-alive connection may meet that connection\'s ' +
    'close: it is neither logged nor committed, and its Idempotency-Key makes the retry safe). Every answer anyone received is complete (its JSON body parses) and none is 5xx; requests ' +
    'started after the signal may be refused at the connection, never answered halfway. New connections are ' +
    'refused within a second of the signal. The process exits 0, every acknowledged ticket is in the database, and `PRAGMA integrity_check` says ok. ' +
    'A phone page\'s long poll and a display board\'s websocket open at the signal hold nothing (contract §23): the poll is answered, the socket ' +
    'closed with 1012, and the process is gone within 2 s of the signal.',
)

const stalled = scenario(
  'shutdown-stalled',
  'SIGTERM while uploads have sent half a body and then stall (never finished) and a phone page long-polls: the stop does not wait ' +
    'for them past its grace (contract §23, §27): the process exits 0 within 2 s of the signal, the poll is answered, integrity ok.',
)

const LOOPS = 6
const SLOW = 8
const LOAD_MS = 1_500
const TAIL_DELAY_MS = 400

interface Attempt {
  started: number
  key: string
  correlationId?: string
  status?: number
  ticketId?: string
  incomplete?: string
  error?: string
}

describe('shutdown: SIGTERM under load', () => {
  s.test(`SIGTERM after ${LOAD_MS / 1000} s of ${LOOPS} issue loops with ${SLOW} half-sent uploads: in-flight requests finish, exit 0, integrity ok`, async () => {
    const branch = provisionBranch()
    const server = await branch.serve()
    const secret = branch.secrets.queue.main
    const attempts: Attempt[] = []
    let exited = false
    void server.proc.exited.then(() => (exited = true))

    const loop = async (n: number) => {
      for (let i = 0; !exited; i++) {
        const attempt: Attempt = { started: performance.now(), key: `shutdown-${n}-${i}-${randomUUID()}`, correlationId: `sd-${n}-${i}` }
        attempts.push(attempt)
        let res: Response
        try {
          res = await issueTicket(server.url, secret, attempt.key, ticketBody(IDS.hall, n % 2 ? IDS.accounts : IDS.loans), { headers: { 'x-correlation-id': `sd-${n}-${i}` } })
        } catch (error) {
          attempt.error = String(error)
          return
        }
        attempt.status = res.status
        try {
          const text = await res.text()
          attempt.ticketId = JSON.parse(text).data?.id
          if (res.status === 201 && attempt.ticketId === undefined) attempt.incomplete = text.slice(0, 120)
        } catch (error) {
          attempt.incomplete = String(error)
        }
      }
    }
    const loops = Array.from({ length: LOOPS }, (_, n) => loop(n))

    // Slow uploads: request line, headers and half the body now; the rest after the signal.
    const slow = await Promise.all(Array.from({ length: SLOW }, async (_, i) => {
      const conn = await RawConnection.open(server.url)
      const body = ticketBody(IDS.annex, IDS.accounts, `shutdown-slow-${i}`)
      const half = Math.floor(body.length / 2)
      const head = `POST ${QUEUE}/tickets HTTP/1.1\r\nHost: ${HOST}\r\nAuthorization: Bearer ${secret}\r\nContent-Type: application/json\r\n` +
        `X-Request-Timestamp: ${new Date().toISOString()}\r\nX-Request-Nonce: ${randomUUID()}\r\nIdempotency-Key: shutdown-slow-${i}-${randomUUID()}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`
      return { conn, body, half, head }
    }))

    await Bun.sleep(LOAD_MS)
    // A phone page (long poll, up to 20 s) and a display board (websocket) open at the signal.
    const tracked = attempts.find((a) => a.ticketId !== undefined)!
    const trackingCode = withDb(branch.db, (db) => (db.query('SELECT tracking_code AS code FROM tickets WHERE id = ?').get(tracked.ticketId!) as { code: string }).code)
    const statusUrl = `${server.url}/api/phone/v1/tickets/${trackingCode}`
    const phoneVersion = ((await (await fetch(statusUrl)).json()) as { version: string }).version
    const phonePoll = fetch(`${statusUrl}?since=${phoneVersion}`).then((r) => r.status, (error) => String(error))
    const board = new WebSocket(`${server.url.replace('http', 'ws')}/api/display/v1/live?token=${branch.secrets.display.screens}`)
    const boardClosed = new Promise<number>((resolve) => board.addEventListener('close', (event) => resolve(event.code)))
    await new Promise<void>((resolve) => {
      board.addEventListener('open', () => board.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'queue', id: IDS.unit }] })))
      board.addEventListener('message', () => resolve(), { once: true })
    })
    for (const u of slow) expect(await u.conn.write(u.head + u.body.slice(0, u.half))).toBe(true)
    await Bun.sleep(50) // let the server read the headers and the first half
    const signalAt = performance.now()
    let exitedAfter = -1
    void server.proc.exited.then(() => (exitedAfter = performance.now() - signalAt))
    server.proc.kill('SIGTERM')

    // While the server drains it stops accepting: new connections are refused within a second of the signal.
    let listenerClosedAfter = -1
    while (performance.now() - signalAt < 1_000) {
      const accepted = await RawConnection.open(server.url).then((c) => (c.end(), true), () => false)
      if (!accepted) {
        listenerClosedAfter = performance.now() - signalAt
        break
      }
      await Bun.sleep(10)
    }
    s.set('new connections refused after (ms)', Math.round(listenerClosedAfter))
    expect(listenerClosedAfter).toBeGreaterThanOrEqual(0)

    await Bun.sleep(Math.max(0, TAIL_DELAY_MS - (performance.now() - signalAt)))
    for (const u of slow) await u.conn.write(u.body.slice(u.half))
    for (const u of slow) await u.conn.until(() => u.conn.responses().length > 0 || u.conn.closed, 10_000)

    const code = await Promise.race([server.proc.exited, Bun.sleep(15_000).then(() => 'still running after 15 s')])
    await Promise.all(loops)
    expect(code).toBe(0)
    expect(server.lines.some((l) => l.includes('"msg":"stopped"'))).toBe(true)
    s.set('process gone after SIGTERM (ms)', Math.round(exitedAfter))
    expect(exitedAfter).toBeLessThan(2_000)
    s.set('phone poll open at the signal answered', await phonePoll)
    expect(await phonePoll).toBe(200)
    s.set('display websocket closed with', await boardClosed)
    expect(await boardClosed).toBe(1012)

    const slowAnswers = slow.map((u) => u.conn.responses()[0])
    const slowIds = slowAnswers.map((r) => (r?.status === 201 ? JSON.parse(r.body).data?.id as string | undefined : undefined))
    expect(slowAnswers.map((r) => r?.status ?? 'no answer')).toEqual(Array(SLOW).fill(201))

    const answered = attempts.filter((a) => a.status !== undefined)
    const beforeSignal = attempts.filter((a) => a.started < signalAt)
    const failedBefore = beforeSignal.filter((a) => a.status === undefined)
    const afterSignal = attempts.filter((a) => a.started >= signalAt)
    s.set('requests sent', attempts.length + SLOW)
    s.set('answered', answered.length + SLOW)
    s.set('half-sent uploads completed after SIGTERM', slowIds.filter(Boolean).length)
    s.set('requests started after SIGTERM, refused at the connection', afterSignal.filter((a) => a.status === undefined).length)
    expect(answered.filter((a) => a.incomplete !== undefined).map((a) => a.incomplete)).toEqual([])
    expect(answered.filter((a) => a.status !== 201).map((a) => a.status)).toEqual([])
    // A request sent on a keep-alive connection just before the signal may meet the close of that connection before the
    // server read it (the keep-alive race every HTTP server has; the Idempotency-Key makes the retry safe). What must not
    // happen is a reset of a request the server had read: such a request would be in the log or have committed.
    const committed = (key: string) => withDb(branch.db, (db) => db.query('SELECT 1 FROM idempotency_records WHERE key = ?').get(key) !== null)
    const logged = (id: string) => server.lines.some((l) => l.includes(`"correlationId":"${id}"`))
    const resetAfterRead = failedBefore.filter((a) => logged(a.correlationId!) || committed(a.key))
    s.set('requests reset before the server read them (keep-alive race)', failedBefore.length - resetAfterRead.length)
    s.set('in-flight requests reset', resetAfterRead.length)
    expect(resetAfterRead.map((a) => `${(signalAt - a.started).toFixed(1)} ms before the signal: ${a.error}`)).toEqual([])

    // Every acknowledged ticket is stored; the database is intact.
    const acked = [...answered.map((a) => a.ticketId!), ...slowIds.map((id) => id!)]
    const stored = withDb(branch.db, (db) => new Set((db.query('SELECT id FROM tickets').all() as { id: string }[]).map((r) => r.id)))
    const lost = acked.filter((id) => !stored.has(id))
    s.set('records lost', lost.length)
    expect(lost).toEqual([])
    const integrity = integrityCheck(branch.db)
    s.set('integrity_check', integrity)
    expect(integrity).toBe('ok')
  }, 60_000)

  stalled.test('SIGTERM with bodies that stall halfway (never finished) and a phone long poll open: the process is gone within 2 s, exit 0', async () => {
    const branch = provisionBranch()
    const server = await branch.serve()
    const secret = branch.secrets.queue.main
    const first = await issueTicket(server.url, secret, `stalled-${randomUUID()}`, ticketBody(IDS.hall, IDS.accounts))
    expect(first.status).toBe(201)
    const ticketId = JSON.parse(await first.text()).data.id as string
    const trackingCode = withDb(branch.db, (db) => (db.query('SELECT tracking_code AS code FROM tickets WHERE id = ?').get(ticketId) as { code: string }).code)
    const statusUrl = `${server.url}/api/phone/v1/tickets/${trackingCode}`
    const phoneVersion = ((await (await fetch(statusUrl)).json()) as { version: string }).version
    const phonePoll = fetch(`${statusUrl}?since=${phoneVersion}`).then((r) => r.status, (error) => String(error))
    // Uploads that send their headers and half a body, then nothing more: the server holds them open.
    const stalledUploads = await Promise.all(Array.from({ length: SLOW }, async (_, i) => {
      const conn = await RawConnection.open(server.url)
      const body = ticketBody(IDS.annex, IDS.accounts, `stalled-${i}`)
      const head = `POST ${QUEUE}/tickets HTTP/1.1\r\nHost: ${HOST}\r\nAuthorization: Bearer ${secret}\r\nContent-Type: application/json\r\n` +
        `X-Request-Timestamp: ${new Date().toISOString()}\r\nX-Request-Nonce: ${randomUUID()}\r\nIdempotency-Key: stalled-${i}-${randomUUID()}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`
      expect(await conn.write(head + body.slice(0, Math.floor(body.length / 2)))).toBe(true)
      return conn
    }))
    await Bun.sleep(100) // the server has read the headers and the first halves
    const signalAt = performance.now()
    let exitedAfter = -1
    void server.proc.exited.then(() => (exitedAfter = performance.now() - signalAt))
    server.proc.kill('SIGTERM')
    const code = await Promise.race([server.proc.exited, Bun.sleep(10_000).then(() => 'still running after 10 s')])
    for (const conn of stalledUploads) conn.end()
    stalled.set('process gone after SIGTERM (ms)', Math.round(exitedAfter))
    stalled.set('stalled uploads open at the signal', SLOW)
    expect(code).toBe(0)
    expect(exitedAfter).toBeGreaterThanOrEqual(0)
    expect(exitedAfter).toBeLessThan(2_000)
    stalled.set('phone poll open at the signal answered', await phonePoll)
    expect(await phonePoll).toBe(200)
    expect(integrityCheck(branch.db)).toBe('ok')
  }, 30_000)
})
