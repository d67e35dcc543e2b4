import type { ReportDeps } from './deps'
import { ApiError } from '../platform/errors'
import { admitQueueCaller, DEFAULT_READ_PER_MINUTE } from '../queue'
import { Scopes } from '../queue'
import { deviceSecretOf } from '../devices'
import type { DeviceService } from '../devices'
import { ReportCodes } from './errors'
import { admitRate, RateBuckets } from '../platform/admission'
import type { ReportScope } from './service'
import type { StaffScope } from './staff'
import type { FeedbackScope } from './feedback'
import { requireSession, sessionIdOf, type PeopleService } from '../people'

/**
 * The one check of who may read reports (contract §12, §7): a Queue key in `Authorization:
 * Bearer` with the `reports:read` scope (401 / 403 SCOPE_FORBIDDEN / 429 as every Queue route),
 * seeing its unit within its location and service lists; else a paired `reports` device by its
 * `lobby_device` cookie, seeing its whole unit. With an Authorization header the cookie is not
 * looked at (a bearer key is never read from a cookie). The report routes only read, so a
 * device needs no Origin check.
 */
export function admitReportsReader(deps: ReportDeps, devices: DeviceService, request: Request, now: number): { queueUnitId: string; locations: string[] | null; services: string[] | null; credentialId: string } {
  const secret = request.headers.has('authorization') ? null : deviceSecretOf(request)
  if (secret === null) {
    const caller = admitQueueCaller(deps, request, Scopes.REPORTS_READ, 'read', now)
    return { queueUnitId: caller.ownerId, locations: caller.locations, services: caller.services, credentialId: caller.id }
  }
  const device = devices.authenticate(deps.credentials, secret, now)
  if (device === null || device.role !== 'reports' || device.queueUnitId === null) {
    throw new ApiError(401, ReportCodes.AUTHENTICATION_FAILED, 'this device is not a paired reports device (or no longer): pair it again at /pair, or send a Queue key with reports:read')
  }
  // The device's own window (a `/` no key name has), at the Queue keys' default read limit.
  admitRate(deps.limiter, RateBuckets.queueRead, `${device.queueUnitId}/device/${device.name}`, DEFAULT_READ_PER_MINUTE, now,
    (retry) => `over ${DEFAULT_READ_PER_MINUTE} reads per minute for this device; retry after ${retry} s`)
  return { queueUnitId: device.queueUnitId, locations: null, services: null, credentialId: device.credentialId }
}

/** Contract §23: range reads (summary, daily, counters, staff) cost a computation each: 30 a minute per credential or person. */
export const REPORT_RANGE_READS_PER_MINUTE = 30

/** The range-read limit, after the caller's own read limit (`admitReportReader`). */
export function admitRangeRead(deps: ReportDeps, credentialId: string, now: number): void {
  admitRate(deps.limiter, RateBuckets.reportRange, credentialId, REPORT_RANGE_READS_PER_MINUTE, now,
    (retry) => `over ${REPORT_RANGE_READS_PER_MINUTE} report range reads per minute for this credential; retry after ${retry} s`)
}

/** A reader of the reports: its units (null: every unit), a key's location and service lists, and what its limits count against. */
export type ReportReader = ReportScope & { credentialId: string }

/**
 * Who may read the reports (contract §12, §16, §24 "Reports for people"), every report route
 * and the /reports page's reads: a Queue key with `reports:read` or a paired `reports` device
 * (`admitReportsReader`), each its one unit; or a signed-in manager (the units of its
 * `queueUnits`) or admin (every unit) by the `lobby_session` cookie, limited per person as a
 * credential is (its read window, 600 a minute, here; the range reads' by the route). A
 * clerk's session is 403 ROLE_FORBIDDEN. The credential comes from the headers only (these
 * are GETs). With an Authorization header the cookies are not looked at. A browser with both
 * cookies is read as the device when that is a paired reports device (the page's credential
 * on a paired PC), else as the session: a manager signed in on a browser paired as a desk
 * still reads reports.
 */
export async function admitReportReader(deps: ReportDeps, devices: DeviceService, people: PeopleService, request: Request, now: number): Promise<ReportReader> {
  const bySession = !request.headers.has('authorization') && sessionIdOf(request) !== null
  if (!bySession || deviceSecretOf(request) !== null) {
    try {
      const reader = admitReportsReader(deps, devices, request, now)
      return { queueUnitIds: reader.queueUnitId === null ? null : [reader.queueUnitId], locations: reader.locations, services: reader.services, credentialId: reader.credentialId }
    } catch (error) {
      // Not a paired reports device, but a session cookie beside it: the session decides.
      if (!(bySession && error instanceof ApiError && error.status === 401)) throw error
    }
  }
  const { user } = await requireSession(deps, people, request)
  if (user.role === 'clerk') throw new ApiError(403, ReportCodes.ROLE_FORBIDDEN, 'a clerk may not read reports: sign in as a manager or an administrator')
  const credentialId = `user/${user.id}`
  admitRate(deps.limiter, RateBuckets.queueRead, credentialId, DEFAULT_READ_PER_MINUTE, now,
    (retry) => `over ${DEFAULT_READ_PER_MINUTE} reads per minute for this person; retry after ${retry} s`)
  return { queueUnitIds: user.role === 'admin' ? null : user.queueUnits, locations: null, services: null, credentialId }
}

/**
 * Who may read the staff report (contract §16): every report reader (`admitReportReader`),
 * except that a key limited to some locations or services is 403 SCOPE_FORBIDDEN: the clerks'
 * figures are the whole unit's, they cannot be cut to a location or a service.
 */
export async function admitStaffReportReader(deps: ReportDeps, devices: DeviceService, people: PeopleService, request: Request, now: number): Promise<StaffScope & { credentialId: string }> {
  const reader = await admitReportReader(deps, devices, people, request, now)
  if (reader.locations !== null || reader.services !== null) {
    throw new ApiError(403, ReportCodes.SCOPE_FORBIDDEN, 'the staff report covers whole queue units: this key is limited to some locations or services')
  }
  return { queueUnitIds: reader.queueUnitIds === null ? null : [...reader.queueUnitIds], credentialId: reader.credentialId }
}

/**
 * The feedback report's limit: 30 a minute per credential as a range read, in its own window
 * (contract §23 "Expensive reads"): one load of the /reports page makes five range reads, and
 * the ratings (a few rows a day from their own table) need not eat the roll-up reads' budget.
 */
export function admitFeedbackRead(deps: ReportDeps, credentialId: string, now: number): void {
  admitRate(deps.limiter, RateBuckets.reportFeedback, credentialId, REPORT_RANGE_READS_PER_MINUTE, now,
    (retry) => `over ${REPORT_RANGE_READS_PER_MINUTE} feedback report reads per minute for this credential; retry after ${retry} s`)
}

/**
 * Who may read the feedback report (contract §20): every report reader (`admitReportReader`);
 * a key limited to some locations or services reads the ratings of those only: each rating
 * belongs to one location and service, so it can be cut (the staff report's figures cannot).
 */
export async function admitFeedbackReader(deps: ReportDeps, devices: DeviceService, people: PeopleService, request: Request, now: number): Promise<FeedbackScope & { credentialId: string }> {
  const { queueUnitIds, locations, services, credentialId } = await admitReportReader(deps, devices, people, request, now)
  return { queueUnitIds: queueUnitIds === null ? null : [...queueUnitIds], locations, services, credentialId }
}
