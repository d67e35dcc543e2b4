import { ApiError, CommonCodes, type ErrorDetail } from './errors'

export const KiB = 1024
export const MiB = 1024 * 1024

/**
 * Request body bytes held in flight across all requests of this process. A client that
 * declares (or streams) more than is left waits for nobody: it gets 503 with Retry-After at
 * once, so a crowd of slow uploads cannot grow the server without bound.
 */
export class BodyBudget {
  private used = 0

  constructor(public limit: number) {}

  get inFlight(): number {
    return this.used
  }

  /** Takes `bytes` or throws 503 SERVER_BUSY. */
  take(bytes: number): void {
    if (bytes <= 0) return
    if (this.used + bytes > this.limit) {
      throw new ApiError(503, CommonCodes.SERVER_BUSY, 'the server is receiving too many request bodies at once; retry shortly', undefined, { 'retry-after': '1' })
    }
    this.used += bytes
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes)
  }
}

/** The one budget of this process; `serve` sets its limit (`--body-memory-mib`). */
export const bodyBudget = new BodyBudget(64 * MiB)

/** The declared `Content-Length`, or null for a body without one (chunked, or none). */
function declaredLength(request: Request): number | null {
  const declared = request.headers.get('content-length')
  return declared === null ? null : Number(declared)
}

/** Whether the request carries a body to read: a declared non-zero length, or one of unknown length (chunked). */
function hasBody(request: Request, declared: number | null): boolean {
  if (declared !== null) return declared > 0
  return request.body !== null || request.headers.has('transfer-encoding')
}

/**
 * Reads a request body as raw bytes, refusing it with 413 in the envelope as soon as it is
 * known to be over `limit`: at once from `Content-Length`, or while streaming a chunked body,
 * without buffering past the limit. Bun's own `maxRequestBodySize` stays as a backstop only
 * (its bare 413 would skip the envelope). The bytes count against `bodyBudget` while they are
 * read (or against `budget`: anonymous forms have their own, src/platform/anonymous-forms.ts):
 * a declared body takes its whole length up front, a chunked one chunk by chunk. A
 * refusal leaves the rest of the body unread, so it carries `Connection: close`.
 * The raw bytes matter: `request.text()` strips a BOM and repairs bad UTF-8, which would make
 * two different bodies look the same to byte-exact idempotency.
 */
export async function readBodyLimited(request: Request, limit: number, budget: BodyBudget = bodyBudget): Promise<Uint8Array> {
  const declared = declaredLength(request)
  if (declared !== null && declared > limit) throw closingConnection(tooLarge(limit))
  if (request.body === null) return new Uint8Array(0)
  let held = 0
  const hold = (bytes: number) => {
    budget.take(bytes)
    held += bytes
  }
  try {
    if (declared !== null) {
      try {
        hold(declared)
      } catch (error) {
        throw closingConnection(error)
      }
    }
    const reader = request.body.getReader()
    const chunks: Uint8Array[] = []
    let size = 0
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>
      try {
        chunk = await reader.read()
      } catch {
        // The client went away (or the connection timed out) before the whole body arrived.
        throw new ApiError(400, CommonCodes.INVALID_REQUEST, 'the request body ended before it was complete')
      }
      const { done, value } = chunk
      if (done) break
      size += value.byteLength
      if (size > limit) {
        await reader.cancel().catch(() => {})
        throw closingConnection(tooLarge(limit))
      }
      if (size > held) {
        try {
          hold(size - held)
        } catch (error) {
          await reader.cancel().catch(() => {})
          throw closingConnection(error)
        }
      }
      chunks.push(value)
    }
    if (chunks.length === 1) return chunks[0]!
    const out = new Uint8Array(size)
    let offset = 0
    for (const chunk of chunks) {
      out.set(chunk, offset)
      offset += chunk.byteLength
    }
    return out
  } finally {
    budget.give(held)
  }
}

/**
 * Contract §23, "no body before a credential": runs the checks that need only the headers
 * (`headerChecks`: credential, Origin, scope, rate limit, content type, access — the route's
 * steps before the body) and only then reads the body, within `limit`, whether its size is
 * declared (`Content-Length`) or not (chunked). A declared size over the limit is refused
 * first (it costs nothing to know). A caller refused by `headerChecks` is answered before one
 * byte of its body is read or held, with `Connection: close` (see `closingConnection`), so an
 * unauthenticated client can never hold any of the body budget. `budget` is the one the body
 * is held against: `bodyBudget` for every credentialed route, the anonymous forms' own otherwise.
 */
export async function readBodyAfterChecks<T>(request: Request, limit: number, headerChecks: () => T, budget: BodyBudget = bodyBudget): Promise<{ raw: Uint8Array; checked: T }> {
  const checked = checkBeforeBody(request, limit, headerChecks)
  return { raw: await readBodyLimited(request, limit, budget), checked }
}

/**
 * The first half of `readBodyAfterChecks`, for checks that run before the route reads its body
 * (admission, src/access/): a declared size over `limit` is refused first (413), then
 * `headerChecks` run; a refusal while a body is unread carries `Connection: close`.
 */
export function checkBeforeBody<T>(request: Request, limit: number, headerChecks: () => T): T {
  const declared = declaredLength(request)
  if (declared !== null && declared > limit) throw closingConnection(tooLarge(limit))
  try {
    return headerChecks()
  } catch (error) {
    throw hasBody(request, declared) ? closingConnection(error) : error
  }
}

/**
 * `checkBeforeBody` for checks that wait (a session is found asynchronously): the console's
 * order — a declared size over `limit` first (413), then `checks`; a refusal of a request that
 * carries a body stream at all carries `Connection: close`.
 */
export async function checkBeforeBodyAsync<T>(request: Request, limit: number, checks: () => Promise<T>): Promise<T> {
  const declared = declaredLength(request)
  if (declared !== null && declared > limit) throw closingConnection(tooLarge(limit))
  try {
    return await checks()
  } catch (error) {
    throw request.body !== null ? closingConnection(error) : error
  }
}

/**
 * A request refused while (part of) its body is unread is answered with `Connection: close`
 * (contract §23): otherwise Bun would go on receiving the body only to discard it, to keep the
 * connection alive, and a crowd of refused uploads would still cost the server their bytes
 * and their connections. A request without a body keeps its connection.
 */
export function closingConnection(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error
  if (error.headers?.connection === 'close') return error
  return new ApiError(error.status, error.code, error.message, error.details, { ...error.headers, connection: 'close' })
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, CommonCodes.PAYLOAD_TOO_LARGE, `request body exceeds ${limit} bytes`)
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * Parses JSON strictly: invalid UTF-8 and a leading BOM are not JSON (RFC 8259 §8.1), and an
 * empty body is not JSON either. Any failure is 400 INVALID_JSON with no excerpt of the input.
 */
export function parseJsonBytes(raw: Uint8Array): unknown {
  let text: string
  try {
    text = strictUtf8.decode(raw)
  } catch {
    throw new ApiError(400, CommonCodes.INVALID_JSON, 'request body is not valid UTF-8')
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new ApiError(400, CommonCodes.INVALID_JSON, 'request body is not valid JSON')
  }
}

/** `Content-Type` includes `application/json` (parameters such as charset allowed). */
export function isJsonContentType(request: Request): boolean {
  const type = request.headers.get('content-type')
  return type !== null && type.toLowerCase().includes('application/json')
}

/** The detail a header check lists for a body that is not `application/json`, or null when it is. */
export function jsonContentTypeProblem(request: Request): ErrorDetail | null {
  return isJsonContentType(request) ? null : { path: 'Content-Type', message: 'must be application/json' }
}

/**
 * The one refusal of a body that is not JSON: 400 INVALID_REQUEST, "Content-Type must be
 * application/json", naming the header in `details` (`detail`: how the detail says it).
 */
export function assertJsonContentType(request: Request, detail = 'must be application/json'): void {
  if (!isJsonContentType(request)) {
    throw new ApiError(400, CommonCodes.INVALID_REQUEST, 'Content-Type must be application/json', [{ path: 'Content-Type', message: detail }])
  }
}

/**
 * The one JSON body reader: `headerChecks` (what the route checks of the headers after its
 * admission), then the Content-Type (`assertJsonContentType`), then the body within `limit`
 * (`readBodyAfterChecks`: a declared size over it first, and any refusal before the body with
 * `Connection: close`), parsed strictly (`parseJsonBytes`). The route validates the value.
 */
export async function readJsonBody(request: Request, limit: number, headerChecks: () => void = () => {}): Promise<unknown> {
  const { raw } = await readBodyAfterChecks(request, limit, () => {
    headerChecks()
    assertJsonContentType(request)
  })
  return parseJsonBytes(raw)
}
