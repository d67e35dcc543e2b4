import type { Db } from '../db/open'
import { ApiError } from '../platform/errors'
import type { ProvisionedQueueUnit } from '../provisioning'
import { HqCodes } from './errors'
import { managedChanges, type ProfileContent } from './profile'

/** The head-office profile a unit follows, as applied at this branch; null when it follows none. */
export function appliedProfile(db: Db, queueUnitId: string): { profileName: string; revision: number; content: ProfileContent } | null {
  const row = db.$client.query<{ profileName: string | null; revision: number | null; content: string | null }, [string]>(
    'SELECT profile_name AS profileName, revision, content FROM hq_applied WHERE queue_unit_id = ?1',
  ).get(queueUnitId)
  if (row === null || row.content === null || row.revision === null) return null
  return { profileName: row.profileName ?? '', revision: row.revision, content: JSON.parse(row.content) as ProfileContent }
}

/**
 * Contract §26: a branch's own edit (console, admin API) may not change a field its head-office
 * profile owns: 409 HQ_MANAGED, naming each such field in words (a page shows the message as it
 * is). Head office's own apply does not come through here.
 */
export function assertNotManaged(db: Db, queueUnitId: string, before: ProvisionedQueueUnit, after: ProvisionedQueueUnit): void {
  const applied = appliedProfile(db, queueUnitId)
  if (applied === null) return
  const changed = managedChanges(before, after, applied.content)
  if (changed.length === 0) return
  const owner = `head office (profile "${applied.profileName}", revision ${applied.revision})`
  throw new ApiError(409, HqCodes.HQ_MANAGED,
    `${changed.map((c) => c.label).join('; ')}: set by ${owner}. Change ${changed.length === 1 ? 'it' : 'them'} in the head-office console, or leave ${changed.length === 1 ? 'it' : 'them'} as ${changed.length === 1 ? 'it is' : 'they are'}.`,
    changed.map((c) => ({ path: c.path, message: `set by ${owner}` })))
}
