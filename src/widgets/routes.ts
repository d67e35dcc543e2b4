import { Elysia } from 'elysia'
import { isJsonContentType, readBodyAfterChecks } from '../platform/body'
import { presentedSecret } from '../platform/credentials'
import type { WidgetDeps } from './deps'
import { ApiError } from '../platform/errors'
import { json } from '../platform/http'
import { WidgetCodes } from './errors'
import { WIDGET_PUSH_MAX_BYTES } from './model'
import { authorizePush, pushWidgetData } from './service'
import { pushWidgetDataDocs } from './docs'

export const WIDGET_PUSH_PATH = '/api/public/v1/widgets/:widgetId/data/push'

/** public-api.md endpoint 6: `POST /api/public/v1/widgets/{widgetId}/data/push`. */
export function widgetRoutes(deps: WidgetDeps) {
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
    { parse: 'none', detail: pushWidgetDataDocs },
  )
}

