import { Elysia } from 'elysia'
import type { ScreenDeps } from './deps'
import { assetRoutes } from './asset-route'
import { pageHeaders, SCREEN_CSP, screenPage, type ScreenKind } from './page'

function page(kind: ScreenKind, id: string, query: Record<string, string | undefined>, headers: Record<string, string>): Response {
  const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string'))
  return new Response(screenPage(kind, id, params), { status: 200, headers })
}

const hidden = { detail: { hide: true } }

/**
 * The built-in screens (docs/screens.md): HTML pages a TV's browser opens with a display
 * token in the URL, and the embedded script and stylesheet they load. The pages read the
 * display API (docs/display.md) like any other client; they hold no data themselves, so a
 * page is 200 for any token and the page says when the token is not valid.
 */
export function screenRoutes(deps: ScreenDeps) {
  // A screen's token is in its URL: no referrer, ever (pageHeaders). A board is framed by this
  // origin only, or also by the signage players `--frame-ancestors` names (contract §27).
  const headers = pageHeaders(SCREEN_CSP, { self: true, origins: deps.boardFrameAncestors })
  return new Elysia({ name: 'lobby.screens' })
    // The server's clock for the screens (a TV's own clock is often wrong): no token, it tells nothing else.
    .get('/screens/clock', () => new Response(JSON.stringify({ now: new Date(deps.clock.now()).toISOString() }), {
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    }), hidden)
    .get('/screens/queue/:queueUnitId', ({ params, query }) => page('queue', params.queueUnitId, query, headers), hidden)
    .get('/screens/widgets/:widgetId', ({ params, query }) => page('widget', params.widgetId, query, headers), hidden)
    .get('/screens/prayer/:sourceId', ({ params, query }) => page('prayer', params.sourceId, query, headers), hidden)
    // Every page's bundle and stylesheet (screens, device pages, phone, reports): one registry, one route.
    .use(assetRoutes())
}
