import { Elysia } from 'elysia'
import { Type } from '@sinclair/typebox'
import { isJsonContentType, readBodyAfterChecks } from '../platform/body'
import { presentedSecret } from '../platform/credentials'
import type { AppDeps } from '../platform/deps'
import { ApiError } from '../platform/errors'
import { json } from '../platform/http'
import { routeDetail } from '../platform/openapi'
import { PUSH_ERROR_STATUSES, WidgetCodes } from './errors'
import {
  ENVELOPES, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN, PushResponseSchema, WIDGET_PUSH_MAX_BYTES, WIDGET_TYPES,
} from './model'
import { authorizePush, pushWidgetData } from './service'

export const WIDGET_PUSH_PATH = '/api/public/v1/widgets/:widgetId/data/push'

/**
 * Headers documented for OpenAPI. Every property is an unconstrained optional string, so
 * Elysia's own header check can never refuse a request: the route checks them itself, in the
 * contract's order.
 */
const DocumentedHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({
    description: `Optional, strongly recommended: ${IDEMPOTENCY_KEY_MIN} to ${IDEMPOTENCY_KEY_MAX} characters, kept 24 hours. ` +
      'The same key with the same raw body replays the original response; any changed byte is 409 IDEMPOTENCY_KEY_REUSED.',
  })),
  'x-correlation-id': Type.Optional(Type.String({ description: '1 to 120 of [A-Za-z0-9_.:-]; echoed, else generated' })),
})

const revisionHeader = { description: 'The dataRevision of the response', schema: { type: 'integer' as const } }

const pushDetail = routeDetail({
  summary: 'Push a widget snapshot',
  description:
    'Replaces the whole data snapshot of one widget (no partial patches). Checks run in this order: ' +
    'body size (1 MiB, also chunked) → Content-Type includes application/json → credential (exactly one of ' +
    'Authorization: Bearer / x-service-api-key) → widget access → rate limit (per widget, default 120 per rolling ' +
    'minute) → Idempotency-Key format → idempotency lookup on the raw bytes → JSON → envelope and payload schema ' +
    '(every failing path listed as a JSON Pointer) → source.sequence → write. Text fields must not contain HTML ' +
    `(a '<' followed by a letter, '/', '!' or '?'). Widget types: ${WIDGET_TYPES.join(', ')}.`,
  tags: ['Widgets'],
  security: 'workspace',
  body: {
    description: 'The push envelope; `data` is the payload of the widget\'s type.',
    schema: { oneOf: WIDGET_TYPES.map((type) => ENVELOPES[type]) },
  },
  responses: {
    200: {
      description: 'Snapshot accepted, or the replay of an earlier identical request (`Idempotent-Replayed: true`)',
      headers: {
        'X-Service-Data-Revision': revisionHeader,
        'Idempotent-Replayed': { description: '`true` on a replay of an earlier identical request', schema: { type: 'string' as const, enum: ['true'] } },
      },
      schema: PushResponseSchema,
    },
  },
  errors: PUSH_ERROR_STATUSES,
})

/** public-api.md endpoint 6: `POST /api/public/v1/widgets/{widgetId}/data/push`. */
export function widgetRoutes(deps: AppDeps) {
  return new Elysia({ name: 'lobby.widgets' }).post(
    WIDGET_PUSH_PATH,
    async ({ request, params }) => {
      // Content type, credential and widget access need only the headers: with a declared
      // size they run before the body is read, so an unauthorized push holds no memory.
      const { raw: rawBody, checked: secret } = await readBodyAfterChecks(request, WIDGET_PUSH_MAX_BYTES, () => {
        if (!isJsonContentType(request)) {
          throw new ApiError(415, WidgetCodes.UNSUPPORTED_CONTENT_TYPE, 'Content-Type must include application/json')
        }
        const secret = presentedSecret(request, { allowApiKeyHeader: true })
        authorizePush(deps, secret, params.widgetId, deps.clock.now())
        return secret
      })
      const outcome = await pushWidgetData(deps, {
        widgetId: params.widgetId,
        secret,
        idempotencyKey: request.headers.get('idempotency-key'),
        rawBody,
      })
      return json(outcome.status, outcome.body, outcome.headers)
    },
    { parse: 'none', headers: DocumentedHeaders, detail: pushDetail },
  )
}

