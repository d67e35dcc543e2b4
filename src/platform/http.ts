import { Elysia } from 'elysia'
import { ApiError, CommonCodes, envelope, type ErrorDetail } from './errors'
import { correlationIdFor } from './correlation'
import type { Logger } from './log'

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
export function httpPlatform(log: Logger) {
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
      const respond = (status: number, errorCode: string, message: string, details?: ErrorDetail[], headers?: Record<string, string>) => {
        set.status = status
        return json(status, envelope(errorCode, message, correlationId, details), { 'x-correlation-id': correlationId, ...headers })
      }

      if (error instanceof ApiError) return respond(error.status, error.code, error.message, error.details, error.headers)
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
    .onAfterResponse({ as: 'global' }, ({ request, set, response }) => {
      const meta = metaByRequest.get(request)
      const status = response instanceof Response ? response.status : typeof set.status === 'number' ? set.status : 200
      log({
        level: 'info',
        msg: 'request',
        correlationId: meta?.correlationId,
        method: request.method,
        path: pathOf(request),
        status,
        ms: meta ? Math.round((performance.now() - meta.startedAt) * 100) / 100 : undefined,
      })
    })
}
