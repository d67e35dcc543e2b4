import { describe, expect, test } from 'bun:test'
import { adminContext, ORIGIN, request } from '../admin/helpers'
import { CURRENT } from '../people/helpers'

/*
 * Contract §24: /manage has Sign out: `#manage-sign-out` in the header bar, which the page's
 * script wires to `DELETE /api/auth/v1/sessions/current` (with this server's Origin) and then
 * /login.
 */

describe('Sign out on /manage (contract §24)', () => {
  test('the header bar has a Sign out button, in English and in Arabic', async () => {
    const ctx = await adminContext()
    const en = await (await request(ctx.app, 'GET', '/manage', { headers: { cookie: ctx.cookie.amira } })).text()
    expect(/<header class="top">([\s\S]*?)<\/header>/.exec(en)?.[1]).toContain('<button type="button" id="manage-sign-out">Sign out</button>')
    const ar = await (await request(ctx.app, 'GET', '/manage?lang=ar', { headers: { cookie: ctx.cookie.root } })).text()
    expect(/<header class="top">([\s\S]*?)<\/header>/.exec(ar)?.[1]).toContain('<button type="button" id="manage-sign-out">تسجيل الخروج</button>')
  })

  test('what the button sends ends the session: the next /manage and /admin go to /login', async () => {
    const ctx = await adminContext()
    expect((await request(ctx.app, 'GET', '/manage', { headers: { cookie: ctx.cookie.amira } })).status).toBe(200)
    expect((await request(ctx.app, 'DELETE', CURRENT, { headers: { cookie: ctx.cookie.amira, origin: ORIGIN } })).status).toBe(200)
    for (const page of ['/manage', '/admin']) {
      const next = await request(ctx.app, 'GET', page, { headers: { cookie: ctx.cookie.amira } })
      expect(next.status).toBe(303)
      expect(next.headers.get('location')).toBe('/login')
    }
  })
})
