import { Elysia } from 'elysia'
import { ApiError, CommonCodes, envelope, type ErrorDetail } from './errors'
import { correlationIdFor } from './correlation'
import type { Logger } from './log'
import { ClientAddresses, type PeerSource } from './client-address'
import { compress, compressibleType, COMPRESS_MIN_BYTES, keptBytes, negotiateEncoding, varyWithEncoding, type Encoding, type KeptBody } from './compression'

/** The largest body any route accepts (widget push, 1 MiB); routes enforce their own, lower limits. */
export const MAX_ANY_BODY = 1024 * 1024

interface RequestMeta {
  correlationId: string
  startedAt: number
  /** The handler's Response already carries `X-Correlation-ID` (`jsonHeaders`): the after-handle hook leaves its headers alone. */
  stamped: boolean
}

// Per-request facts kept on the Request itself: unlike `derive`, this is there for unknown
// routes and parse failures too, which never reach a route's context. A symbol-keyed property
// rather than a WeakMap: every request's object gets the same shape, and the read is a
// property load instead of a weak-table lookup (4 per request on the hot reads).
const META = Symbol('lobby.request-meta')
type WithMeta = Request & { [META]?: RequestMeta }
const metaByRequest = {
  get: (request: Request): RequestMeta | undefined => (request as WithMeta)[META],
  set: (request: Request, meta: RequestMeta): void => {
    ;(request as WithMeta)[META] = meta
  },
}

/**
 * The path of a request. Without a valid Host header (HTTP/1.0, `Host:` empty or malformed) Bun
 * gives `request.url` as the bare path ("/health"), which `new URL` refuses: never throw here.
 */
export function pathOf(request: Request): string {
  const url = request.url
  const start = pathStart(url)
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

/** The start of the path in a request's URL (after `scheme://host`), or -1 for none; see `pathOf`. */
export function pathStart(url: string): number {
  return url.startsWith('/') ? 0 : url.indexOf('/', url.indexOf('//') + 2)
}

/** On every answer (contract §27): browsers never guess a type other than the one sent. */
export const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const

/**
 * The headers of a JSON answer that carries the request's `X-Correlation-ID` itself, so the
 * platform's after-handle hook need not set it on the finished Response (a header set there
 * makes Bun build the Response's header map a second time): for the hot reads. `headers` are
 * the answer's own (Vary, Content-Language); `encoding` the body's, when it is compressed (the
 * hook leaves such an answer alone, so its `Vary` must name `Accept-Encoding` itself).
 */
export function jsonHeaders(request: Request, headers: Record<string, string>, encoding: Encoding | null = null): Record<string, string> {
  const meta = metaByRequest.get(request)
  const base: Record<string, string> = meta === undefined
    ? { 'content-type': 'application/json', 'x-content-type-options': 'nosniff', ...headers }
    : { 'content-type': 'application/json', 'x-content-type-options': 'nosniff', 'x-correlation-id': meta.correlationId, ...headers }
  if (meta !== undefined) meta.stamped = true
  if (encoding !== null) base['content-encoding'] = encoding
  return base
}

/**
 * The JSON text of a `json()` answer, kept on its Response: the after-handle hook compresses
 * from it without reading the body back (which would make every such answer asynchronous).
 */
const JSON_TEXT = Symbol('lobby.json-text')
/** A Response the platform must send as it is (a long poll's answer): never compressed. */
const PLAIN = Symbol('lobby.plain')
type Marked = Response & { [JSON_TEXT]?: string; [PLAIN]?: true }

/** JSON response with the given status and extra headers (the correlation header is added by the platform). */
export function json(status: number, body: unknown, headers?: Record<string, string>): Response {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  const response = new Response(text, {
    status,
    headers: headers === undefined ? JSON_BASE : { ...JSON_BASE, ...headers },
  }) as Marked
  response[JSON_TEXT] = text
  return response
}

const JSON_BASE = { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' }

/** `response`, marked to be sent as it is, never compressed (long polls: contract §27 leaves them so). */
export function uncompressed(response: Response): Response {
  ;(response as Marked)[PLAIN] = true
  return response
}

/**
 * A kept body (an embedded file, a cached document) as `request` accepts it: its compressed
 * form, made once and kept beside it, or the plain bytes; `Vary: Accept-Encoding` either way.
 */
export function keptResponse(request: Request, body: KeptBody, headers: Record<string, string>): Response {
  const encoding = negotiateEncoding(request.headers.get('accept-encoding'))
  const bytes = keptBytes(body, encoding)
  const vary = varyWithEncoding(headers.vary)
  return uncompressed(new Response(bytes, {
    headers: bytes === body.plain ? { ...headers, ...NOSNIFF, vary } : { ...headers, ...NOSNIFF, vary, 'content-encoding': encoding! },
  }))
}

/** `a` and `b`, two `Vary` values, as one (either may be absent). */
function joinVary(a: string | null | undefined, b: string | null | undefined): string | undefined {
  if (a === null || a === undefined || a === '') return b ?? undefined
  if (b === null || b === undefined || b === '' || a.toLowerCase() === b.toLowerCase()) return a
  return `${a}, ${b}`
}

/** Whether an answer with this status and request may carry a compressed body: not HEAD, not a range, not 204/304/206 or 1xx. */
function mayCompress(request: Request, status: number): boolean {
  return status >= 200 && status !== 204 && status !== 206 && status !== 304 && request.method !== 'HEAD' && request.headers.get('range') === null
}

/**
 * The handler's Response as it is to be sent (contract §27): `Vary: Accept-Encoding` on every
 * answer of a compressible type, and a compressed body when the request accepts one and the
 * body is 1 KiB or more. A `json()` answer is compressed from its kept text at once; any other
 * (pages, documents) is read back first, so its answer comes a microtask later. Undefined: send
 * the Response as it is.
 */
function encodedResponse(request: Request, response: Response, setVary: string | undefined): Response | Promise<Response> | undefined {
  const marked = response as Marked
  if (marked[PLAIN] === true) return undefined
  const headers = response.headers
  if (!compressibleType(headers.get('content-type')) || headers.get('content-encoding') !== null) return undefined
  headers.set('vary', varyWithEncoding(joinVary(headers.get('vary'), setVary)))
  const status = response.status
  if (!mayCompress(request, status)) return undefined
  const encoding = negotiateEncoding(request.headers.get('accept-encoding'))
  if (encoding === null) return undefined
  const encoded = (bytes: Uint8Array | string, length: number): Response | undefined => {
    if (length < COMPRESS_MIN_BYTES) return undefined
    const out = new Headers(headers)
    out.set('content-encoding', encoding)
    out.delete('content-length')
    return new Response(compress(bytes, encoding), { status, statusText: response.statusText, headers: out })
  }
  const text = marked[JSON_TEXT]
  // A string's UTF-8 length is at least its length in code units and at most three times it.
  if (text !== undefined) return text.length * 3 < COMPRESS_MIN_BYTES ? undefined : encoded(text, Buffer.byteLength(text))
  return response.bytes().then((bytes) => encoded(bytes, bytes.length) ?? new Response(bytes, { status, statusText: response.statusText, headers }))
}

/**
 * Told of every answered request once its answer is made (the HTTP metrics, src/ops): the
 * route template ('' when no route matched), the method, the status and the seconds since the
 * platform first saw the request (undefined when it never did).
 */
export type AnsweredObserver = (route: string, method: string, status: number, seconds: number | undefined) => void

/**
 * Headers every answer under a path prefix carries, errors and unknown paths included (display's
 * CORS, contract §6): set in the platform's one onRequest hook, since each global onRequest hook
 * a feature adds is called for every request of every route.
 */
export interface PathHeaders {
  /** The start of the path, with its trailing slash (`/api/display/v1/`). */
  prefix: string
  headers: Readonly<Record<string, string>>
}

export interface HttpPlatformOptions {
  answered?: AnsweredObserver
  pathHeaders?: readonly PathHeaders[]
}

/**
 * The HTTP convention every route shares, registered on the root app before any feature so
 * its hooks cover them all: correlation ID on every response and log line, the error
 * envelope for every failure, one JSON log line per request, and `answered` told of each.
 *
 * The log and the observer run when the answer is made (after the handler, or in the error
 * hook), not in an onAfterResponse hook: such a hook makes Elysia schedule an async task per
 * request (`setImmediate`), which cost the hot reads more than the work it ran
 * (bench/analysis.md "Hot reads").
 */
export function httpPlatform(log: Logger, clients: ClientAddresses = new ClientAddresses(), now: () => number = Date.now, { answered, pathHeaders = [] }: HttpPlatformOptions = {}) {
  const accessLog = new AccessLog(log, ACCESS_SUMMARY_EVERY_MS, now)
  // The server, from when it starts (none when the app is handed requests directly): taken
  // once here rather than from each request's context, where asking for `server` makes Elysia
  // define a property on every request's context, on every route.
  let server: PeerSource | null = null
  const finish = (request: Request, route: string | undefined, status: number) => {
    const meta = metaByRequest.get(request)
    accessLog.request(request, route, status, meta, () => clients.of(request, server).address)
    answered?.(route ?? '', request.method, status, meta === undefined ? undefined : (performance.now() - meta.startedAt) / 1000)
  }
  return new Elysia({ name: 'lobby.http-platform' })
    .onStart((app) => {
      server = (app.server as PeerSource | null) ?? null
    })
    .onRequest(({ request, set }) => {
      const headers = request.headers
      const correlationId = correlationIdFor(headers.get('x-correlation-id'))
      metaByRequest.set(request, { correlationId, startedAt: performance.now(), stamped: false })
      // A websocket upgrade answers from inside its handler, with `set.headers`.
      if (headers.get('upgrade') !== null) {
        set.headers['x-correlation-id'] = correlationId
        set.headers['x-content-type-options'] = 'nosniff'
      }
      if (pathHeaders.length > 0) {
        const url = request.url
        const start = pathStart(url)
        for (const { prefix, headers: extra } of pathHeaders) if (start >= 0 && url.startsWith(prefix, start)) Object.assign(set.headers, extra)
      }
      // No route takes more than 1 MiB: a larger declared body is refused here, in the envelope, before anyone reads it.
      const length = headers.get('content-length')
      if (length !== null && Number(length) > MAX_ANY_BODY) {
        throw new ApiError(413, CommonCodes.PAYLOAD_TOO_LARGE, `request body exceeds ${MAX_ANY_BODY} bytes`, undefined, { connection: 'close' })
      }
    })
    // The header goes straight onto the handler's Response: anything in `set.headers` makes
    // Elysia copy every Response into a new one (new Headers, new Response) to merge them.
    .onAfterHandle({ as: 'global' }, ({ request, response, set, route }) => {
      let status = typeof set.status === 'number' ? set.status : 200
      if (response instanceof Response && metaByRequest.get(request)?.stamped === true) {
        finish(request, route, response.status)
        return
      }
      const correlationId = correlationIdOf(request)
      if (response instanceof Response) {
        status = response.status
        try {
          response.headers.set('x-correlation-id', correlationId)
          response.headers.set('x-content-type-options', 'nosniff')
          finish(request, route, status)
          // Never `return f(…)`: Elysia reads a hook whose source returns a call's result as
          // asynchronous, which would make every route's handler so (test/queue/hot-reads.test.ts).
          const encoded = encodedResponse(request, response, set.headers.vary)
          if (encoded !== undefined) return encoded
          return
        } catch {
          // Immutable headers: fall back to the merge below.
        }
      }
      set.headers['x-correlation-id'] = correlationId
      set.headers['x-content-type-options'] = 'nosniff'
      finish(request, route, status)
      // A plain object or array: Elysia sends it as JSON.
      if (response !== null && typeof response === 'object' && (response.constructor === Object || Array.isArray(response))) {
        set.headers.vary = varyWithEncoding(set.headers.vary)
        if (!mayCompress(request, status)) return
        const encoding = negotiateEncoding(request.headers.get('accept-encoding'))
        if (encoding === null) return
        const text = JSON.stringify(response)
        if (text.length * 3 < COMPRESS_MIN_BYTES || Buffer.byteLength(text) < COMPRESS_MIN_BYTES) return
        return new Response(compress(text, encoding), { status, headers: { 'content-type': 'application/json', 'content-encoding': encoding, vary: set.headers.vary } })
      }
    })
    .onError({ as: 'global' }, ({ code, error, request, set, route }) => {
      const correlationId = correlationIdOf(request)
      const respond = (status: number, errorCode: string, message: string, details?: ErrorDetail[], headers?: Record<string, string>, extra?: Record<string, unknown>) => {
        set.status = status
        finish(request, route, status)
        const answer = json(status, envelope(errorCode, message, correlationId, details, extra), { 'x-correlation-id': correlationId, ...headers })
        // The error hook's answer meets no after-handle hook: negotiated here (a long list of details passes 1 KiB).
        return encodedResponse(request, answer, set.headers.vary) ?? answer
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
  /**
   * Per method, per logged path: the requests counted since the last line. Two lookups by
   * strings the request already holds (the method, the route's template) rather than one by a
   * string made per request: the count is on every hot read.
   */
  private counts = new Map<string, Map<string, { n: number }>>()
  private since: number

  constructor(private readonly log: Logger, private readonly everyMs = ACCESS_SUMMARY_EVERY_MS, private readonly now: () => number = Date.now) {
    this.since = now()
  }

  request(request: Request, route: string | undefined, status: number, meta: { correlationId: string; startedAt: number } | undefined, client: () => string | null): void {
    const path = loggedPath(route, request)
    const method = request.method
    if ((method === 'GET' || method === 'HEAD') && status < 400) {
      let byPath = this.counts.get(method)
      if (byPath === undefined) this.counts.set(method, (byPath = new Map()))
      const count = byPath.get(path)
      if (count === undefined) byPath.set(path, { n: 1 })
      else count.n += 1
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
      const counts: Record<string, number> = {}
      for (const [method, byPath] of this.counts) {
        for (const [path, { n }] of byPath) {
          counts[`${method} ${path}`] = n
          total += n
        }
      }
      this.log({ level: 'info', msg: 'requests', seconds: Math.round((at - this.since) / 1000), total, counts })
    }
    this.counts = new Map()
    this.since = at
  }
}
