import { Elysia } from 'elysia'
import type { AppDeps } from '../platform/deps'
import { ApiError } from '../platform/errors'
import { presentedSecret, type Credential } from '../platform/credentials'
import { routeDetail } from '../platform/openapi'
import { pathOf } from '../platform/http'
import { onWidgetSnapshot } from '../widgets/service'
import { onPrayerMonth } from '../prayer/events'
import { onQueueChange } from '../tickets/changes'
import { LiveHub, type LiveSocket } from './hub'
import { CloseCodes, DisplayCodes } from './errors'
import { DeviceService } from '../devices/service'
import { assertSameOrigin, deviceSecretOf } from '../devices/access'
import { widgetView, prayerTodayView, prayerMonthView, queueStateView, type DisplayView } from './service'

const PREFIX = '/api/display/v1'
const HEARTBEAT_MS = 25_000

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, OPTIONS',
  'access-control-allow-headers': 'authorization, if-none-match, x-correlation-id',
  'access-control-expose-headers': 'etag, x-correlation-id',
  'access-control-max-age': '600',
}

/** The display token of the request: `Authorization: Bearer lbd_…` or `?token=lbd_…`. */
export function tokenOf(request: Request, query: Record<string, string | undefined>): string | null {
  return presentedSecret(request, { allowApiKeyHeader: false }) ?? query.token ?? null
}

export function authenticateDisplay(deps: AppDeps, token: string | null, devices?: DeviceService, request?: Request): Credential {
  const credential = deps.credentials.authenticate(token, 'display', deps.clock.now())
  if (credential === null) {
    const viewer = token === null && devices && request ? deviceViewer(deps, devices, request) : null
    if (viewer !== null && viewer.queueUnitId === null) return { ...NO_LISTS, id: viewer.credentialId, kind: 'device', ownerId: viewer.workspaceId, name: viewer.name }
    throw new ApiError(401, DisplayCodes.AUTHENTICATION_FAILED, 'a valid display token (lbd_…) or a paired display is required on display routes')
  }
  return credential
}

const NO_LISTS = { scopes: null, locations: null, services: null, issuePerMinute: null, readPerMinute: null }

/**
 * A paired device reading display feeds by its cookie (contract §7): a display reads what a
 * display token may (its workspace); a desk only its own queue unit's live state, which is how
 * the desk page hears of changes. Null for anything else. No token is ever read from a cookie.
 */
function deviceViewer(deps: AppDeps, devices: DeviceService, request: Request): { credentialId: string; name: string; workspaceId: string; queueUnitId: string | null; secret: string } | null {
  const secret = deviceSecretOf(request)
  const device = devices.authenticate(deps.credentials, secret, deps.clock.now())
  if (device === null || secret === null) return null
  if (device.role === 'display') return { credentialId: device.credentialId, name: device.name, workspaceId: device.workspaceId, queueUnitId: null, secret }
  // A desk and a kiosk read their own unit's queue topic (their pages re-read their view on each change).
  if (device.role === 'desk' || device.role === 'kiosk') return { credentialId: device.credentialId, name: device.name, workspaceId: device.workspaceId, queueUnitId: device.queueUnitId, secret }
  return null
}

/** 200 with an ETag over the body, or 304 when the screen already has it. */
function conditional(request: Request, view: DisplayView | null, what: string): Response {
  if (view === null) throw new ApiError(404, DisplayCodes.NOT_FOUND, `no such ${what} for this display token`)
  const etag = view.etag ?? `"${Bun.hash(view.dataJson).toString(36)}"`
  const headers = { etag, 'cache-control': 'no-cache' }
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers })
  return new Response(view.dataJson, { status: 200, headers: { ...headers, 'content-type': 'application/json' } })
}

const docs = (summary: string, extra: Record<number, string[]> = {}) => routeDetail({
  summary,
  tags: ['Display feeds'],
  security: 'displayToken',
  responses: {
    200: { description: 'the current state; ETag for conditional requests' },
    304: { description: 'unchanged since If-None-Match' },
  },
  errors: { 401: [DisplayCodes.AUTHENTICATION_FAILED], 404: [DisplayCodes.NOT_FOUND], ...extra },
})

/**
 * Contract §6: read-only display feeds for screens. Display tokens are accepted here and only
 * here (the other routes authenticate other kinds), and every response answers CORS.
 */
export function displayRoutes(deps: AppDeps) {
  const hub = new LiveHub({
    log: deps.log,
    maxSocketsPerCredential: deps.limits.socketsPerCredential,
    maxSockets: deps.limits.socketsTotal,
    messageBurst: deps.limits.socketMessageBurst,
    messageRefillMs: deps.limits.socketMessageRefillMs,
  })
  const devices = new DeviceService(deps.db, deps.ids)
  hub.register('widget', (id, workspaceId) => widgetView(deps, id, workspaceId))
  hub.register('prayer', (id, workspaceId) => prayerTodayView(deps, id, workspaceId))
  hub.register('queue', (id, workspaceId) => queueStateView(deps, id, workspaceId))
  onWidgetSnapshot(deps.db, (snapshot) => hub.publish('widget', snapshot.widgetId, snapshot.workspaceId))
  onPrayerMonth(deps.db, (event) => hub.publish('prayer', event.sourceId, event.workspaceId))
  onQueueChange(deps.db, (change) => hub.publish('queue', change.queueUnitId, change.workspaceId))

  let heartbeat: ReturnType<typeof setInterval> | undefined
  let recheck: ReturnType<typeof setInterval> | undefined
  deps.lifecycle.register({
    start: () => {
      heartbeat = setInterval(() => hub.heartbeat(), HEARTBEAT_MS)
      // A revoked token's screens are closed within a second (contract §7), not at the next ping.
      recheck = setInterval(() => hub.recheckCredentials(), deps.limits.socketRecheckMs)
    },
    beforeStop: () => hub.closeAll(),
    stop: () => {
      clearInterval(heartbeat)
      clearInterval(recheck)
    },
  })

  return new Elysia({ name: 'lobby.display' })
    .decorate('liveHub', hub)
    .onRequest(({ request, set }) => {
      if (pathOf(request).startsWith(`${PREFIX}/`)) Object.assign(set.headers, CORS)
    })
    .options(`${PREFIX}/*`, () => new Response(null, { status: 204, headers: CORS }), { detail: { hide: true } })
    .get(`${PREFIX}/widgets/:widgetId`, ({ request, query, params }) => {
      const credential = authenticateDisplay(deps, tokenOf(request, query), devices, request)
      return conditional(request, widgetView(deps, params.widgetId, credential.ownerId), 'widget')
    }, { detail: docs('Current snapshot of a widget') })
    .get(`${PREFIX}/queue-units/:queueUnitId/state`, ({ request, query, params }) => {
      const credential = authenticateDisplay(deps, tokenOf(request, query), devices, request)
      const location = typeof query.location === 'string' && query.location !== '' ? query.location : undefined
      return conditional(request, queueStateView(deps, params.queueUnitId, credential.ownerId, location), 'queue unit (or location)')
    }, { detail: docs('Live state of a queue unit: now serving, waiting, recent calls (optionally one location)') })
    .get(`${PREFIX}/prayer-schedules/sources/:sourceId/months/:period`, ({ request, query, params }) => {
      const credential = authenticateDisplay(deps, tokenOf(request, query), devices, request)
      return conditional(request, prayerMonthView(deps, params.sourceId, params.period, credential.ownerId), 'stored month')
    }, { detail: docs('A stored prayer-schedule month') })
    .get(`${PREFIX}/prayer-schedules/sources/:sourceId/today`, ({ request, query, params }) => {
      const credential = authenticateDisplay(deps, tokenOf(request, query), devices, request)
      const view = prayerTodayView(deps, params.sourceId, credential.ownerId)
      return conditional(request, view && view.dataJson !== 'null' ? view : null, "stored month for today at this source")
    }, { detail: docs("Today's prayer times and the next prayer, in the source's time zone") })
    .ws(`${PREFIX}/live`, {
      detail: routeDetail({ summary: 'Live updates (websocket)', tags: ['Display feeds'], security: 'displayToken' }),
      beforeHandle({ request, query }) {
        // Refused before the upgrade, so the screen gets a 401 in the envelope, not a dead socket.
        const token = tokenOf(request, query as Record<string, string | undefined>)
        if (token === null && deviceViewer(deps, devices, request) !== null) return assertSameOrigin(request, deps.publicOrigin)
        authenticateDisplay(deps, token)
      },
      open(ws) {
        const token = tokenOf(ws.data.request, ws.data.query as Record<string, string | undefined>)
        const credential = deps.credentials.authenticate(token, 'display', deps.clock.now())
        if (credential !== null) {
          hub.connect(ws.raw as unknown as LiveSocket, credential.ownerId, () => deps.credentials.authenticate(token, 'display', deps.clock.now()) !== null, credential.id)
          return
        }
        // A paired device: the same credential store re-checks its secret, so a revoked
        // device's socket is closed like a revoked token's.
        const viewer = token === null ? deviceViewer(deps, devices, ws.data.request) : null
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
