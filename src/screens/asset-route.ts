import { Elysia } from 'elysia'
import { ApiError, CommonCodes } from '../platform/errors'
import { pathOf, uncompressed } from '../platform/http'
import { COMPRESS_MIN_BYTES, negotiateEncoding } from '../platform/compression'
import { ASSET_PREFIXES, ASSETS, type Asset } from './assets'

/**
 * One registry asset as the response to `request`: its build-time brotli or gzip form when the
 * request accepts one (q-values honoured, br on a tie; contract §27) and the file is 1 KiB or
 * more, else the text, marked so the platform does not compress it again.
 */
export function serveAsset(asset: Asset, request: Request): Response {
  const current = pathOf(request) === asset.path
  const encoding = asset.body.length >= COMPRESS_MIN_BYTES ? negotiateEncoding(request.headers.get('accept-encoding')) : null
  const headers: Record<string, string> = {
    'content-type': asset.contentType,
    'cache-control': current ? asset.cache.current : asset.cache.other,
    'x-content-type-options': 'nosniff',
    vary: 'Accept-Encoding',
  }
  if (encoding === null) return uncompressed(new Response(asset.body, { headers }))
  return new Response(asset.encoded[encoding], { headers: { ...headers, 'content-encoding': encoding } })
}

const byPrefix = new Map<string, Asset[]>(ASSET_PREFIXES.map((prefix) => [prefix, Object.values(ASSETS).filter((a) => a.prefix === prefix)]))

/**
 * The one route of every page's embedded files: `GET {prefix}/{stem}.{hash}.{ext}` for each
 * prefix of the registry (./assets.ts). The current hashed name is cached for good; any other
 * hash gets the current file, revalidated; anything else is 404 in the error envelope.
 */
export function assetRoutes() {
  const app = new Elysia({ name: 'lobby.assets' })
  for (const [prefix, assets] of byPrefix) {
    app.get(`${prefix}/:file`, ({ params, request }) => {
      const asset = assets.find((a) => a.pattern.test(params.file))
      if (asset === undefined) throw new ApiError(404, CommonCodes.NOT_FOUND, 'no such asset')
      return serveAsset(asset, request)
    }, { detail: { hide: true } })
  }
  return app
}
