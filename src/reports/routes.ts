import { Elysia } from 'elysia'
import { sessionIdOf } from '../access'
import { deviceSecretOf } from '../access'
import type { ReportDeps } from './deps'
import { json } from '../platform/http'
import { inReadTransaction } from '../platform/transactions'
import type { AdmissionPlugin, ReportReader } from '../access'
import type { FeedbackReport } from './feedback'
import { ReportCache } from './cache'
import type { ReportQuery, ReportScope, ReportService, ReportSummaryReader } from './service'
import type { DeviceService } from '../devices'
import type { PeopleService } from '../people'
import type { StaffReport } from './staff'
import { reportsPage, type ReportsVisitor } from './page'
import { readCounterReportDocs, readDailyReportDocs, readFeedbackReportDocs, readReportSummaryDocs, readStaffReportDocs } from './docs'

const BASE = '/api/operator/v1/reports'

/** A query parameter, or undefined when absent (an empty `locationId=` filters by nothing). */
function param(url: URL, name: string): string | undefined {
  const value = url.searchParams.get(name)
  return value === null || value === '' ? undefined : value
}

/**
 * Contract §12 report routes: the daily roll-ups per location and service, and per counter;
 * §16: per clerk; §20: ratings. Every one admits a Queue key with reports:read, a paired reports
 * device, or a manager's (its units) or admin's (every unit) session (`admitReportReader`, §24);
 * the /reports page serves its frame to those readers and refuses anyone else in words. The
 * query is read by hand (never Elysia's coercion), so every bad value is an envelope 422.
 */
export function reportRoutes(
  deps: ReportDeps,
  { reports: service, summaries: summary, staff, feedback, people, devices, reportCache: cache, access }: {
    reports: () => ReportService
    feedback: () => FeedbackReport
    summaries: () => ReportSummaryReader
    staff: () => StaffReport
    people: PeopleService
    devices: DeviceService
    reportCache: ReportCache
    access: AdmissionPlugin
  },
) {
  /**
   * After admission (`admitReportReader: 'range'`: the reader — a key, a paired reports device or
   * a manager's or admin's session — its read limit, then the range-read limit), the answer per
   * roll-up revision.
   */
  function rangeRead(request: Request, { credentialId: _, ...scope }: ReportReader, now: number, name: string, compute: (scope: ReportScope, query: ReportQuery) => unknown): Response {
    const url = new URL(request.url)
    const query: ReportQuery = { from: param(url, 'from'), to: param(url, 'to'), queueUnitId: param(url, 'queueUnitId'), locationId: param(url, 'locationId'), serviceId: param(url, 'serviceId') }
    const key = JSON.stringify([name, scope.queueUnitIds, scope.locations, scope.services, ['from', 'to', 'queueUnitId', 'locationId', 'serviceId'].map((k) => query[k as keyof ReportQuery] ?? null)])
    return json(200, cache.text(key, now, () => inReadTransaction(deps.db, () => JSON.stringify({ data: compute(scope, query) }))))
  }
  /**
   * The staff report: its readers include signed-in managers and admins (a session is checked
   * asynchronously). Its open intervals count to `now`, so a kept answer can be as old as the
   * cache's bound (a minute) while nothing is written.
   */
  function staffRead(request: Request, reader: ReportReader, now: number): Response {
    const scope = { queueUnitIds: reader.queueUnitIds === null ? null : [...reader.queueUnitIds] }
    const url = new URL(request.url)
    const query = { from: param(url, 'from'), to: param(url, 'to'), queueUnitId: param(url, 'queueUnitId') }
    const key = JSON.stringify(['staff', scope.queueUnitIds, query.from ?? null, query.to ?? null, query.queueUnitId ?? null])
    return json(200, cache.text(key, now, () => inReadTransaction(deps.db, () => JSON.stringify({ data: staff().rows(scope, query, now) }))))
  }
  /** Contract §20: the customers' ratings; read as the staff report (sessions too), cached per change, 30 a minute per credential in their own window. */
  function feedbackRead(request: Request, { queueUnitIds, locations, services }: ReportReader, now: number): Response {
    const scope = { queueUnitIds: queueUnitIds === null ? null : [...queueUnitIds], locations, services }
    const url = new URL(request.url)
    const query = { from: param(url, 'from'), to: param(url, 'to') }
    const key = JSON.stringify(['feedback', scope, query.from ?? null, query.to ?? null])
    return json(200, cache.text(key, now, () => inReadTransaction(deps.db, () => JSON.stringify({ data: feedback().read(scope, query) }))))
  }
  /**
   * Who opens the /reports page (contract §24): a reader (a paired reports device, or a signed-in
   * manager or admin) gets the page; a clerk, or a browser with neither, a page in words. The
   * device cookie comes first, as the report API reads it.
   */
  async function visitorOf(request: Request): Promise<ReportsVisitor> {
    const now = deps.clock.now()
    const secret = deviceSecretOf(request)
    const device = secret === null ? null : devices.authenticate(deps.credentials, secret, now)
    if (device !== null && device.role === 'reports' && device.queueUnitId !== null) return 'reader'
    const found = await people.authenticate(sessionIdOf(request), now)
    if (found === null) return 'nobody'
    return found.user.role === 'clerk' ? 'clerk' : 'reader'
  }
  return new Elysia({ name: 'lobby.reports' })
    .use(access)
    .get('/reports', async ({ request, query }) => reportsPage(query, await visitorOf(request)), { detail: { hide: true } })
    .get(
      `${BASE}/summary`,
      ({ request, principal, now }) => rangeRead(request, principal, now, 'summary', (scope, { serviceId: _, ...query }) => summary().summary(scope, query)),
      {
        parse: 'none',
        admitReportReader: 'range',
        detail: readReportSummaryDocs,
      },
    )
    .get(
      `${BASE}/daily`,
      ({ request, principal, now }) => rangeRead(request, principal, now, 'daily', (scope, query) => service().daily(scope, query)),
      {
        parse: 'none',
        admitReportReader: 'range',
        detail: readDailyReportDocs,
      },
    )
    .get(
      `${BASE}/counters`,
      ({ request, principal, now }) => rangeRead(request, principal, now, 'counters', (scope, { serviceId: _, ...query }) => service().counters(scope, query)),
      {
        parse: 'none',
        admitReportReader: 'range',
        detail: readCounterReportDocs,
      },
    )
    .get(`${BASE}/staff`, ({ request, principal, now }) => staffRead(request, principal, now), {
      parse: 'none',
      admitReportReader: 'staff',
      detail: readStaffReportDocs,
    })
    .get(`${BASE}/feedback`, ({ request, principal, now }) => feedbackRead(request, principal, now), {
      parse: 'none',
      admitReportReader: 'feedback',
      detail: readFeedbackReportDocs,
    })
}
