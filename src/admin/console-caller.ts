import { ApiError } from '../platform/errors'
import type { ConsoleCaller } from '../access'
import { AdminCodes } from './errors'

/*
 * What a console caller (admitted by `admitConsole`, src/access/) may touch: an admin every
 * queue unit, a manager the configuration of its own units (403 UNIT_FORBIDDEN for another).
 */

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
