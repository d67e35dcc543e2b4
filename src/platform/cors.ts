import { Elysia, type AnyElysia } from 'elysia'
import { correlationIdOf, pathOf } from './http'
import { SECURITY_HEADERS, documentOf } from './openapi'

/*
 * CORS for the public and operator APIs (contract §15): off unless origins are configured
 * (`--cors-origin`, `LOBBY_CORS_ORIGINS`). A preflight from an allowed origin is answered with
 * the methods the path has and the request headers those routes read, both taken from the
 * OpenAPI document the server serves, so they never drift from the routes. Any other origin
 * gets no Access-Control-Allow-Origin: its preflight meets the routes as before (404) and its
 * browser refuses the answer. Display routes answer CORS themselves (contract §6).
 */

/** The paths whose CORS this file decides. */
export const CORS_PREFIXES = ['/api/public/v1/', '/api/operator/v1/'] as const

/** Response headers a browser script may read: those the routes document. */
const EXPOSED = [
  'X-Correlation-ID', 'Location', 'Idempotent-Replayed', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-Service-Data-Revision',
].join(', ')
const MAX_AGE_SECONDS = '600'
const ALWAYS_ALLOWED_HEADERS = ['x-correlation-id']

/**
 * An origin as a browser sends it: scheme, host and optional port, nothing else (no path, no
 * trailing slash). Returns the canonical form (lower case), or null when it is not one.
 */
export function parseOrigin(value: string): string | null {
  const trimmed = value.trim()
  if (!/^https?:\/\/[^/?#\s]+$/i.test(trimmed)) return null
  try {
    const url = new URL(trimmed)
    if (url.username !== '' || url.password !== '') return null
    return url.origin === 'null' ? null : url.origin
  } catch {
    return null
  }
}

interface RouteCors {
  pattern: RegExp
  methods: Set<string>
  headers: Set<string>
}

interface Operation {
  parameters?: { in: string; name: string }[]
  requestBody?: unknown
  security?: Record<string, string[]>[]
}

/** Per documented path under the CORS prefixes: its methods and the request headers they read. */
function corsTable(document: Record<string, unknown>): RouteCors[] {
  const table: RouteCors[] = []
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    if (!CORS_PREFIXES.some((prefix) => path.startsWith(prefix))) continue
    const methods = new Set<string>()
    const headers = new Set<string>(ALWAYS_ALLOWED_HEADERS)
    for (const [method, operation] of Object.entries(item)) {
      methods.add(method.toUpperCase())
      for (const parameter of operation.parameters ?? []) if (parameter.in === 'header') headers.add(parameter.name.toLowerCase())
      for (const requirement of operation.security ?? []) for (const scheme of Object.keys(requirement)) {
        const header = SECURITY_HEADERS[scheme]
        if (header !== undefined) headers.add(header)
      }
      if (operation.requestBody !== undefined) headers.add('content-type')
    }
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`)
    table.push({ pattern, methods, headers })
  }
  return table
}

/**
 * The CORS plugin: `origins` are the allowed origins (already checked by `parseOrigin`); none
 * means CORS is off and the plugin does nothing.
 */
export function corsPlugin(origins: readonly string[], version: string) {
  const plugin = new Elysia({ name: 'lobby.cors' })
  if (origins.length === 0) return plugin
  const allowed = new Set(origins.map((o) => parseOrigin(o) ?? o))
  let table: RouteCors[] | undefined
  const routesOf = (path: string) => (table ??= corsTable(documentOf(plugin as AnyElysia, version))).filter((r) => r.pattern.test(path))

  return plugin.onRequest(({ request, set }) => {
    const origin = request.headers.get('origin')
    if (origin === null) return
    const path = pathOf(request)
    if (!CORS_PREFIXES.some((prefix) => path.startsWith(prefix))) return
    // The answer depends on Origin: caches must keep one per origin.
    set.headers.vary = 'Origin'
    if (!allowed.has(origin.toLowerCase())) return

    const preflight = request.method === 'OPTIONS' && request.headers.get('access-control-request-method') !== null
    if (!preflight) {
      set.headers['access-control-allow-origin'] = origin
      set.headers['access-control-expose-headers'] = EXPOSED
      return
    }
    const routes = routesOf(path)
    if (routes.length === 0) return // no such route: the 404 as for anyone
    const methods = [...new Set(routes.flatMap((r) => [...r.methods]))]
    const headers = [...new Set(routes.flatMap((r) => [...r.headers]))]
    return new Response(null, {
      status: 204,
      headers: {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': methods.join(', '),
        'access-control-allow-headers': headers.join(', '),
        'access-control-max-age': MAX_AGE_SECONDS,
        vary: 'Origin',
        'x-content-type-options': 'nosniff',
        'x-correlation-id': correlationIdOf(request),
      },
    })
  })
}
