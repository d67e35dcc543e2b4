import { Elysia } from 'elysia'
import { pathOf } from '../platform/http'
import type { AppDeps } from '../root/deps'
import { ApiError, CommonCodes } from '../platform/errors'
import { ASSET_PREFIX, SCRIPT, STYLESHEET, type Asset } from './assets'
import { pageHeaders, SCREEN_CSP, screenPage, type ScreenKind } from './page'

function page(kind: ScreenKind, id: string, query: Record<string, string | undefined>): Response {
  const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string'))
  // A screen's token is in its URL: no referrer, ever (pageHeaders); a board may be framed by a signage player.
  return new Response(screenPage(kind, id, params), { status: 200, headers: pageHeaders(SCREEN_CSP) })
}

/** The current asset for any name of its kind: a page from before an upgrade still gets a working file. */
function serveAsset(asset: Asset, requestedPath: string): Response {
  const current = requestedPath === asset.path
  return new Response(asset.body, {
    headers: {
      'content-type': asset.contentType,
      'cache-control': current ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
    },
  })
}

const hidden = { detail: { hide: true } }

/**
 * The built-in screens (docs/screens.md): HTML pages a TV's browser opens with a display
 * token in the URL, and the embedded script and stylesheet they load. The pages read the
 * display API (docs/display.md) like any other client; they hold no data themselves, so a
 * page is 200 for any token and the page says when the token is not valid.
 */
export function screenRoutes(deps: AppDeps) {
  return new Elysia({ name: 'lobby.screens' })
    // The server's clock for the screens (a TV's own clock is often wrong): no token, it tells nothing else.
    .get('/screens/clock', () => new Response(JSON.stringify({ now: new Date(deps.clock.now()).toISOString() }), {
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    }), hidden)
    .get('/screens/queue/:queueUnitId', ({ params, query }) => page('queue', params.queueUnitId, query), hidden)
    .get('/screens/widgets/:widgetId', ({ params, query }) => page('widget', params.widgetId, query), hidden)
    .get('/screens/prayer/:sourceId', ({ params, query }) => page('prayer', params.sourceId, query), hidden)
    .get(`${ASSET_PREFIX}/:file`, ({ params, request }) => {
      const path = pathOf(request)
      if (/^screens\.[0-9a-f]+\.js$/.test(params.file)) return serveAsset(SCRIPT, path)
      if (/^screens\.[0-9a-f]+\.css$/.test(params.file)) return serveAsset(STYLESHEET, path)
      throw new ApiError(404, CommonCodes.NOT_FOUND, 'no such screen asset')
    }, hidden)
}
