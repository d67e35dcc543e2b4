import { Elysia } from 'elysia'
import type { AppDeps } from '../platform/deps'
import { json } from '../platform/http'
import { routeDetail, type RouteDoc } from '../platform/openapi'
import { inReadTransaction } from '../platform/transactions'
import { admitReportsReader } from './access'
import { ReportCodes } from './errors'
import { CounterReportResponse, DailyReportResponse } from './model'
import { ReportService, MAX_REPORT_DAYS } from './service'

const BASE = '/api/operator/v1/reports'

const errors = {
  401: [ReportCodes.AUTHENTICATION_FAILED],
  403: [ReportCodes.SCOPE_FORBIDDEN],
  422: [ReportCodes.VALIDATION_FAILED],
  429: [ReportCodes.RATE_LIMITED],
}

/** A query parameter, or undefined when absent (an empty `locationId=` filters by nothing). */
function param(url: URL, name: string): string | undefined {
  const value = url.searchParams.get(name)
  return value === null || value === '' ? undefined : value
}

const dayParam = (name: string, description: string) => ({ name, in: 'query', required: true, description, schema: { type: 'string', format: 'date' } })
const idParam = (name: string, description: string) => ({ name, in: 'query', required: false, description, schema: { type: 'string' } })
const DAILY_PARAMS = [
  dayParam('from', 'first business day, YYYY-MM-DD'), dayParam('to', 'last business day (inclusive), YYYY-MM-DD'),
  idParam('locationId', 'only this location'), idParam('serviceId', 'only this service'),
]
const COUNTER_PARAMS = [dayParam('from', 'first business day, YYYY-MM-DD'), dayParam('to', 'last business day (inclusive), YYYY-MM-DD'), idParam('locationId', 'only this location')]

/** The route's OpenAPI detail with its query parameters (read by hand, so not an Elysia schema). */
function withQuery(parameters: unknown[], doc: RouteDoc) {
  return { ...routeDetail(doc), parameters } as ReturnType<typeof routeDetail>
}

const RANGE_RULES = `\`from\` and \`to\` are business days of the locations (YYYY-MM-DD, inclusive, at most ${MAX_REPORT_DAYS} days); a bad date, from after to, or a filter naming a location or service the key cannot see is 422 VALIDATION_FAILED. Scope \`reports:read\` (not a default scope). Rows exist for the days something happened.`

/**
 * Contract §12 report routes: the daily roll-ups per location and service, and per counter.
 * The query is read by hand (never Elysia's coercion), so every bad value is an envelope 422.
 */
export function reportRoutes(deps: AppDeps) {
  let prepared: ReportService | undefined
  const service = () => (prepared ??= new ReportService(deps.db.$client))
  return new Elysia({ name: 'lobby.reports' })
    .get(
      `${BASE}/daily`,
      ({ request }) => {
        const now = deps.clock.now()
        const scope = admitReportsReader(deps, request, now)
        const url = new URL(request.url)
        return inReadTransaction(deps.db, () => json(200, {
          data: service().daily(scope, { from: param(url, 'from'), to: param(url, 'to'), locationId: param(url, 'locationId'), serviceId: param(url, 'serviceId') }),
        }))
      },
      {
        parse: 'none',
        detail: withQuery(DAILY_PARAMS, {
          summary: 'Daily report per location and service',
          description: `Per location, service and business day: tickets issued (by local hour), served, no-show, cancelled, transferred out; waits (first call − createdAt) and service times (completedAt − servingAt) as average and nearest-rank percentiles; the share of called tickets within the service's waitTargetSeconds. ${RANGE_RULES}`,
          tags: ['Reports'],
          security: 'queueBearer',
          responses: { 200: { description: 'the rows, by date, location and service', schema: DailyReportResponse } },
          errors,
        }),
      },
    )
    .get(
      `${BASE}/counters`,
      ({ request }) => {
        const now = deps.clock.now()
        const scope = admitReportsReader(deps, request, now)
        const url = new URL(request.url)
        return inReadTransaction(deps.db, () => json(200, {
          data: service().counters(scope, { from: param(url, 'from'), to: param(url, 'to'), locationId: param(url, 'locationId') }),
        }))
      },
      {
        parse: 'none',
        detail: withQuery(COUNTER_PARAMS, {
          summary: 'Daily report per counter',
          description: `Per counter and business day: tickets served and no-shows, service times, and the seconds the counter held a ticket (busySeconds). ${RANGE_RULES}`,
          tags: ['Reports'],
          security: 'queueBearer',
          responses: { 200: { description: 'the rows, by date, location and counter', schema: CounterReportResponse } },
          errors,
        }),
      },
    )
}
