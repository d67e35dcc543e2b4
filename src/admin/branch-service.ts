import canonicalize from 'canonicalize'
import type { AdminDeps } from './deps'
import { ApiError, type ErrorDetail } from '../platform/errors'
import { ruled } from '../platform/detail-rules'
import { appendAudit } from '../platform/audit'
import type { Actor } from '../platform/actor'
import { namesObject, resolveName, type LocalizedName } from '../platform/names'
import { exportQueueUnit, type UnitPart } from '../provisioning'
import { applyProvisioningWithin, ProvisioningError } from '../provisioning'
import { ProvisionedEntities, type ProvisioningFile, type ProvisionedQueueUnit } from '../provisioning'
import { AdminCodes } from './errors'
import { applyMergePatch } from '../platform/merge-patch'
import { assertNotManaged } from '../hq'

/*
 * The Branch section of the console (contract §17): a queue unit's settings, locations,
 * services and counters. Every write is an edit of the unit's provisioning document (as
 * `provision --export` writes it), applied by the provisioning code (`applyProvisioningWithin`)
 * inside one write transaction that also appends the audit entries and bumps the unit's live
 * revision (`tickets.touch`), so every open board, kiosk, desk and phone hears of it after the
 * commit, as of a ticket change. Decisions: docs/admin.md.
 */

export const ENTITY_KINDS = ['location', 'service', 'counter'] as const
export type EntityKind = (typeof ENTITY_KINDS)[number]

const COLLECTION = { location: 'locations', service: 'services', counter: 'counters' } as const satisfies Record<EntityKind, string>
/** The prefix of an ID the server makes for a new entity sent without one. */
const ID_PREFIX = { location: 'loc_', service: 'svc_', counter: 'ctr_' } as const satisfies Record<EntityKind, string>
/** What a unit's own settings exclude: its children, and what the console edits elsewhere (keys, webhooks). */
const UNIT_CHILDREN = ['locations', 'services', 'counters', 'apiKeys', 'webhooks'] as const
/** What a new queue unit's body may hold: its own settings as a file writes them (no children), and its workspace. */
const UNIT_SETTINGS = new Set(Object.keys(ProvisionedEntities.QueueUnit.properties).filter((key) => !(UNIT_CHILDREN as readonly string[]).includes(key)))
/** A workspace as the console writes it: its name (keys, display tokens, widgets and prayer sources have their own doors). */
const WORKSPACE_FIELDS = new Set(['id', 'name'])
/** Tables that are configuration, not history: a row there refers to an entity without making it history. */
const CONFIGURATION_TABLES = new Set(['queue_units', 'locations', 'services', 'counters', 'service_locations', 'counter_services', 'credentials', 'webhooks'])

/** A request that reads or edits the unit's own settings reads none of its collections. */
const SETTINGS: UnitPart = {}

type Entity = { id: string; name: LocalizedName; active?: boolean } & Record<string, unknown>
/** A workspace as the console shows it: its own fields as a file writes them, and its revision. */
export interface WorkspaceView { id: string; name: string; revision: string }
interface UnitDocument {
  workspace: { id: string; name: string }
  unit: ProvisionedQueueUnit
}

/** The entity's revision: base64url SHA-256 of its canonical JSON (RFC 8785), first 16 characters. */
export function revisionOf(entity: unknown): string {
  return new Bun.CryptoHasher('sha256').update(canonicalize(entity) ?? 'null').digest('base64url').slice(0, 16)
}

/** A unit's own settings (no children) as a provisioning file writes them. */
function settingsOf(unit: ProvisionedQueueUnit): Entity {
  const settings: Record<string, unknown> = { ...unit }
  for (const key of UNIT_CHILDREN) delete settings[key]
  return settings as Entity
}

/** The entity in a response: `name` in the unit's default language, `names`, `revision`. */
function viewOf(entity: Entity, defaultLanguage: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...entity, ...extra, name: resolveName(entity.name, defaultLanguage, defaultLanguage), names: namesObject(entity.name, defaultLanguage), revision: revisionOf(entity) }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The provisioning validator's pointers, made relative to the entity the console sent: the
 * document's `/workspaces/0/queueUnits/0/counters/3/name/ar` is the body's `/name/ar`. A
 * problem outside the entity keeps its whole pointer into the unit's document.
 */
export function relativeDetails(details: ErrorDetail[], prefix: string): ErrorDetail[] {
  return details.map((d) => {
    // A message may name another place in the entity ("overlaps …/openingHours/tue/0"): relative too.
    const message = d.message.replaceAll(`${prefix}/`, '/')
    if (d.path === prefix) return { ...d, path: '/', message }
    if (d.path.startsWith(`${prefix}/`)) return { ...d, path: d.path.slice(prefix.length), message }
    return { ...d, message }
  })
}

/**
 * An entity with a merge patch applied. A plain-string name patched with languages becomes the
 * object it stands for first (`"Accounts"` is `{"en": "Accounts"}` in an English unit), so
 * adding Arabic keeps the English.
 */
function patched(current: Entity, fields: Record<string, unknown>, defaultLanguage: string): Record<string, unknown> {
  const base: Record<string, unknown> = { ...current }
  if (isObject(fields.name) && typeof current.name === 'string') base.name = namesObject(current.name, defaultLanguage)
  return applyMergePatch(base, fields) as Record<string, unknown>
}

/** A workspace as a provisioning file writes it without its children, with its revision. */
const workspaceView = (row: { id: string; name: string }): WorkspaceView => ({ id: row.id, name: row.name, revision: revisionOf({ id: row.id, name: row.name }) })

/** The fields of `body` a form of this kind does not have, each refused where it stands. */
const unknownFields = (body: Record<string, unknown>, allowed: Set<string>, what: string): ErrorDetail[] =>
  Object.keys(body).filter((key) => !allowed.has(key)).map((key) => ruled(`/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, `is not a field of a ${what}`, 'unknownField'))

const validationFailed = (details: ErrorDetail[]) => new ApiError(422, AdminCodes.VALIDATION_FAILED, 'request validation failed', details)

export class BranchService {
  private readonly sql

  constructor(private readonly deps: Pick<AdminDeps, 'db' | 'writes' | 'tickets' | 'clock' | 'ids'>) {
    this.sql = deps.db.$client
  }

  /** The IDs of every queue unit, in creation order. */
  unitIds(): string[] {
    return this.sql.query<{ id: string }, []>('SELECT id FROM queue_units ORDER BY created_at, id').all().map((r) => r.id)
  }

  /** The settings of the units `allowed` (null: all). */
  listUnits(allowed: string[] | null): Record<string, unknown>[] {
    return this.unitIds().filter((id) => allowed === null || allowed.includes(id)).map((id) => this.readUnit(id))
  }

  readUnit(unitId: string): Record<string, unknown> {
    const { unit, workspace } = this.document(unitId, SETTINGS)
    return viewOf(settingsOf(unit), unit.defaultLanguage ?? 'en', { workspaceId: workspace.id })
  }

  list(unitId: string, kind: EntityKind): Record<string, unknown>[] {
    const { unit } = this.document(unitId, { [COLLECTION[kind]]: true })
    return ((unit[COLLECTION[kind]] ?? []) as Entity[]).map((e) => viewOf(e, unit.defaultLanguage ?? 'en'))
  }

  read(unitId: string, kind: EntityKind, id: string): Record<string, unknown> {
    const { unit } = this.document(unitId, { [COLLECTION[kind]]: [id] })
    return viewOf(this.find(unit, kind, id).entity, unit.defaultLanguage ?? 'en')
  }

  /** Every workspace, in creation order (contract §24: the console's first step on an empty database). */
  listWorkspaces(): WorkspaceView[] {
    return this.sql.query<{ id: string; name: string }, []>('SELECT id, name FROM workspaces ORDER BY created_at, id').all().map(workspaceView)
  }

  /**
   * A new workspace `{id?, name}`, checked and written as a provisioning file naming only it
   * (audited `workspace.create`). Without `id` the server makes `ws_…`; an `id` in use is 422 at `/id`.
   */
  createWorkspace(body: unknown, actor: Actor): WorkspaceView {
    if (!isObject(body)) throw validationFailed([ruled('/', 'must be an object', 'type', { expected: 'object' })])
    const unknown = unknownFields(body, WORKSPACE_FIELDS, 'workspace')
    if (unknown.length > 0) throw validationFailed(unknown)
    const id = body.id === undefined ? this.deps.ids.next('ws_') : body.id
    return this.deps.writes.now(() => {
      if (typeof id === 'string' && this.workspaceRow(id) !== null) throw validationFailed([ruled('/id', `a workspace "${id}" exists already`, 'taken', { kind: 'workspace' })])
      this.applyFile({ workspaces: [{ ...body, id }] }, '/workspaces/0', actor)
      return workspaceView(this.workspaceRow(id as string)!)
    })
  }

  /** Contract §24: a workspace's `name` changed by a JSON Merge Patch plus the `revision` loaded (audited `workspace.update`). */
  patchWorkspace(workspaceId: string, body: unknown, actor: Actor): WorkspaceView {
    const { revision, fields } = this.updateBody(body)
    const unknown = unknownFields(fields, WORKSPACE_FIELDS, 'workspace')
    if (unknown.length > 0) throw validationFailed(unknown)
    return this.deps.writes.now(() => {
      const row = this.workspaceRow(workspaceId)
      if (row === null) throw new ApiError(404, AdminCodes.NOT_FOUND, `no workspace "${workspaceId}"`)
      const current = workspaceView(row)
      if (current.revision !== revision) {
        throw new ApiError(409, AdminCodes.EDIT_CONFLICT, 'someone else changed this workspace after you loaded it: reload it and make your change again', undefined, undefined, { current })
      }
      const merged = applyMergePatch({ id: row.id, name: row.name }, fields) as Record<string, unknown>
      this.applyFile({ workspaces: [{ ...merged, id: workspaceId }] }, '/workspaces/0', actor)
      return workspaceView(this.workspaceRow(workspaceId)!)
    })
  }

  /**
   * A new queue unit in a workspace: `{workspaceId, id?, name, …}`, the rest its settings as a
   * provisioning file writes them (no locations, services, counters, keys or webhooks: those have
   * their own routes). Checked by the provisioning validator and written by it in one transaction
   * (audited `queueUnit.create`); answers the unit as `readUnit` does. Without `id` the server
   * makes `qu_…`; an `id` any unit has is 422 at `/id`, an unknown workspace 422 at `/workspaceId`.
   */
  createUnit(body: unknown, actor: Actor): Record<string, unknown> {
    if (!isObject(body)) throw validationFailed([ruled('/', 'must be an object', 'type', { expected: 'object' })])
    const { workspaceId, ...fields } = body
    const problems = unknownFields(fields, UNIT_SETTINGS, 'queue unit\'s settings')
    if (workspaceId === undefined) problems.push(ruled('/workspaceId', 'required: the workspace the queue unit belongs to', 'required'))
    else if (typeof workspaceId !== 'string') problems.push(ruled('/workspaceId', 'must be a string', 'type', { expected: 'string' }))
    if (problems.length > 0) throw validationFailed(problems)
    const id = fields.id === undefined ? this.deps.ids.next('qu_') : fields.id
    return this.deps.writes.now(() => {
      const workspace = this.workspaceRow(workspaceId as string)
      if (workspace === null) throw validationFailed([ruled('/workspaceId', `no workspace "${String(workspaceId)}"`, 'unknownReference', { kind: 'workspace', value: String(workspaceId) })])
      if (typeof id === 'string' && this.sql.query('SELECT 1 FROM queue_units WHERE id = ?1').get(id) !== null) {
        throw validationFailed([ruled('/id', `a queue unit "${id}" exists already`, 'taken', { kind: 'queue unit' })])
      }
      this.applyFile({ workspaces: [{ id: workspace.id, name: workspace.name, queueUnits: [{ ...fields, id }] }] }, '/workspaces/0/queueUnits/0', actor)
      this.deps.tickets.touch(id as string)
      return this.readUnit(id as string)
    })
  }

  /** Replaces the unit's own settings (absent optional fields take their defaults, as in a file). */
  updateUnit(unitId: string, body: unknown, actor: Actor): Record<string, unknown> {
    const { revision, fields } = this.updateBody(body)
    return this.write(unitId, SETTINGS, actor, (doc) => {
      const current = settingsOf(doc.unit)
      this.assertRevision(current, revision, doc.unit.defaultLanguage ?? 'en', 'queue unit', { workspaceId: doc.workspace.id })
      const unit = doc.unit as Record<string, unknown>
      for (const key of Object.keys(current)) delete unit[key]
      Object.assign(unit, fields, { id: unitId })
      return ''
    }, (doc) => viewOf(settingsOf(doc.unit), doc.unit.defaultLanguage ?? 'en', { workspaceId: doc.workspace.id }))
  }

  /**
   * Contract §24: the unit's settings with `body` (a JSON Merge Patch, RFC 7386, plus the
   * `revision` loaded) merged in: what the patch names changes, everything else keeps its value.
   */
  patchUnit(unitId: string, body: unknown, actor: Actor): Record<string, unknown> {
    const { revision, fields } = this.updateBody(body)
    return this.write(unitId, SETTINGS, actor, (doc) => {
      const current = settingsOf(doc.unit)
      const defaultLanguage = doc.unit.defaultLanguage ?? 'en'
      this.assertRevision(current, revision, defaultLanguage, 'queue unit', { workspaceId: doc.workspace.id })
      const merged = patched(current, fields, defaultLanguage)
      const unit = doc.unit as Record<string, unknown>
      for (const key of Object.keys(current)) delete unit[key]
      Object.assign(unit, merged, { id: unitId })
      return ''
    }, (doc) => viewOf(settingsOf(doc.unit), doc.unit.defaultLanguage ?? 'en', { workspaceId: doc.workspace.id }))
  }

  /** Contract §24: one entity with `body` (a JSON Merge Patch plus the `revision` loaded) merged in; nothing else changes. */
  patch(unitId: string, kind: EntityKind, id: string, body: unknown, actor: Actor): Record<string, unknown> {
    const { revision, fields } = this.updateBody(body)
    return this.write(unitId, { [COLLECTION[kind]]: [id] }, actor, (doc) => {
      const { entity, index } = this.find(doc.unit, kind, id)
      const defaultLanguage = doc.unit.defaultLanguage ?? 'en'
      this.assertRevision(entity, revision, defaultLanguage, kind)
      this.listOf(doc.unit, kind)[index] = { ...patched(entity, fields, defaultLanguage), id } as Entity
      return `/${COLLECTION[kind]}/${index}`
    }, (doc) => viewOf(this.find(doc.unit, kind, id).entity, doc.unit.defaultLanguage ?? 'en'))
  }

  create(unitId: string, kind: EntityKind, body: unknown, actor: Actor): Record<string, unknown> {
    if (!isObject(body)) throw validationFailed([ruled('/', 'must be an object', 'type', { expected: 'object' })])
    const id = typeof body.id === 'string' ? body.id : this.deps.ids.next(ID_PREFIX[kind])
    return this.write(unitId, { [COLLECTION[kind]]: [id] }, actor, (doc) => {
      const list = this.listOf(doc.unit, kind)
      if (list.some((e) => e.id === id)) throw validationFailed([ruled('/id', `this queue unit already has a ${kind} "${id}"`, 'taken', { kind })])
      list.push({ ...body, id } as Entity)
      return `/${COLLECTION[kind]}/${list.length - 1}`
    }, (doc) => viewOf(this.find(doc.unit, kind, id).entity, doc.unit.defaultLanguage ?? 'en'))
  }

  /** Replaces one entity (absent optional fields take their defaults, as in a file). */
  update(unitId: string, kind: EntityKind, id: string, body: unknown, actor: Actor): Record<string, unknown> {
    const { revision, fields } = this.updateBody(body)
    return this.write(unitId, { [COLLECTION[kind]]: [id] }, actor, (doc) => {
      const { entity, index } = this.find(doc.unit, kind, id)
      this.assertRevision(entity, revision, doc.unit.defaultLanguage ?? 'en', kind)
      this.listOf(doc.unit, kind)[index] = { ...fields, id } as Entity
      return `/${COLLECTION[kind]}/${index}`
    }, (doc) => viewOf(this.find(doc.unit, kind, id).entity, doc.unit.defaultLanguage ?? 'en'))
  }

  /**
   * Contract §17 "Deleting": an entity with history (a ticket, a roll-up, a paired device refer
   * to it) is retired (`active: false`); one without may be deleted, unless other configuration
   * still refers to it (409 ENTITY_IN_USE naming what does).
   */
  remove(unitId: string, kind: EntityKind, id: string, revision: string | undefined, actor: Actor): { outcome: 'deleted' | 'retired'; entity: Record<string, unknown> } {
    if (revision === undefined) throw validationFailed([ruled('revision', 'required: the revision the entity was loaded at', 'required')])
    const now = this.deps.clock.now()
    let outcome: 'deleted' | 'retired' = 'deleted'
    let deleted: Record<string, unknown> | undefined
    const entity = this.write(unitId, { [COLLECTION[kind]]: [id] }, actor, (doc) => {
      const { entity: current, index } = this.find(doc.unit, kind, id)
      const defaultLanguage = doc.unit.defaultLanguage ?? 'en'
      this.assertRevision(current, revision, defaultLanguage, kind)
      if (this.hasHistory(kind, id)) {
        outcome = 'retired'
        this.listOf(doc.unit, kind)[index] = { ...current, active: false }
        return `/${COLLECTION[kind]}/${index}`
      }
      const uses = this.configurationUses(unitId, kind, id)
      if (uses.length > 0) throw new ApiError(409, AdminCodes.ENTITY_IN_USE, `${kind} "${id}" is still referred to: change what refers to it first`, uses)
      this.deleteRows(kind, id)
      appendAudit(this.sql, { actor, action: `${kind}.delete`, entity: { type: kind, id }, before: { queueUnitId: unitId, ...current } }, now)
      this.listOf(doc.unit, kind).splice(index, 1)
      deleted = viewOf(current, defaultLanguage)
      return null
    }, (doc) => deleted ?? viewOf(this.find(doc.unit, kind, id).entity, doc.unit.defaultLanguage ?? 'en'))
    return { outcome, entity }
  }

  /**
   * The unit as `provision --export` writes it, with only the `part` a request reads or edits (its
   * settings, a collection, or one entity): never the whole workspace (contract §24). Read inside
   * the caller's transaction when there is one.
   */
  private document(unitId: string, part: UnitPart): UnitDocument {
    const document = exportQueueUnit(this.deps.db, unitId, part)
    if (document === null) throw new ApiError(404, AdminCodes.NOT_FOUND, `no queue unit "${unitId}"`)
    return document
  }

  private listOf(unit: ProvisionedQueueUnit, kind: EntityKind): Entity[] {
    const key = COLLECTION[kind]
    ;(unit as Record<string, unknown>)[key] ??= []
    return unit[key] as Entity[]
  }

  private find(unit: ProvisionedQueueUnit, kind: EntityKind, id: string): { entity: Entity; index: number } {
    const list = this.listOf(unit, kind)
    const index = list.findIndex((e) => e.id === id)
    if (index < 0) throw new ApiError(404, AdminCodes.NOT_FOUND, `no ${kind} "${id}" in queue unit "${unit.id}"`)
    return { entity: list[index]!, index }
  }

  /** An update's body: an object with the `revision` it was loaded at; the rest is the entity. */
  private updateBody(body: unknown): { revision: string; fields: Record<string, unknown> } {
    if (!isObject(body)) throw validationFailed([ruled('/', 'must be an object', 'type', { expected: 'object' })])
    const { revision, id: _ignored, ...fields } = body
    if (typeof revision !== 'string') throw validationFailed([ruled('/revision', 'required: the revision the entity was loaded at', 'required')])
    return { revision, fields }
  }

  private assertRevision(current: Entity, revision: string, defaultLanguage: string, what: string, extra: Record<string, unknown> = {}): void {
    if (revisionOf(current) === revision) return
    throw new ApiError(409, AdminCodes.EDIT_CONFLICT, `someone else changed this ${what} after you loaded it: reload it and make your change again`, undefined, undefined,
      { current: viewOf(current, defaultLanguage, extra) })
  }

  /**
   * One write: the edit of the unit's document (which returns the entity's pointer in it, `''`
   * for the unit's settings, or null when it wrote itself), applied by the provisioning code,
   * the audit entries, and the unit's live revision, in one transaction; then the answer read
   * back inside it.
   */
  private write<T>(unitId: string, part: UnitPart, actor: Actor, edit: (doc: UnitDocument) => string | null, answer: (doc: UnitDocument) => T): T {
    const now = this.deps.clock.now()
    return this.deps.writes.now(() => {
      const doc = this.document(unitId, part)
      const before = structuredClone(doc.unit)
      const entityPath = edit(doc)
      // Contract §26: what the unit's head-office profile owns is not the branch's to change (409 HQ_MANAGED).
      assertNotManaged(this.deps.db, unitId, before, doc.unit)
      if (entityPath !== null) {
        // The file holds the unit's settings and the one entity edited: a provisioning file
        // leaves what it does not name alone, and the reference checks read the unit's other
        // entities from the database, so a 300-counter branch is not rewritten for one rename.
        const unit: Record<string, unknown> = { ...settingsOf(doc.unit) }
        let prefix = '/workspaces/0/queueUnits/0'
        const match = /^\/(locations|services|counters)\/(\d+)$/.exec(entityPath)
        if (match !== null) {
          const [, collection, index] = match
          unit[collection!] = [(doc.unit as unknown as Record<string, unknown[]>)[collection!]![Number(index)]]
          prefix = `${prefix}/${collection}/0`
        }
        const file = { workspaces: [{ id: doc.workspace.id, name: doc.workspace.name, queueUnits: [unit] }] } as unknown as ProvisioningFile
        this.applyFile(file, prefix, actor, now)
      }
      this.deps.tickets.touch(unitId)
      return answer(entityPath === null ? doc : this.document(unitId, part))
    })
  }

  private workspaceRow(workspaceId: string): { id: string; name: string } | null {
    return this.sql.query<{ id: string; name: string }, [string]>('SELECT id, name FROM workspaces WHERE id = ?1').get(workspaceId)
  }

  /** A provisioning document applied inside the caller's write; its refusals 422 with pointers relative to the entity at `prefix`. */
  private applyFile(document: unknown, prefix: string, actor: Actor, now = this.deps.clock.now()): void {
    try {
      applyProvisioningWithin(this.deps.db, document, now, this.deps.ids, actor)
    } catch (error) {
      if (error instanceof ProvisioningError) throw validationFailed(relativeDetails(error.details, prefix))
      throw error
    }
  }

  private readonly historyTables = new Map<EntityKind, string[]>()

  /** Tables outside the configuration that have a `<kind>_id` column (tickets, their events, roll-ups, devices…). */
  private tablesReferring(kind: EntityKind): string[] {
    let tables = this.historyTables.get(kind)
    if (tables === undefined) {
      tables = this.sql.query<{ name: string }, [string]>(
        "SELECT m.name AS name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND p.name = ?1 ORDER BY m.name",
      ).all(`${kind}_id`).map((r) => r.name).filter((name) => !CONFIGURATION_TABLES.has(name) && !name.startsWith('sqlite_') && !name.startsWith('__'))
      this.historyTables.set(kind, tables)
    }
    return tables
  }

  private hasHistory(kind: EntityKind, id: string): boolean {
    return this.tablesReferring(kind).some((table) => this.sql.query(`SELECT 1 FROM "${table}" WHERE ${kind}_id = ?1 LIMIT 1`).get(id) !== null)
  }

  /** What other configuration of the unit still refers to the entity, as `details` (read from its tables, not from a document). */
  private configurationUses(unitId: string, kind: EntityKind, id: string): ErrorDetail[] {
    const ids = (query: string) => this.sql.query<{ id: string }, [string, string]>(query).all(unitId, id).map((r) => r.id)
    const uses: ErrorDetail[] = []
    if (kind === 'location') {
      for (const s of ids('SELECT s.id AS id FROM services s JOIN service_locations l ON l.service_id = s.id WHERE s.queue_unit_id = ?1 AND l.location_id = ?2 ORDER BY s.created_at, s.id')) uses.push({ path: `/services/${s}`, message: 'is offered at this location' })
      for (const c of ids('SELECT id FROM counters WHERE queue_unit_id = ?1 AND location_id = ?2 ORDER BY created_at, id')) uses.push({ path: `/counters/${c}`, message: 'is at this location' })
    }
    if (kind === 'service') {
      for (const c of ids('SELECT c.id AS id FROM counters c JOIN counter_services s ON s.counter_id = c.id WHERE c.queue_unit_id = ?1 AND s.service_id = ?2 ORDER BY c.created_at, c.id')) uses.push({ path: `/counters/${c}`, message: 'serves this service' })
    }
    if (kind !== 'counter') {
      const column = kind === 'location' ? 'locations' : 'services'
      const keys = this.sql.query<{ name: string }, [string, string]>(
        `SELECT DISTINCT name FROM credentials WHERE kind = 'queue' AND owner_id = ?1 AND revoked_at IS NULL
           AND ${column} IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(credentials.${column}) WHERE value = ?2) ORDER BY name`,
      ).all(unitId, id)
      for (const k of keys) uses.push({ path: `/apiKeys/${k.name}`, message: `this API key is limited to this ${kind}` })
    }
    return uses
  }

  private deleteRows(kind: EntityKind, id: string): void {
    if (kind === 'counter') {
      this.sql.query('DELETE FROM counter_services WHERE counter_id = ?1').run(id)
      this.sql.query('DELETE FROM counters WHERE id = ?1').run(id)
    } else if (kind === 'service') {
      this.sql.query('DELETE FROM service_locations WHERE service_id = ?1').run(id)
      this.sql.query('DELETE FROM services WHERE id = ?1').run(id)
    } else {
      this.sql.query('DELETE FROM locations WHERE id = ?1').run(id)
    }
  }
}
