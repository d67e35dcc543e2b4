import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { jsonOf, request, testContext } from '../support/app'
import { SCRIPT, STYLESHEET } from '../../src/screens/assets'
import { SCREEN_CSP } from '../../src/screens/page'
import { directionOf, readOptions } from '../../src/screens/shared/options'
import { BUNDLES, recordedHash, sourceHash } from '../../scripts/build-screens'

const { app, clock } = testContext()
const get = (path: string) => request(app, 'GET', path)

describe('screen pages', () => {
  test('each page is 200 HTML naming its kind and ID, whatever the token', async () => {
    for (const [path, kind, id] of [
      ['/screens/queue/qu_main', 'queue', 'qu_main'],
      ['/screens/widgets/wdg_events', 'widget', 'wdg_events'],
      ['/screens/prayer/psrc_centralmosque-0001-london', 'prayer', 'psrc_centralmosque-0001-london'],
    ] as const) {
      for (const query of ['', '?token=lbd_wrong', '?token=']) {
        const response = await get(path + query)
        expect(response.status).toBe(200)
        expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
        const html = await response.text()
        expect(html).toContain(`data-kind="${kind}"`)
        expect(html).toContain(`data-id="${id}"`)
      }
    }
  })

  test('the page never caches, sends no referrer, and allows only its own origin (plus https images)', async () => {
    const response = await get('/screens/queue/qu_main?token=lbd_x')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    expect(response.headers.get('content-security-policy')).toBe(`${SCREEN_CSP}; frame-ancestors 'self'`)
    expect(SCREEN_CSP).toContain("connect-src 'self'")
    expect(SCREEN_CSP).toContain("script-src 'self'")
    expect(response.headers.get('x-correlation-id')).toBeTruthy()
  })

  test('lang, direction and theme come from the URL into the first paint', async () => {
    const arabic = await (await get('/screens/prayer/psrc_centralmosque-0001-london?token=x&lang=ar&theme=light')).text()
    expect(arabic).toContain('<html lang="ar" dir="rtl" data-theme="light">')
    const german = await (await get('/screens/queue/qu_main?token=x&locale=de-DE')).text()
    expect(german).toContain('<html lang="de-DE" dir="ltr" data-theme="dark">')
    const plain = await (await get('/screens/queue/qu_main?token=x&lang=%3Cscript%3E&theme=pink')).text()
    expect(plain).toContain('<html lang="en" dir="ltr" data-theme="dark">')
  })

  test('an ID is escaped into the page, never markup', async () => {
    const html = await (await get('/screens/widgets/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E')).text()
    expect(html).not.toContain('<script>alert')
    expect(html).toContain('data-id="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"')
  })

  test('the page loads only embedded assets: no external URL in the page, script or stylesheet', async () => {
    const html = await (await get('/screens/queue/qu_main?token=x')).text()
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    // The icon is embedded too (src/platform/favicon.ts).
    expect(assets.sort()).toEqual([SCRIPT.path, STYLESHEET.path, '/favicon.ico'].sort())
    for (const text of [html, SCRIPT.body, STYLESHEET.body]) {
      expect(text).not.toMatch(/https?:\/\/[a-z0-9]/i)
      expect(text).not.toMatch(/@import|@font-face/)
    }
  })
})

describe('screen clock', () => {
  test("/screens/clock tells the server's time, uncached, without a token", async () => {
    clock.set('2026-11-27T11:45:30.250Z')
    const response = await get('/screens/clock')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await jsonOf(response)).toEqual({ now: '2026-11-27T11:45:30.250Z' })
  })
})

describe('screen assets', () => {
  test('script and stylesheet are served with their types and cached for good under their hashed names', async () => {
    for (const asset of [SCRIPT, STYLESHEET]) {
      const response = await get(asset.path)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(asset.contentType)
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(await response.text()).toBe(asset.body)
    }
  })

  test('an older hashed name still gets the current file, uncached; anything else is 404 in the envelope', async () => {
    const old = await get('/screens/assets/screens.0123456789ab.js')
    expect(old.status).toBe(200)
    expect(old.headers.get('cache-control')).toBe('no-cache')
    const missing = await get('/screens/assets/other.js')
    expect(missing.status).toBe(404)
    expect((await jsonOf(missing)).error.code).toBe('NOT_FOUND')
  })

  test('the committed bundles were built from the current client sources (else: bun run build:screens)', () => {
    for (const { output } of BUNDLES) expect({ output, hash: recordedHash(readFileSync(output, 'utf8')) }).toEqual({ output, hash: sourceHash() })
  })
})

describe('screen options', () => {
  test('URL options: token, lang or locale, theme, location, chime, voice', () => {
    expect(readOptions(new URLSearchParams('token=lbd_a&lang=ar-SA&theme=light&location=loc_hall&chime=1&voice=1'))).toEqual({
      token: 'lbd_a', lang: 'ar-SA', theme: 'light', location: 'loc_hall', chime: true, voice: true,
    })
    expect(readOptions(new URLSearchParams(''))).toEqual({ token: null, lang: null, theme: 'dark', location: null, chime: false, voice: false })
    expect(readOptions(new URLSearchParams('locale=fr&chime=0')).lang).toBe('fr')
  })

  test('right-to-left for Arabic, Hebrew, Persian and Urdu, and for Arabic script', () => {
    for (const lang of ['ar', 'ar-EG', 'he', 'fa-IR', 'ur']) expect(directionOf(lang)).toBe('rtl')
    for (const lang of ['en', 'de-DE', 'tr', 'az-Latn']) expect(directionOf(lang)).toBe('ltr')
  })
})
