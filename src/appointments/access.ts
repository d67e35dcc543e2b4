import type { AppointmentDeps } from './deps'
import { admitRate, RateBuckets } from '../platform/admission'
import { ApiError } from '../platform/errors'
import { actorOf, encodeActor } from '../platform/actor'
import { admitOperatorCaller, deviceSecretOf } from '../devices'
import type { DeviceService } from '../devices'
import { credentialScope, DEFAULT_READ_PER_MINUTE, type RateBucket } from '../queue'
import { Scopes } from '../queue'
import { requireSession, sessionIdOf, type PeopleService } from '../people'
import { AppointmentCodes } from './errors'
import { admitReportReader } from '../reports'
import type { AppointmentActor, AppointmentScope } from './service'

/** Who called the operator appointment routes: what they reach, who they are, and where their Idempotency-Keys live. */
export interface AppointmentCaller {
  scope: AppointmentScope
  who: AppointmentActor
  /** The Idempotency-Key scope: the credential (a key's unit and name, a desk, a user). */
  keyScope: string
}

/**
 * Contract §21: "queue key scope `appointments:write`, or a desk, manager or admin". With an
 * `Authorization` header or a device cookie: the operator API's caller (a Queue key with
 * `appointments:write`, else 403 SCOPE_FORBIDDEN; a paired desk, limited to its location and its
 * counter's services; 401 / Origin / rate limit as every operator route). Else the
 * `lobby_session` cookie: a manager (its units) or an admin (every unit); a clerk's session is
 * 403 ROLE_FORBIDDEN (a clerk works through the desk). A state-changing request by cookie must
 * carry this server's Origin (403 ORIGIN_FORBIDDEN). Nothing of the body is read before this.
 */
export async function admitAppointmentCaller(
  deps: AppointmentDeps, devices: DeviceService, people: PeopleService, request: Request, bucket: RateBucket, now: number,
): Promise<() => AppointmentCaller> {
  const bySession = !request.headers.has('authorization') && deviceSecretOf(request) === null && sessionIdOf(request) !== null
  if (!bySession) {
    // Synchronous: the route runs it as its header checks, before the body (readBodyAfterChecks).
    return () => {
      const caller = admitOperatorCaller(deps, devices, request, Scopes.APPOINTMENTS_WRITE, bucket, now)
      return {
        scope: { queueUnitIds: [caller.ownerId], locations: caller.locations, services: caller.services },
        who: { actor: encodeActor(actorOf(caller)), credentialId: caller.id },
        keyScope: credentialScope(caller),
      }
    }
  }
  const { user } = await requireSession(deps, people, request)
  return () => {
    if (user.role === 'clerk') {
      throw new ApiError(403, AppointmentCodes.ROLE_FORBIDDEN, 'a clerk may not manage appointments from a session: use a paired desk, or sign in as a manager or an administrator')
    }
    admitRate(deps.limiter, RateBuckets.queueRead, `user/${user.id}`, DEFAULT_READ_PER_MINUTE, now,
      (retry) => `over ${DEFAULT_READ_PER_MINUTE} requests per minute for this user; retry after ${retry} s`)
    return {
      scope: { queueUnitIds: user.role === 'admin' ? null : user.queueUnits, locations: null, services: null },
      who: { actor: encodeActor({ type: 'user', id: user.username }), credentialId: null },
      keyScope: `user/${user.id}`,
    }
  }
}

/**
 * The appointment report's readers, as every report's (contract §12, §16, §24;
 * `admitReportReader`): a Queue key with `reports:read` (its unit, locations and services), a
 * paired reports device (its unit), or a manager's (its units) or admin's session, the session
 * deciding when a browser's device cookie is not a paired reports device; a clerk's session is
 * 403 ROLE_FORBIDDEN. Each is one read of the reader's read window (600 a minute), not one of
 * the roll-ups' range reads (30 a minute): it reads only the range's appointments, and the
 * reports page loads it beside its four range reads.
 */
export async function admitAppointmentReportReader(deps: AppointmentDeps, devices: DeviceService, people: PeopleService, request: Request, now: number): Promise<AppointmentScope> {
  const { queueUnitIds, locations, services } = await admitReportReader(deps, devices, people, request, now)
  return { queueUnitIds: queueUnitIds === null ? null : [...queueUnitIds], locations, services }
}
