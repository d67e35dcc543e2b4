import { describe, expect, test } from 'bun:test'
import { cli, codeOf, peopleContext, request } from './helpers'
import { ASSETS } from '../../src/screens/assets'

const LOGIN_SCRIPT = ASSETS['login.js']
const LOGIN_STYLESHEET = ASSETS['login.css']

/** Every visible control has a label pointing at it. */
function unlabelled(html: string): string[] {
  const ids = [...html.matchAll(/<input id="([^"]+)"/g)].map((m) => m[1]!)
  return ids.filter((id) => !html.includes(`<label for="${id}">`))
}

describe('the sign-in and setup pages (contract §16)', () => {
  test('GET /login: a labelled form on the page frame, own-origin only, never framed', async () => {
    const ctx = peopleContext()
    const response = await request(ctx.app, 'GET', '/login')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/html')
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(response.headers.get('content-security-policy')).toContain("form-action 'none'")
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(response.headers.get('content-security-policy')).toEndWith("frame-ancestors 'self'")
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin')
    const html = await response.text()
    expect(html).toContain('<html lang="en" dir="ltr"')
    expect(html).toContain('<label for="username">Username</label>')
    expect(html).toContain('type="password" autocomplete="current-password"')
    expect(html).toContain('role="alert"')
    expect(unlabelled(html)).toEqual([])
    expect(html).not.toMatch(/(src|href)="https?:/)
    expect(html).toContain(`<script defer src="${LOGIN_SCRIPT.path}"></script>`)
    expect(html).toContain(`<link rel="stylesheet" href="${LOGIN_STYLESHEET.path}">`)
    expect(html).not.toMatch(/<script>|<style|style="/)
  })

  test('Arabic: lang and dir from ?lang=ar, right to left, words in Arabic', async () => {
    const ctx = peopleContext()
    const html = await (await request(ctx.app, 'GET', '/login?lang=ar')).text()
    expect(html).toContain('<html lang="ar" dir="rtl"')
    expect(html).toContain('اسم المستخدم')
    expect(html).toContain('كلمة المرور')
    expect(unlabelled(html)).toEqual([])
  })

  test('the setup page: password twice (and a PIN for a clerk), labelled; the code is never written into the page', async () => {
    const ctx = peopleContext()
    const link = cli(ctx).addUser({ username: 'omar.k', role: 'clerk', queueUnits: ['qu_main'] }, ctx.clock.now())
    for (const path of [link.setupPath, `${link.setupPath}&lang=ar`]) {
      const html = await (await request(ctx.app, 'GET', path)).text()
      expect(html).toContain('id="pin"')
      expect(html).toContain('id="confirm"')
      expect(html).toContain('omar.k')
      expect(unlabelled(html)).toEqual([])
      expect(html.split(codeOf(link.setupPath)).length).toBe(2) // only in the language link
    }
    const wrong = await (await request(ctx.app, 'GET', '/login/setup?code=<script>')).text()
    expect(wrong).toContain('wrong, expired or already used')
    expect(wrong).not.toContain('<script>')
  })

  test('the page script and stylesheet come from the asset registry\'s one route, immutable; anything else under /login/assets is 404', async () => {
    const ctx = peopleContext()
    const script = await request(ctx.app, 'GET', LOGIN_SCRIPT.path)
    expect(script.status).toBe(200)
    expect(script.headers.get('content-type')).toContain('javascript')
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    // The bundle of src/client/login/main.ts: reads the form's endpoint and messages, words a Retry-After.
    const text = await script.text()
    expect(text).toBe(LOGIN_SCRIPT.body)
    for (const part of ['form[data-api]', 'retry-after', '{minutes}', 'MISMATCH']) expect(text).toContain(part)
    const css = await request(ctx.app, 'GET', LOGIN_STYLESHEET.path)
    expect(css.headers.get('content-type')).toContain('text/css')
    expect(await css.text()).toBe(LOGIN_STYLESHEET.body)
    expect((await request(ctx.app, 'GET', '/login/assets/other.js')).status).toBe(404)
  })
})
