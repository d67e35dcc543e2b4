import { Elysia } from 'elysia'
import { readIdempotencyKeyHeader, type IdempotencyKeyPolicy } from '../platform/idempotency'
import { admitRate as admitBucket, RateBuckets } from '../platform/admission'
import type { KioskDeps } from './deps'
import { ApiError, CommonCodes, type ErrorDetail } from '../platform/errors'
import { jsonContentTypeProblem, parseJsonBytes, readBodyAfterChecks } from '../platform/body'
import { json, keptResponse } from '../platform/http'
import { keptBody } from '../platform/compression'
import { assertSchema, compile } from '../platform/validation'
import { IDEMPOTENCY_KEY_MAX } from '../queue'
import { DEVICES_API } from '../devices'
import type { DeviceService, Device } from '../devices'
import { deviceSecretOf, serverOrigin, type AdmissionPlugin } from '../access'
import { devicePage } from '../devices/pages'
import { SCREEN_CSP } from '../screens/page'
import { escapeHtml } from '../screens/page'
import { trackingPath } from '../tickets'
import { KioskCodes } from './errors'
import { KioskIssueRequest } from './model'
import type { KioskService } from './service'
import { issueKioskTicketDocs, readKioskViewDocs } from './docs'
import { PAPER_WIDTHS_MM, PRINT_SCRIPT, paperWidthOf, printPage, printStylesheet, type PaperWidth } from './print'

/** Contract §9: tickets a minute per kiosk (the public issue's default per key), and reads. */
export const KIOSK_ISSUE_PER_MINUTE = 60
export const KIOSK_READ_PER_MINUTE = 600

/** A kiosk's issue body is one service ID: 1 KB is plenty. */
const MAX_KIOSK_BODY = 1024
const checkIssue = compile(KioskIssueRequest)

const PRINT_ASSETS = '/kiosk/assets'
/** A print file under its hashed name, its bytes kept with their compressed forms (contract §27). */
function hashed(name: string, extension: string, body: string) {
  return { path: `${PRINT_ASSETS}/${name}.${Bun.hash(body).toString(16).padStart(16, '0').slice(0, 12)}.${extension}`, body, kept: keptBody(new TextEncoder().encode(body)) }
}
const PRINT_JS = hashed('print', 'js', PRINT_SCRIPT)
const PRINT_CSS = Object.fromEntries(PAPER_WIDTHS_MM.map((w) => [w, hashed(`print-${w}`, 'css', printStylesheet(w))])) as Record<PaperWidth, ReturnType<typeof hashed>>

const printHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': `${SCREEN_CSP}; frame-ancestors 'self'`,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
  // The kiosk page prints through a hidden frame of this page; no other site may frame it.
  'x-frame-options': 'SAMEORIGIN',
  // The date and time follow the printing browser's Accept-Language.
  vary: 'Accept-Language',
}

/** A print page that cannot show its ticket says why, in words (never a blank page). */
function printProblem(status: number, heading: string, hint: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(heading)}</title><link rel="stylesheet" href="${PRINT_CSS[80].path}"></head>` +
    `<body><main class="ticket"><p class="branch">${escapeHtml(heading)}</p><p>${escapeHtml(hint)}</p></main></body></html>`
  return new Response(html, { status, headers: printHeaders })
}

/**
 * The kiosk (contract §9): the `/kiosk` page, its API under `/api/devices/v1/kiosk` for a paired
 * `kiosk` device (cookie; state-changing requests from this server's Origin), and the print page
 * `/kiosk/tickets/{ticketId}/print` for 80 mm (or `?paper=58`) roll paper.
 */
/** A kiosk's ticket: required, 1–160 characters, one per tap. */
const KIOSK_IDEMPOTENCY_KEY: IdempotencyKeyPolicy = {
  required: true, min: 1, max: IDEMPOTENCY_KEY_MAX,
  missing: `required: 1 to ${IDEMPOTENCY_KEY_MAX} characters, one per tap`,
  invalid: `required: 1 to ${IDEMPOTENCY_KEY_MAX} characters, one per tap`,
}
export function kioskRoutes(deps: KioskDeps, { kiosk, devices, access }: { kiosk: KioskService; devices: DeviceService; access: AdmissionPlugin }) {

  /** Contract §9: a rate limit per device (issue 60 a minute, reads 600); every admitted request counts, a 429 does not. */
  function admitRate(device: Device, bucket: 'issue' | 'read', now: number): void {
    const limit = bucket === 'issue' ? KIOSK_ISSUE_PER_MINUTE : KIOSK_READ_PER_MINUTE
    admitBucket(deps.limiter, bucket === 'issue' ? RateBuckets.kioskIssue : RateBuckets.kioskRead, device.credentialId, limit, now,
      (retry) => `over ${limit} tickets per minute at this kiosk; retry after ${retry} s`)
  }

  /** Content-Type application/json and a required Idempotency-Key (1–160 characters); every bad header is listed. */
  function readIssueHeaders(request: Request): string {
    const details: ErrorDetail[] = []
    const notJson = jsonContentTypeProblem(request)
    if (notJson !== null) details.push(notJson)
    const { key, problem } = readIdempotencyKeyHeader(request, KIOSK_IDEMPOTENCY_KEY)
    if (problem !== null) details.push(problem)
    if (details.length > 0) throw new ApiError(400, KioskCodes.INVALID_REQUEST, `invalid request headers: ${details.map((d) => d.path).join(', ')}`, details)
    return key!
  }

  return new Elysia({ name: 'lobby.kiosk' })
    .use(access)
    .get('/kiosk', ({ query }) => devicePage('kiosk', query), { detail: { hide: true } })
    .get(`${PRINT_ASSETS}/:file`, ({ params, request }) => {
      const asset = [PRINT_JS, ...Object.values(PRINT_CSS)].find((a) => a.path === `${PRINT_ASSETS}/${params.file}`)
      if (asset === undefined) throw new ApiError(404, CommonCodes.NOT_FOUND, 'no such asset')
      const type = asset.path.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8'
      return keptResponse(request, asset.kept, { 'content-type': type, 'cache-control': 'public, max-age=31536000, immutable' })
    }, { detail: { hide: true } })
    .get(
      `${DEVICES_API}/kiosk`,
      ({ principal: device }) => {
        const now = deps.clock.now()
        admitRate(device, 'read', now)
        return json(200, { data: kiosk.view(device, now) }, { 'cache-control': 'no-store' })
      },
      {
        admitDevice: { roles: ['kiosk'] },
        detail: readKioskViewDocs,
      },
    )
    .post(
      `${DEVICES_API}/kiosk/tickets`,
      async ({ request, principal: device }) => {
        const now = deps.clock.now()
        // Contract §23: credential, Origin (admission), rate limit and headers first; the body is read only then.
        const { raw, checked: key } = await readBodyAfterChecks(request, MAX_KIOSK_BODY, () => {
          admitRate(device, 'issue', now)
          return readIssueHeaders(request)
        })
        const body = parseJsonBytes(raw)
        assertSchema(checkIssue, body, KioskCodes.VALIDATION_FAILED)
        const outcome = await deps.writes.run(() => kiosk.issue(device, key, body, now))
        const ticketId = (JSON.parse(outcome.body) as { data: { id: string } }).data.id
        const row = deps.tickets.byId(ticketId)
        if (row === null) throw new ApiError(404, KioskCodes.TICKET_NOT_FOUND, 'the ticket of this Idempotency-Key is gone')
        const headers: Record<string, string> = { location: `${DEVICES_API}/kiosk/tickets/${encodeURIComponent(ticketId)}`, 'cache-control': 'no-store' }
        if (outcome.replayed) headers['idempotent-replayed'] = 'true'
        return json(201, { data: kiosk.ticketView(device, row) }, headers)
      },
      {
        parse: 'none',
        admitDevice: { roles: ['kiosk'], body: MAX_KIOSK_BODY },
        // The header is documented, not validated by Elysia: the route checks it after the
        // credential and the rate limit, in the public issue's order.
        detail: issueKioskTicketDocs,
      },
    )
    .get(
      '/kiosk/tickets/:ticketId/print',
      ({ request, params, query }) => {
        const now = deps.clock.now()
        const device = devices.authenticate(deps.credentials, deviceSecretOf(request), now)
        // Contract §20: a desk prints its own walk-ins on the same page.
        if (device === null || (device.role !== 'kiosk' && device.role !== 'desk')) {
          return printProblem(401, 'This device is not paired as a kiosk', 'Ask the branch administrator for a pairing code and pair it at /pair.')
        }
        const row = kiosk.printableTicket(device, params.ticketId, now)
        if (row === 'missing') return printProblem(404, device.role === 'desk' ? 'No such walk-in ticket at this desk' : 'No such ticket at this kiosk', 'Take a new ticket on the kiosk\'s start screen.')
        if (row === 'expired') return printProblem(410, 'This ticket can no longer be printed', 'A kiosk prints a ticket only within 10 minutes of taking it. Take a new ticket on the start screen, or ask at a counter.')
        const view = kiosk.ticketView(device, row)
        // The plain phone page: it speaks the ticket's language by itself (contract §18); a `?lang=` here would be the reader's override.
        const phoneUrl = `${serverOrigin(request, deps.publicOrigin)}${trackingPath(row.trackingCode ?? '')}`
        const width = paperWidthOf(query.paper)
        // Words in the ticket's language; its date and time as the printing browser writes that language.
        return new Response(printPage(view, phoneUrl, { stylesheet: PRINT_CSS[width].path, script: PRINT_JS.path }, request.headers.get('accept-language')), { status: 200, headers: printHeaders })
      },
      { detail: { hide: true } },
    )
}
