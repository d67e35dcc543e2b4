import { Elysia } from 'elysia'
import type { AppDeps } from '../root/deps'
import { json } from '../platform/http'
import { inReadTransaction } from '../platform/transactions'
import { admitFeedbackRead, admitFeedbackReader, admitRangeRead, admitReportsReader, admitStaffReportReader } from './access'
import type { FeedbackReport } from './feedback'
import { ReportCache } from './cache'
import type { ReportScope } from './service'
import type { ReportService, ReportSummaryReader } from './service'
import type { DeviceService } from '../devices/service'
import type { PeopleService } from '../people'
import type { StaffReport } from './staff'
import { reportsPage } from './page'
import { readCounterReportDocs, readDailyReportDocs, readFeedbackReportDocs, readReportSummaryDocs, readStaffReportDocs } from './docs'

const BASE = '/api/operator/v1/reports'

/** A query parameter, or undefined when absent (an empty `locationId=` filters by nothing). */
function param(url: URL, name: string): string | undefined {
  const value = url.searchParams.get(name)
  return value === null || value === '' ? undefined : value
}

/**
 * Contract §12 report routes: the daily roll-ups per location and service, and per counter;
 * §16: per clerk. The query is read by hand (never Elysia's coercion), so every bad value is an
 * envelope 422.
 */
export function reportRoutes(
  deps: AppDeps,
  { reports: service, summaries: summary, staff, feedback, people, devices, reportCache: cache }: {
    reports: () => ReportService
    feedback: () => FeedbackReport
    summaries: () => ReportSummaryReader
    staff: () => StaffReport
    people: PeopleService
    devices: DeviceService
    reportCache: ReportCache
  },
) {
  /** Admission (the reader, its read limit, then the range-read limit), then the answer per roll-up revision. */
  function rangeRead(request: Request, name: string, compute: (scope: ReportScope, url: URL) => unknown): Response {
    const now = deps.clock.now()
    const { credentialId, ...scope } = admitReportsReader(deps, devices, request, now)
    admitRangeRead(deps, credentialId, now)
    const url = new URL(request.url)
    const query = ['from', 'to', 'locationId', 'serviceId'].map((name) => param(url, name) ?? null)
    const key = JSON.stringify([name, scope.queueUnitId, scope.locations, scope.services, query])
    return json(200, cache.text(key, now, () => inReadTransaction(deps.db, () => JSON.stringify({ data: compute(scope, url) }))))
  }
  /**
   * The staff report: its readers include signed-in managers and admins (a session is checked
   * asynchronously). Its open intervals count to `now`, so a kept answer can be as old as the
   * cache's bound (a minute) while nothing is written.
   */
  async function staffRead(request: Request): Promise<Response> {
    const now = deps.clock.now()
    const { credentialId, ...scope } = await admitStaffReportReader(deps, devices, people, request, now)
    admitRangeRead(deps, credentialId, now)
    const url = new URL(request.url)
    const query = { from: param(url, 'from'), to: param(url, 'to'), queueUnitId: param(url, 'queueUnitId') }
    const key = JSON.stringify(['staff', scope.queueUnitIds, query.from ?? null, query.to ?? null, query.queueUnitId ?? null])
    return json(200, cache.text(key, now, () => inReadTransaction(deps.db, () => JSON.stringify({ data: staff().rows(scope, query, now) }))))
  }
  /** Contract §20: the customers' ratings; read as the staff report (sessions too), cached per change, 30 a minute per credential in their own window. */
  async function feedbackRead(request: Request): Promise<Response> {
    const now = deps.clock.now()
    const { credentialId, ...scope } = await admitFeedbackReader(deps, devices, people, request, now)
    admitFeedbackRead(deps, credentialId, now)
    const url = new URL(request.url)
    const query = { from: param(url, 'from'), to: param(url, 'to') }
    const key = JSON.stringify(['feedback', scope, query.from ?? null, query.to ?? null])
    return json(200, cache.text(key, now, () => inReadTransaction(deps.db, () => JSON.stringify({ data: feedback().read(scope, query) }))))
  }
  return new Elysia({ name: 'lobby.reports' })
    .get('/reports', ({ query }) => reportsPage(query), { detail: { hide: true } })
    .get(
      `${BASE}/summary`,
      ({ request }) => rangeRead(request, 'summary', (scope, url) =>
        summary().summary(scope, { from: param(url, 'from'), to: param(url, 'to'), locationId: param(url, 'locationId') })),
      {
        parse: 'none',
        detail: readReportSummaryDocs,
      },
    )
    .get(
      `${BASE}/daily`,
      ({ request }) => rangeRead(request, 'daily', (scope, url) =>
        service().daily(scope, { from: param(url, 'from'), to: param(url, 'to'), locationId: param(url, 'locationId'), serviceId: param(url, 'serviceId') })),
      {
        parse: 'none',
        detail: readDailyReportDocs,
      },
    )
    .get(
      `${BASE}/counters`,
      ({ request }) => rangeRead(request, 'counters', (scope, url) =>
        service().counters(scope, { from: param(url, 'from'), to: param(url, 'to'), locationId: param(url, 'locationId') })),
      {
        parse: 'none',
        detail: readCounterReportDocs,
      },
    )
    .get(`${BASE}/staff`, ({ request }) => staffRead(request), {
      parse: 'none',
      detail: readStaffReportDocs,
    })
    .get(`${BASE}/feedback`, ({ request }) => feedbackRead(request), {
      parse: 'none',
      detail: readFeedbackReportDocs,
    })
}
