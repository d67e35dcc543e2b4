import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { tempDir } from '../support/cli'
import { startBinary, type RunningBinary } from '../support/binary'

const running: RunningBinary[] = []
afterAll(async () => {
  for (const r of running) if (r.proc.exitCode === null) await r.stop('SIGKILL')
})

describe('dist/lobby', () => {
  test('serves /health, Swagger UI with no external host, and exits 0 on SIGTERM', async () => {
    const dir = tempDir()
    const server = await startBinary(['serve', '--port', '0', '--host', '127.0.0.1', '--db', join(dir, 'lobby.db')])
    running.push(server)
    const health = await fetch(`${server.url}/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })

    const html = await (await fetch(`${server.url}/swagger`)).text()
    expect(html).not.toMatch(/https?:\/\//)
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    for (const asset of assets) expect((await fetch(`${server.url}${asset}`)).status).toBe(200)
    const doc = (await (await fetch(`${server.url}/swagger/json`)).json()) as any
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(['queueBearer', 'workspaceBearer', 'workspaceHeader']))

    expect(await server.stop('SIGTERM')).toBe(0)
    expect(server.lines.some((l) => l.includes('"msg":"stopped"'))).toBe(true)
  })

  test('serves HTTPS with a self-signed certificate pair', async () => {
    const dir = tempDir()
    const cert = join(dir, 'cert.pem')
    const key = join(dir, 'key.pem')
    const made = Bun.spawnSync(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], { stderr: 'ignore', stdout: 'ignore' })
    expect(made.exitCode).toBe(0)
    const server = await startBinary(['serve', '--port', '0', '--host', '127.0.0.1', '--db', join(dir, 'lobby.db'), '--tls-cert', cert, '--tls-key', key])
    running.push(server)
    expect(server.url).toStartWith('https://')
    const res = await fetch(`${server.url}/health`, { tls: { rejectUnauthorized: false } })
    expect(res.status).toBe(200)
    expect(await server.stop('SIGINT')).toBe(0)
  })
})
