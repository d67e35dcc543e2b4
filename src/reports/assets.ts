import script from '../screens/generated/reports.js' with { type: 'text' }
import stylesheet from '../screens/client/reports/reports.css' with { type: 'text' }
import chartStylesheet from 'uplot/dist/uPlot.min.css' with { type: 'text' }
import type { Asset } from '../screens/assets'

export const REPORTS_ASSET_PREFIX = '/reports/assets'

/** Named by a hash of the content, like the screens' assets: cached for good, new after an upgrade. */
function asset(name: string, extension: string, body: string, contentType: string): Asset {
  const hash = Bun.hash(body).toString(16).padStart(16, '0').slice(0, 12)
  return { path: `${REPORTS_ASSET_PREFIX}/${name}.${hash}.${extension}`, body, contentType }
}

/**
 * The /reports page's bundle (src/screens/client/reports on the screens' toolkit, with uPlot
 * bundled in) and its stylesheet (uPlot's own, then the page's): embedded, never from a CDN.
 */
export const REPORTS_SCRIPT = asset('reports', 'js', script, 'text/javascript; charset=utf-8')
export const REPORTS_STYLESHEET = asset('reports', 'css', `${chartStylesheet}\n${stylesheet}`, 'text/css; charset=utf-8')
