import { describe, expect, test } from 'bun:test'
import { PeopleCodes, SESSION_IDLE_MS, SESSION_ABSOLUTE_MS } from '../../src/people'
import { cli, cookieOf, current, CURRENT, GOOD_PASSWORD, jsonOf, ORIGIN, peopleContext, request, signedIn, signIn, withPassword } from './helpers'

describe('sessions (contract §16)', () => {
  test('sign-in sets an HttpOnly, SameSite=Strict session cookie; current says who; the role\'s home', async () => {
    const ctx = peopleContext()
    await withPassword(ctx, { username: 'amira.h', role: 'manager', displayName: 'Amira Haddad', queueUnits: ['qu_main'] })
    const response = await signIn(ctx, 'amira.h')
    expect(response.status).toBe(200)
    expect(await jsonOf(response)).toEqual({ username: 'amira.h', role: 'manager', home: '/manage' })
    const setCookie = response.headers.get('set-cookie')!
    expect(setCookie).toMatch(/^lobby_session=lbs_[a-z2-7]{52}; HttpOnly; SameSite=Strict; Path=\/$/)
    const me = await current(ctx, cookieOf(response))
    expect(me.status).toBe(200)
    expect(await jsonOf(me)).toMatchObject({ username: 'amira.h', displayName: 'Amira Haddad', role: 'manager', queueUnits: ['qu_main'] })
    // Only a hash of the session ID is stored.
    const stored = ctx.db.$client.query('SELECT id_hash FROM user_sessions').all() as { id_hash: string }[]
    expect(stored.length).toBe(1)
    expect(stored[0]!.id_hash).not.toContain(cookieOf(response).slice('lobby_session='.length))
    expect(stored[0]!.id_hash).toMatch(/^[0-9a-f]{64}$/)
  })

  test('Secure under TLS (as the device cookie)', async () => {
    const ctx = peopleContext()
    await withPassword(ctx, { username: 'root', role: 'admin' })
    const response = await ctx.app.handle(new Request('https://branch.example/api/auth/v1/sessions', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: GOOD_PASSWORD }),
    }))
    expect(response.status).toBe(200)
    expect(response.headers.get('set-cookie')).toEndWith('; Secure')
  })

  test('no cookie or a made-up one: 401 AUTHENTICATION_FAILED', async () => {
    const ctx = peopleContext()
    for (const cookie of [undefined, 'lobby_session=lbs_' + 'a'.repeat(52), 'lobby_session=nonsense']) {
      const response = await request(ctx.app, 'GET', CURRENT, { headers: cookie === undefined ? {} : { cookie } })
      expect(response.status).toBe(401)
      expect((await jsonOf(response)).error.code).toBe(PeopleCodes.AUTHENTICATION_FAILED)
    }
  })

  test('a new session ID at every sign-in; the session the browser carried ends', async () => {
    const ctx = peopleContext()
    await withPassword(ctx, { username: 'root', role: 'admin' })
    const first = await signedIn(ctx, 'root')
    const second = cookieOf(await signIn(ctx, 'root', GOOD_PASSWORD, { cookie: first }))
    expect(second).not.toBe(first)
    expect((await current(ctx, first)).status).toBe(401)
    expect((await current(ctx, second)).status).toBe(200)
  })

  test('admin and manager: 30 minutes idle ends the session; use keeps it alive', async () => {
    const ctx = peopleContext()
    await withPassword(ctx, { username: 'root', role: 'admin' })
    const kept = await signedIn(ctx, 'root')
    const idle = await signedIn(ctx, 'root')
    for (let i = 0; i < 3; i++) {
      ctx.clock.advance(SESSION_IDLE_MS - 60_000)
      expect((await current(ctx, kept)).status).toBe(200)
    }
    expect((await current(ctx, idle)).status).toBe(401)
  })

  test('12 hours in all, however busy; a clerk has no idle limit, only the 12 hours', async () => {
    const ctx = peopleContext()
    await withPassword(ctx, { username: 'root', role: 'admin' })
    await withPassword(ctx, { username: 'omar.k', role: 'clerk', queueUnits: ['qu_main'] })
    const admin = await signedIn(ctx, 'root')
    const clerk = await signedIn(ctx, 'omar.k')
    ctx.clock.advance(2 * SESSION_IDLE_MS)
    expect((await current(ctx, clerk)).status).toBe(200)
    const started = ctx.clock.now()
    const busy = await signedIn(ctx, 'root')
    while (ctx.clock.now() - started < SESSION_ABSOLUTE_MS - 20 * 60_000) {
      ctx.clock.advance(20 * 60_000)
      expect((await current(ctx, busy)).status).toBe(200)
    }
    ctx.clock.set(started + SESSION_ABSOLUTE_MS)
    expect((await current(ctx, busy)).status).toBe(401)
    expect((await current(ctx, admin)).status).toBe(401)
    ctx.clock.advance(-SESSION_IDLE_MS)
    expect((await current(ctx, clerk)).status).toBe(401)
  })

  test('signing out ends every session of the user at once and clears the cookie', async () => {
    const ctx = peopleContext()
    await withPassword(ctx, { username: 'root', role: 'admin' })
    const a = await signedIn(ctx, 'root')
    const b = await signedIn(ctx, 'root')
    const out = await request(ctx.app, 'DELETE', CURRENT, { headers: { cookie: a, origin: ORIGIN } })
    expect(out.status).toBe(200)
    expect(await jsonOf(out)).toEqual({ username: 'root', sessionsEnded: 2 })
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0')
    expect((await current(ctx, a)).status).toBe(401)
    expect((await current(ctx, b)).status).toBe(401)
  })

  test('disable and reset end every session at once', async () => {
    const ctx = peopleContext()
    await withPassword(ctx, { username: 'root', role: 'admin' })
    await withPassword(ctx, { username: 'amira.h', role: 'manager', queueUnits: ['qu_main'] })
    const root = await signedIn(ctx, 'root')
    const amira = await signedIn(ctx, 'amira.h')
    cli(ctx).disableUser('root')
    expect((await current(ctx, root)).status).toBe(401)
    expect((await signIn(ctx, 'root')).status).toBe(401)
    cli(ctx).resetUser('amira.h', ctx.clock.now())
    expect((await current(ctx, amira)).status).toBe(401)
    expect((await signIn(ctx, 'amira.h')).status).toBe(401)
  })

  test('Origin rule (§7): sign-out without this server\'s Origin is 403 ORIGIN_FORBIDDEN and signs nobody out', async () => {
    const ctx = peopleContext()
    await withPassword(ctx, { username: 'root', role: 'admin' })
    const cookie = await signedIn(ctx, 'root')
    for (const origin of [null, 'https://evil.example', 'http://localhost:8081', 'null']) {
      const response = await request(ctx.app, 'DELETE', CURRENT, { headers: { cookie, ...(origin === null ? {} : { origin }) } })
      expect(response.status).toBe(403)
      expect((await jsonOf(response)).error.code).toBe(PeopleCodes.ORIGIN_FORBIDDEN)
    }
    expect((await current(ctx, cookie)).status).toBe(200)
    // A sign-in from another site's page is refused too (login CSRF).
    const foreign = await signIn(ctx, 'root', GOOD_PASSWORD, { origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
  })

  test('--public-origin is the origin a proxied browser must send', async () => {
    const ctx = peopleContext({ publicOrigin: 'https://lobby.branch.example' })
    await withPassword(ctx, { username: 'root', role: 'admin' })
    const cookie = await signedIn(ctx, 'root')
    expect((await request(ctx.app, 'DELETE', CURRENT, { headers: { cookie, origin: ORIGIN } })).status).toBe(403)
    expect((await request(ctx.app, 'DELETE', CURRENT, { headers: { cookie, origin: 'https://lobby.branch.example' } })).status).toBe(200)
  })
})

describe('stored sessions', () => {
  test('sessions past their 12 hours are deleted at the next sign-in, presented or not', async () => {
    const ctx = peopleContext()
    await withPassword(ctx, { username: 'root', role: 'admin' })
    await signedIn(ctx, 'root')
    await signedIn(ctx, 'root')
    ctx.clock.advance(SESSION_ABSOLUTE_MS)
    await signedIn(ctx, 'root')
    expect((ctx.db.$client.query('SELECT COUNT(*) AS n FROM user_sessions').get() as { n: number }).n).toBe(1)
  })
})
