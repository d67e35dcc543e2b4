import { userInfo } from 'node:os'
import type { Db } from '../db/open'
import { appendAudit, type AuditEntry } from '../platform/audit'
import type { Actor } from '../platform/actor'

/*
 * Who a change made from the shell is in the audit log (contract §17, docs/admin.md "Audit
 * log"): the system, naming the door (`provision` for a provisioning file, `cli` for every
 * other command) and the operating-system account that ran it.
 */

/** The person at the shell: under sudo (`sudo -u lobby lobby …`) SUDO_USER, not the service account. */
export function operatingSystemUser(): string {
  let user = process.env.SUDO_USER || process.env.USER || process.env.LOGNAME || ''
  try {
    user ||= userInfo().username
  } catch {}
  return user || 'unknown'
}

/** The actor of `lobby provision`: `system:provision:<OS user>`. */
export function provisionActor(): { type: 'system'; id: string } {
  return { type: 'system', id: `provision:${operatingSystemUser()}` }
}

/** The actor of every other CLI command that changes something: `system:cli:<OS user>`. */
export function cliActor(): Actor {
  return { type: 'system', id: `cli:${operatingSystemUser()}` }
}

/**
 * One CLI change and its audit entries in one immediate transaction: `work` writes (a service
 * that opens its own transaction gets a savepoint inside this one) and returns the entries to
 * append, in the console's words (same actions, entities and snapshots as src/admin/*-routes.ts),
 * so the log reads the same whichever door was used. One entry per change: `work`
 * returns none when nothing changed.
 */
export function auditedCliChange<R>(db: Db, now: number, work: () => { result: R; audit: Omit<AuditEntry, 'actor'>[] }): R {
  return db.$client.transaction(() => {
    const { result, audit } = work()
    const actor = cliActor()
    for (const entry of audit) appendAudit(db.$client, { ...entry, actor }, now)
    return result
  }).immediate()
}
