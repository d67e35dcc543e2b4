import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { tempDir } from '../support/cli'
import { startBinary, type RunningBinary } from '../support/binary'

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
})
