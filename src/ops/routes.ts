import { Elysia } from 'elysia'
import type { Server } from 'bun'
import type { OpsDeps } from './deps'
import { ApiError } from '../platform/errors'
import { ClientAddresses, isLoopback, type Client, type PeerSource } from '../platform/client-address'
import type { AnsweredObserver } from '../platform/http'
import { OpsCodes } from './errors'
import { readMetricsDocs } from './docs'

/** The codes of `/metrics` stay importable from here (test/openapi/document.test.ts reads them so). */
export { OpsCodes }

/** Requests answered by no route are counted under this one label value. */
export const UNMATCHED_ROUTE = 'unmatched'

function sameSecret(presented: string, expected: string): boolean {
  const a = new Bun.CryptoHasher('sha256').update(presented).digest()
  const b = new Bun.CryptoHasher('sha256').update(expected).digest()
  return crypto.timingSafeEqual(a, b)
}

/**
 * Who may read `/metrics` (contract §13, §23): a caller on loopback, not forwarded by a proxy
 * Lobby does not trust; anyone else only with `Authorization: Bearer <metrics token>` when the
 * server has one. Behind a `--trusted-proxy` the caller is the forwarded client, so through the
 * proxy a LAN client is remote. Without a known address (a request handed to the app directly)
 * only the token opens it. `client` as a bare peer address: no proxy is trusted.
 */
export function authorizeMetrics(request: Request, client: Client | string | null, token: string | null | undefined): void {
  const caller = typeof client === 'string' || client === null ? new ClientAddresses().attribute(request, client) : client
  const presented = /^Bearer (\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
  if (token && presented !== undefined) {
    if (sameSecret(presented, token)) return
    throw new ApiError(401, OpsCodes.AUTHENTICATION_FAILED, 'wrong metrics token')
  }
  if (caller.address !== null && isLoopback(caller.address) && !caller.forwardedUnattributed) return
  throw new ApiError(
    token ? 401 : 403,
    token ? OpsCodes.AUTHENTICATION_FAILED : OpsCodes.METRICS_FORBIDDEN,
    token
      ? '/metrics needs Authorization: Bearer <metrics token> from outside this machine'
      : '/metrics is answered on loopback only; start the server with --metrics-token to open it to others',
  )
}

/**
 * The HTTP metrics' observer, handed to the platform (src/app.ts) so it sees every answer:
 * the `route` label is the template Elysia matched (`/api/public/v1/queue/tickets/:ticketId`),
 * never the requested path, so a scan of random URLs adds no series.
 */
export function httpMetricsObserver(sink: OpsDeps['metrics']): AnsweredObserver {
  return (route, method, status, seconds) => sink.http(route || UNMATCHED_ROUTE, method, String(status), seconds)
}

/** `/metrics` (contract §13): loopback or the metrics token. */
export function opsRoutes(deps: OpsDeps) {
  const sink = deps.metrics
  return new Elysia({ name: 'lobby.ops' })
    .get(
      '/metrics',
      async ({ request, server }) => {
        const live = server as Server<unknown> | null
        authorizeMetrics(request, deps.clients.of(request, live as PeerSource | null), deps.metricsToken)
        if (live) sink.websocketConnections = () => live.pendingWebSockets
        const metrics = await sink.load()
        return new Response(await metrics.registry.metrics(), { headers: { 'content-type': metrics.registry.contentType } })
      },
      {
        detail: readMetricsDocs,
      },
    )
}
