import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { randomBytes, randomUUID } from 'node:crypto'
import type { RunningBinary } from '../support/binary'
import { makeMonth } from '../prayer/support'
import {
  HOST, IDS, QUEUE, RawConnection, currentPeriod, envelopeProblems, issueTicket, lobby, monthsPath, provisionBranch, pushMonth,
  rowCounts, scenario, ticketBody, widgetPushPath,
} from './support'

const s = scenario(
  'credentials',
  'Every route with no key, an unknown key, a key revoked and a key rotated out (grace 0) with the CLI while the server ' +
    'runs, and every key of the wrong kind, gets the refusal of contract §§3–6 and the feature docs (status, code, envelope, ' +
    'correlation ID; `WWW-Authenticate: Bearer` on Queue 401s), and stores nothing; the valid keys keep working.',
)

type Kind = 'queue' | 'workspace' | 'display'

/** How a request presents its credential. */
interface Presentation {
  label: string
  authorization?: string
  apiKeyHeader?: string
  /** Display routes: `?token=`. */
  query?: string
  /** True when this is "no key" for the route (the 401 of widget and prayer routes). */
  none?: boolean
}

interface Route {
  name: string
  kind: Kind
  /** Sends the route's valid request with this credential. */
  send(base: string, p: Presentation): Promise<Response>
  /** The refusal for a bad credential: `[status, code]`; `none` is the "no key at all" case. */
  refusal(none: boolean): [number, string]
  /** Statuses of the valid request with a valid key. */
  ok: number[]
}

const auth = (p: Presentation): Record<string, string> => ({
  ...(p.authorization !== undefined ? { authorization: p.authorization } : {}),
  ...(p.apiKeyHeader !== undefined ? { 'x-service-api-key': p.apiKeyHeader } : {}),
})
const withQuery = (url: string, p: Presentation) => (p.query === undefined ? url : `${url}?token=${encodeURIComponent(p.query)}`)

const QUEUE_REFUSAL = (): [number, string] => [401, 'AUTHENTICATION_FAILED']
const WIDGET_REFUSAL = (none: boolean): [number, string] => (none ? [401, 'AUTHENTICATION_REQUIRED'] : [403, 'WIDGET_NOT_FOUND_OR_FORBIDDEN'])
const PRAYER_REFUSAL = (none: boolean): [number, string] => (none ? [401, 'AUTHENTICATION_REQUIRED'] : [403, 'SOURCE_NOT_FOUND_OR_FORBIDDEN'])
const DISPLAY_REFUSAL = (): [number, string] => [401, 'AUTHENTICATION_FAILED']

const WS_HANDSHAKE = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n'

/** The websocket upgrade over a raw connection: returns the first response (101 or a refusal). */
async function upgrade(base: string, p: Presentation): Promise<Response> {
  const conn = await RawConnection.open(base)
  const path = withQuery('/api/display/v1/live', p)
  const headers = Object.entries(auth(p)).map(([k, v]) => `${k}: ${v}\r\n`).join('')
  await conn.write(`GET ${path} HTTP/1.1\r\nHost: ${HOST}\r\n${WS_HANDSHAKE}${headers}\r\n`)
  await conn.until(() => conn.responses().length > 0 || conn.closed, 5_000)
  conn.end()
  const first = conn.responses()[0]
  if (first === undefined) throw new Error(`websocket upgrade (${p.label}): no response`)
  return new Response(first.status === 101 ? null : first.body, { status: first.status, headers: first.headers })
}

describe('credentials: every route refuses every bad credential', () => {
  const branch = provisionBranch()
  const period = currentPeriod()
  let server: RunningBinary
  let ticketId = ''
  let rotatedIn: Record<Kind, string>
  const routes: Route[] = [
    { name: 'GET queue/services', kind: 'queue', ok: [200], refusal: QUEUE_REFUSAL, send: (b, p) => fetch(`${b}${QUEUE}/services`, { headers: auth(p) }) },
    {
      name: 'POST queue/tickets', kind: 'queue', ok: [201], refusal: QUEUE_REFUSAL,
      send: (b, p) => fetch(`${b}${QUEUE}/tickets`, {
        method: 'POST',
        headers: {
          ...auth(p), 'content-type': 'application/json', 'x-request-timestamp': new Date().toISOString(), 'x-request-nonce': randomUUID(),
          'idempotency-key': `cred-${randomUUID()}`,
        },
        body: ticketBody(),
      }),
    },
    { name: 'GET queue/tickets/{id}', kind: 'queue', ok: [200], refusal: QUEUE_REFUSAL, send: (b, p) => fetch(`${b}${QUEUE}/tickets/${ticketId}`, { headers: auth(p) }) },
    { name: 'GET queue/state', kind: 'queue', ok: [200], refusal: QUEUE_REFUSAL, send: (b, p) => fetch(`${b}${QUEUE}/state`, { headers: auth(p) }) },
    {
      name: 'POST widgets/{id}/data/push', kind: 'workspace', ok: [200], refusal: WIDGET_REFUSAL,
      send: (b, p) => fetch(`${b}${widgetPushPath(IDS.lobbyWidget)}`, {
        method: 'POST',
        headers: { ...auth(p), 'content-type': 'application/json', 'idempotency-key': `cred-${randomUUID()}` },
        body: JSON.stringify({ pushVersion: 1, widgetType: 'ANNOUNCEMENTS', writeMode: 'REPLACE_SNAPSHOT', data: { schemaVersion: 2, items: [] } }),
      }),
    },
    {
      name: 'POST prayer-schedules/sources/{id}/months', kind: 'workspace', ok: [200, 201], refusal: PRAYER_REFUSAL,
      send: (b, p) => fetch(`${b}${monthsPath(IDS.source)}`, {
        method: 'POST',
        headers: { ...auth(p), 'content-type': 'application/json', 'idempotency-key': `cred-${randomUUID()}` },
        body: JSON.stringify(makeMonth(period)),
      }),
    },
    {
      name: 'GET prayer-schedules/sources/{id}/months/{period}', kind: 'workspace', ok: [200], refusal: PRAYER_REFUSAL,
      send: (b, p) => fetch(`${b}${monthsPath(IDS.source)}/${period}`, { headers: auth(p) }),
    },
    {
      name: 'GET display widgets/{id}', kind: 'display', ok: [200], refusal: DISPLAY_REFUSAL,
      send: (b, p) => fetch(withQuery(`${b}/api/display/v1/widgets/${IDS.lobbyWidget}`, p), { headers: auth(p) }),
    },
    {
      name: 'GET display prayer months/{period}', kind: 'display', ok: [200], refusal: DISPLAY_REFUSAL,
      send: (b, p) => fetch(withQuery(`${b}/api/display/v1/prayer-schedules/sources/${IDS.source}/months/${period}`, p), { headers: auth(p) }),
    },
    {
      name: 'GET display prayer today', kind: 'display', ok: [200], refusal: DISPLAY_REFUSAL,
      send: (b, p) => fetch(withQuery(`${b}/api/display/v1/prayer-schedules/sources/${IDS.source}/today`, p), { headers: auth(p) }),
    },
    { name: 'GET display live (websocket upgrade)', kind: 'display', ok: [101], refusal: DISPLAY_REFUSAL, send: upgrade },
    {
      name: 'POST operator counters/{id}/open', kind: 'queue', ok: [200], refusal: QUEUE_REFUSAL,
      send: (b, p) => fetch(`${b}/api/operator/v1/counters/${IDS.counters[7]}/open`, { method: 'POST', headers: auth(p) }),
    },
    {
      name: 'POST operator counters/{id}/call-next', kind: 'queue', ok: [200, 404, 409], refusal: QUEUE_REFUSAL,
      send: (b, p) => fetch(`${b}/api/operator/v1/counters/${IDS.counters[6]}/call-next`, { method: 'POST', headers: auth(p) }),
    },
    { name: 'GET operator queue', kind: 'queue', ok: [200], refusal: QUEUE_REFUSAL, send: (b, p) => fetch(`${b}/api/operator/v1/queue`, { headers: auth(p) }) },
  ]
  /** Operator routes need `counter:operate`: the operator key is their valid key. */
  const isOperator = (r: Route) => r.name.startsWith('POST operator') || r.name.startsWith('GET operator')

  beforeAll(async () => {
    server = await branch.serve()
    const doc = (await (await fetch(`${server.url}/swagger/json`)).json()) as { paths: Record<string, unknown> }
    if (doc.paths['/api/display/v1/queue-units/{queueUnitId}/state'] !== undefined) {
      routes.push({
        name: 'GET display queue-units/{id}/state', kind: 'display', ok: [200], refusal: DISPLAY_REFUSAL,
        send: (b, p) => fetch(withQuery(`${b}/api/display/v1/queue-units/${IDS.unit}/state`, p), { headers: auth(p) }),
      })
    } else {
      s.note('GET /api/display/v1/queue-units/{queueUnitId}/state (docs/display.md) is not served by this build: not checked')
    }
    // Data the reads need: a ticket, a stored month for the current period.
    const res = await issueTicket(server.url, branch.secrets.queue.main, `cred-setup-${randomUUID()}`, ticketBody())
    expect(res.status).toBe(201)
    ticketId = JSON.parse(await res.text()).data.id
    const month = await pushMonth(server.url, branch.secrets.workspace.cms, IDS.source, `cred-setup-${randomUUID()}`, JSON.stringify(makeMonth(period)))
    expect(month.status).toBe(201)
  })
  afterAll(async () => {
    expect(await server.stop('SIGTERM')).toBe(0)
  })

  const validSecret = (r: Route): string => (isOperator(r) ? branch.secrets.queue.operator : r.kind === 'queue' ? branch.secrets.queue.main : r.kind === 'workspace' ? branch.secrets.workspace.cms : branch.secrets.display.screens)

  async function expectOk(r: Route, p: Presentation, what: string) {
    const res = await r.send(server.url, p)
    const text = await res.text()
    s.add('requests sent')
    if (!r.ok.includes(res.status)) throw new Error(`${r.name} with ${what}: expected ${r.ok.join('/')}, got ${res.status} ${text.slice(0, 200)}`)
  }

  s.test('positive control: each route accepts its valid key', async () => {
    for (const r of routes) await expectOk(r, { label: 'valid', authorization: `Bearer ${validSecret(r)}` }, 'the valid key')
    for (const r of routes.filter((r) => r.kind === 'workspace')) await expectOk(r, { label: 'valid', apiKeyHeader: branch.secrets.workspace.cms }, 'the valid key in x-service-api-key')
    for (const r of routes.filter((r) => r.kind === 'display')) await expectOk(r, { label: 'valid', query: branch.secrets.display.screens }, 'the valid token in ?token=')
  }, 30_000)

  s.test('no key, unknown, revoked, rotated-out and wrong-kind keys get the route\'s refusal; nothing is stored', async () => {
    // Revoke and rotate with the CLI while the server runs; the server must see it within its
    // key cache's bound (5 ms; each CLI run takes far longer than that).
    const revoke = (kind: string, owner: string) => expect(lobby(['keys', 'revoke', '--db', branch.db, '--kind', kind, '--owner', owner, '--name', 'revoked']).code).toBe(0)
    const rotate = (kind: string, owner: string) => {
      const out = lobby(['keys', 'rotate', '--db', branch.db, '--kind', kind, '--owner', owner, '--name', 'rotated', '--grace', '0'])
      expect(out.code).toBe(0)
      return JSON.parse(out.stdout).secret as string
    }
    revoke('queue', IDS.unit)
    revoke('workspace', IDS.workspace)
    revoke('display', IDS.workspace)
    rotatedIn = { queue: rotate('queue', IDS.unit), workspace: rotate('workspace', IDS.workspace), display: rotate('display', IDS.workspace) }

    const sec = branch.secrets
    const prefix: Record<Kind, string> = { queue: 'lbq_', workspace: 'lbw_', display: 'lbd_' }
    const byKind: Record<Kind, { revoked: string; rotated: string }> = {
      queue: { revoked: sec.queue.revoked, rotated: sec.queue.rotated },
      workspace: { revoked: sec.workspace.revoked, rotated: sec.workspace.rotated },
      display: { revoked: sec.display.revoked, rotated: sec.display.rotated },
    }
    const allOfKind: Record<Kind, string> = { queue: sec.queue.main, workspace: sec.workspace.cms, display: sec.display.screens }

    const before = rowCounts(branch.db)
    const problems: string[] = []
    let refusals = 0
    for (const r of routes) {
      const presentations: Presentation[] = [
        { label: 'no credential', none: true },
        { label: 'empty Bearer', authorization: 'Bearer ', none: true },
        { label: 'Basic scheme', authorization: `Basic ${Buffer.from('user:pass').toString('base64')}`, none: true },
        { label: 'Bearer with two tokens', authorization: `Bearer ${validSecret(r)} ${validSecret(r)}`, none: true },
        { label: 'unknown key of the right kind', authorization: `Bearer ${prefix[r.kind]}${randomBytes(32).toString('base64url')}` },
        { label: 'unknown key without prefix', authorization: `Bearer ${randomBytes(32).toString('base64url')}` },
        { label: 'revoked key', authorization: `Bearer ${byKind[r.kind].revoked}` },
        { label: 'rotated-out key (grace 0)', authorization: `Bearer ${byKind[r.kind].rotated}` },
        ...(['queue', 'workspace', 'display'] as const).filter((k) => k !== r.kind).map((k) => ({ label: `${k} key (wrong kind)`, authorization: `Bearer ${allOfKind[k]}` })),
        { label: 'webhook signing secret (wrong kind)', authorization: `Bearer ${sec.webhook}` },
      ]
      if (r.kind === 'workspace') {
        presentations.push(
          { label: 'empty x-service-api-key', apiKeyHeader: '', none: true },
          { label: 'revoked key in x-service-api-key', apiKeyHeader: sec.workspace.revoked },
          { label: 'rotated-out key in x-service-api-key', apiKeyHeader: sec.workspace.rotated },
          { label: 'queue key in x-service-api-key', apiKeyHeader: sec.queue.main },
          { label: 'display token in x-service-api-key', apiKeyHeader: sec.display.screens },
          { label: 'another workspace\'s key', authorization: `Bearer ${sec.workspace.other}` },
        )
      }
      if (r.kind === 'queue') presentations.push({ label: 'valid queue key in x-service-api-key (not accepted there)', apiKeyHeader: validSecret(r), none: true })
      if (r.kind === 'display') {
        presentations.push(
          { label: 'revoked token in ?token=', query: sec.display.revoked },
          { label: 'rotated-out token in ?token=', query: sec.display.rotated },
          { label: 'workspace key in ?token=', query: sec.workspace.cms },
          { label: 'queue key in ?token=', query: sec.queue.main },
          { label: 'unknown token in ?token=', query: `lbd_${randomBytes(32).toString('base64url')}` },
        )
      }
      for (const p of presentations) {
        const [status, code] = r.refusal(p.none === true)
        const res = await r.send(server.url, p)
        const text = await res.text()
        s.add('requests sent')
        refusals++
        const envelope = envelopeProblems(res.status, res.headers, text)
        let got = ''
        try {
          got = JSON.parse(text).error.code
        } catch {}
        if (res.status !== status || got !== code || envelope.length > 0) {
          problems.push(`${r.name} with ${p.label}: expected ${status} ${code}, got ${res.status} ${text.slice(0, 140)} ${envelope.join('; ')}`)
        } else if (status === 401 && r.kind === 'queue' && res.headers.get('www-authenticate') !== 'Bearer') {
          problems.push(`${r.name} with ${p.label}: 401 without WWW-Authenticate: Bearer`)
        }
      }
    }
    s.set('refusals checked', refusals)
    s.set('routes', routes.length)
    expect(problems).toEqual([])
    expect(rowCounts(branch.db)).toEqual(before)
  }, 60_000)

  s.test('another owner\'s valid key sees nothing of this branch', async () => {
    const other = branch.secrets
    const checks: [string, Promise<Response>, number, string][] = [
      ['ticket read with another unit\'s queue key', fetch(`${server.url}${QUEUE}/tickets/${ticketId}`, { headers: { authorization: `Bearer ${other.queue.other}` } }), 404, 'TICKET_NOT_FOUND'],
      ['ticket issue at this unit\'s location with another unit\'s key', issueTicket(server.url, other.queue.other, `cred-${randomUUID()}`, ticketBody()), 422, 'VALIDATION_FAILED'],
      ['widget push with another workspace\'s key', fetch(`${server.url}${widgetPushPath(IDS.lobbyWidget)}`, { method: 'POST', headers: { authorization: `Bearer ${other.workspace.other}`, 'content-type': 'application/json' }, body: '{}' }), 403, 'WIDGET_NOT_FOUND_OR_FORBIDDEN'],
      ['month read with another workspace\'s key', fetch(`${server.url}${monthsPath(IDS.source)}/${period}`, { headers: { authorization: `Bearer ${other.workspace.other}` } }), 403, 'SOURCE_NOT_FOUND_OR_FORBIDDEN'],
      ['display widget read with another workspace\'s token', fetch(`${server.url}/api/display/v1/widgets/${IDS.lobbyWidget}`, { headers: { authorization: `Bearer ${other.display.other}` } }), 404, 'NOT_FOUND'],
      ['display today with another workspace\'s token', fetch(`${server.url}/api/display/v1/prayer-schedules/sources/${IDS.source}/today`, { headers: { authorization: `Bearer ${other.display.other}` } }), 404, 'NOT_FOUND'],
      ['operator call-next with a queue key lacking counter:operate', fetch(`${server.url}/api/operator/v1/counters/${IDS.counters[5]}/call-next`, { method: 'POST', headers: { authorization: `Bearer ${other.queue.main}` } }), 403, 'SCOPE_FORBIDDEN'],
      ['ticket issue with the operator key (no tickets:write)', issueTicket(server.url, other.queue.operator, `cred-${randomUUID()}`, ticketBody()), 403, 'SCOPE_FORBIDDEN'],
    ]
    const problems: string[] = []
    for (const [what, pending, status, code] of checks) {
      const res = await pending
      const text = await res.text()
      s.add('requests sent')
      const body = (() => {
        try {
          return JSON.parse(text)
        } catch {
          return null
        }
      })()
      if (res.status !== status || body?.error?.code !== code || envelopeProblems(res.status, res.headers, text).length > 0) problems.push(`${what}: expected ${status} ${code}, got ${res.status} ${text.slice(0, 140)}`)
    }
    const services = await (await fetch(`${server.url}${QUEUE}/services`, { headers: { authorization: `Bearer ${other.queue.other}` } })).json() as any
    expect(services.data.services.map((x: { id: string }) => x.id)).toEqual(['svc_other'])
    expect(problems).toEqual([])
  }, 30_000)

  s.test('after revocation and rotation the valid keys and the rotated-in secrets still work', async () => {
    for (const r of routes) await expectOk(r, { label: 'valid', authorization: `Bearer ${validSecret(r)}` }, 'the valid key')
    for (const r of routes.filter((r) => !isOperator(r))) await expectOk(r, { label: 'rotated in', authorization: `Bearer ${rotatedIn[r.kind]}` }, 'the rotated-in secret')
  }, 30_000)

  s.test('a display token in the Authorization header opens the live websocket and keeps it open', async () => {
    // docs/display.md: a token is sent as `Authorization: Bearer lbd_…` or as `?token=`; both must give a working socket.
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/display/v1/live`, { headers: { authorization: `Bearer ${branch.secrets.display.screens}` } } as never)
    const outcome = await new Promise<string>((resolve) => {
      socket.onopen = () => socket.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'widget', id: IDS.lobbyWidget }] }))
      socket.onmessage = (event) => resolve(`message ${String(event.data).slice(0, 60)}`)
      socket.onclose = (event) => resolve(`closed ${event.code} ${event.reason}`)
      setTimeout(() => resolve('no message within 3 s'), 3_000)
    })
    socket.close()
    s.add('requests sent')
    expect(outcome).toStartWith('message {"type":"snapshot"')
  }, 15_000)
})
