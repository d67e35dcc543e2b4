import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { startBinary, type RunningBinary } from '../support/binary'
import { tempDir } from '../support/cli'

const running: RunningBinary[] = []
afterAll(async () => {
  for (const server of running) await server.stop()
})

const preflight = (url: string, origin: string) => fetch(`${url}/api/public/v1/queue/tickets`, {
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
})

test('dist/lobby serve --cors-origin (repeatable) and LOBBY_CORS_ORIGINS allow exactly those origins', async () => {
  const dir = tempDir()
  const flagged = await startBinary(['serve', '--port', '0', '--host', '127.0.0.1', '--db', join(dir, 'a.db'),
    '--cors-origin', 'https://kiosk.example.com', '--cors-origin', 'http://localhost:5173'], { LOBBY_CORS_ORIGINS: 'https://ignored.example' })
  running.push(flagged)
  for (const origin of ['https://kiosk.example.com', 'http://localhost:5173']) {
    const res = await preflight(flagged.url, origin)
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(origin)
    expect(res.headers.get('access-control-allow-methods')).toBe('POST')
  }
  expect((await preflight(flagged.url, 'https://ignored.example')).headers.get('access-control-allow-origin')).toBeNull()

  const fromEnv = await startBinary(['serve', '--port', '0', '--host', '127.0.0.1', '--db', join(dir, 'b.db')], { LOBBY_CORS_ORIGINS: 'https://a.example, https://b.example:8443' })
  running.push(fromEnv)
  expect((await preflight(fromEnv.url, 'https://b.example:8443')).headers.get('access-control-allow-origin')).toBe('https://b.example:8443')
  expect((await preflight(fromEnv.url, 'https://kiosk.example.com')).headers.get('access-control-allow-origin')).toBeNull()

  const off = await startBinary(['serve', '--port', '0', '--host', '127.0.0.1', '--db', join(dir, 'c.db')], { LOBBY_CORS_ORIGINS: '' })
  running.push(off)
  const res = await preflight(off.url, 'https://kiosk.example.com')
  expect(res.status).toBe(404)
  expect(res.headers.get('access-control-allow-origin')).toBeNull()
}, 60_000)
