import type { AppDeps } from '../root/deps'
import { ApiError } from '../platform/errors'
import { requireSession, type PeopleService, type User, type UserRole } from '../people'
import { AdminSectionCodes } from './section-errors'

/*
 * Who may use a section of the console API (contract §17): a signed-in person by the session
 * cookie only — `requireSession` of src/people reads nothing else, so a queue key, a display
 * token or a paired device's cookie is "not signed in" here — of one of the section's roles.
 * A state-changing request must carry this server's Origin (checked by `requireSession`).
 * Small on purpose: the console core's access rules replace it when the two halves meet.
 */

/** Where the console's JSON API lives. */
export const ADMIN_API = '/api/admin/v1'

/** The signed-in user, when its role is one of `roles`; 401 without a session, 403 ROLE_FORBIDDEN for another role. */
export async function requireConsoleUser(deps: AppDeps, people: PeopleService, request: Request, roles: readonly UserRole[], what: string): Promise<User> {
  const { user } = await requireSession(deps, people, request)
  if (!roles.includes(user.role)) {
    throw new ApiError(403, AdminSectionCodes.ROLE_FORBIDDEN, roles.length === 1 ? `only an administrator ${what}` : `a ${user.role} may not ${what}`)
  }
  return user
}

/** True when `user` works in `queueUnitId` (an admin works in every unit). */
export function worksIn(user: User, queueUnitId: string | null | undefined): boolean {
  return user.role === 'admin' || (queueUnitId != null && user.queueUnits.includes(queueUnitId))
}

/** 403 UNIT_FORBIDDEN unless `user` works in `queueUnitId`. */
export function assertWorksIn(user: User, queueUnitId: string | null | undefined, message?: string): void {
  if (!worksIn(user, queueUnitId)) {
    throw new ApiError(403, AdminSectionCodes.UNIT_FORBIDDEN, message ?? `queue unit "${queueUnitId}" is not one of yours`)
  }
}
