import type { AdminDeps } from './deps'
import { ApiError } from '../platform/errors'
import type { Actor } from '../platform/actor'
import { requireSession, type PeopleService, type User } from '../people'
import { AdminCodes } from './errors'

/*
 * Who may use the admin API (contract §16, §17). The session cookie only: `requireSession`
 * answers 401 without one (an `Authorization` key or a device cookie is never read here) and
 * 403 ORIGIN_FORBIDDEN for a write from another origin. Then the role: an admin may do
 * everything; a manager the configuration of its own queue units (403 UNIT_FORBIDDEN for
 * another unit, 403 ROLE_FORBIDDEN for what only an admin does: users, keys, webhooks); a
 * clerk nothing (403 ROLE_FORBIDDEN). Every console route (branch, audit, devices, staff, keys,
 * webhooks, voice clips) asks here.
 */

export interface ConsoleCaller {
  user: User
  /** The audit log's actor of the caller's changes. */
  actor: Actor
  /** The queue units the caller may configure; null = every unit (an admin). */
  units: string[] | null
}

/** The signed-in admin or manager of the request (401 / 403 otherwise). */
export async function requireConsoleCaller(deps: AdminDeps, people: PeopleService, request: Request): Promise<ConsoleCaller> {
  const { user } = await requireSession(deps, people, request)
  if (user.role === 'clerk') throw new ApiError(403, AdminCodes.ROLE_FORBIDDEN, 'a clerk may not use the administration console')
  return { user, actor: { type: 'user', id: user.username }, units: user.role === 'admin' ? null : user.queueUnits }
}

/** The signed-in admin of the request: what a manager may not do (users, keys, webhooks). */
export async function requireAdministrator(deps: AdminDeps, people: PeopleService, request: Request): Promise<ConsoleCaller> {
  const caller = await requireConsoleCaller(deps, people, request)
  if (caller.user.role !== 'admin') throw new ApiError(403, AdminCodes.ROLE_FORBIDDEN, 'only an administrator may do this')
  return caller
}

/**
 * True when the caller may act on what belongs to `queueUnitId`. Null stands for what belongs
 * to no single unit (a display, bound to a whole workspace): an admin's only.
 */
export function mayTouchUnit(caller: ConsoleCaller, queueUnitId: string | null): boolean {
  return caller.units === null || (queueUnitId !== null && caller.units.includes(queueUnitId))
}

/** 403 UNIT_FORBIDDEN unless the caller may configure `queueUnitId` (null: a workspace's, admins only). */
export function assertUnitAccess(caller: ConsoleCaller, queueUnitId: string | null, message?: string): void {
  if (!mayTouchUnit(caller, queueUnitId)) {
    throw new ApiError(403, AdminCodes.UNIT_FORBIDDEN, message ?? `queue unit "${queueUnitId}" is not one of your units`)
  }
}
