import type { AppDeps } from '../platform/deps'
import { admitQueueCaller } from '../queue/access'
import { Scopes } from '../queue/model'
import type { ReportScope } from './service'

/**
 * The one check of who may read reports (contract §12): a Queue key with the `reports:read`
 * scope (401 / 403 SCOPE_FORBIDDEN / 429 as every Queue route), seeing its unit within its
 * location and service lists. A paired `reports` device (contract §7) is admitted here too
 * once device credentials exist; nothing else decides.
 */
export function admitReportsReader(deps: AppDeps, request: Request, now: number): ReportScope {
  const caller = admitQueueCaller(deps, request, Scopes.REPORTS_READ, 'read', now)
  return { queueUnitId: caller.ownerId, locations: caller.locations, services: caller.services }
}
