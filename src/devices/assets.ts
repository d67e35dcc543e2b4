import script from '../screens/generated/devices.js' with { type: 'text' }
import stylesheet from '../screens/client/devices/devices.css' with { type: 'text' }
import type { Asset } from '../screens/assets'

export const DEVICE_ASSET_PREFIX = '/devices/assets'

/** Named by a hash of the content, like the screens' assets: cached for good, new after an upgrade. */
function asset(name: string, extension: string, body: string, contentType: string): Asset {
  const hash = Bun.hash(body).toString(16).padStart(16, '0').slice(0, 12)
  return { path: `${DEVICE_ASSET_PREFIX}/${name}.${hash}.${extension}`, body, contentType }
}

/** The device pages' bundle (src/screens/client/devices, on the screens' toolkit) and stylesheet. */
export const DEVICE_SCRIPT = asset('devices', 'js', script, 'text/javascript; charset=utf-8')
export const DEVICE_STYLESHEET = asset('devices', 'css', stylesheet, 'text/css; charset=utf-8')
