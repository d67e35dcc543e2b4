import type { AppDeps } from '../root/deps'
import { ApiError } from '../platform/errors'
import { admitQueueCaller, DEFAULT_READ_PER_MINUTE } from '../queue/access'
import { Scopes } from '../queue/model'
import { deviceSecretOf } from '../devices/access'
import type { DeviceService } from '../devices/service'
import { ReportCodes } from './errors'
import { admitRate, RateBuckets } from '../platform/admission'
import type { ReportScope } from './service'

/**
 * The one check of who may read reports (contract §12, §7): a Queue key in `Authorization:
 * Bearer` with the `reports:read` scope (401 / 403 SCOPE_FORBIDDEN / 429 as every Queue route),
 * seeing its unit within its location and service lists; else a paired `reports` device by its
 * `lobby_device` cookie, seeing its whole unit. With an Authorization header the cookie is not
 * looked at (a bearer key is never read from a cookie). The report routes only read, so a
 * device needs no Origin check.
 */
export function admitReportsReader(deps: AppDeps, devices: DeviceService, request: Request, now: number): ReportScope & { credentialId: string } {
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

/** Contract §23: range reads (summary, daily, counters) cost a computation each: 30 a minute per credential. */
export const REPORT_RANGE_READS_PER_MINUTE = 30

/** The range-read limit, after the caller's own read limit (`admitReportsReader`). */
export function admitRangeRead(deps: AppDeps, credentialId: string, now: number): void {
  admitRate(deps.limiter, RateBuckets.reportRange, credentialId, REPORT_RANGE_READS_PER_MINUTE, now,
    (retry) => `over ${REPORT_RANGE_READS_PER_MINUTE} report range reads per minute for this credential; retry after ${retry} s`)
}
