import { canonicalLang, directionOf } from '../screens/shared/options'
import { pageHeaders, pageShell } from '../screens/page'
import { SCREEN_CSP } from '../screens/page'
import { ASSETS } from '../screens/assets'

/**
 * The /reports page (contract §12) for a paired `reports` device: the frame its bundle fills in
 * from the report API with the device cookie. It holds no data, so it is the same for every
 * caller; an unpaired browser is told so by the script. Language and direction come from
 * `?lang=` so Arabic is right to left from the first paint.
 */
export function reportsPage(query: Record<string, string | undefined>): Response {
  const lang = canonicalLang(query.lang ?? null)
  const html = pageShell({
    lang: lang ?? 'en',
    dir: lang ? directionOf(lang) : 'ltr',
    title: 'Reports',
    stylesheet: ASSETS['reports.css'].path,
    script: ASSETS['reports.js'].path,
    body: `<div id="page" data-kind="reports">
<main id="page-content"><p class="page-starting">Lobby · Reports…</p><noscript><p class="page-error">This page needs JavaScript.</p></noscript></main>
</div>`,
  })
  // Own origin only, as the screens and device pages (uPlot draws on a canvas: no inline style needed).
  return new Response(html, { status: 200, headers: pageHeaders(SCREEN_CSP) })
}
