import { directionOf, readOptions } from './shared/options'
import { SCRIPT, STYLESHEET } from './assets'

// The page door: other features render their pages in this frame and name their files through
// `ASSETS`. Loading it loads the embedded assets, so the feature doors (index.ts) do not export it.
export { ASSETS, PHONE_SERVICE_WORKER } from './assets'
export { assetRoutes } from './asset-route'

/**
 * What a screen page may load and where it may connect: its own origin only (the display API,
 * its websocket and voice clips, the QR codes as SVG files of this server). No image from
 * anywhere else (contract §27: no wildcard image source; a widget's image on another host
 * does not load, and the board leaves it out as it does offline). No inline script or style, no
 * frames, no forms. Who may frame the page is added by `pageHeaders`.
 */
export const SCREEN_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  // Recorded voice clips of spoken calls come from the display API.
  "media-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

export type ScreenKind = 'queue' | 'widget' | 'prayer'

const TITLES: Record<ScreenKind, string> = { queue: 'Queue', widget: 'Widget', prayer: 'Prayer times' }

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}

/** Who may frame a page (CSP `frame-ancestors`): this origin (the default, contract §27), no one, or this origin and the listed origins (the boards' signage players). */
export type FrameAncestors = 'self' | 'none' | { self: true; origins: readonly string[] }

/** The CSP `frame-ancestors` directive and the matching legacy `X-Frame-Options` (none when other origins are named: it cannot say them). */
function framing(ancestors: FrameAncestors): { directive: string; xfo: string | null } {
  if (ancestors === 'none') return { directive: "frame-ancestors 'none'", xfo: 'DENY' }
  if (ancestors === 'self' || ancestors.origins.length === 0) return { directive: "frame-ancestors 'self'", xfo: 'SAMEORIGIN' }
  return { directive: `frame-ancestors 'self' ${ancestors.origins.join(' ')}`, xfo: null }
}

/**
 * The headers of every page (screens, device pages, reports, the console, sign-in): own-origin
 * CSP with who may frame it (`frame-ancestors`, this origin unless said otherwise), the opener
 * kept apart from other origins' windows (COOP `same-origin`), never cached (asset names change
 * with each build), no referrer (a screen's URL may hold its token), no type sniffing
 * (contract §27). `csp` must not name `frame-ancestors` itself.
 */
export function pageHeaders(csp: string, ancestors: FrameAncestors = 'self'): Record<string, string> {
  const { directive, xfo } = framing(ancestors)
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': `${csp}; ${directive}`,
    'cross-origin-opener-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    ...(xfo === null ? {} : { 'x-frame-options': xfo }),
  }
}

export interface PageShell {
  lang: string
  dir: 'ltr' | 'rtl'
  title: string
  stylesheet: string
  script: string
  /** Extra attributes on <html> (e.g. ` data-theme="dark"`), already escaped. */
  htmlAttributes?: string
  colorScheme?: string
  /** The body's markup, already escaped. */
  body: string
}

/** The one HTML frame of every page: language and direction from the first paint, the shared icon, its bundle. */
export function pageShell(page: PageShell): string {
  return `<!doctype html>
<html lang="${escapeHtml(page.lang)}" dir="${page.dir}"${page.htmlAttributes ?? ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${escapeHtml(page.colorScheme ?? 'light')}">
<meta name="referrer" content="no-referrer">
<title>Lobby · ${escapeHtml(page.title)}</title>
<link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="${page.stylesheet}">
<script defer src="${page.script}"></script>
</head>
<body>
${page.body}
</body>
</html>
`
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
  return pageShell({
    lang,
    dir: options.lang ? directionOf(options.lang) : 'ltr',
    htmlAttributes: ` data-theme="${options.theme}"`,
    colorScheme: options.theme,
    title: TITLES[kind],
    stylesheet: STYLESHEET.path,
    script: SCRIPT.path,
    body: `<div id="screen" data-kind="${kind}" data-id="${escapeHtml(id)}">
<header class="bar"><div class="bar-titles"><h1 id="screen-title"></h1><span id="screen-subtitle"></span></div><div id="screen-clock"></div></header>
<main id="screen-content"><div class="notice"><p class="notice-heading">Lobby</p><p class="notice-hint">Starting…</p></div><noscript><div class="notice"><p class="notice-heading">This screen needs JavaScript.</p></div></noscript></main>
<div id="screen-status" role="status" hidden></div>
<div id="screen-message" role="alert" hidden></div>
</div>`,
  })
}
