import { describe, expect, test } from 'bun:test'
import { queueContext, get } from '../queue/helpers'

/*
 * Contract §27: every HTML page sends COOP `same-origin` and CSP `frame-ancestors 'self'` (or
 * stricter: `'none'` where nothing frames the page), boards too unless `--frame-ancestors`
 * names the signage players allowed to embed them, and no page allows images from anywhere.
 */

// /admin and /manage answer a signed-out visitor with a redirect to /login; their pages are made by the same pageHeaders.
const BOARDS = ['/screens/queue/qu_main', '/screens/widgets/wdg_none', '/screens/prayer/src_none']
const OTHER_PAGES = ['/', '/login', '/login/setup?code=none', '/reports', '/pair', '/desk', '/kiosk', '/screens',
  '/t/k3v9q2m7x4c8h6b5n2r7t3w4', '/join/loc_hall', '/join/loc_hall/poster', '/book/loc_hall', '/b/nosuchcode', '/swagger']

const directives = (csp: string) => new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name = '', ...values]) => [name, values]))

/** Who may frame the page, and what images it may load: each page's policy checked alike. */
function framingOf(response: Response) {
  const csp = response.headers.get('content-security-policy') ?? ''
  return { ancestors: directives(csp).get('frame-ancestors'), images: directives(csp).get('img-src') ?? directives(csp).get('default-src') }
}

/** No wildcard image source: no `*`, no bare scheme (`https:`, `http:`, `data:`), no `*.host`. */
const WILDCARD = /^(\*|[a-z][a-z0-9+.-]*:|.*\*.*)$/i

describe('page headers (contract §27)', () => {
  test('every page: COOP same-origin, frame-ancestors \'self\' (or \'none\'), nosniff, no wildcard image source', async () => {
    const ctx = queueContext()
    for (const path of [...BOARDS, ...OTHER_PAGES]) {
      const response = await get(ctx, path, null)
      const type = response.headers.get('content-type') ?? ''
      expect({ path, html: type.startsWith('text/html') }).toEqual({ path, html: true })
      expect({ path, coop: response.headers.get('cross-origin-opener-policy') }).toEqual({ path, coop: 'same-origin' })
      expect({ path, nosniff: response.headers.get('x-content-type-options') }).toEqual({ path, nosniff: 'nosniff' })
      const { ancestors, images } = framingOf(response)
      expect({ path, ancestors: ["'self'", "'none'"].includes(ancestors?.join(' ') ?? '') }).toEqual({ path, ancestors: true })
      for (const source of images ?? []) expect({ path, source, wildcard: WILDCARD.test(source) }).toEqual({ path, source, wildcard: false })
    }
  })

  test('boards are framed by this origin only by default; the board pages\' frame-ancestors is \'self\'', async () => {
    const ctx = queueContext()
    for (const path of BOARDS) {
      const response = await get(ctx, path, null)
      expect(framingOf(response).ancestors).toEqual(["'self'"])
      expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    }
  })

  test('--frame-ancestors: the boards may be framed by the named signage players too, no other page', async () => {
    const ctx = queueContext(() => {}, { boardFrameAncestors: ['https://signage.example.com', 'http://10.0.0.5:8080'] })
    for (const path of BOARDS) {
      const response = await get(ctx, path, null)
      expect(framingOf(response).ancestors).toEqual(["'self'", 'https://signage.example.com', 'http://10.0.0.5:8080'])
      // X-Frame-Options cannot name other origins: left off, the CSP decides.
      expect(response.headers.get('x-frame-options')).toBeNull()
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin')
    }
    for (const path of ['/screens', '/desk', '/kiosk', '/login']) {
      const response = await get(ctx, path, null)
      expect({ path, ancestors: framingOf(response).ancestors }).toEqual({ path, ancestors: ["'self'"] })
    }
  })
})
