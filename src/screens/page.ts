import { directionOf, readOptions } from './shared/options'
import { SCRIPT, STYLESHEET } from './assets'

export type ScreenKind = 'queue' | 'widget' | 'prayer'

const TITLES: Record<ScreenKind, string> = { queue: 'Queue', widget: 'Widget', prayer: 'Prayer times' }

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}

/**
 * The HTML of one screen: the frame the browser bundle fills in. The language, direction and
 * theme come from the URL here already, so the first paint is right; which screen it is
 * travels in `data-kind` / `data-id`. Nothing in it depends on the token: a page is the same
 * for every caller, and the bundle checks the token against the display API.
 */
export function screenPage(kind: ScreenKind, id: string, query: URLSearchParams): string {
  const options = readOptions(query)
  const lang = options.lang ?? 'en'
  return `<!doctype html>
<html lang="${escapeHtml(lang)}" dir="${options.lang ? directionOf(options.lang) : 'ltr'}" data-theme="${options.theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${options.theme}">
<meta name="referrer" content="no-referrer">
<title>Lobby · ${TITLES[kind]}</title>
<link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="${STYLESHEET.path}">
<script defer src="${SCRIPT.path}"></script>
</head>
<body>
<div id="screen" data-kind="${kind}" data-id="${escapeHtml(id)}">
<header class="bar"><div class="bar-titles"><h1 id="screen-title"></h1><span id="screen-subtitle"></span></div><div id="screen-clock"></div></header>
<main id="screen-content"><div class="notice"><p class="notice-heading">Lobby</p><p class="notice-hint">Starting…</p></div><noscript><div class="notice"><p class="notice-heading">This screen needs JavaScript.</p></div></noscript></main>
<div id="screen-status" role="status" hidden></div>
<div id="screen-message" role="alert" hidden></div>
</div>
</body>
</html>
`
}
