import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { networkInterfaces } from 'node:os'
import { randomUUID } from 'node:crypto'
import { startServer, type RunningServer } from '../../src/server'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { applyProvisioning } from '../../src/provisioning/service'
import { silentLogger } from '../../src/platform/log'
import { authorizeMetrics } from '../../src/ops/routes'
import { exampleDocument } from '../support/fixtures'
import { tempDir } from '../support/cli'
import { testContext, request } from '../support/app'
import { provision } from '../support/fixtures'
import { WebhookWorker } from '../../src/webhooks/worker'

interface Sample { name: string; labels: Record<string, string>; value: number }

/**
 * A strict reader of the Prometheus text format (0.0.4): every line is a HELP, a TYPE or a
 * sample `name{label="value",...} number`; throws on anything else.
 */
function parsePrometheus(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>()
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (line === '') continue
    let m = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .*$/.exec(line)
    if (m) continue
    m = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line)
    if (m) {
      types.set(m[1]!, m[2]!)
      continue
    }
    m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/.exec(line)
    if (!m) throw new Error(`not Prometheus text: ${JSON.stringify(line)}`)
    const labels: Record<string, string> = {}
    if (m[2]) {
      const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/gy
      let rest: RegExpExecArray | null
      let consumed = 0
      while ((rest = re.exec(m[2])) !== null) {
        labels[rest[1]!] = rest[2]!
        consumed = re.lastIndex
      }
      if (consumed !== m[2].length) throw new Error(`bad labels: ${line}`)
    }
    samples.push({ name: m[1]!, labels, value: Number(m[3]) })
  }
  return { types, samples }
}

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0)

const servers: RunningServer[] = []
afterAll(async () => {
  for (const s of servers) await s.stop()
})

async function provisionedServer(options: { host?: string; metricsToken?: string } = {}) {
  const dbPath = join(tempDir(), 'lobby.db')
  const db = openDatabase(dbPath)
  migrateDatabase(db.$client, { log: () => {} })
  const result = applyProvisioning(db, exampleDocument(), Date.now())
  db.$client.close()
  const key = result.secrets.find((s) => s.kind === 'queue' && s.name === 'all')!.secret
  const display = result.secrets.find((s) => s.kind === 'display')!.secret
  const server = await startServer({
    port: 0, host: options.host ?? '127.0.0.1', dbPath, durability: 'normal', log: silentLogger,
    metricsToken: options.metricsToken ?? null,
  })
  servers.push(server)
  const port = new URL(server.url).port
  return { server, key, display, port, base: `http://127.0.0.1:${port}` }
}

function issue(base: string, key: string) {
  return fetch(`${base}/api/public/v1/queue/tickets`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`, 'content-type': 'application/json',
      'x-request-timestamp': new Date().toISOString(), 'x-request-nonce': randomUUID(), 'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({ locationId: 'loc_hall', serviceId: 'svc_accounts' }),
  })
}

async function scrape(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/metrics`, { headers })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toContain('text/plain')
  return parsePrometheus(await response.text())
}

describe('GET /metrics (contract §13)', () => {
  test('parses as Prometheus text, names every metric of §13, and its counters move with requests', async () => {
    const { base, key } = await provisionedServer()
    const before = await scrape(base)
    for (const [name, type] of [
      ['lobby_http_requests_total', 'counter'], ['lobby_http_request_duration_seconds', 'histogram'],
      ['lobby_tickets_total', 'counter'], ['lobby_waiting_tickets', 'gauge'], ['lobby_webhook_outbox_pending', 'gauge'],
      ['lobby_webhook_deliveries_failed_total', 'counter'], ['lobby_websocket_connections', 'gauge'],
      ['lobby_database_bytes', 'gauge'], ['lobby_write_batch_size', 'histogram'],
    ] as const) expect(before.types.get(name)).toBe(type)
    expect(value(before.samples, 'lobby_waiting_tickets', { queue_unit: 'qu_main', location: 'loc_hall', service: 'svc_accounts' })).toBe(0)
    expect(value(before.samples, 'lobby_database_bytes')).toBeGreaterThan(0)

    for (let i = 0; i < 3; i++) expect((await issue(base, key)).status).toBe(201)
    for (const id of ['tkt_nothing1', 'tkt_nothing2', 'tkt_nothing3']) {
      expect((await fetch(`${base}/api/public/v1/queue/tickets/${id}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(404)
    }
    expect((await fetch(`${base}/no/such/${randomUUID()}`)).status).toBe(404)

    const after = await scrape(base)
    const route = '/api/public/v1/queue/tickets'
    expect(value(after.samples, 'lobby_http_requests_total', { route, method: 'POST', status: '201' })).toBe(3)
    // Three different IDs, one series: the label is the template.
    expect(value(after.samples, 'lobby_http_requests_total', { route: `${route}/:ticketId`, method: 'GET', status: '404' })).toBe(3)
    expect(value(after.samples, 'lobby_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1)
    expect(after.samples.some((s) => s.labels.route?.includes('tkt_nothing') || s.labels.route?.startsWith('/no/such'))).toBe(false)
    expect(value(after.samples, 'lobby_http_request_duration_seconds_count', { route, method: 'POST' })).toBe(3)
    expect(value(after.samples, 'lobby_tickets_total', { event: 'created' })).toBe(3)
    expect(value(after.samples, 'lobby_waiting_tickets', { queue_unit: 'qu_main', location: 'loc_hall', service: 'svc_accounts' })).toBe(3)
    // The example's webhook subscribes to ticket.created: three deliveries wait (its URL is dead).
    expect(value(after.samples, 'lobby_webhook_outbox_pending')).toBeGreaterThanOrEqual(1)
    expect(value(after.samples, 'lobby_write_batch_size_sum')).toBeGreaterThanOrEqual(3)
    expect(value(after.samples, 'lobby_http_requests_total', { route: '/metrics', method: 'GET', status: '200' })).toBe(1)
  })

  test('open display websockets are counted', async () => {
    const { base, display } = await provisionedServer()
    expect(value((await scrape(base)).samples, 'lobby_websocket_connections')).toBe(0)
    const socket = new WebSocket(`${base.replace('http', 'ws')}/api/display/v1/live?token=${display}`)
    await new Promise((resolve, reject) => {
      socket.onopen = resolve
      socket.onerror = reject
    })
    expect(value((await scrape(base)).samples, 'lobby_websocket_connections')).toBe(1)
    socket.close()
  })

  test('a request from another machine without the token is refused; with the token it is answered', async () => {
    const external = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)
    if (!external) {
      console.log('skipped: this machine has no non-loopback IPv4 address to call from')
      return
    }
    const token = 'metrics-token-0123456789abcdef'
    const { port } = await provisionedServer({ host: '0.0.0.0', metricsToken: token })
    const remote = `http://${external.address}:${port}`
    const refused = await fetch(`${remote}/metrics`)
    expect(refused.status).toBe(401)
    expect(((await refused.json()) as any).error.code).toBe('AUTHENTICATION_FAILED')
    expect((await fetch(`${remote}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401)
    expect((await scrape(remote, { authorization: `Bearer ${token}` })).types.size).toBeGreaterThan(5)
    // Loopback needs no token.
    await scrape(`http://127.0.0.1:${port}`)
  })

  test('without a token: loopback only; a forwarded request (a proxy on this machine) is refused', async () => {
    const { base } = await provisionedServer()
    const forwarded = await fetch(`${base}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } })
    expect(forwarded.status).toBe(403)
    expect(((await forwarded.json()) as any).error.code).toBe('METRICS_FORBIDDEN')
    const request = new Request('http://lobby/metrics')
    expect(() => authorizeMetrics(request, '192.0.2.50', null)).toThrow('loopback only')
    expect(() => authorizeMetrics(request, '::1', null)).not.toThrow()
    expect(() => authorizeMetrics(request, '::ffff:127.0.0.1', null)).not.toThrow()
  })

  test('an app without a server (no peer address) answers only with the token', async () => {
    const ctx = testContext({ metricsToken: 'metrics-token-0123456789abcdef' })
    expect((await request(ctx.app, 'GET', '/metrics')).status).toBe(401)
    const ok = await request(ctx.app, 'GET', '/metrics', { headers: { authorization: 'Bearer metrics-token-0123456789abcdef' } })
    expect(ok.status).toBe(200)
    expect(parsePrometheus(await ok.text()).types.get('lobby_tickets_total')).toBe('counter')
  })

  test('a webhook delivery given up after its retry window counts in lobby_webhook_deliveries_failed_total', async () => {
    const token = 'metrics-token-0123456789abcdef'
    const ctx = testContext({ metricsToken: token })
    provision(ctx, exampleDocument())
    ctx.db.$client.query(`INSERT INTO webhook_deliveries (id, webhook_id, ticket_id, event_type, body, status, attempts, next_attempt_at, created_at)
      VALUES ('dlv_1', 'whk_crm', 'tkt_1', 'ticket.created', '{}', 'PENDING', 12, ?1, ?2)`).run(ctx.clock.now(), ctx.clock.now() - 24 * 3_600_000)
    const worker = new WebhookWorker({ db: ctx.db, clock: ctx.clock, log: () => {}, random: () => 0, onGivenUp: () => ctx.deps.metrics.webhookGivenUp(), fetch: (async () => new Response('no', { status: 500 })) as unknown as typeof fetch })
    const scrapeFailed = async () => {
      const text = await (await request(ctx.app, 'GET', '/metrics', { headers: { authorization: `Bearer ${token}` } })).text()
      return value(parsePrometheus(text).samples, 'lobby_webhook_deliveries_failed_total')
    }
    expect(await scrapeFailed()).toBe(0)
    await worker.tick()
    expect(ctx.db.$client.query("SELECT status FROM webhook_deliveries WHERE id = 'dlv_1'").get()).toEqual({ status: 'FAILED' })
    expect(await scrapeFailed()).toBe(1)
  })
})
