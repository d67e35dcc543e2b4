import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import type { RunningBinary } from '../support/binary'
import { IDS, QUEUE, expectRefusal, issueTicket, provisionBranch, rowCounts, scenario, ticketBody } from './support'

const s = scenario(
  'clock',
  'Ticket issue with clocks 10 minutes apart is refused with 400 REQUEST_TIMESTAMP_OUT_OF_WINDOW and stores nothing; once the ' +
    'clocks agree the same Idempotency-Key and body are accepted. Two ways: the client\'s timestamps 10 minutes off the real ' +
    'clock (what the server sees when its own clock is off), and the server\'s own clock moved 10 minutes back with libfaketime ' +
    '(`FAKETIME_TIMESTAMP_FILE`, so the same process gets the right time again without a restart).',
)

const TEN_MINUTES = 10 * 60_000

/** libfaketime as Debian's `faketime` package installs it. */
const LIBFAKETIME = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
].find((path) => existsSync(path))

const iso = (ms: number) => new Date(ms).toISOString()
/** The same instant written with a +01:00 offset, as RFC 3339 allows. */
const withOffset = (ms: number) => new Date(ms + 3_600_000).toISOString().replace('Z', '+01:00')

describe('clock: the ±5-minute window of ticket issue', () => {
  const branch = provisionBranch()
  let server: RunningBinary
  beforeAll(async () => {
    server = await branch.serve()
  })
  afterAll(async () => {
    expect(await server.stop('SIGTERM')).toBe(0)
  })

  s.test('client timestamps 10 minutes off are refused; the same key and body in sync are accepted once', async () => {
    const key = `clock-${randomUUID()}`
    const body = ticketBody(IDS.hall, IDS.accounts, 'clock-skew')
    const before = rowCounts(branch.db)
    for (const [what, timestamp] of [
      ['10 minutes behind', iso(Date.now() - TEN_MINUTES)],
      ['10 minutes ahead', iso(Date.now() + TEN_MINUTES)],
      ['10 minutes behind, written with +01:00', withOffset(Date.now() - TEN_MINUTES)],
      ['10 minutes ahead, written with +01:00', withOffset(Date.now() + TEN_MINUTES)],
      ['5 minutes and 5 seconds behind', iso(Date.now() - 305_000)],
    ] as const) {
      const refused = await expectRefusal(await issueTicket(server.url, branch.secrets.queue.main, key, body, { timestamp }), 400, 'REQUEST_TIMESTAMP_OUT_OF_WINDOW', what)
      expect(refused.error.details).toEqual([{ path: 'X-Request-Timestamp', message: expect.any(String) }])
      s.add('requests sent')
    }
    expect(rowCounts(branch.db)).toEqual(before)

    const accepted = await issueTicket(server.url, branch.secrets.queue.main, key, body)
    expect(accepted.status).toBe(201)
    const original = await accepted.text()
    const replay = await issueTicket(server.url, branch.secrets.queue.main, key, body, { timestamp: withOffset(Date.now()) })
    expect(replay.status).toBe(201)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(await replay.text()).toBe(original)
    // Even a replay is refused when its timestamp is out of window: the window comes before the idempotency lookup.
    await expectRefusal(await issueTicket(server.url, branch.secrets.queue.main, key, body, { timestamp: iso(Date.now() - TEN_MINUTES) }), 400, 'REQUEST_TIMESTAMP_OUT_OF_WINDOW', 'replay out of window')
    s.add('requests sent', 3)
    expect(rowCounts(branch.db).tickets).toBe(before.tickets + 1)
  }, 30_000)

  if (LIBFAKETIME === undefined) {
    s.skip('the server\'s own clock 10 minutes back (libfaketime)', 'libfaketime is not installed (Debian package `faketime`: apt-get install -y faketime)')
  } else {
    s.test('the server\'s own clock 10 minutes back (libfaketime): refused, then accepted once the clocks agree', async () => {
      const skewed = provisionBranch()
      const clockFile = join(skewed.dir, 'faketime')
      writeFileSync(clockFile, '-10m\n')
      const slow = await skewed.serve([], {
        LD_PRELOAD: LIBFAKETIME,
        FAKETIME_TIMESTAMP_FILE: clockFile,
        FAKETIME_NO_CACHE: '1',
        FAKETIME_DONT_FAKE_MONOTONIC: '1',
      })
      try {
        const serverNow = async () => {
          const res = await fetch(`${slow.url}${QUEUE}/state`, { headers: { authorization: `Bearer ${skewed.secrets.queue.main}` } })
          return Date.parse(((await res.json()) as { data: { generatedAt: string } }).data.generatedAt)
        }
        // The server's clock really is 10 minutes behind.
        expect(Math.abs(Date.now() - (await serverNow()) - TEN_MINUTES)).toBeLessThan(5_000)

        const key = `clock-faketime-${randomUUID()}`
        const body = ticketBody(IDS.hall, IDS.accounts, 'clock-faketime')
        const before = rowCounts(skewed.db)
        await expectRefusal(await issueTicket(slow.url, skewed.secrets.queue.main, key, body), 400, 'REQUEST_TIMESTAMP_OUT_OF_WINDOW', 'real time against a server 10 minutes behind')
        expect(rowCounts(skewed.db)).toEqual(before)

        // The clocks agree again: the same process, the same key and body, a fresh nonce and timestamp.
        writeFileSync(clockFile, '+0\n')
        expect(Math.abs(Date.now() - (await serverNow()))).toBeLessThan(5_000)
        const accepted = await issueTicket(slow.url, skewed.secrets.queue.main, key, body)
        expect(accepted.status).toBe(201)
        await accepted.text()
        expect(rowCounts(skewed.db).tickets).toBe(before.tickets + 1)
        s.add('requests sent', 4)
      } finally {
        expect(await slow.stop('SIGTERM')).toBe(0)
      }
    }, 30_000)
  }
})
