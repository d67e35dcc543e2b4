import { canonicalLang, directionOf } from '../screens/shared/options'
import { escapeHtml } from '../screens/page'
import { SCREEN_CSP } from '../screens/routes'
import { DEVICE_SCRIPT, DEVICE_STYLESHEET } from './assets'

/** The pages a paired browser opens: pairing, the counter desk, the display's list of boards. */
export type DevicePageKind = 'pair' | 'desk' | 'boards' | 'kiosk'

const TITLES: Record<DevicePageKind, string> = { pair: 'Pair this device', desk: 'Counter desk', boards: 'Screens', kiosk: 'Take a ticket' }

/** Device pages hold a cookie, not a token, so the same CSP as the screens (own origin only) fits them. */
const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': SCREEN_CSP,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  // A desk or pairing page is never framed by another site (clickjacking a "Call next").
  'x-frame-options': 'DENY',
}

/**
 * The HTML frame of a device page, which the devices bundle fills in. Language and direction
 * come from `?lang=` (else the browser's, chosen by the script), so Arabic is right to left
 * from the first paint. `data` goes to the script in `data-*` attributes (escaped).
 */
export function devicePage(kind: DevicePageKind, query: Record<string, string | undefined>, data: Record<string, string> = {}): Response {
  const lang = canonicalLang(query.lang ?? null)
  const attrs = Object.entries(data).map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`).join('')
  const html = `<!doctype html>
<html lang="${escapeHtml(lang ?? 'en')}" dir="${lang ? directionOf(lang) : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="referrer" content="no-referrer">
<title>Lobby · ${TITLES[kind]}</title>
<link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="${DEVICE_STYLESHEET.path}">
<script defer src="${DEVICE_SCRIPT.path}"></script>
</head>
<body>
<div id="page" data-kind="${kind}"${attrs}>
<main id="page-content"><p class="page-starting">Lobby · ${TITLES[kind]}…</p><noscript><p class="page-error">This page needs JavaScript.</p></noscript></main>
</div>
</body>
</html>
`
  // The kiosk prints through a hidden frame of its own print page (same origin).
  const headers = kind === 'kiosk' ? { ...pageHeaders, 'content-security-policy': `${SCREEN_CSP}; frame-src 'self'` } : pageHeaders
  return new Response(html, { status: 200, headers })
}
