import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { testContext, request, jsonOf } from '../support/app'
import { provision, exampleDocument } from '../support/fixtures'
import { tempDir } from '../support/cli'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { applyProvisioning } from '../../src/provisioning/service'
import { revokeKey } from '../../src/structure/keys'
import { startServer, type RunningServer } from '../../src/server'
import { DEFAULT_CHANGE_POLL_MS } from '../../src/platform/db-changes'
import { makeMonth } from '../prayer/support'
import { envelope, announcementsData } from '../widgets/support'

const SOURCE = 'psrc_centralmosque-0001-london'

function displayContext() {
  const ctx = testContext()
  const p = provision(ctx, exampleDocument())
  return {
    ...ctx,
    token: p.secret('display', 'ws_demo', 'lobby-screens'),
    workspaceKey: p.secret('workspace', 'ws_demo', 'cms'),
    queueKey: p.secret('queue', 'qu_main', 'all'),
  }
}

let n = 0
const pushWidget = (app: any, key: string, widgetId = 'wdg_announcements', items = 2) =>
  request(app, 'POST', `/api/public/v1/widgets/${widgetId}/data/push`, {
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': `key-${++n}-abcdef` },
    raw: JSON.stringify(envelope('ANNOUNCEMENTS', announcementsData(items))),
  })

describe('display reads', () => {
  test('a widget read has the snapshot, an ETag, and 304 when unchanged', async () => {
    const ctx = displayContext()
    const empty = await jsonOf(await request(ctx.app, 'GET', `/api/display/v1/widgets/wdg_announcements?token=${ctx.token}`))
    expect(empty).toEqual({ widgetId: 'wdg_announcements', widgetType: 'ANNOUNCEMENTS', name: 'Announcements', dataRevision: 0, acceptedAt: null, data: null })
    expect((await pushWidget(ctx.app, ctx.workspaceKey)).status).toBe(200)
    const res = await request(ctx.app, 'GET', '/api/display/v1/widgets/wdg_announcements', { headers: { authorization: `Bearer ${ctx.token}` } })
    const body = await jsonOf(res)
    expect(body.dataRevision).toBe(1)
    expect(body.data.items).toHaveLength(2)
    const etag = res.headers.get('etag')!
    const again = await request(ctx.app, 'GET', `/api/display/v1/widgets/wdg_announcements?token=${ctx.token}`, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    await pushWidget(ctx.app, ctx.workspaceKey, 'wdg_announcements', 3)
    const changed = await request(ctx.app, 'GET', `/api/display/v1/widgets/wdg_announcements?token=${ctx.token}`, { headers: { 'if-none-match': etag } })
    expect(changed.status).toBe(200)
  })

  test('prayer month and today reads, in the source time zone, with the next prayer', async () => {
    const ctx = displayContext()
    ctx.clock.set('2026-11-25T11:00:00.000Z')
    const missing = await request(ctx.app, 'GET', `/api/display/v1/prayer-schedules/sources/${SOURCE}/today?token=${ctx.token}`)
    expect(missing.status).toBe(404)
    const pushed = await request(ctx.app, 'POST', `/api/public/v1/prayer-schedules/sources/${SOURCE}/months`, {
      headers: { authorization: `Bearer ${ctx.workspaceKey}`, 'content-type': 'application/json', 'idempotency-key': 'prayer-key-000001' },
      raw: JSON.stringify(makeMonth('2026-11')),
    })
    expect(pushed.status).toBe(201)
    const today = await jsonOf(await request(ctx.app, 'GET', `/api/display/v1/prayer-schedules/sources/${SOURCE}/today?token=${ctx.token}`))
    expect(today).toMatchObject({ sourceId: SOURCE, date: '2026-11-25', timezone: 'Europe/London', next: { prayer: 'dhuhr' } })
    const month = await jsonOf(await request(ctx.app, 'GET', `/api/display/v1/prayer-schedules/sources/${SOURCE}/months/2026-11?token=${ctx.token}`))
    expect(month).toMatchObject({ sourceId: SOURCE, period: '2026-11', revision: 1, dayCount: 30 })
    expect(month.month.days).toHaveLength(30)
  })

  test('only display tokens are accepted on display routes, and a revoked one is refused', async () => {
    const ctx = displayContext()
    const path = '/api/display/v1/widgets/wdg_announcements'
    for (const key of [ctx.workspaceKey, ctx.queueKey, 'lbd_unknown', '']) {
      const res = await request(ctx.app, 'GET', path, { headers: key ? { authorization: `Bearer ${key}` } : {} })
      expect(res.status).toBe(401)
      expect((await jsonOf(res)).error.code).toBe('AUTHENTICATION_FAILED')
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
    }
    revokeKey(ctx.db, 'display', 'ws_demo', 'lobby-screens', ctx.clock.now())
    expect((await request(ctx.app, 'GET', `${path}?token=${ctx.token}`)).status).toBe(401)
  })

  test('a display token is refused on push, ticket issue and the other routes', async () => {
    const ctx = displayContext()
    const push = await pushWidget(ctx.app, ctx.token)
    expect(push.status).toBe(403)
    expect((await jsonOf(push)).error.code).toBe('WIDGET_NOT_FOUND_OR_FORBIDDEN')
    const issue = await request(ctx.app, 'POST', '/api/public/v1/queue/tickets', {
      headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json', 'x-request-timestamp': new Date(ctx.clock.now()).toISOString(), 'x-request-nonce': 'nonce-display-0001', 'idempotency-key': 'k1' },
      body: { locationId: 'loc_hall', serviceId: 'svc_accounts' },
    })
    expect(issue.status).toBe(401)
    expect((await jsonOf(issue)).error.code).toBe('AUTHENTICATION_FAILED')
    for (const path of ['/api/public/v1/queue/state', '/api/public/v1/queue/services', '/api/operator/v1/queue']) {
      expect((await request(ctx.app, 'GET', path, { headers: { authorization: `Bearer ${ctx.token}` } })).status).toBe(401)
    }
    const operator = await request(ctx.app, 'POST', '/api/operator/v1/counters/cnt_1/call-next', { headers: { authorization: `Bearer ${ctx.token}` } })
    expect(operator.status).toBe(401)
    expect((await jsonOf(operator)).error.code).toBe('AUTHENTICATION_FAILED')
    const prayer = await request(ctx.app, 'GET', `/api/public/v1/prayer-schedules/sources/${SOURCE}/months/2026-11`, { headers: { authorization: `Bearer ${ctx.token}` } })
    expect(prayer.status).toBe(403)
    expect(ctx.db.$client.query('SELECT count(*) AS n FROM tickets').get()).toEqual({ n: 0 })
  })

  test("another workspace's widget is not found, and CORS preflight is answered", async () => {
    const ctx = testContext()
    const doc = exampleDocument()
    doc.workspaces.push({ id: 'ws_b', name: 'B', displayTokens: [{ name: 'b' }], widgets: [] })
    const p = provision(ctx, doc)
    const res = await request(ctx.app, 'GET', `/api/display/v1/widgets/wdg_events?token=${p.secret('display', 'ws_b', 'b')}`)
    expect(res.status).toBe(404)
    const preflight = await request(ctx.app, 'OPTIONS', '/api/display/v1/widgets/wdg_events', { headers: { origin: 'http://tv.local', 'access-control-request-method': 'GET' } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization')
  })
})

describe('display websocket (real clients on 127.0.0.1)', () => {
  let server: RunningServer
  let dbPath: string
  let secrets: Record<string, string>

  beforeAll(async () => {
    dbPath = join(tempDir(), 'lobby.db')
    const db = openDatabase(dbPath)
    migrateDatabase(db.$client)
    const result = applyProvisioning(db, exampleDocument(), Date.now())
    secrets = Object.fromEntries(result.secrets.map((s) => [`${s.kind}:${s.name}`, s.secret]))
    db.$client.close()
    server = await startServer({ port: 0, host: '127.0.0.1', dbPath, durability: 'normal', log: () => {}, limits: { socketsPerCredential: 600 } })
  })
  afterAll(async () => server?.stop())

  const wsUrl = (token: string) => `${server.url.replace('http', 'ws')}/api/display/v1/live?token=${token}`

  /** Opens a socket and collects its messages. */
  async function connect(token = secrets['display:lobby-screens']!) {
    const socket = new WebSocket(wsUrl(token))
    const messages: any[] = []
    const waiters: (() => void)[] = []
    socket.onmessage = (e) => {
      messages.push(JSON.parse(String(e.data)))
      waiters.splice(0).forEach((w) => w())
    }
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve()
      socket.onerror = () => reject(new Error('websocket refused'))
    })
    const next = async (count: number, ms = 2000) => {
      const deadline = Date.now() + ms
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${messages.length}`)
        await new Promise<void>((r) => {
          waiters.push(r)
          setTimeout(r, 20)
        })
      }
      return messages
    }
    return { socket, messages, next }
  }

  const livePush = (items: number) =>
    fetch(`${server.url}/api/public/v1/widgets/wdg_announcements/data/push`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secrets['workspace:cms']}`, 'content-type': 'application/json', 'idempotency-key': `live-${++n}-abcdef` },
      body: JSON.stringify(envelope('ANNOUNCEMENTS', announcementsData(items))),
    })

  test('subscribe, then receive a push within 50 ms of its 200', async () => {
    const client = await connect()
    client.socket.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'widget', id: 'wdg_announcements' }] }))
    const [snapshot] = await client.next(1)
    expect(snapshot).toMatchObject({ type: 'snapshot', kind: 'widget', id: 'wdg_announcements' })
    const response = await livePush(4)
    const okAt = performance.now()
    expect(response.status).toBe(200)
    const revision = Number(response.headers.get('x-service-data-revision'))
    const messages = await client.next(2)
    const gotAt = performance.now()
    expect(messages[1]).toMatchObject({ type: 'update', kind: 'widget', id: 'wdg_announcements', revision })
    expect(messages[1].data.data.items).toHaveLength(4)
    expect(gotAt - okAt).toBeLessThan(50)
    client.socket.close()
  })

  test('a reconnect with a stale revision catches up; a current one gets nothing', async () => {
    const first = await connect()
    first.socket.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'widget', id: 'wdg_announcements' }] }))
    const [snap] = await first.next(1)
    first.socket.close()
    await livePush(5)
    await livePush(6)
    const stale = await connect()
    stale.socket.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'widget', id: 'wdg_announcements', sinceRevision: snap.revision }] }))
    const [caught] = await stale.next(1)
    expect(caught.type).toBe('snapshot')
    expect(caught.revision).toBe(snap.revision + 2)
    expect(caught.data.data.items).toHaveLength(6)
    const current = await connect()
    current.socket.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'widget', id: 'wdg_announcements', sinceRevision: caught.revision }] }))
    await Bun.sleep(100)
    expect(current.messages).toEqual([])
    stale.socket.close()
    current.socket.close()
  })

  test('a display token in the Authorization header works for the websocket too', async () => {
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/display/v1/live`, { headers: { authorization: `Bearer ${secrets['display:lobby-screens']}` } } as never)
    const first = await new Promise<any>((resolve, reject) => {
      socket.onopen = () => socket.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'queue', id: 'qu_main' }] }))
      socket.onmessage = (e) => resolve(JSON.parse(String(e.data)))
      socket.onclose = (e) => reject(new Error(`closed ${e.code}`))
    })
    expect(first).toMatchObject({ type: 'snapshot', kind: 'queue', id: 'qu_main' })
    socket.close()
  })

  test('a bad or wrong-kind token is refused before the upgrade', async () => {
    for (const token of ['lbd_nope', secrets['workspace:cms']!, secrets['queue:all']!]) {
      const res = await fetch(`${server.url}/api/display/v1/live?token=${token}`, { headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' } })
      expect(res.status).toBe(401)
      expect((await res.json() as any).error.code).toBe('AUTHENTICATION_FAILED')
      await expect(connect(token)).rejects.toThrow()
    }
  })

  test('the queue topic sends an update when a ticket is issued and called', async () => {
    // Counter 1 opens first (contract §27: call-next at a closed counter is 409 COUNTER_CLOSED).
    const opened = await fetch(`${server.url}/api/operator/v1/counters/cnt_1/open`, { method: 'POST', headers: { authorization: `Bearer ${secrets['queue:operator']}` } })
    expect(opened.status).toBe(200)
    const client = await connect()
    client.socket.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'queue', id: 'qu_main' }] }))
    const [snapshot] = await client.next(1)
    expect(snapshot).toMatchObject({ type: 'snapshot', kind: 'queue', id: 'qu_main' })
    const issued = await fetch(`${server.url}/api/public/v1/queue/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secrets['queue:all']}`, 'content-type': 'application/json', 'x-request-timestamp': new Date().toISOString(), 'x-request-nonce': `nonce-live-${++n}-abcdef`, 'idempotency-key': `live-ticket-${n}` },
      body: JSON.stringify({ locationId: 'loc_hall', serviceId: 'svc_accounts' }),
    })
    expect(issued.status).toBe(201)
    const number = ((await issued.json()) as any).data.ticketNumber
    const [, update] = await client.next(2)
    expect(update.type).toBe('update')
    expect(update.revision).toBeGreaterThan(snapshot.revision)
    const called = await fetch(`${server.url}/api/operator/v1/counters/cnt_1/call-next`, { method: 'POST', headers: { authorization: `Bearer ${secrets['queue:operator']}` } })
    expect(called.status).toBe(200)
    const messages = await client.next(3)
    const hall = messages[2].data.services.find((s: any) => s.id === 'svc_accounts' && s.locationId === 'loc_hall')
    expect(hall.nowServing).toMatchObject({ number, counterName: 'Counter 1' })
    expect(messages[2].data.recentCalls[0]).toMatchObject({ number, counterName: 'Counter 1' })
    client.socket.close()
  })

  // One token here stands for 500 screens: the server above raises the per-credential cap for it.
  test('500 subscribed clients all receive one push', async () => {
    const clients = await Promise.all(Array.from({ length: 500 }, () => connect()))
    for (const c of clients) c.socket.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'widget', id: 'wdg_announcements' }] }))
    await Promise.all(clients.map((c) => c.next(1, 5000)))
    const response = await livePush(7)
    const revision = Number(response.headers.get('x-service-data-revision'))
    await Promise.all(clients.map((c) => c.next(2, 5000)))
    for (const c of clients) expect(c.messages[1]).toMatchObject({ type: 'update', revision })
    for (const c of clients) c.socket.close()
  })

  test('a revoked display token cannot connect (last: it revokes the shared token)', async () => {
    const db = openDatabase(dbPath)
    revokeKey(db, 'display', 'ws_demo', 'lobby-screens', Date.now())
    db.$client.close()
    // Another connection, as the CLI: the server sees it within its key cache's bound.
    await Bun.sleep(DEFAULT_CHANGE_POLL_MS + 1)
    await expect(connect()).rejects.toThrow()
  })
})

describe('display queue state', () => {
  test('the queue state follows issue and calls, with a stateRevision, ETag and a location filter', async () => {
    const ctx = displayContext()
    const path = `/api/display/v1/queue-units/qu_main/state?token=${ctx.token}`
    const before = await request(ctx.app, 'GET', path)
    const initial = await jsonOf(before)
    expect(initial).toMatchObject({ queueUnitId: 'qu_main', name: 'Main branch', recentCalls: [] })
    expect(initial.services.every((s: any) => s.nowServing === null && s.waiting === 0)).toBe(true)
    expect((await request(ctx.app, 'GET', path, { headers: { 'if-none-match': before.headers.get('etag')! } })).status).toBe(304)

    const issued = await request(ctx.app, 'POST', '/api/public/v1/queue/tickets', {
      headers: { authorization: `Bearer ${ctx.queueKey}`, 'x-request-timestamp': new Date(ctx.clock.now()).toISOString(), 'x-request-nonce': 'nonce-display-state-1', 'idempotency-key': 'display-state-1' },
      body: { locationId: 'loc_hall', serviceId: 'svc_accounts' },
    })
    expect(issued.status).toBe(201)
    const after = await request(ctx.app, 'GET', path, { headers: { 'if-none-match': before.headers.get('etag')! } })
    expect(after.status).toBe(200)
    const state = await jsonOf(after)
    expect(state.stateRevision).toBeGreaterThan(initial.stateRevision)
    expect(state.services.find((s: any) => s.id === 'svc_accounts' && s.locationId === 'loc_hall').waiting).toBe(1)

    const annex = await jsonOf(await request(ctx.app, 'GET', `${path}&location=loc_annex`))
    expect(annex.services.every((s: any) => s.locationId === 'loc_annex')).toBe(true)
    expect((await request(ctx.app, 'GET', `${path}&location=loc_nowhere`)).status).toBe(404)
  })
})
