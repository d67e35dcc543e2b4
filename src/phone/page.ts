import { canonicalLang, directionOf } from '../screens'
import { escapeHtml, pageHeaders, pageShell } from '../screens/page'
import { SCREEN_CSP } from '../screens/page'
import { ASSETS, PHONE_SERVICE_WORKER } from '../screens/page'

// The code in the URL is the capability: no referrer (pageHeaders), never framed, never indexed.
const headers = { ...pageHeaders(SCREEN_CSP, 'none'), 'x-robots-tag': 'noindex' }

/**
 * The phone page's frame (contract §10), the same for every code: the small phone bundle asks
 * for the ticket's status and says what it finds, in words. The first paint is in `?lang=`
 * (the reader's switch), else English; the bundle then speaks the ticket's language from its
 * status (contract §18, docs/kiosk.md "The phone page's language"), so no ticket is read here.
 */
export function phonePage(code: string, query: Record<string, string | undefined>): Response {
  const lang = canonicalLang(query.lang ?? null)
  const html = pageShell({
    lang: lang ?? 'en',
    dir: lang ? directionOf(lang) : 'ltr',
    title: 'Your ticket',
    stylesheet: ASSETS['phone.css'].path,
    script: ASSETS['phone.js'].path,
    body: `<main id="phone" data-code="${escapeHtml(code)}"><p class="phone-hint">Loading your ticket…</p><noscript><p>This page needs JavaScript to follow your ticket.</p></noscript></main>`,
  })
  return new Response(html, { status: 200, headers })
}

/**
 * The phone page's service worker at `/t/sw.js` (contract §25): same origin, scope `/t/` (its
 * folder), so it serves every ticket's page and nothing else. Revalidated at each check so an
 * upgraded Lobby's worker replaces the old one.
 */
export function phoneServiceWorker(): Response {
  return new Response(PHONE_SERVICE_WORKER, {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' },
  })
}
