import { afterAll, describe, expect, test } from 'bun:test'
import { linkSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../support/cli'
import { ensureBinary, startBinary, type RunningBinary } from '../support/binary'

const running: RunningBinary[] = []
afterAll(async () => {
  for (const r of running) if (r.proc.exitCode === null) await r.stop('SIGKILL')
})

describe('dist/lobby: operations', () => {
  test('serves /metrics from the compiled binary (prom-client bundled) and takes the retention and token settings', async () => {
    const server = await startBinary(
      ['serve', '--port', '0', '--host', '127.0.0.1', '--db', join(tempDir(), 'lobby.db'), '--retain-days', '30'],
      { LOBBY_METRICS_TOKEN: 'metrics-token-0123456789abcdef' },
    )
    running.push(server)
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
    const metrics = await fetch(`${server.url}/metrics`)
    expect(metrics.status).toBe(200)
    const text = await metrics.text()
    expect(text).toContain('lobby_http_requests_total{route="/health",method="GET",status="200"} 1')
    expect(text).toContain('# TYPE lobby_write_batch_size histogram')
    // Loopback through a proxy needs the token given in the environment.
    expect((await fetch(`${server.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.1' } })).status).toBe(401)
    expect((await fetch(`${server.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.1', authorization: 'Bearer metrics-token-0123456789abcdef' } })).status).toBe(200)
    expect(await server.stop()).toBe(0)
  })

  test('refuses a second server of a database in use through a symlink or a hard link (contract §23)', async () => {
    const dir = tempDir()
    const db = join(dir, 'lobby.db')
    const first = await startBinary(['serve', '--port', '0', '--host', '127.0.0.1', '--db', db])
    running.push(first)
    symlinkSync(db, join(dir, 'symlink.db'))
    linkSync(db, join(dir, 'hardlink.db'))
    for (const other of [join(dir, 'symlink.db'), join(dir, 'hardlink.db')]) {
      const proc = Bun.spawn([ensureBinary(), 'serve', '--port', '0', '--host', '127.0.0.1', '--db', other], { stdout: 'pipe', stderr: 'pipe' })
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000)
      const code = await proc.exited
      clearTimeout(timer)
      expect({ other, code }).toEqual({ other, code: 2 })
      expect(await new Response(proc.stderr).text()).toBe(`lobby: database ${other} is already served by another lobby process (PID ${first.proc.pid}); stop it first\n`)
    }
    expect((await fetch(`${first.url}/health`)).status).toBe(200)
    expect(await first.stop()).toBe(0)
  }, 30_000)
})
