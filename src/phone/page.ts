import { canonicalLang, directionOf } from '../screens/shared/options'
import { escapeHtml } from '../screens/page'
import { SCREEN_CSP } from '../screens/routes'
import { PHONE_SCRIPT, PHONE_STYLESHEET } from './assets'

const headers = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': `${SCREEN_CSP}; frame-ancestors 'none'`,
  // The code in the URL is the capability: never send it to another site.
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-robots-tag': 'noindex',
}

/**
 * The phone page's frame (contract §10), the same for every code: the small phone bundle asks
 * for the ticket's status and says what it finds, in words. Language from `?lang=` (else the
 * phone's), so Arabic is right to left from the first paint.
 */
export function phonePage(code: string, query: Record<string, string | undefined>): Response {
  const lang = canonicalLang(query.lang ?? null)
  const html = `<!doctype html>
<html lang="${escapeHtml(lang ?? 'en')}" dir="${lang ? directionOf(lang) : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="referrer" content="no-referrer">
<title>Lobby · Your ticket</title>
<link rel="stylesheet" href="${PHONE_STYLESHEET.path}">
<script defer src="${PHONE_SCRIPT.path}"></script>
</head>
<body>
<main id="phone" data-code="${escapeHtml(code)}"><p class="phone-hint">Loading your ticket…</p><noscript><p>This page needs JavaScript to follow your ticket.</p></noscript></main>
</body>
</html>
`
  return new Response(html, { status: 200, headers })
}
