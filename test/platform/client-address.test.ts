import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import { startServer, type RunningServer } from '../../src/server'
import { silentLogger } from '../../src/platform/log'
import { ClientAddresses, parseCidr, parseTrustedProxies, rateKeyOf } from '../../src/platform/client-address'
import { tempDir, runCli } from '../support/cli'

const servers: RunningServer[] = []
afterAll(async () => {
  for (const s of servers) await s.stop()
})

async function server(trusted: string[], log = silentLogger) {
  const s = await startServer({
    port: 0, host: '127.0.0.1', dbPath: join(tempDir(), 'lobby.db'), durability: 'normal', log,
    trustedProxies: parseTrustedProxies(trusted),
  })
  servers.push(s)
  return s
}

const pair = (base: string, forwardedFor?: string) => fetch(`${base}/api/devices/v1/pair`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
  body: JSON.stringify({ code: '000000' }),
})

describe('client attribution (contract §23: behind a reverse proxy)', () => {
  test('from a trusted proxy: the last X-Forwarded-For address that is not a trusted proxy; from anyone else: the peer', () => {
    const clients = new ClientAddresses(parseTrustedProxies(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']))
    const req = (xff?: string) => new Request('http://lobby/x', { headers: xff !== undefined ? { 'x-forwarded-for': xff } : {} })
    expect(clients.attribute(req('192.168.1.50'), '127.0.0.1')).toEqual({ address: '192.168.1.50', forwardedUnattributed: false })
    expect(clients.attribute(req('192.168.1.50'), '::ffff:127.0.0.1')).toEqual({ address: '192.168.1.50', forwardedUnattributed: false })
    // A client's own X-Forwarded-For is left of what the proxies appended: never believed.
    expect(clients.attribute(req('6.6.6.6, 192.168.1.50, 10.1.2.3'), '127.0.0.1').address).toBe('192.168.1.50')
    expect(clients.attribute(req('2001:db8::1, fd00::7'), 'fd00::1').address).toBe('2001:db8::1')
    // Every hop trusted: the nearest one; garbage: the nearest trusted hop.
    expect(clients.attribute(req('10.0.0.2'), '127.0.0.1').address).toBe('10.0.0.2')
    expect(clients.attribute(req('not-an-ip, 10.0.0.2'), '127.0.0.1')).toEqual({ address: '10.0.0.2', forwardedUnattributed: true })
    expect(clients.attribute(req(''), '127.0.0.1')).toEqual({ address: '127.0.0.1', forwardedUnattributed: true })
    expect(clients.attribute(req(), '127.0.0.1')).toEqual({ address: '127.0.0.1', forwardedUnattributed: false })
    // Not from a trusted proxy: the header is ignored, and marks the request as forwarded.
    expect(clients.attribute(req('127.0.0.1'), '192.168.1.9')).toEqual({ address: '192.168.1.9', forwardedUnattributed: true })
    expect(new ClientAddresses().attribute(req('192.168.1.50'), '127.0.0.1')).toEqual({ address: '127.0.0.1', forwardedUnattributed: true })
  })

  test('rateKeyOf (contract §27): an IPv6 address\'s /64, an IPv4 address itself (mapped or not), anything else as given', () => {
    expect(rateKeyOf('2001:db8:1:2::7')).toBe('2001:db8:1:2::/64')
    expect(rateKeyOf('2001:DB8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64')
    expect(rateKeyOf('[2001:db8:1:3::1]')).toBe('2001:db8:1:3::/64')
    expect(rateKeyOf('fe80::1%eth0')).toBe('fe80::/64')
    expect(rateKeyOf('192.0.2.1')).toBe('192.0.2.1')
    expect(rateKeyOf('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(rateKeyOf('unknown')).toBe('unknown')
  })

  test('IPv4 and IPv6 CIDRs; a malformed one is refused', () => {
    for (const good of ['127.0.0.1', '10.0.0.0/8', '0.0.0.0/0', '::1', 'fd00::/8', '::ffff:10.0.0.0/104', '2001:db8::/32']) expect(parseCidr(good)).not.toBeNull()
    for (const bad of ['', '10.0.0.0/33', '10.0.0/8', '300.1.1.1', 'fd00::/129', 'lobby.example', '1:2:3:4:5:6:7:8:9', '10.0.0.0/-1', '::1::2']) expect(parseCidr(bad)).toBeNull()
  })

  test('behind a trusted proxy each client has its own pairing rate limit; without one they share the proxy\'s', async () => {
    const proxied = await server(['127.0.0.1'])
    for (let i = 0; i < 10; i++) expect((await pair(proxied.url, '192.168.1.50')).status).toBe(400)
    expect((await pair(proxied.url, '192.168.1.50')).status).toBe(429)
    // Another client through the same proxy is not limited.
    expect((await pair(proxied.url, '192.168.1.51')).status).toBe(400)
    // A client cannot escape by prepending an address of its own.
    expect((await pair(proxied.url, '1.2.3.4, 192.168.1.50')).status).toBe(429)

    const direct = await server([])
    for (let i = 0; i < 10; i++) expect((await pair(direct.url, `192.168.1.${i}`)).status).toBe(400)
    // Not trusted: X-Forwarded-For is ignored, all those came from 127.0.0.1.
    expect((await pair(direct.url, '192.168.1.99')).status).toBe(429)
  })

  test('through a trusted proxy /metrics from a LAN client is 403; the proxy\'s own request (no forwarding) is loopback', async () => {
    const proxied = await server(['127.0.0.1', '::1'])
    const lan = await fetch(`${proxied.url}/metrics`, { headers: { 'x-forwarded-for': '192.168.1.50', 'x-forwarded-proto': 'https', host: 'lobby.branch.example' } })
    expect(lan.status).toBe(403)
    expect(((await lan.json()) as { error: { code: string } }).error.code).toBe('METRICS_FORBIDDEN')
    expect((await fetch(`${proxied.url}/metrics`, { headers: { 'x-forwarded-for': '2001:db8::5' } })).status).toBe(403)
    expect((await fetch(`${proxied.url}/metrics`)).status).toBe(200)
    // A loopback request carrying a forwarding header not from a trusted proxy counts as remote (§13).
    const untrusted = await server([])
    expect((await fetch(`${untrusted.url}/metrics`, { headers: { 'x-forwarded-for': '127.0.0.1' } })).status).toBe(403)
  })

  test('the access log names the attributed client', async () => {
    const lines: Record<string, unknown>[] = []
    const proxied = await server(['127.0.0.1'], (entry) => lines.push(entry))
    await pair(proxied.url, '192.168.1.77')
    await Bun.sleep(20)
    expect(lines.find((l) => l.msg === 'request' && l.path === '/api/devices/v1/pair')).toMatchObject({ client: '192.168.1.77', status: 400 })
  })

  test('--trusted-proxy with a bad CIDR: one clear line, exit 2; LOBBY_TRUSTED_PROXIES likewise', () => {
    const db = join(tempDir(), 'lobby.db')
    const flag = runCli(['serve', '--db', db, '--port', '0', '--trusted-proxy', '10.0.0.0/33'])
    expect(flag.code).toBe(2)
    expect(flag.stderr.trim().split('\n')).toHaveLength(1)
    expect(flag.stderr).toContain('--trusted-proxy must be an IPv4 or IPv6 address or CIDR')
    const env = runCli(['serve', '--db', db, '--port', '0'], { LOBBY_TRUSTED_PROXIES: '127.0.0.1, fd00::/300' })
    expect(env.code).toBe(2)
    expect(env.stderr).toContain('fd00::/300')
  }, 30_000)

  test("the README's proxy recipe sets X-Forwarded-For, X-Forwarded-Proto and Host, and passes --trusted-proxy and --public-origin", () => {
    const readme = readFileSync(join(import.meta.dir, '../../README.md'), 'utf8')
    const section = readme.slice(readme.indexOf('### HTTPS behind a reverse proxy'), readme.indexOf('\n## ', readme.indexOf('### HTTPS behind a reverse proxy')))
    const nginx = /```nginx\n([\s\S]*?)```/.exec(section)?.[1] ?? ''
    expect(nginx).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;')
    expect(nginx).toContain('proxy_set_header X-Forwarded-Proto $scheme;')
    expect(nginx).toContain('proxy_set_header Host $host;')
    expect(section).toMatch(/lobby serve [^\n]*--trusted-proxy 127\.0\.0\.1[^\n]*--public-origin https:\/\//)
  })
})
