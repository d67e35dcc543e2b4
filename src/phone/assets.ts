import script from '../screens/generated/phone.js' with { type: 'text' }
import stylesheet from '../screens/client/phone/phone.css' with { type: 'text' }
import type { Asset } from '../screens/assets'

export const PHONE_ASSET_PREFIX = '/phone/assets'

function asset(name: string, extension: string, body: string, contentType: string): Asset {
  const hash = Bun.hash(body).toString(16).padStart(16, '0').slice(0, 12)
  return { path: `${PHONE_ASSET_PREFIX}/${name}.${hash}.${extension}`, body, contentType }
}

/** The phone page's own small bundle (src/screens/client/phone) and stylesheet: under 60 KB together (contract §10). */
export const PHONE_SCRIPT = asset('phone', 'js', script, 'text/javascript; charset=utf-8')
export const PHONE_STYLESHEET = asset('phone', 'css', stylesheet, 'text/css; charset=utf-8')
