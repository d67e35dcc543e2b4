import { Elysia } from 'elysia'
import { ApiError, CommonCodes, envelope, type ErrorDetail } from './errors'
import { correlationIdFor } from './correlation'
import type { Logger } from './log'
import { ClientAddresses, type PeerSource } from './client-address'

/** The largest body any route accepts (widget push, 1 MiB); routes enforce their own, lower limits. */
export const MAX_ANY_BODY = 1024 * 1024

interface RequestMeta {
  correlationId: string
  startedAt: number
}

// Per-request facts keyed by the Request itself: unlike `derive`, this is there for
// unknown routes and parse failures too, which never reach a route's context.
const metaByRequest = new WeakMap<Request, RequestMeta>()

/**
 * The path of a request. Without a valid Host header (HTTP/1.0, `Host:` empty or malformed) Bun
 * gives `request.url` as the bare path ("/health"), which `new URL` refuses: never throw here.
 */
export function pathOf(request: Request): string {
  const url = request.url
  const start = url.startsWith('/') ? 0 : url.indexOf('/', url.indexOf('//') + 2)
  if (start < 0) return '/'
  const query = url.indexOf('?', start)
  return url.slice(start, query < 0 ? undefined : query)
}

/** The value of cookie `name` in the request when it matches `pattern` (a credential's shape), else null. */
export function cookieValue(request: Request, name: string, pattern: RegExp): string | null {
  const header = request.headers.get('cookie')
  if (header === null) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue
    const value = part.slice(eq + 1).trim()
    if (pattern.test(value)) return value
  }
  return null
}

export function correlationIdOf(request: Request): string {
  return metaByRequest.get(request)?.correlationId ?? correlationIdFor(null)
}

/** JSON response with the given status and extra headers (the correlation header is added by the platform). */
export function json(status: number, body: unknown, headers?: Record<string, string>): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: headers === undefined ? { 'content-type': 'application/json' } : { 'content-type': 'application/json', ...headers },
  })
}

/**
 * The HTTP convention every route shares, registered on the root app before any feature so
 * its hooks cover them all: correlation ID on every response and log line, the error
 * envelope for every failure, one JSON log line per request.
 */
export function httpPlatform(log: Logger, clients: ClientAddresses = new ClientAddresses(), now: () => number = Date.now) {
  const accessLog = new AccessLog(log, ACCESS_SUMMARY_EVERY_MS, now)
  return new Elysia({ name: 'lobby.http-platform' })
    .onRequest(({ request, set }) => {
      const correlationId = correlationIdFor(request.headers.get('x-correlation-id'))
      metaByRequest.set(request, { correlationId, startedAt: performance.now() })
      // A websocket upgrade answers from inside its handler, with `set.headers`.
      if (request.headers.get('upgrade') !== null) set.headers['x-correlation-id'] = correlationId
      // No route takes more than 1 MiB: a larger declared body is refused here, in the envelope, before anyone reads it.
      if (Number(request.headers.get('content-length') ?? 0) > MAX_ANY_BODY) {
        throw new ApiError(413, CommonCodes.PAYLOAD_TOO_LARGE, `request body exceeds ${MAX_ANY_BODY} bytes`, undefined, { connection: 'close' })
      }
    })
    // The header goes straight onto the handler's Response: anything in `set.headers` makes
    // Elysia copy every Response into a new one (new Headers, new Response) to merge them.
    .onAfterHandle({ as: 'global' }, ({ request, response, set }) => {
      const correlationId = correlationIdOf(request)
      if (response instanceof Response) {
        try {
          response.headers.set('x-correlation-id', correlationId)
          return
        } catch {
          // Immutable headers: fall back to the merge below.
        }
      }
      set.headers['x-correlation-id'] = correlationId
    })
    .onError({ as: 'global' }, ({ code, error, request, set }) => {
      const correlationId = correlationIdOf(request)
      const respond = (status: number, errorCode: string, message: string, details?: ErrorDetail[], headers?: Record<string, string>, extra?: Record<string, unknown>) => {
        set.status = status
        return json(status, envelope(errorCode, message, correlationId, details, extra), { 'x-correlation-id': correlationId, ...headers })
      }

      if (error instanceof ApiError) return respond(error.status, error.code, error.message, error.details, error.headers, error.extra)
      switch (code) {
        case 'NOT_FOUND':
          return respond(404, CommonCodes.NOT_FOUND, 'no such route or method')
        case 'PARSE':
          return respond(400, CommonCodes.INVALID_JSON, 'request body could not be parsed')
        case 'VALIDATION': {
          // Elysia's own messages echo the submitted value; keep only path and rule.
          const all = (error as { all?: { path?: string; summary?: string; message?: string }[] }).all ?? []
          const details = all.map((e) => ({ path: e.path || '/', message: e.summary ?? 'invalid value' }))
          return respond(422, CommonCodes.VALIDATION_FAILED, 'request validation failed', details)
        }
        case 'INVALID_COOKIE_SIGNATURE':
        case 'INVALID_FILE_TYPE':
          return respond(400, CommonCodes.INVALID_REQUEST, 'invalid request')
        default: {
          log({ level: 'error', msg: 'unhandled error', correlationId, error: String((error as Error)?.stack ?? error) })
          return respond(500, CommonCodes.INTERNAL_ERROR, 'internal error; quote the correlation ID when reporting it')
        }
      }
    })
    .onAfterResponse({ as: 'global' }, ({ request, set, response, route, server }) => {
      const meta = metaByRequest.get(request)
      const status = response instanceof Response ? response.status : typeof set.status === 'number' ? set.status : 200
      accessLog.request(request, route, status, meta, () => clients.of(request, server as PeerSource | null).address)
    })
}

/** How often the count of the requests not logged one by one is written. */
export const ACCESS_SUMMARY_EVERY_MS = 60_000

/**
 * The path as the log shows it (contract §23): the route's template (`/t/:code`), never the
 * requested path, so tracking, booking, setup and pairing codes never appear in clear. A path no
 * route matched keeps its first segment only (`/t/…`): a mistyped capability URL stays hidden too.
 */
export function loggedPath(route: string | undefined, request: Request): string {
  if (route) return route
  const path = pathOf(request)
  const second = path.indexOf('/', 1)
  const first = second < 0 ? path : path.slice(0, second)
  return (first.length > 64 ? first.slice(0, 64) + '…' : first) + (second < 0 || second === path.length - 1 ? (second < 0 ? '' : '/') : '/…')
}

/**
 * The access log (docs/decisions.md "Access log"): a request that changes state (not GET or HEAD)
 * or failed (status ≥ 400) is one line in full; the rest are counted per method and route
 * template, and the counts are one `requests` line a minute (written by the first request after
 * the minute is over: no timer).
 */
export class AccessLog {
  private counts = new Map<string, number>()
  private since: number

  constructor(private readonly log: Logger, private readonly everyMs = ACCESS_SUMMARY_EVERY_MS, private readonly now: () => number = Date.now) {
    this.since = now()
  }

  request(request: Request, route: string | undefined, status: number, meta: { correlationId: string; startedAt: number } | undefined, client: () => string | null): void {
    const path = loggedPath(route, request)
    const method = request.method
    if ((method === 'GET' || method === 'HEAD') && status < 400) {
      const key = `${method} ${path}`
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1)
    } else {
      this.log({
        level: 'info',
        msg: 'request',
        correlationId: meta?.correlationId,
        method,
        path,
        status,
        client: client(),
        ms: meta ? Math.round((performance.now() - meta.startedAt) * 100) / 100 : undefined,
      })
    }
    if (this.now() - this.since >= this.everyMs) this.flush()
  }

  /** Writes the counts so far as one line (nothing when there are none). */
  flush(): void {
    const at = this.now()
    if (this.counts.size > 0) {
      let total = 0
      for (const n of this.counts.values()) total += n
      this.log({ level: 'info', msg: 'requests', seconds: Math.round((at - this.since) / 1000), total, counts: Object.fromEntries(this.counts) })
    }
    this.counts = new Map()
    this.since = at
  }
}
