import { describe, expect, test } from 'bun:test'
import { adminContext, expectError, ORIGIN, request } from './helpers'
import { CURRENT } from '../people/helpers'

/*
 * Contract §24: /admin has Sign out. The header bar's button (`#admin-sign-out`, its words its
 * accessible name) is wired by the page's script to `DELETE /api/auth/v1/sessions/current`
 * with this server's Origin, as a browser sends it; then the page goes to /login.
 */

describe('Sign out on /admin (contract §24)', () => {
  test('the header bar has a Sign out button, in English and in Arabic', async () => {
    const ctx = await adminContext()
    const en = await (await request(ctx.app, 'GET', '/admin', { headers: { cookie: ctx.cookie.amira } })).text()
    const bar = /<header class="admin-bar">([\s\S]*?)<\/header>/.exec(en)?.[1] ?? ''
    expect(bar).toContain('<button type="button" id="admin-sign-out" class="admin-sign-out">Sign out</button>')
    const ar = await (await request(ctx.app, 'GET', '/admin?lang=ar', { headers: { cookie: ctx.cookie.root } })).text()
    expect(/<header class="admin-bar">([\s\S]*?)<\/header>/.exec(ar)?.[1]).toContain('>تسجيل الخروج</button>')
  })

  test('what the button sends ends the session: the next /admin goes to /login, and the cookie is cleared', async () => {
    const ctx = await adminContext()
    expect((await request(ctx.app, 'GET', '/admin', { headers: { cookie: ctx.cookie.amira } })).status).toBe(200)
    const out = await request(ctx.app, 'DELETE', CURRENT, { headers: { cookie: ctx.cookie.amira, origin: ORIGIN } })
    expect(out.status).toBe(200)
    expect(out.headers.get('set-cookie')).toContain('lobby_session=;')
    const next = await request(ctx.app, 'GET', '/admin', { headers: { cookie: ctx.cookie.amira } })
    expect(next.status).toBe(303)
    expect(next.headers.get('location')).toBe('/login')
    // Signing out twice is harmless: the page treats the 401 as signed out too.
    await expectError(await request(ctx.app, 'DELETE', CURRENT, { headers: { cookie: ctx.cookie.amira, origin: ORIGIN } }), 401, 'AUTHENTICATION_FAILED')
    // Another person's session is untouched.
    expect((await request(ctx.app, 'GET', '/admin', { headers: { cookie: ctx.cookie.root } })).status).toBe(200)
  })

  test('another site cannot sign anyone out: a DELETE with a foreign Origin is 403 and the session stays', async () => {
    const ctx = await adminContext()
    await expectError(await request(ctx.app, 'DELETE', CURRENT, { headers: { cookie: ctx.cookie.root, origin: 'https://evil.example' } }), 403, 'ORIGIN_FORBIDDEN')
    expect((await request(ctx.app, 'GET', '/admin', { headers: { cookie: ctx.cookie.root } })).status).toBe(200)
  })
})
