import { afterEach, describe, expect, test } from 'bun:test'
import { postFrom } from '../support/raw-post'
import { GOOD_PASSWORD, peopleContext, SESSIONS, withPassword } from './helpers'
import type { TestContext } from '../support/app'

function signInFrom(port: number, localAddress: string, username: string, password: string): Promise<{ status: number; headers: string }> {
  return postFrom(port, localAddress, SESSIONS, { username, password })
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
