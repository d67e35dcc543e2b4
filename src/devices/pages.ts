import { canonicalLang, directionOf } from '../screens'
import { escapeHtml, pageHeaders, pageShell } from '../screens/page'
import { SCREEN_CSP } from '../screens/page'
import { ASSETS } from '../screens/page'

/** The pages a paired browser opens: pairing, the counter desk, the display's list of boards. */
export type DevicePageKind = 'pair' | 'desk' | 'boards' | 'kiosk'

const TITLES: Record<DevicePageKind, string> = { pair: 'Pair this device', desk: 'Counter desk', boards: 'Screens', kiosk: 'Take a ticket' }

/**
 * The HTML frame of a device page, which the devices bundle fills in. Language and direction
 * come from `?lang=` (else the browser's, chosen by the script), so Arabic is right to left
 * from the first paint. `data` goes to the script in `data-*` attributes (escaped).
 */
export function devicePage(kind: DevicePageKind, query: Record<string, string | undefined>, data: Record<string, string> = {}): Response {
  const lang = canonicalLang(query.lang ?? null)
  const attrs = Object.entries(data).map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`).join('')
  const html = pageShell({
    lang: lang ?? 'en',
    dir: lang ? directionOf(lang) : 'ltr',
    title: TITLES[kind],
    stylesheet: ASSETS['devices.css'].path,
    script: ASSETS['devices.js'].path,
    body: `<div id="page" data-kind="${kind}"${attrs}>
<main id="page-content"><p class="page-starting">Lobby · ${TITLES[kind]}…</p><noscript><p class="page-error">This page needs JavaScript.</p></noscript></main>
</div>`,
  })
  // Device pages hold a cookie, not a token: the screens' CSP (own origin only), and never
  // framed. The kiosk prints through a hidden frame of its own print page (same origin).
  const csp = kind === 'kiosk' ? `${SCREEN_CSP}; frame-src 'self'` : SCREEN_CSP
  return new Response(html, { status: 200, headers: pageHeaders(csp) })
}
