/**
 * Contract §27 "Anonymous forms": the one admission path of every form a stranger may post
 * without a credential (`/join/{locationId}`, `/book/{locationId}`, `/b/{code}/…`, the phone
 * page's leave, more time and feedback). In this order, each before one byte of the body is read:
 *  1. `before`: the route's checks that need only the headers (Origin, network, content type);
 *  2. `rate`: the route's per-address window, counted for the caller's address (contract §23
 *     attribution) — so an address holds at most that many bodies at once;
 *  3. `code`: for a route keyed by a code (`/b/{code}`, `/api/phone/v1/tickets/{code}`), that the
 *     code names something (a wrong one is refused here, with its own limit where it has one);
 *  4. the body, at most 4 KiB (`ANONYMOUS_FORM_MAX`, or the route's smaller limit), held against
 *     `anonymousBodyBudget` (1 MiB in all), never the authenticated `bodyBudget`: strangers
 *     filling theirs cannot make a Queue key's ticket issue or a kiosk tap answer 503.
 * A refusal at any step while a body is unread carries `Connection: close` (readBodyAfterChecks).
 * Over 4 KiB: 413 `PAYLOAD_TOO_LARGE`; over the budget: 503 `SERVER_BUSY` with `Retry-After: 1`,
 * as the authenticated budget answers (HTML routes say it in words on their page).
 */
import { admitRate, clientAddressOf, type RateBucket } from './admission'
import { BodyBudget, KiB, MiB, readBodyAfterChecks } from './body'
import type { PeerSource } from './client-address'
import type { PlatformDeps } from './deps'

/** The largest body an anonymous form may send. */
export const ANONYMOUS_FORM_MAX = 4 * KiB

/** Bytes of anonymous form bodies held in flight, all together: 256 forms of 4 KiB. */
export const ANONYMOUS_BODY_BYTES = 1 * MiB

/** The anonymous forms' own budget (contract §27), apart from `bodyBudget`. */
export const anonymousBodyBudget = new BodyBudget(ANONYMOUS_BODY_BYTES)

export interface AnonymousForm<T> {
  /** Header-only checks before the rate window is counted (Origin, network, content type). */
  before?: () => void
  /**
   * The route's per-address window: one attempt counted per form, refused with 429 `RATE_LIMITED`;
   * or the route's own admission of the address when its limit is a setting (the join page's
   * `remoteJoin.perAddressPer10Min` and `guestNetworks`).
   */
  rate: { bucket: RateBucket & { perAddress: true }; limit: number; message: (retryAfterSeconds: number) => string } | ((address: string) => void)
  /** A route keyed by a code: what the code names, or a throw (404, or 429 past a wrong-code limit). */
  code?: (address: string) => T
  /** The route's own body limit when smaller than `ANONYMOUS_FORM_MAX`. */
  limit?: number
}

/**
 * Admits an anonymous form (the steps above) and reads its body: the raw bytes, and what
 * `code` found (undefined without one).
 */
export async function admitAnonymousForm<T = undefined>(
  deps: Pick<PlatformDeps, 'limiter' | 'clients' | 'clock'>,
  request: Request,
  server: PeerSource | null | undefined,
  form: AnonymousForm<T>,
): Promise<{ raw: Uint8Array; found: T }> {
  const limit = Math.min(form.limit ?? ANONYMOUS_FORM_MAX, ANONYMOUS_FORM_MAX)
  const { raw, checked } = await readBodyAfterChecks(request, limit, () => {
    form.before?.()
    const address = clientAddressOf(deps.clients, request, server)
    if (typeof form.rate === 'function') form.rate(address)
    else admitRate(deps.limiter, form.rate.bucket, address, form.rate.limit, deps.clock.now(), form.rate.message)
    return form.code === undefined ? (undefined as T) : form.code(address)
  }, anonymousBodyBudget)
  return { raw, found: checked }
}
