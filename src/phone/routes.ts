import { Elysia } from 'elysia'
import { assertSameOrigin, serverOrigin } from '../access'
import { admitRate, clientAddressOf, RateBuckets } from '../platform/admission'
import { Type } from '@sinclair/typebox'
import type { PhoneDeps } from './deps'
import { ApiError } from '../platform/errors'
import { json, uncompressed } from '../platform/http'
import { qrSvg } from '../platform/qr'
import { parseJsonBytes, KiB } from '../platform/body'
import { admitAnonymousForm } from '../platform/anonymous-forms'
import type { PeerSource } from '../platform/client-address'
import { assertSchema, compile } from '../platform/validation'
import type { PhoneActions } from './actions'
import { PhoneFeedbackBody } from './model'
import { PhoneCodes } from './errors'
import { trackingPath } from '../tickets'
import type { PhoneService, PhoneStatus, UnitView } from './service'
import type { PhoneWaits } from './waits'
import { phoneAnswer, ticketNotFound, LONG_POLL_MS } from './live'
import { phonePage, phoneServiceWorker } from './page'
import { leaveQueueDocs, moreTimeDocs, giveFeedbackDocs, readTicketByTrackingCodeDocs } from './docs'

export const PHONE_API = '/api/phone/v1'

/** Reads a minute from one address: a phone long-polls (about 3 a minute); a burst is someone guessing. */
export const PHONE_READS_PER_ADDRESS = 600
/**
 * Changes a minute from one address (contract §20, §23): a customer makes one or two; a branch's
 * guest Wi-Fi puts many phones behind one address, so the bound is well above one person's use.
 */
export const PHONE_WRITES_PER_ADDRESS = 30
/** The feedback body's limit: a 500-character comment in 4-byte characters, JSON-escaped, fits. */
export const MAX_PHONE_BODY = 4 * KiB
const checkFeedback = compile(PhoneFeedbackBody)

/**
 * The ticket on a phone (contract §10): `/t/{code}` (no login: the code is the capability), its
 * status read `GET /api/phone/v1/tickets/{code}` (a long poll with `?since=`), and the QR code of
 * the page as SVG for the kiosk's ticket screen.
 */
export function phoneRoutes(deps: PhoneDeps, { phone, phoneActions: actions, phoneWaits: waits }: { phone: PhoneService; phoneActions: PhoneActions; phoneWaits: PhoneWaits<PhoneStatus, UnitView> }) {

  function admit(request: Request, server: { requestIP(r: Request): { address: string } | null } | null): void {
    admitRate(deps.limiter, RateBuckets.phonePerAddress, clientAddressOf(deps.clients, request, server), PHONE_READS_PER_ADDRESS, deps.clock.now(), (retry) => `too many requests; retry after ${retry} s`)
  }

  /**
   * A change from the phone page, admitted as every anonymous form is (contract §27,
   * src/platform/anonymous-forms.ts): the Origin rule of contract §7 (the code in the URL is the
   * capability, as a cookie is for a device: another site's page must not use it), the address's
   * write limit, then the tracking code (a wrong one is 404 before any body is read), and only
   * then the body, at most 4 KiB from the anonymous budget (leave and more time send none; what
   * they send is read within those bounds and not used).
   */
  async function admitChange(request: Request, server: PeerSource | null, code: string): Promise<Uint8Array> {
    const { raw } = await admitAnonymousForm(deps, request, server, {
      before: () => assertSameOrigin(request, deps.publicOrigin, 'the phone page changes a ticket only from a page of this server (Origin does not match)'),
      rate: { bucket: RateBuckets.phoneWritePerAddress, limit: PHONE_WRITES_PER_ADDRESS, message: (retry) => `too many changes; retry after ${retry} s` },
      code: () => {
        if (phone.ticketOf(code) === null) throw notFound()
      },
      limit: MAX_PHONE_BODY,
    })
    return raw
  }
  /** The code's status after a change, as the status read answers it. */
  const after = (code: string) => {
    const { status, version } = answer(code)
    return json(200, { data: status, version }, { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
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
    .get('/t/sw.js', () => phoneServiceWorker(), { detail: { hide: true } })
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
        // A long poll's answer is sent as it is, never compressed (contract §27).
        return uncompressed(json(200, { data: status, version }, { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }))
      },
      {
        query: Type.Object({ since: Type.Optional(Type.String({ maxLength: 32, description: 'the `version` last seen: the answer waits (up to 20 s) until the status differs' })) }),
        detail: readTicketByTrackingCodeDocs,
      },
    )
    .post(`${PHONE_API}/tickets/:code/leave`, async ({ params, request, server }) => {
      await admitChange(request, server, params.code)
      await deps.writes.run(() => actions.leave(params.code, deps.clock.now()))
      return after(params.code)
    }, { parse: 'none', detail: leaveQueueDocs })
    .post(`${PHONE_API}/tickets/:code/more-time`, async ({ params, request, server }) => {
      await admitChange(request, server, params.code)
      await deps.writes.run(() => actions.moreTime(params.code, deps.clock.now()))
      return after(params.code)
    }, { parse: 'none', detail: moreTimeDocs })
    .post(`${PHONE_API}/tickets/:code/feedback`, async ({ params, request, server }) => {
      const raw = await admitChange(request, server, params.code)
      const body = parseJsonBytes(raw)
      assertSchema(checkFeedback, body, PhoneCodes.VALIDATION_FAILED)
      await deps.writes.run(() => actions.feedback(params.code, body, deps.clock.now()))
      return after(params.code)
    }, { parse: 'none', detail: giveFeedbackDocs })
}
