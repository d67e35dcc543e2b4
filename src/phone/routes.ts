import { Elysia } from 'elysia'
import { admitRate, clientAddressOf, RateBuckets } from '../platform/admission'
import { Type } from '@sinclair/typebox'
import type { AppDeps } from '../root/deps'
import { ApiError } from '../platform/errors'
import { json } from '../platform/http'
import { routeDetail } from '../platform/openapi'
import { qrSvg } from '../platform/qr'
import { serverOrigin } from '../devices/access'
import { trackingPath } from '../tickets'
import { PhoneCodes, PhoneErrorExamples } from './errors'
import type { PhoneService, PhoneStatus, UnitView } from './service'
import type { PhoneWaits } from './waits'
import { phoneAnswer, ticketNotFound, LONG_POLL_MS } from './live'
import { phonePage } from './page'

export const PHONE_API = '/api/phone/v1'

/** Reads a minute from one address: a phone long-polls (about 3 a minute); a burst is someone guessing. */
export const PHONE_READS_PER_ADDRESS = 600
const closed = { additionalProperties: false } as const
const PhoneStatusSchema = Type.Union([
  Type.Object({
    state: Type.Union([Type.Literal('WAITING'), Type.Literal('CALLED'), Type.Literal('SERVING')]),
    ticketNumber: Type.String(),
    serviceName: Type.String(),
    locationName: Type.String(),
    branchName: Type.String(),
    peopleAhead: Type.Integer({ minimum: 0 }),
    estimatedWaitSeconds: Type.Integer({ minimum: 0 }),
    counterName: Type.Union([Type.String(), Type.Null()]),
    callCount: Type.Integer({ minimum: 0 }),
  }, closed),
  Type.Object({ state: Type.Literal('ENDED') }, closed),
  Type.Object({ state: Type.Literal('EXPIRED') }, closed),
])
const PhoneStatusResponse = Type.Object({ data: PhoneStatusSchema, version: Type.String({ description: 'changes whenever `data` does; pass it as `since` to wait for the next change' }) }, closed)

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
        detail: routeDetail({
          operationId: 'readTicketByTrackingCode',
          summary: 'A ticket\'s status by its tracking code',
          description:
            'For the phone page `/t/{code}` (contract §10); no credential: the code (120 random bits) is the capability. While the ticket is open: its number, ' +
            'service, location, branch, status, the counter it is called to, the people ahead (a count) and the approximate wait; nothing about any other ticket. ' +
            'Once it is COMPLETED, NO_SHOW or CANCELLED: `{"state":"ENDED"}`; once its business day is over: `{"state":"EXPIRED"}`, and nothing more. ' +
            'With `since` equal to the current `version` the answer waits for the next change (a long poll, at most 20 s). 600 reads a minute per address.',
          tags: ['Phone'],
          public: true,
          params: { code: { description: 'the tracking code of the ticket\'s phone page (24 characters of a-z2-7)', example: 'k3v9q2m7x4c8h6b5n2r7t3w4' } },
          query: { since: { description: 'the `version` last seen: the answer waits (up to 20 s) until the status differs', example: '1a2b3c4d5e6f', required: false } },
          responses: {
            200: {
              description: 'the status',
              name: 'PhoneStatusResponse',
              schema: PhoneStatusResponse,
              example: {
                data: { state: 'WAITING', ticketNumber: 'A003', serviceName: 'Accounts', locationName: 'Main hall', branchName: 'Main branch', peopleAhead: 2, estimatedWaitSeconds: 900, counterName: null, callCount: 0 },
                version: '1a2b3c4d5e6f',
              },
            },
          },
          errors: { 404: [PhoneCodes.TICKET_NOT_FOUND], 429: [PhoneCodes.RATE_LIMITED] },
          errorExamples: PhoneErrorExamples,
        }),
      },
    )
}
