import script from './generated/screens.js' with { type: 'text' }
import stylesheet from './client/screens.css' with { type: 'text' }

/** One embedded file, served under a name that carries its content hash. */
export interface Asset {
  /** URL path, e.g. `/screens/assets/screens.3f2a9c1b.js`. */
  path: string
  body: string
  contentType: string
}

export const ASSET_PREFIX = '/screens/assets'

function asset(name: string, extension: string, body: string, contentType: string): Asset {
  // The hash in the name changes with the content, so a browser may keep a file for good and
  // still gets the new one after Lobby is upgraded (the page itself is never cached).
  const hash = Bun.hash(body).toString(16).padStart(16, '0').slice(0, 12)
  return { path: `${ASSET_PREFIX}/${name}.${hash}.${extension}`, body, contentType }
}

export const SCRIPT = asset('screens', 'js', script, 'text/javascript; charset=utf-8')
export const STYLESHEET = asset('screens', 'css', stylesheet, 'text/css; charset=utf-8')
