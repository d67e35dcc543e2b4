import { Elysia } from 'elysia'
import { Type } from '@sinclair/typebox'
import type { PrayerDeps } from './deps'
import { ApiError } from '../platform/errors'
import { KiB, assertJsonContentType, readBodyAfterChecks } from '../platform/body'
import { presentedSecret } from '../platform/credentials'
import { isoTime } from '../platform/clock'
import { json } from '../platform/http'
import { PrayerCodes } from './errors'
import { pushPrayerMonthDocs, readPrayerMonthDocs } from './docs'
import {
  PERIOD_PATTERN,
  SOURCE_ID_PATTERN,
  authorizePush,
  pushPrayerMonth,
  readMonth,
} from './service'

const BASE = '/api/public/v1/prayer-schedules/sources'

/** Contract §5: the month push body is at most 256 KiB. */
export const MAX_MONTH_BODY = 256 * KiB

function assertSourceId(sourceId: string): void {
  if (!SOURCE_ID_PATTERN.test(sourceId)) {
    throw new ApiError(400, PrayerCodes.INVALID_REQUEST, 'sourceId must match ^psrc_[A-Za-z0-9-]{20,}$', [{ path: 'sourceId', message: 'does not match the source ID pattern' }])
  }
}

function assertPeriod(period: string): void {
  if (!PERIOD_PATTERN.test(period)) {
    throw new ApiError(400, PrayerCodes.INVALID_REQUEST, 'period must be YYYY-MM', [{ path: 'period', message: 'must be YYYY-MM with a month 01 to 12' }])
  }
}

function monthUrl(sourceId: string, period: string): string {
  return `${BASE}/${encodeURIComponent(sourceId)}/months/${period}`
}

// Documentation only: the path schema never refuses a request (the handlers check the values
// themselves, so the order of checks and the error codes stay those of contract §5).
const pathParams = {
  sourceId: Type.String({ description: 'a configured Custom Push source; pattern ^psrc_[A-Za-z0-9-]{20,}$ (else 400 INVALID_REQUEST)' }),
}

/** The prayer-schedule month push and read (public API endpoint 5, contract §5). */
export function prayerRoutes(deps: PrayerDeps) {
  return new Elysia({ name: 'lobby.prayer' })
    .post(
      `${BASE}/:sourceId/months`,
      async ({ request, params }) => {
        // Everything up to source access needs only the headers: with a declared size it runs
        // before the body is read, so an unauthorized push holds no memory.
        // Body size first (a declared one, before these), then the checks in the contract's order.
        const { raw, checked: secret } = await readBodyAfterChecks(request, MAX_MONTH_BODY, () => {
          assertJsonContentType(request, 'must include application/json')
          assertSourceId(params.sourceId)
          const secret = presentedSecret(request, { allowApiKeyHeader: true })
          authorizePush(deps, secret, params.sourceId, deps.clock.now())
          return secret
        })
        const outcome = await pushPrayerMonth(deps, {
          sourceId: params.sourceId,
          secret,
          idempotencyKey: request.headers.get('idempotency-key'),
          rawBody: raw,
        })
        if (!outcome.created) return json(200, outcome.body)
        return json(201, outcome.body, { location: monthUrl(outcome.body.sourceId, outcome.body.period) })
      },
      {
        parse: 'none',
        params: Type.Object(pathParams),
        detail: pushPrayerMonthDocs,
      },
    )
    .get(
      `${BASE}/:sourceId/months/:period`,
      ({ request, params }) => {
        assertSourceId(params.sourceId)
        assertPeriod(params.period)
        const source = authorizePush(deps, presentedSecret(request, { allowApiKeyHeader: true }), params.sourceId, deps.clock.now())
        const stored = readMonth(deps.db, source.id, params.period)
        if (stored === null) throw new ApiError(404, PrayerCodes.MONTH_NOT_FOUND, 'no month stored for this source and period')
        return json(200, {
          data: {
            sourceId: stored.sourceId,
            period: stored.period,
            revision: stored.revision,
            checksum: stored.checksum,
            storedAt: isoTime(stored.storedAt),
            dayCount: stored.dayCount,
            location: source.location,
            month: stored.month,
          },
        })
      },
      {
        params: Type.Object({ ...pathParams, period: Type.String({ description: 'YYYY-MM (else 400 INVALID_REQUEST)' }) }),
        detail: readPrayerMonthDocs,
      },
    )
}
