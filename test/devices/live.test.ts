import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startServer, type RunningServer } from '../../src/server'
import { DeviceService, type PairingRequest } from '../../src/devices/service'
import { provisionedDatabaseFile } from '../support/fixtures'

/**
 * The display websocket by device cookie, on a real listener (the upgrade needs one): a desk
 * reads its own unit's queue topic and nothing else, only from this server's origin; a
 * revoked device cannot connect again.
 */
describe('the live websocket for paired devices', () => {
  let server: RunningServer
  const path = provisionedDatabaseFile()

  beforeAll(async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', dbPath: path, durability: 'normal', log: () => {} })
  })
  afterAll(async () => {
    await server?.stop()
  })

  async function pair(pairing: PairingRequest): Promise<string> {
    const { code } = new DeviceService(server.deps.db).createPairingCode(pairing, Date.now())
    const response = await fetch(`${server.url}/api/devices/v1/pair`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) })
    expect(response.status).toBe(200)
    return /^(lobby_device=lbv_[a-z2-7]+);/.exec(response.headers.get('set-cookie')!)![1]!
  }

  /** Opens the socket with these headers; resolves with the first messages, or the close code when refused. */
  function connect(headers: Record<string, string>, topics: unknown[]): Promise<{ messages: any[]; closed: number | null }> {
    return new Promise((resolve) => {
      const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/display/v1/live`, { headers } as never)
      const messages: any[] = []
      const done = (closed: number | null) => {
        clearTimeout(timer)
        try {
          socket.close()
        } catch {}
        resolve({ messages, closed })
      }
      const timer = setTimeout(() => done(null), 1500)
      socket.addEventListener('open', () => socket.send(JSON.stringify({ type: 'subscribe', topics })))
      socket.addEventListener('message', (event) => {
        messages.push(JSON.parse(String(event.data)))
        if (messages.length === topics.length) done(null)
      })
      socket.addEventListener('close', (event) => done(event.code))
      socket.addEventListener('error', () => done(-1))
    })
  }

  test('a desk gets its unit\'s queue snapshot, and TOPIC_NOT_FOUND for anything else of the workspace', async () => {
    const desk = await pair({ role: 'desk', counterId: 'cnt_1' })
    const { messages } = await connect({ cookie: desk, origin: server.url }, [
      { kind: 'queue', id: 'qu_main' },
      { kind: 'widget', id: 'wdg_schedule_lobby' },
    ])
    expect(messages.map((m) => [m.type, m.kind ?? m.code])).toEqual([['snapshot', 'queue'], ['error', 'TOPIC_NOT_FOUND']])
  })

  test('a display reads every topic of its workspace', async () => {
    const display = await pair({ role: 'display', workspaceId: 'ws_demo' })
    const { messages } = await connect({ cookie: display, origin: server.url }, [{ kind: 'queue', id: 'qu_main' }, { kind: 'prayer', id: 'psrc_centralmosque-0001-london' }])
    expect(messages.map((m) => m.type)).toEqual(['snapshot', 'snapshot'])
  })

  test('from another origin, without a cookie, or once revoked, the upgrade is refused', async () => {
    const desk = await pair({ role: 'desk', counterId: 'cnt_2', name: 'live-desk' })
    const topics = [{ kind: 'queue', id: 'qu_main' }]
    expect((await connect({ cookie: desk, origin: 'https://evil.example' }, topics)).messages).toEqual([])
    expect((await connect({ origin: server.url }, topics)).messages).toEqual([])
    new DeviceService(server.deps.db).revoke('live-desk', Date.now())
    // `lobby devices revoke` runs in another process, seen by the server within 5 ms (its key
    // cache's poll); done here on the server's own connection, the test tells it at once.
    server.deps.changes.noteWrite()
    expect((await connect({ cookie: desk, origin: server.url }, topics)).messages).toEqual([])
    // A refused upgrade answers in the envelope: 403 for the origin, 401 once revoked.
    const upgrade = (origin: string, cookie: string) => fetch(`${server.url}/api/display/v1/live`, {
      headers: { cookie, origin, upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' },
    })
    const other = await pair({ role: 'desk', counterId: 'cnt_2' })
    const cross = await upgrade('https://evil.example', other)
    expect(cross.status).toBe(403)
    expect(((await cross.json()) as { error: { code: string } }).error.code).toBe('ORIGIN_FORBIDDEN')
    expect((await upgrade(server.url, desk)).status).toBe(401)
  })
})

describe('device heartbeats on the live websocket', () => {
  let server: RunningServer
  const path = provisionedDatabaseFile()

  beforeAll(async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', dbPath: path, durability: 'normal', log: () => {} })
  })
  afterAll(async () => {
    await server?.stop()
  })

  test("a desk page's heartbeat on its socket is answered and keeps the device's last use, with no HTTP request; revoked, the socket closes 4401", async () => {
    const { code } = new DeviceService(server.deps.db).createPairingCode({ role: 'desk', counterId: 'cnt_1', name: 'beating-desk' }, Date.now())
    const paired = await fetch(`${server.url}/api/devices/v1/pair`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) })
    const cookie = /^(lobby_device=lbv_[a-z2-7]+);/.exec(paired.headers.get('set-cookie')!)![1]!
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/display/v1/live`, { headers: { cookie, origin: server.url } } as never)
    const messages: any[] = []
    const waiters: { until: (m: any[]) => boolean; resolve: () => void }[] = []
    socket.addEventListener('message', (event) => {
      messages.push(JSON.parse(String(event.data)))
      for (const w of waiters.splice(0)) if (w.until(messages)) w.resolve(); else waiters.push(w)
    })
    const closed = new Promise<number>((resolve) => socket.addEventListener('close', (event) => resolve(event.code)))
    const until = (f: (m: any[]) => boolean) => (f(messages) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ until: f, resolve })))
    await new Promise((resolve) => socket.addEventListener('open', resolve))
    socket.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'queue', id: 'qu_main' }] }))
    await until((m) => m.some((x) => x.type === 'snapshot'))

    // Its last use is an hour ago (as if it had been idle): the heartbeat on the socket brings it to now.
    const hourAgo = Date.now() - 3_600_000
    server.deps.db.$client.query("UPDATE credentials SET last_used_at = ?1 WHERE kind = 'device' AND revoked_at IS NULL").run(hourAgo)
    server.deps.changes.noteWrite()
    const before = Date.now()
    socket.send('{"type":"heartbeat"}')
    await until((m) => m.some((x) => x.type === 'heartbeat'))
    const listed = new DeviceService(server.deps.db).list().find((d) => d.name === 'beating-desk')!
    expect(Date.parse(listed.lastUsedAt!)).toBeGreaterThanOrEqual(before - 1)

    new DeviceService(server.deps.db).revoke('beating-desk', Date.now())
    server.deps.changes.noteWrite()
    socket.send('{"type":"heartbeat"}')
    expect(await closed).toBe(4401)
  })
})
