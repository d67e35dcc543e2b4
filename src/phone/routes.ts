import { Elysia } from 'elysia'
import { admitRate, clientAddressOf, RateBuckets } from '../platform/admission'
import { Type } from '@sinclair/typebox'
import type { AppDeps } from '../root/deps'
import { ApiError } from '../platform/errors'
import { json } from '../platform/http'
import { qrSvg } from '../platform/qr'
import { serverOrigin } from '../devices/access'
import { trackingPath } from '../tickets'
import type { PhoneService, PhoneStatus, UnitView } from './service'
import type { PhoneWaits } from './waits'
import { phoneAnswer, ticketNotFound, LONG_POLL_MS } from './live'
import { phonePage } from './page'
import { readTicketByTrackingCodeDocs } from './docs'

export const PHONE_API = '/api/phone/v1'

/** Reads a minute from one address: a phone long-polls (about 3 a minute); a burst is someone guessing. */
export const PHONE_READS_PER_ADDRESS = 600

/**
 * The ticket on a phone (contract §10): `/t/{code}` (no login: the code is the capability), its
 * status read `GET /api/phone/v1/tickets/{code}` (a long poll with `?since=`), and the QR code of
 * the page as SVG for the kiosk's ticket screen.
 */
export function phoneRoutes(deps: AppDeps, { phone, phoneWaits: waits }: { phone: PhoneService; phoneWaits: PhoneWaits<PhoneStatus, UnitView> }) {

  function admit(request: Request, server: { requestIP(r: Request): { address: string } | null } | null): void {
    admitRate(deps.limiter, RateBuckets.phonePerAddress, clientAddressOf(deps.clients, request, server), PHONE_READS_PER_ADDRESS, deps.clock.now(), (retry) => `too many requests; retry after ${retry} s`)
  }

  const notFound = ticketNotFound
  const answer = (code: string) => phoneAnswer(deps, phone, code)

  /** The status now, or the first different one after a queue change of its unit, or the same after LONG_POLL_MS. */
  async function statusAfter(code: string, since: string | undefined, signal: AbortSignal): Promise<{ status: PhoneStatus; version: string }> {
    const first = answer(code)
    if (since === undefined || since !== first.version) return first
    return await waits.wait(code, first.row.queueUnitId, first, signal)
  }

  return new Elysia({ name: 'lobby.phone' })
    .get('/t/:code', ({ params, query }) => phonePage(params.code, query), { detail: { hide: true } })
    .get('/t/:code/qr.svg', ({ params, request, server }) => {
      admit(request, server)
      if (phone.ticketOf(params.code) === null) throw notFound()
      const svg = qrSvg(`${serverOrigin(request, deps.publicOrigin)}${trackingPath(params.code)}`)
      return new Response(svg, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'private, max-age=86400', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' } })
    }, { detail: { hide: true } })
    .get(
      `${PHONE_API}/tickets/:code`,
      async ({ params, query, request, server }) => {
        admit(request, server)
        const since = typeof query.since === 'string' && query.since !== '' ? query.since : undefined
        const { status, version } = await statusAfter(params.code, since, request.signal)
        return json(200, { data: status, version }, { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
      },
      {
        query: Type.Object({ since: Type.Optional(Type.String({ maxLength: 32, description: 'the `version` last seen: the answer waits (up to 20 s) until the status differs' })) }),
        detail: readTicketByTrackingCodeDocs,
      },
    )
}
