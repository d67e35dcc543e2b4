import { Elysia } from 'elysia'
import type { DisplayDeps } from './deps'
import { ApiError } from '../platform/errors'
import { json, type PathHeaders } from '../platform/http'
import type { LiveHub, LiveSocket } from './hub'
import { CloseCodes, DisplayCodes } from './errors'
import { assertSameOrigin, displayTokenOf, type Admission, type AdmissionPlugin } from '../access'
import { liveDocs, readDisplayPrayerMonthDocs, readDisplayPrayerTodayDocs, readDisplayQueueStateDocs, readDisplayWidgetDocs } from './docs'
import { widgetView, prayerTodayView, prayerMonthView, queueStateView, type DisplayView } from './service'

const PREFIX = '/api/display/v1'

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, OPTIONS',
  'access-control-allow-headers': 'authorization, if-none-match, x-correlation-id',
  'access-control-expose-headers': 'etag, x-correlation-id',
  'access-control-max-age': '600',
}

/** Every answer under the display prefix answers CORS, errors and unknown paths too: set by the platform (src/app.ts hands it this). */
export const DISPLAY_CORS: PathHeaders = { prefix: `${PREFIX}/`, headers: CORS }

/** 200 with an ETag over the body, or 304 when the screen already has it. */
function conditional(request: Request, view: DisplayView | null, what: string): Response {
  if (view === null) throw new ApiError(404, DisplayCodes.NOT_FOUND, `no such ${what} for this display token`)
  const etag = view.etag ?? `"${Bun.hash(view.dataJson).toString(36)}"`
  const headers = { etag, 'cache-control': 'no-cache' }
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers })
  // `json`: the platform compresses from the text it keeps, without reading the body back (contract §27).
  return json(200, view.dataJson, headers)
}

/**
 * Contract §6: read-only display feeds for screens. Display tokens are accepted here and only
 * here (the other routes authenticate other kinds), and every response answers CORS (`DISPLAY_CORS`, set by the platform).
 */
export function displayRoutes(deps: DisplayDeps, { hub, access, admission }: { hub: LiveHub; access: AdmissionPlugin; admission: Admission }) {
  return new Elysia({ name: 'lobby.display' })
    .use(access)
    .decorate('liveHub', hub)
    .options(`${PREFIX}/*`, () => new Response(null, { status: 204, headers: CORS }), { detail: { hide: true } })
    .get(`${PREFIX}/widgets/:widgetId`, ({ request, params, principal: credential }) => {
      return conditional(request, widgetView(deps, params.widgetId, credential.ownerId), 'widget')
    }, {
      admitDisplay: true,
      detail: readDisplayWidgetDocs,
    })
    .get(`${PREFIX}/queue-units/:queueUnitId/state`, ({ request, query, params, principal: credential }) => {
      const location = typeof query.location === 'string' && query.location !== '' ? query.location : undefined
      return conditional(request, queueStateView(deps, params.queueUnitId, credential.ownerId, location), 'queue unit (or location)')
    }, {
      admitDisplay: true,
      detail: readDisplayQueueStateDocs,
    })
    .get(`${PREFIX}/prayer-schedules/sources/:sourceId/months/:period`, ({ request, params, principal: credential }) => {
      return conditional(request, prayerMonthView(deps, params.sourceId, params.period, credential.ownerId), 'stored month')
    }, {
      admitDisplay: true,
      detail: readDisplayPrayerMonthDocs,
    })
    .get(`${PREFIX}/prayer-schedules/sources/:sourceId/today`, ({ request, params, principal: credential }) => {
      const view = prayerTodayView(deps, params.sourceId, credential.ownerId)
      return conditional(request, view && view.dataJson !== 'null' ? view : null, "stored month for today at this source")
    }, {
      admitDisplay: true,
      detail: readDisplayPrayerTodayDocs,
    })
    .ws(`${PREFIX}/live`, {
      detail: liveDocs,
      beforeHandle({ request, query }) {
        // Refused before the upgrade, so the screen gets a 401 in the envelope, not a dead socket.
        const token = displayTokenOf(request, query as Record<string, string | undefined>)
        if (token === null && admission.displayViewer(request) !== null) return assertSameOrigin(request, deps.publicOrigin)
        admission.display(token, null)
      },
      open(ws) {
        const token = displayTokenOf(ws.data.request, ws.data.query as Record<string, string | undefined>)
        const credential = deps.credentials.authenticate(token, 'display', deps.clock.now())
        if (credential !== null) {
          hub.connect(ws.raw as unknown as LiveSocket, credential.ownerId, () => deps.credentials.authenticate(token, 'display', deps.clock.now()) !== null, credential.id)
          return
        }
        // A paired device: the same credential store re-checks its secret, so a revoked
        // device's socket is closed like a revoked token's.
        const viewer = token === null ? admission.displayViewer(ws.data.request) : null
        if (viewer === null) return ws.close(CloseCodes.TOKEN_INVALID, 'display token not valid')
        const unit = viewer.queueUnitId
        hub.connect(
          ws.raw as unknown as LiveSocket,
          viewer.workspaceId,
          () => deps.credentials.authenticate(viewer.secret, 'device', deps.clock.now()) !== null,
          viewer.credentialId,
          unit === null ? undefined : (kind, id) => kind === 'queue' && id === unit,
        )
      },
      message(ws, message) {
        hub.message(ws.raw as unknown as LiveSocket, typeof message === 'string' ? message : JSON.stringify(message))
      },
      close(ws) {
        hub.disconnect(ws.raw as unknown as LiveSocket)
      },
    })
}
