import { describe, expect, test } from 'bun:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { testContext } from '../support/app'
import { ASSETS } from '../../src/screens/assets'
import { negotiateEncoding } from '../../src/platform/compression'

/*
 * The one registry of page assets and its one route: every page's files come from it, each is
 * served whole or precompressed (brotli, gzip) as the request's Accept-Encoding allows.
 */

const { app } = testContext()
const get = (path: string, acceptEncoding?: string) =>
  app.handle(new Request(`http://localhost${path}`, acceptEncoding === undefined ? {} : { headers: { 'accept-encoding': acceptEncoding } }))

describe('page assets: one registry, one route', () => {
  test('every page loads only registry files (and the icon)', async () => {
    const registry = new Set(Object.values(ASSETS).map((a) => a.path))
    for (const page of ['/screens/queue/qu_main', '/pair', '/desk', '/kiosk', '/screens', '/reports', '/t/k3v9q2m7x4c8h6b5n2r7t3w4', '/login', '/login/setup?code=none']) {
      const html = await (await get(page)).text()
      // What the page loads (<script src>, <link href>), not where its links go (the sign-in page's language link).
      const refs = [...html.matchAll(/<(?:script|link)\b[^>]*\s(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!).filter((r) => r !== '/favicon.ico')
      expect({ page, refs: refs.length }).toEqual({ page, refs: 2 })
      for (const ref of refs) expect({ page, ref, known: registry.has(ref) }).toEqual({ page, ref, known: true })
    }
  })

  test('each asset: brotli when accepted, else gzip, else the text; Vary: Accept-Encoding; cached for good under its hash', async () => {
    for (const asset of Object.values(ASSETS)) {
      const br = await get(asset.path, 'gzip, deflate, br, zstd')
      expect(br.status).toBe(200)
      expect(br.headers.get('x-content-type-options')).toBe('nosniff')
      if (Buffer.byteLength(asset.body) < 1024) {
        // Contract §27: under 1 KiB a file is sent as it is.
        expect(br.headers.get('content-encoding')).toBeNull()
        expect(br.headers.get('vary')).toBe('Accept-Encoding')
        expect(await br.text()).toBe(asset.body)
        continue
      }
      expect(br.headers.get('content-encoding')).toBe('br')
      expect(br.headers.get('vary')).toBe('Accept-Encoding')
      expect(br.headers.get('content-type')).toBe(asset.contentType)
      expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      const brBytes = new Uint8Array(await br.arrayBuffer())
      expect(brotliDecompressSync(brBytes).toString('utf8')).toBe(asset.body)
      expect(brBytes.length).toBeLessThan(asset.body.length / 2)

      const gz = await get(asset.path, 'gzip')
      expect(gz.headers.get('content-encoding')).toBe('gzip')
      expect(gunzipSync(new Uint8Array(await gz.arrayBuffer())).toString('utf8')).toBe(asset.body)

      const plain = await get(asset.path)
      expect(plain.headers.get('content-encoding')).toBeNull()
      expect(plain.headers.get('vary')).toBe('Accept-Encoding')
      expect(await plain.text()).toBe(asset.body)

      const refused = await get(asset.path, 'br;q=0, gzip;q=0.5')
      expect(refused.headers.get('content-encoding')).toBe('gzip')
    }
  })

  test('an older hash of a name gets the current file, revalidated; an unknown name is 404', async () => {
    for (const asset of Object.values(ASSETS)) {
      const old = await get(`${asset.prefix}/${asset.name.replace('.', '.0123456789ab.')}`, 'br')
      expect(old.status).toBe(200)
      expect(old.headers.get('cache-control')).toBe('no-cache')
      expect((await get(`${asset.prefix}/other.js`)).status).toBe(404)
    }
  })

  test('Accept-Encoding: br on a tie, the higher q wins, q=0 refuses, * counts, identity alone gets the text', () => {
    expect(negotiateEncoding('gzip, br')).toBe('br')
    expect(negotiateEncoding('gzip;q=1.0, br;q=0')).toBe('gzip')
    expect(negotiateEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip')
    expect(negotiateEncoding('*')).toBe('br')
    expect(negotiateEncoding('*;q=0, gzip')).toBe('gzip')
    expect(negotiateEncoding('identity')).toBeNull()
    expect(negotiateEncoding('br;q=0, gzip;q=0')).toBeNull()
    expect(negotiateEncoding(null)).toBeNull()
  })
})
