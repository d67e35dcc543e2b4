import { Elysia } from 'elysia'
import { ApiError, CommonCodes } from '../platform/errors'
import { pathOf } from '../platform/http'
import { ASSET_PREFIXES, ASSETS, type Asset, type Encoding } from './assets'

/** The encodings a request accepts, best first (`br` before `gzip`); `q=0` refuses one. */
export function acceptedEncodings(header: string | null): Encoding[] {
  if (header === null) return []
  const accepted = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined)
    accepted.set(name.trim(), q === undefined ? 1 : Number(q))
  }
  const wants = (encoding: Encoding) => (accepted.get(encoding) ?? accepted.get('*') ?? 0) > 0
  return (['br', 'gzip'] as const).filter(wants)
}

/** One registry asset as the response to `request`: compressed when the request accepts it. */
export function serveAsset(asset: Asset, request: Request): Response {
  const current = pathOf(request) === asset.path
  const encoding = acceptedEncodings(request.headers.get('accept-encoding'))[0]
  const headers: Record<string, string> = {
    'content-type': asset.contentType,
    'cache-control': current ? asset.cache.current : asset.cache.other,
    'x-content-type-options': 'nosniff',
    vary: 'Accept-Encoding',
  }
  if (encoding === undefined) return new Response(asset.body, { headers })
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
