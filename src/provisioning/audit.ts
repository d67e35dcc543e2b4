import type { Db } from '../db/open'
import { appendAudit } from '../platform/audit'
import type { Actor } from '../platform/actor'
import { exportProvisioning, type UnitPart } from './export'
import type { ProvisioningFile } from './model'

/*
 * Contract §17: every change a provisioning file makes (through the CLI, the demo or the admin
 * console, which applies its edits as provisioning documents) is appended to the audit log, one
 * entry per entity created, updated or retired, in the same transaction.
 *
 * How: what the file names is exported (src/provisioning/export.ts) before and after the
 * write — each workspace's own entities and, of its queue units, only those the file names with
 * only the entities it names (a file leaves the rest alone, so they cannot change) — cut into entities, and compared by their JSON; each entity that appeared or differs is
 * one entry whose `before`/`after` are the entity as a provisioning file writes it (so a diff in
 * the log reads like a diff of two files). An export holds no secret, and appendAudit filters
 * secret-named fields again. Entities of a queue unit carry `queueUnitId` in their snapshots:
 * that is how the audit route shows a manager the entries of its own units (docs/admin.md).
 */

/** The default actor of a provisioning file applied outside a request (tests, the demo). */
export const PROVISION_ACTOR: Actor = { type: 'system', id: 'provision' }

/** One configuration entity as the audit log names it. */
export interface EntitySnapshot {
  type: string
  id: string
  value: Record<string, unknown>
}

type Workspace = ProvisioningFile['workspaces'][number]

/** The entities `file` names (as exported now), keyed `type\0id`. */
export function configurationSnapshots(db: Db, file: ProvisioningFile): Map<string, EntitySnapshot> {
  const out = new Map<string, EntitySnapshot>()
  const put = (type: string, id: string, value: Record<string, unknown>) => out.set(`${type}\u0000${id}`, { type, id, value })
  const named = new Map<string, Map<string, UnitPart>>()
  for (const ws of file.workspaces) {
    const units = named.get(ws.id) ?? new Map<string, UnitPart>()
    for (const unit of ws.queueUnits ?? []) {
      // A file may name a unit twice (in two workspace entries): what both name is read.
      const was = units.get(unit.id)
      const ids = (before: UnitPart['locations'], list: { id: string }[] | undefined): string[] =>
        [...(Array.isArray(before) ? before : []), ...(list ?? []).map((e) => e.id)]
      units.set(unit.id, {
        locations: ids(was?.locations, unit.locations),
        services: ids(was?.services, unit.services),
        counters: ids(was?.counters, unit.counters),
        apiKeys: (was?.apiKeys ?? false) || unit.apiKeys !== undefined,
        webhooks: (was?.webhooks ?? false) || unit.webhooks !== undefined,
      })
    }
    named.set(ws.id, units)
  }
  for (const [workspaceId, units] of named) {
    for (const ws of exportProvisioning(db, workspaceId, units).workspaces) entitiesOf(ws, put)
  }
  return out
}

function entitiesOf(ws: Workspace, put: (type: string, id: string, value: Record<string, unknown>) => void): void {
  put('workspace', ws.id, { id: ws.id, name: ws.name })
  for (const key of ws.apiKeys ?? []) put('workspaceKey', `${ws.id}/${key.name}`, { workspaceId: ws.id, ...key })
  for (const token of ws.displayTokens ?? []) put('displayToken', `${ws.id}/${token.name}`, { workspaceId: ws.id, ...token })
  for (const widget of ws.widgets ?? []) put('widget', widget.id, { workspaceId: ws.id, ...widget })
  for (const source of ws.prayerSources ?? []) put('prayerSource', source.id, { workspaceId: ws.id, ...source })
  // Contract §25: the export holds no secret, so neither does this entry.
  if (ws.notifications !== undefined) put('notifications', ws.id, { workspaceId: ws.id, ...ws.notifications })
  for (const unit of ws.queueUnits ?? []) {
    const { locations, services, counters, apiKeys, webhooks, ...settings } = unit
    put('queueUnit', unit.id, { workspaceId: ws.id, queueUnitId: unit.id, ...settings })
    for (const l of locations ?? []) put('location', l.id, { queueUnitId: unit.id, ...l })
    for (const s of services ?? []) put('service', s.id, { queueUnitId: unit.id, ...s })
    for (const c of counters ?? []) put('counter', c.id, { queueUnitId: unit.id, ...c })
    for (const k of apiKeys ?? []) put('queueKey', `${unit.id}/${k.name}`, { queueUnitId: unit.id, ...k })
    for (const h of webhooks ?? []) put('webhook', h.id, { queueUnitId: unit.id, ...h })
  }
}

/**
 * Appends one entry per entity that appeared or changed between two snapshots (provisioning
 * never deletes, so nothing disappears): `<type>.create`, `<type>.retire` (active turned false)
 * or `<type>.update`. Returns how many entries it appended.
 */
export function auditConfigurationChanges(db: Db, before: Map<string, EntitySnapshot>, after: Map<string, EntitySnapshot>, actor: Actor, at: number): number {
  let appended = 0
  for (const [key, now] of after) {
    const was = before.get(key)
    if (was !== undefined && JSON.stringify(was.value) === JSON.stringify(now.value)) continue
    const retired = was !== undefined && was.value.active !== false && now.value.active === false
    const verb = was === undefined ? 'create' : retired ? 'retire' : 'update'
    appendAudit(db.$client, { actor, action: `${now.type}.${verb}`, entity: { type: now.type, id: now.id }, before: was?.value, after: now.value }, at)
    appended += 1
  }
  return appended
}
