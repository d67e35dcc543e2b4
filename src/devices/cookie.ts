import { DEVICE_COOKIE } from '../access'

/** Where the device API lives (pairing, the device, the desk's and the kiosk's routes). */
export const DEVICES_API = '/api/devices/v1'

/** Long enough that a paired counter PC or TV survives restarts: 400 days, the most browsers keep a cookie. */
const COOKIE_MAX_AGE_SECONDS = 400 * 86_400

/** `Set-Cookie` for a newly paired device (contract §7); `Secure` when the page is served over TLS. */
export function deviceCookie(secret: string, secure: boolean): string {
  return `${DEVICE_COOKIE}=${secret}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${COOKIE_MAX_AGE_SECONDS}${secure ? '; Secure' : ''}`
}
