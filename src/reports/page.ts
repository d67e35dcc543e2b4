import { canonicalLang, directionOf } from '../screens/shared/options'
import { escapeHtml } from '../screens/page'
import { SCREEN_CSP } from '../screens/routes'
import { REPORTS_SCRIPT, REPORTS_STYLESHEET } from './assets'

const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // Own origin only, as the screens and device pages (uPlot draws on a canvas: no inline style needed).
  'content-security-policy': SCREEN_CSP,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
}

/**
 * The /reports page (contract §12) for a paired `reports` device: the frame its bundle fills in
 * from the report API with the device cookie. It holds no data, so it is the same for every
 * caller; an unpaired browser is told so by the script. Language and direction come from
 * `?lang=` so Arabic is right to left from the first paint.
 */
export function reportsPage(query: Record<string, string | undefined>): Response {
  const lang = canonicalLang(query.lang ?? null)
  const html = `<!doctype html>
<html lang="${escapeHtml(lang ?? 'en')}" dir="${lang ? directionOf(lang) : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="referrer" content="no-referrer">
<title>Lobby · Reports</title>
<link rel="stylesheet" href="${REPORTS_STYLESHEET.path}">
<script defer src="${REPORTS_SCRIPT.path}"></script>
</head>
<body>
<div id="page" data-kind="reports">
<main id="page-content"><p class="page-starting">Lobby · Reports…</p><noscript><p class="page-error">This page needs JavaScript.</p></noscript></main>
</div>
</body>
</html>
`
  return new Response(html, { status: 200, headers: pageHeaders })
}
