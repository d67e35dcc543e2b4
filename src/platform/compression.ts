/*
 * Response compression (contract §27): HTML, JSON, CSS and JS bodies of 1 KiB or more are sent
 * brotli- or gzip-compressed as the request's Accept-Encoding allows (docs/decisions.md
 * "Compression"). The platform's after-handle hook (./http.ts) compresses what handlers answer;
 * bodies kept as bytes for the hot reads keep their compressed forms beside the plain ones
 * (`KeptBody`), so a read of an unchanged answer never compresses again.
 */

export type Encoding = 'br' | 'gzip'

/** Bodies smaller than this are sent as they are: compression would save little and cost CPU. */
export const COMPRESS_MIN_BYTES = 1024

/** The brotli quality of answers compressed while serving: fast, and still smaller than gzip's default. */
export const BROTLI_RUNTIME_QUALITY = 4
/** The gzip level of answers compressed while serving (zlib's default). */
export const GZIP_RUNTIME_LEVEL = 6

/** Media types worth compressing: HTML, JSON (`+json` too), CSS and JavaScript. */
export function compressibleType(contentType: string | null): boolean {
  if (contentType === null) return false
  const semi = contentType.indexOf(';')
  const type = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase()
  return type === 'application/json' || type === 'text/html' || type === 'text/css' || type === 'text/javascript' ||
    type === 'application/javascript' || (type.startsWith('application/') && type.endsWith('+json'))
}

/**
 * The encoding to answer with: of `br` and `gzip`, the one with the higher q-value (RFC 9110
 * §12.5.3; `*` stands for any not named, `q=0` refuses), `br` on a tie; null when neither is
 * accepted (no header, `identity`, both refused): the body is then sent as it is.
 */
export function negotiateEncoding(header: string | null): Encoding | null {
  if (header === null || header === '') return null
  const known = negotiated.get(header)
  if (known !== undefined) return known
  let br: number | undefined
  let gzip: number | undefined
  let any: number | undefined
  for (const part of header.split(',')) {
    const semi = part.indexOf(';')
    const name = (semi < 0 ? part : part.slice(0, semi)).trim().toLowerCase()
    let q = 1
    if (semi >= 0) {
      const match = /(?:^|;)\s*q\s*=\s*([0-9.]+)\s*(?:;|$)/i.exec(part.slice(semi))
      if (match !== null) {
        const value = Number(match[1])
        q = Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0
      }
    }
    if (name === 'br') br = q
    else if (name === 'gzip' || name === 'x-gzip') gzip = q
    else if (name === '*') any = q
  }
  const qBr = br ?? any ?? 0
  const qGzip = gzip ?? any ?? 0
  const chosen: Encoding | null = qBr <= 0 && qGzip <= 0 ? null : qBr >= qGzip ? 'br' : 'gzip'
  // Clients send a handful of distinct headers: remember them (bounded: a client making up headers cannot grow it).
  if (negotiated.size >= MAX_REMEMBERED_HEADERS) negotiated.clear()
  negotiated.set(header, chosen)
  return chosen
}

const MAX_REMEMBERED_HEADERS = 256
const negotiated = new Map<string, Encoding | null>()

let zlib: typeof import('node:zlib') | undefined
/** node:zlib on first use: loading it costs a start ~20 ms (src/screens/assets.ts), and most starts compress nothing before their first page. */
function zlibModule(): typeof import('node:zlib') {
  return (zlib ??= require('node:zlib') as typeof import('node:zlib'))
}

/** `bytes` compressed with `encoding` at the serving levels. */
export function compress(bytes: Uint8Array | string, encoding: Encoding): Bytes {
  const input = typeof bytes === 'string' ? utf8.encode(bytes) : bytes
  if (encoding === 'gzip') return Bun.gzipSync(input as Uint8Array<ArrayBuffer>, { level: GZIP_RUNTIME_LEVEL })
  const z = zlibModule()
  const out = z.brotliCompressSync(input, {
    params: {
      [z.constants.BROTLI_PARAM_QUALITY]: BROTLI_RUNTIME_QUALITY,
      [z.constants.BROTLI_PARAM_MODE]: z.constants.BROTLI_MODE_TEXT,
      [z.constants.BROTLI_PARAM_SIZE_HINT]: input.length,
    },
  })
  return new Uint8Array(out.buffer as ArrayBuffer, out.byteOffset, out.byteLength)
}

const utf8 = new TextEncoder()

/**
 * A body kept as bytes (a hot read's answer, an embedded file) with its compressed forms beside
 * it, each made the first time a request asks for it and kept as long as the body is.
 */
type Bytes = Uint8Array<ArrayBuffer>

export interface KeptBody {
  readonly plain: Bytes
  br?: Bytes
  gzip?: Bytes
}

export function keptBody(plain: Bytes): KeptBody {
  return { plain }
}

/**
 * What to send of `body` for a request negotiated to `encoding`: its compressed form (made once,
 * then kept), or the plain bytes themselves when there is no encoding or the body is under 1 KiB.
 * The caller sends `Content-Encoding: encoding` exactly when the answer is not `body.plain`.
 */
export function keptBytes(body: KeptBody, encoding: Encoding | null): Bytes {
  if (encoding === null || body.plain.length < COMPRESS_MIN_BYTES) return body.plain
  return (body[encoding] ??= compress(body.plain, encoding))
}

/** A header value with `Accept-Encoding` added to the listed names of `vary` (undefined or empty: just it). */
export function varyWithEncoding(vary: string | null | undefined): string {
  if (vary === null || vary === undefined || vary === '') return 'Accept-Encoding'
  return /(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary) ? vary : `${vary}, Accept-Encoding`
}
