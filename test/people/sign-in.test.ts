import { describe, expect, test } from 'bun:test'
import { ADDRESS_FAILURES, LOCK_WINDOW_MS, PeopleCodes } from '../../src/people'
import type { RateLimiter } from '../../src/platform/rate-limit'
import { cli, codeOf, GOOD_PASSWORD, jsonOf, peopleContext, request, SESSIONS, SETUP, signIn, withPassword } from './helpers'

const unlimited: RateLimiter = { attempt: () => ({ allowed: true }) }

describe('sign-in (contract §16)', () => {
  test('wrong password and unknown user: the same 401 SIGN_IN_FAILED answer', async () => {
    const ctx = peopleContext()
    await withPassword(ctx, { username: 'root', role: 'admin' })
    const wrong = await signIn(ctx, 'root', 'not the password at all')
    const unknown = await signIn(ctx, 'nobody', 'not the password at all')
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    const strip = (body: any) => ({ ...body.error, correlationId: undefined })
    expect(strip(await jsonOf(wrong))).toEqual(strip(await jsonOf(unknown)))
    expect(strip(await jsonOf(await signIn(ctx, 'root', 'not the password at all')))).toMatchObject({ code: PeopleCodes.SIGN_IN_FAILED, message: 'wrong username or password' })
  })

  test('a user without a password yet, or disabled, fails like an unknown one', async () => {
    const ctx = peopleContext()
    cli(ctx).addUser({ username: 'fresh', role: 'manager', queueUnits: ['qu_main'] }, ctx.clock.now())
    await withPassword(ctx, { username: 'gone', role: 'manager', queueUnits: ['qu_main'] })
    cli(ctx).disableUser('gone')
    for (const username of ['fresh', 'gone']) {
      const response = await signIn(ctx, username)
      expect(response.status).toBe(401)
      expect((await jsonOf(response)).error.code).toBe(PeopleCodes.SIGN_IN_FAILED)
    }
  })

  test('5 failures in 15 minutes lock the username for 15 minutes: the right password is refused while locked', async () => {
    const ctx = peopleContext()
    await withPassword(ctx, { username: 'root', role: 'admin' })
    await withPassword(ctx, { username: 'other', role: 'admin' })
    for (let i = 0; i < 5; i++) {
      expect((await signIn(ctx, 'root', `wrong guess number ${i}`)).status).toBe(401)
      ctx.clock.advance(1000)
    }
    const locked = await signIn(ctx, 'root')
    expect(locked.status).toBe(429)
    expect((await jsonOf(locked)).error.code).toBe(PeopleCodes.SIGN_IN_LOCKED)
    const retry = Number(locked.headers.get('retry-after'))
    expect(retry).toBeGreaterThan(14 * 60)
    expect(retry).toBeLessThanOrEqual(15 * 60)
    // Another username is not locked.
    expect((await signIn(ctx, 'other')).status).toBe(200)
    ctx.clock.advance(retry * 1000 - 2000)
    expect((await signIn(ctx, 'root')).status).toBe(429)
    ctx.clock.advance(LOCK_WINDOW_MS)
    expect((await signIn(ctx, 'root')).status).toBe(200)
  })

  test('failures spread over more than 15 minutes do not lock; an unknown username locks the same way', async () => {
    const ctx = peopleContext({ limiter: unlimited })
    await withPassword(ctx, { username: 'root', role: 'admin' })
    for (let i = 0; i < 8; i++) {
      expect((await signIn(ctx, 'root', 'wrong password here')).status).toBe(401)
      ctx.clock.advance(4 * 60_000)
    }
    expect((await signIn(ctx, 'root')).status).toBe(200)
    for (let i = 0; i < 5; i++) await signIn(ctx, 'nobody', 'wrong password here')
    expect((await signIn(ctx, 'nobody', 'wrong password here')).status).toBe(429)
  })

  test('20 failures a minute from one address, then 429 before the body is read (Connection: close)', async () => {
    const ctx = peopleContext()
    expect(ADDRESS_FAILURES).toBe(20)
    for (let i = 0; i < ADDRESS_FAILURES; i++) {
      expect((await signIn(ctx, `guess${i}`, 'wrong password here')).status).toBe(401)
    }
    // A body that never ends: had the route waited for it, this request would never be answered.
    const body = new ReadableStream({ start(controller) { controller.enqueue(new TextEncoder().encode('{"username":"a","pass')) } })
    const refused = await ctx.app.handle(new Request(`http://localhost${SESSIONS}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half',
    } as RequestInit))
    expect(refused.status).toBe(429)
    expect((await jsonOf(refused)).error.code).toBe(PeopleCodes.RATE_LIMITED)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refused.headers.get('connection')).toBe('close')
    ctx.clock.advance(61_000)
    expect((await signIn(ctx, 'guess', 'wrong password here')).status).toBe(401)
  })

  test('an unknown user takes about as long as a wrong password (one Argon2 verification either way)', async () => {
    // The server's own cost, so a verification dominates the time as it does in production.
    const ctx = peopleContext({ limiter: unlimited, passwordCost: { memoryCost: 19_456, timeCost: 2 } })
    const TRIES = 10
    const names = Array.from({ length: TRIES + 1 }, (_, i) => `user${i}`)
    for (const username of names) await withPassword(ctx, { username, role: 'manager', queueUnits: ['qu_main'] })
    // Warm both paths once (the dummy hash is made on first use).
    await signIn(ctx, 'nobody-warm', 'wrong password here')
    await signIn(ctx, names[TRIES]!, 'wrong password here')
    let wrong = 0
    let unknown = 0
    for (let i = 0; i < TRIES; i++) {
      // Interleaved, each username once: no lockout, and a slow moment of the machine hits both.
      let t = performance.now()
      expect((await signIn(ctx, names[i]!, 'wrong password here')).status).toBe(401)
      wrong += performance.now() - t
      t = performance.now()
      expect((await signIn(ctx, `nobody${i}`, 'wrong password here')).status).toBe(401)
      unknown += performance.now() - t
      // Under the address's 20 failures a minute.
      ctx.clock.advance(10_000)
    }
    const ratio = unknown / wrong
    expect(ratio).toBeGreaterThan(0.6)
    expect(ratio).toBeLessThan(1 / 0.6)
  }, 60_000)

  test('successes are no failures: 30 sign-ins a minute from one address all succeed', async () => {
    const ctx = peopleContext()
    await withPassword(ctx, { username: 'root', role: 'admin' })
    for (let i = 0; i < 30; i++) expect((await signIn(ctx, 'root')).status).toBe(200)
    expect((ctx.db.$client.query('SELECT COUNT(*) AS n FROM sign_in_failures').get() as { n: number }).n).toBe(0)
  })

  test('bad input is never a 500', async () => {
    const ctx = peopleContext()
    for (const raw of ['{', '"x"', '{"username":"root"}', '{"username":"root","password":"x","extra":1}', '{"username":5,"password":[]}']) {
      const response = await request(ctx.app, 'POST', SESSIONS, { raw, headers: { 'content-type': 'application/json' } })
      expect([400, 422]).toContain(response.status)
    }
    const long = await signIn(ctx, 'ROOT name with spaces', 'whatever password')
    expect(long.status).toBe(401)
  })

  test('nothing logged holds a password, a session ID or a setup code; the setup page is logged as its template', async () => {
    const ctx = peopleContext()
    const link = cli(ctx).addUser({ username: 'root', role: 'admin' }, ctx.clock.now())
    const code = codeOf(link.setupPath)
    expect((await request(ctx.app, 'GET', link.setupPath)).status).toBe(200)
    expect((await request(ctx.app, 'POST', SETUP, { body: { code, password: 'short' } })).status).toBe(422)
    expect((await request(ctx.app, 'POST', SETUP, { body: { code, password: GOOD_PASSWORD } })).status).toBe(200)
    expect((await request(ctx.app, 'GET', link.setupPath)).status).toBe(200)
    expect((await request(ctx.app, 'GET', '/login/setup/x?code=' + code)).status).toBe(404)
    expect((await signIn(ctx, 'root', 'hunter2 wrong password')).status).toBe(401)
    const good = await signIn(ctx, 'root')
    const session = good.headers.get('set-cookie')!.split(';')[0]!.split('=')[1]!
    ctx.clock.advance(61_000)
    // The access log's minute summary is written once the next response is sent.
    await request(ctx.app, 'GET', '/health')
    for (let i = 0; i < 200 && !ctx.logs.some((l) => l.msg === 'requests'); i++) await Bun.sleep(1)
    const logged = JSON.stringify(ctx.logs)
    for (const secret of [code, GOOD_PASSWORD, 'hunter2 wrong password', session]) expect(logged).not.toContain(secret)
    expect(ctx.logs.find((l) => l.msg === 'requests')).toMatchObject({ counts: { 'GET /login/setup': 2 } })
    expect(logged).toContain('signed in')
  })
})

describe('sign-in under parallel guessing', () => {
  test('guesses sent all at once still lock after 5: the lock check and the count are one write', async () => {
    const ctx = peopleContext({ limiter: unlimited })
    await withPassword(ctx, { username: 'root', role: 'admin' })
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(ctx, 'root', `parallel guess ${i}`)))
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 401).length).toBe(5)
    expect(statuses.filter((s) => s === 429).length).toBe(7)
    expect((await signIn(ctx, 'root')).status).toBe(429)
  })
})
