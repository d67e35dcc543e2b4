import { Elysia, type DocumentDecoration } from 'elysia'
import { openapi } from '@elysiajs/openapi'
import swaggerBundlePath from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import swaggerCssPath from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }

const ASSETS = '/swagger/assets'

/** Names of the security schemes; routes reference them in `detail.security`. */
export const Security: Record<'queueBearer' | 'workspace' | 'displayToken' | 'deviceCookie' | 'none', Record<string, string[]>[]> = {
  queueBearer: [{ queueBearer: [] }],
  workspace: [{ workspaceBearer: [] }, { workspaceHeader: [] }],
  displayToken: [{ displayToken: [] }],
  deviceCookie: [{ deviceCookie: [] }],
  /** A public read whose capability is in its path (the phone page's tracking code). */
  none: [],
}

const errorEnvelopeSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'Stable machine-readable code; branch on this.' },
        message: { type: 'string', description: 'Human-readable; may change.' },
        details: {
          type: 'array',
          items: {
            type: 'object',
            required: ['path', 'message'],
            properties: {
              path: { type: 'string', description: 'JSON Pointer into the request body, or a header name' },
              message: { type: 'string' },
            },
          },
        },
        correlationId: { type: 'string' },
      },
    },
  },
}

/**
 * OpenAPI `responses` entries for error statuses, each referencing the shared ErrorEnvelope
 * component. `errors` maps a status to the codes it may carry.
 */
export function errorResponses(errors: Record<number, string[]>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [status, codes] of Object.entries(errors)) {
    out[status] = {
      description: codes.join(', '),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    }
  }
  return out
}

/** A JSON body in OpenAPI `content`; TypeBox schemas are JSON Schema already (OpenAPI's typings do not know TypeBox's types). */
export function jsonContent(schema: unknown) {
  return { 'application/json': { schema: schema as never } }
}

/** One documented response: its description, and its JSON body schema and headers if any. */
export interface ResponseDoc {
  description: string
  schema?: unknown
  headers?: Record<string, unknown>
}

/** What a route file says about a route; `routeDetail` turns it into Elysia's `detail`. */
export interface RouteDoc {
  summary: string
  description?: string
  tags: string[]
  security?: keyof typeof Security
  /** A JSON request body (required unless `required: false`). */
  body?: { schema: unknown; required?: boolean; description?: string }
  /** Success (and other non-error) responses by status; none for a websocket upgrade. */
  responses?: Record<number, ResponseDoc>
  /** Error statuses and the codes each may carry: all answered in the ErrorEnvelope. */
  errors?: Record<number, string[]>
}

/** The OpenAPI `detail` of a route: every route file documents its routes through this one helper. */
export function routeDetail(doc: RouteDoc): DocumentDecoration {
  const responses: Record<string, unknown> = {}
  for (const [status, response] of Object.entries(doc.responses ?? {})) {
    responses[status] = {
      description: response.description,
      ...(response.headers === undefined ? {} : { headers: response.headers }),
      ...(response.schema === undefined ? {} : { content: jsonContent(response.schema) }),
    }
  }
  const body = doc.body
  return {
    summary: doc.summary,
    ...(doc.description === undefined ? {} : { description: doc.description }),
    tags: doc.tags,
    // Security's entries are OpenAPI security requirements; Elysia types them more narrowly.
    ...(doc.security === undefined ? {} : { security: Security[doc.security] as unknown as NonNullable<DocumentDecoration['security']> }),
    ...(body === undefined ? {} : {
      requestBody: {
        required: body.required ?? true,
        ...(body.description === undefined ? {} : { description: body.description }),
        content: jsonContent(body.schema),
      },
    }),
    ...(doc.responses === undefined && doc.errors === undefined ? {} : { responses: { ...responses, ...errorResponses(doc.errors ?? {}) } }),
  } as DocumentDecoration
}

/**
 * OpenAPI 3.1 at /swagger/json and Swagger UI at /swagger, with the UI's script and style
 * served from files embedded in the binary: a branch box has no internet, so no CDN.
 */
export function openapiPlugin(version: string) {
  return new Elysia({ name: 'lobby.openapi' })
    .get(`${ASSETS}/swagger-ui-bundle.js`, () => new Response(Bun.file(swaggerBundlePath), {
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' },
    }), { detail: { hide: true } })
    .get(`${ASSETS}/swagger-ui.css`, () => new Response(Bun.file(swaggerCssPath), {
      headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=86400' },
    }), { detail: { hide: true } })
    .use(
      openapi({
        path: '/swagger',
        provider: 'swagger-ui',
        swagger: { cdn: `${ASSETS}/swagger-ui-bundle.js`, theme: `${ASSETS}/swagger-ui.css`, autoDarkMode: false },
        exclude: { paths: [/^\/swagger/] },
        documentation: {
          openapi: '3.1.0',
          info: {
            title: 'Lobby API',
            version,
            description:
              'Queue API, widget data push, prayer-schedule month push, operator API and display feeds of a Lobby branch server.',
          },
          components: {
            securitySchemes: {
              queueBearer: { type: 'http', scheme: 'bearer', description: 'Queue API key (lbq_…)' },
              workspaceBearer: { type: 'http', scheme: 'bearer', description: 'Workspace API key (lbw_…)' },
              workspaceHeader: { type: 'apiKey', in: 'header', name: 'x-service-api-key', description: 'Workspace API key (lbw_…); never together with Authorization' },
              displayToken: { type: 'http', scheme: 'bearer', description: 'Read-only display token (lbd_…)' },
              deviceCookie: { type: 'apiKey', in: 'cookie', name: 'lobby_device', description: 'A paired device (lbv_…), set by POST /api/devices/v1/pair; state-changing requests need this server\'s Origin' },
            },
            schemas: { ErrorEnvelope: errorEnvelopeSchema } as never,
          },
        },
      }),
    )
}
