import { describe, expect, test } from 'bun:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { queueContext, mainUnit, get, SERVICES, STATE } from '../queue/helpers'
import { ASSETS } from '../../src/screens/assets'
import { keptBody, keptBytes, negotiateEncoding, varyWithEncoding } from '../../src/platform/compression'

/*
 * Contract §27: HTML, JSON, CSS and JS of 1 KiB or more are compressed (br or gzip as the request
 * accepts), every answer says `X-Content-Type-Options: nosniff`, and the hot reads send bytes
 * kept beside their plain form rather than compressing per request.
 */

/** The example document with enough services that the queue reads pass 1 KiB. */
const bigContext = () => queueContext((doc) => {
  const unit = mainUnit(doc)
  for (let i = 0; i < 16; i += 1) {
    unit.services!.push({ id: `svc_extra_${i}`, name: `Extra service number ${i}`, prefix: `X${String.fromCharCode(65 + i)}`, active: true, locations: ['loc_hall'] })
  }
})

const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer())
const decoded = (bytes: Uint8Array, encoding: string | null) =>
  encoding === 'br' ? new Uint8Array(brotliDecompressSync(bytes)) : encoding === 'gzip' ? new Uint8Array(gunzipSync(bytes)) : bytes

describe('X-Content-Type-Options: nosniff on every answer', () => {
  test('HTML pages, JSON reads and writes, errors, 404s, assets, the icon, the document', async () => {
    const ctx = queueContext()
    const key = ctx.key('all')
    const answers: [string, Response][] = [
      ['a board page', await get(ctx, '/screens/queue/qu_main', null)],
      ['the sign-in page', await get(ctx, '/login', null)],
      ['the hot services read', await get(ctx, SERVICES, key)],
      ['the hot state read', await get(ctx, STATE, key, { 'accept-encoding': 'br' })],
      ['a JSON read through the platform', await get(ctx, '/health', null)],
      ['401 in the envelope', await get(ctx, SERVICES, null)],
      ['404 of an unknown path', await get(ctx, '/no/such/path', null)],
      ['404 of an unknown asset', await get(ctx, '/screens/assets/nothing.js', null)],
      ['an asset', await get(ctx, ASSETS['screens.js'].path, null)],
      ['the icon', await get(ctx, '/favicon.ico', null)],
      ['the OpenAPI document', await get(ctx, '/swagger/json', null, { 'accept-encoding': 'gzip' })],
      ['a display feed', await get(ctx, '/api/display/v1/queue-units/qu_main/state', null)],
      ['a websocket upgrade refused (no token)', await get(ctx, '/api/display/v1/live', null, { upgrade: 'websocket', connection: 'Upgrade' })],
    ]
    for (const [what, response] of answers) {
      expect({ what, nosniff: response.headers.get('x-content-type-options') }).toEqual({ what, nosniff: 'nosniff' })
    }
  })
})

describe('compression (contract §27)', () => {
  test('Accept-Encoding is negotiated with q-values: br on a tie, gzip when preferred, identity or none gives the plain text', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(negotiateEncoding('gzip;q=0.9, br;q=0.5')).toBe('gzip')
    expect(negotiateEncoding('br;q=0')).toBeNull()
    expect(negotiateEncoding('identity')).toBeNull()
    expect(negotiateEncoding('deflate')).toBeNull()
    expect(negotiateEncoding('*;q=0.1')).toBe('br')
    expect(negotiateEncoding('BR;Q=1, GZIP')).toBe('br')
    expect(negotiateEncoding(null)).toBeNull()
    expect(varyWithEncoding('Accept-Language')).toBe('Accept-Language, Accept-Encoding')
    expect(varyWithEncoding('accept-encoding')).toBe('accept-encoding')
    expect(varyWithEncoding(undefined)).toBe('Accept-Encoding')
  })

  test('a page, a JSON answer through the platform and the document: br, gzip or plain as accepted, the same bytes decompressed, Vary', async () => {
    const ctx = queueContext()
    for (const path of ['/screens/queue/qu_main', '/login', '/swagger/json', '/swagger']) {
      const plainResponse = await get(ctx, path, null)
      expect(plainResponse.headers.get('content-encoding')).toBeNull()
      expect(plainResponse.headers.get('vary') ?? '').toContain('Accept-Encoding')
      const plain = await bytesOf(plainResponse)
      const large = plain.length >= 1024
      for (const [accept, expected] of [['gzip, deflate, br', 'br'], ['br;q=0.1, gzip', 'gzip'], ['identity', null], ['br;q=0, gzip;q=0', null]] as const) {
        const response = await get(ctx, path, null, { 'accept-encoding': accept })
        expect(response.status).toBe(200)
        const encoding = response.headers.get('content-encoding')
        expect({ path, accept, encoding }).toEqual({ path, accept, encoding: large ? expected : null })
        expect(response.headers.get('vary') ?? '').toContain('Accept-Encoding')
        expect(decoded(await bytesOf(response), encoding)).toEqual(plain)
      }
    }
  })

  test('under 1 KiB nothing is compressed, whatever is accepted', async () => {
    const ctx = queueContext()
    const response = await get(ctx, '/health', null, { 'accept-encoding': 'br, gzip' })
    expect(response.headers.get('content-encoding')).toBeNull()
    expect((await bytesOf(response)).length).toBeLessThan(1024)
    // A small error envelope too.
    const refused = await get(ctx, SERVICES, null, { 'accept-encoding': 'br, gzip' })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('content-encoding')).toBeNull()
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBeString()
  })

  test('a range request gets no compressed body', async () => {
    const ctx = queueContext()
    const ranged = await get(ctx, '/login', null, { 'accept-encoding': 'br', range: 'bytes=0-10' })
    expect(ranged.headers.get('content-encoding')).toBeNull()
  })

  test('the hot reads: compressed from bytes kept per revision — two reads at one revision get the very same compressed bytes, and the decompressed bytes are the plain ones', async () => {
    const ctx = bigContext()
    const key = ctx.key('all')
    for (const path of [SERVICES, STATE]) {
      const plain = await bytesOf(await get(ctx, path, key))
      expect(plain.length).toBeGreaterThanOrEqual(1024)
      for (const encoding of ['br', 'gzip'] as const) {
        const first = await get(ctx, path, key, { 'accept-encoding': encoding })
        const second = await get(ctx, path, key, { 'accept-encoding': `${encoding}, identity` })
        expect(first.headers.get('content-encoding')).toBe(encoding)
        expect(first.headers.get('vary')).toBe('Accept-Language, Accept-Encoding')
        expect(first.headers.get('x-content-type-options')).toBe('nosniff')
        const a = await bytesOf(first)
        expect(await bytesOf(second)).toEqual(a)
        expect(decoded(a, encoding)).toEqual(plain)
      }
    }
  })

  test('a kept body compresses once per encoding and hands out the kept bytes after; under 1 KiB its plain bytes', () => {
    const big = keptBody(new TextEncoder().encode(JSON.stringify({ data: Array.from({ length: 100 }, (_, i) => ({ i, name: `service ${i}` })) })))
    const br = keptBytes(big, 'br')
    expect(keptBytes(big, 'br')).toBe(br)
    expect(big.br).toBe(br)
    expect(big.gzip).toBeUndefined()
    expect(keptBytes(big, 'gzip')).toBe(big.gzip!)
    expect(keptBytes(big, null)).toBe(big.plain)
    expect(new Uint8Array(brotliDecompressSync(br))).toEqual(big.plain)
    const small = keptBody(new TextEncoder().encode('{"data":[]}'))
    expect(keptBytes(small, 'br')).toBe(small.plain)
    expect(small.br).toBeUndefined()
  })

  test('the state read at a new millisecond is made again, and compressed again once asked', async () => {
    const ctx = bigContext()
    const key = ctx.key('all')
    const first = await bytesOf(await get(ctx, STATE, key, { 'accept-encoding': 'br' }))
    ctx.clock.advance(1)
    const later = await bytesOf(await get(ctx, STATE, key, { 'accept-encoding': 'br' }))
    expect(later).not.toEqual(first)
    const text = new TextDecoder().decode(decoded(later, 'br'))
    expect(JSON.parse(text).data.generatedAt).toBe(new Date(ctx.clock.now()).toISOString())
  })
})
