import { afterEach, describe, expect, test } from 'bun:test'
import net from 'node:net'
import { GOOD_PASSWORD, peopleContext, SESSIONS, withPassword } from './helpers'
import type { TestContext } from '../support/app'

/** POST /api/auth/v1/sessions over a raw connection from `localAddress`; the status and headers of the answer. */
function signInFrom(port: number, localAddress: string, username: string, password: string): Promise<{ status: number; headers: string }> {
  const body = JSON.stringify({ username, password })
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress }, () => {
      socket.write(`POST ${SESSIONS} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
    })
    let text = ''
    socket.setEncoding('latin1')
    socket.on('data', (d) => (text += d))
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? NaN)
      resolve({ status, headers: text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase() })
    })
    socket.on('error', reject)
  })
}

describe('sign-in attempts per address (contract §16, §23), over real connections', () => {
  let listening: TestContext | null = null
  afterEach(() => {
    listening?.app.stop(true)
    listening = null
  })

  test('one address is stopped after 20 failures (429 with Retry-After, even with the right password); another address still signs in', async () => {
    const ctx = peopleContext()
    await withPassword(ctx, { username: 'root', role: 'admin' })
    ctx.app.listen({ port: 0, hostname: '127.0.0.1' })
    listening = ctx
    const port = ctx.app.server!.port!
    for (let i = 0; i < 20; i++) expect((await signInFrom(port, '127.0.0.2', `guess${i}`, 'wrong password here')).status).toBe(401)
    const limited = await signInFrom(port, '127.0.0.2', 'root', GOOD_PASSWORD)
    expect(limited.status).toBe(429)
    expect(limited.headers).toContain('retry-after:')
    expect((await signInFrom(port, '127.0.0.3', 'root', GOOD_PASSWORD)).status).toBe(200)
    ctx.clock.advance(60_000)
    expect((await signInFrom(port, '127.0.0.2', 'root', GOOD_PASSWORD)).status).toBe(200)
  })
})
