import { ApiError, CommonCodes } from './errors'

export const KiB = 1024
export const MiB = 1024 * 1024

/**
 * Reads a request body as raw bytes, refusing it with 413 in the envelope as soon as it is
 * known to be over `limit`: at once from `Content-Length`, or while streaming a chunked body,
 * without buffering past the limit. Bun's own `maxRequestBodySize` stays as a backstop only
 * (its bare 413 would skip the envelope).
 * The raw bytes matter: `request.text()` strips a BOM and repairs bad UTF-8, which would make
 * two different bodies look the same to byte-exact idempotency.
 */
export async function readBodyLimited(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit)
  if (request.body === null) return new Uint8Array(0)
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
      throw tooLarge(limit)
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
