import type { Db } from '../db/open'
import { DEFAULT_ISSUE_PER_MINUTE, DEFAULT_READ_PER_MINUTE } from '../access'
import type { IdGenerator } from '../platform/ids'
import type { ErrorDetail } from '../platform/errors'
import { ruled } from '../platform/detail-rules'
import { insertCredential, listKeys, NO_PROPERTIES, revokeKey, rotateKey, KeyNotFoundError, type KeyProperties } from '../structure'
import { DEFAULT_QUEUE_SCOPES } from '../provisioning'
import type { CREATABLE_KINDS } from './keys-model'

/*
 * The console's keys section over src/structure/keys.ts (what `lobby keys` and provisioning
 * files use): list, rotate and revoke are theirs; create stores a credential as a provisioning
 * file does, with the same defaults, after the references a file's are checked against. Free of HTTP.
 */

export { KeyNotFoundError }

export interface NewKey {
  kind: (typeof CREATABLE_KINDS)[number]
  owner: string
  name: string
  scopes?: string[]
  locations?: string[]
  services?: string[]
  rateLimits?: { issuePerMinute?: number; readPerMinute?: number }
}

/** A create the database refuses: the owner or a reference unknown (422), or the name taken (409). */
export class KeyRefused extends Error {
  constructor(public readonly kind: 'invalid' | 'exists', message: string, public readonly details: ErrorDetail[]) {
    super(message)
  }
}

export class AdminKeys {
  constructor(private readonly db: Db, private readonly ids: IdGenerator) {}

  list(now: number) {
    return listKeys(this.db, now).filter((k) => k.kind !== ('device' as string))
  }

  /** The new key's secret (for the answer) and what the audit keeps of it. */
  create(key: NewKey, now: number): { secret: string; properties: KeyProperties } {
    const sql = this.db.$client
    if (key.kind === 'queue') {
      if (sql.query('SELECT 1 FROM queue_units WHERE id = ?1').get(key.owner) === null) throw new KeyRefused('invalid', `no queue unit "${key.owner}"`, [ruled('/owner', 'no such queue unit', 'unknownReference', { kind: 'queueUnit', value: key.owner })])
      const refs: [string, string[] | undefined, string][] = [['locations', key.locations, 'location'], ['services', key.services, 'service']]
      for (const [field, ids, what] of refs) {
        const index = (ids ?? []).findIndex((id) => sql.query(`SELECT 1 FROM ${field} WHERE id = ?1 AND queue_unit_id = ?2`).get(id, key.owner) === null)
        if (index >= 0) throw new KeyRefused('invalid', `no ${what} "${ids![index]}" in queue unit "${key.owner}"`, [ruled(`/${field}/${index}`, `no such ${what} in this queue unit`, 'unknownReference', { kind: what, value: ids![index]! })])
      }
    } else if (sql.query('SELECT 1 FROM workspaces WHERE id = ?1').get(key.owner) === null) {
      throw new KeyRefused('invalid', `no workspace "${key.owner}"`, [ruled('/owner', 'no such workspace', 'unknownReference', { kind: 'workspace', value: key.owner })])
    }
    if (sql.query('SELECT 1 FROM credentials WHERE kind = ?1 AND owner_id = ?2 AND name = ?3').get(key.kind, key.owner, key.name) !== null) {
      throw new KeyRefused('exists', `a ${key.kind} credential named "${key.name}" for ${key.owner} exists: rotate it instead`, [ruled('/name', 'taken', 'taken', { kind: 'key' })])
    }
    // A provisioning file's defaults (src/provisioning/service.ts), so exporting and re-applying changes nothing.
    const properties: KeyProperties = key.kind !== 'queue' ? NO_PROPERTIES : {
      scopes: key.scopes ?? DEFAULT_QUEUE_SCOPES,
      locations: key.locations ?? null,
      services: key.services ?? null,
      issuePerMinute: key.rateLimits?.issuePerMinute ?? DEFAULT_ISSUE_PER_MINUTE,
      readPerMinute: key.rateLimits?.readPerMinute ?? DEFAULT_READ_PER_MINUTE,
    }
    return { secret: insertCredential(this.db, this.ids, key.kind, key.owner, key.name, properties, now), properties }
  }

  rotate(kind: Parameters<typeof rotateKey>[2], owner: string, name: string, graceSeconds: number, now: number) {
    return rotateKey(this.db, this.ids, kind, owner, name, graceSeconds, now)
  }

  revoke(kind: Parameters<typeof revokeKey>[1], owner: string, name: string, now: number) {
    return revokeKey(this.db, kind, owner, name, now)
  }
}
