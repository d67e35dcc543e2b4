import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox'
import { ProvisionedEntities } from '../provisioning'

/*
 * The admin API's bodies (contract §17). A write's body is the entity exactly as a provisioning
 * file writes it (src/provisioning/model.ts) plus the `revision` it was loaded at: the console
 * and a file are checked by the one validator (`applyProvisioning`), and an error's JSON
 * Pointer is the same relative to the entity (docs/admin.md "Validation"). A response is the
 * entity as a file writes it, with `name` in the unit's default language, `names` (every
 * language, contract §18) and `revision`.
 */

/** An entity's revision: the first 16 characters of the base64url SHA-256 of its canonical JSON (docs/admin.md). */
export const Revision = Type.String({ pattern: '^[A-Za-z0-9_-]{16}$', description: 'the entity\'s revision as loaded; a write with another one is 409 EDIT_CONFLICT', examples: ['mJ3k9QxV2aPz7LwE'] })

const Names = Type.Record(Type.String(), Type.String(), { description: 'the name in every language given (contract §18); a plain-string name is under the unit\'s default language' })

const { Workspace, QueueUnit, Location, Service, Counter } = ProvisionedEntities

const UNIT_CHILDREN = ['locations', 'services', 'counters', 'apiKeys', 'webhooks'] as const

/** A queue unit's own settings: the unit without its locations, services, counters, keys and webhooks. */
const unitSettingsProperties = Object.fromEntries(Object.entries(QueueUnit.properties).filter(([key]) => !(UNIT_CHILDREN as readonly string[]).includes(key))) as TProperties

const closed = { additionalProperties: false } as const

/** A write's body: the provisioning entity and `revision` (required on an update, absent on a create). */
function writeBody(entity: TObject, revision: 'required' | 'none', extra: TProperties = {}): TObject {
  const properties: TProperties = { ...entity.properties, ...extra }
  if (revision === 'required') properties.revision = Revision
  return Type.Object(properties, closed)
}

/** The entity in a response: `name` as a string, `names`, `revision`. */
function view(entity: TObject, extra: TProperties = {}): TObject {
  return Type.Object({ ...entity.properties, name: Type.String(), names: Names, revision: Revision, ...extra }, closed)
}

const unitSettings = Type.Object(unitSettingsProperties, closed)
/** A new entity's `id` may be left out: the server makes one (`loc_…`, `svc_…`, `ctr_…`). */
const optionalId = (entity: TObject) => Type.Object({ ...entity.properties, id: Type.Optional(entity.properties.id!) }, closed)

export const UnitSettingsUpdate = writeBody(Type.Object(Object.fromEntries(Object.entries(unitSettingsProperties).filter(([k]) => k !== 'id')), closed), 'required')
export const LocationCreate = writeBody(optionalId(Location), 'none')
export const LocationUpdate = writeBody(Type.Object(Object.fromEntries(Object.entries(Location.properties).filter(([k]) => k !== 'id')), closed), 'required')
export const ServiceCreate = writeBody(optionalId(Service), 'none')
export const ServiceUpdate = writeBody(Type.Object(Object.fromEntries(Object.entries(Service.properties).filter(([k]) => k !== 'id')), closed), 'required')
export const CounterCreate = writeBody(optionalId(Counter), 'none')
export const CounterUpdate = writeBody(Type.Object(Object.fromEntries(Object.entries(Counter.properties).filter(([k]) => k !== 'id')), closed), 'required')

/**
 * A console save (contract §24): a JSON Merge Patch (RFC 7386) of the entity plus `revision`.
 * Every field is optional; `null` removes an optional field (it takes its default); an object
 * (a name's languages, a day of opening hours) merges key by key, so `{"name": {"ar": null}}`
 * removes the Arabic name and keeps the others. The merged entity is checked as a file is.
 */
function patchBody(update: TObject): TObject {
  const properties: TProperties = {}
  for (const [key, schema] of Object.entries(update.properties)) {
    properties[key] = key === 'revision' ? schema : Type.Optional(Type.Union([schema, Type.Null()]))
  }
  return Type.Object(properties, closed)
}

/**
 * Contract §24, from an empty database: a workspace as the console makes it, `{id?, name}`
 * (`ws_…` made when `id` is absent); its keys, tokens, widgets and prayer sources have their own doors.
 */
export const WorkspaceCreate = Type.Object({ id: Type.Optional(Workspace.properties.id), name: Workspace.properties.name }, closed)
/** A workspace's rename: a JSON Merge Patch of `name` plus the `revision` loaded. */
export const WorkspacePatch = Type.Object({ name: Type.Optional(Type.Union([Workspace.properties.name, Type.Null()])), revision: Revision }, closed)
export const AdminWorkspace = Type.Object({ id: Type.String(), name: Type.String(), revision: Revision }, closed)
export const AdminWorkspaceList = Type.Object({ data: Type.Array(AdminWorkspace) }, closed)
/** A new queue unit: its workspace, and its settings as a provisioning file writes them (`qu_…` made when `id` is absent). */
export const UnitCreate = Type.Object({
  workspaceId: Type.String({ pattern: QueueUnit.properties.id.pattern!, description: 'the workspace the unit belongs to (GET /api/admin/v1/workspaces)' }),
  ...optionalId(unitSettings).properties,
}, closed)

export const UnitSettingsPatch = patchBody(UnitSettingsUpdate)
export const LocationPatch = patchBody(LocationUpdate)
export const ServicePatch = patchBody(ServiceUpdate)
export const CounterPatch = patchBody(CounterUpdate)

export const AdminUnitSettings = view(unitSettings, { workspaceId: Type.String() })
export const AdminLocation = view(Location)
export const AdminService = view(Service)
export const AdminCounter = view(Counter)

export const AdminUnitList = Type.Object({ data: Type.Array(AdminUnitSettings) }, closed)
export const AdminLocationList = Type.Object({ data: Type.Array(AdminLocation) }, closed)
export const AdminServiceList = Type.Object({ data: Type.Array(AdminService) }, closed)
export const AdminCounterList = Type.Object({ data: Type.Array(AdminCounter) }, closed)

/** What a delete did: removed for good (no history) or retired (`active: false`, its tickets keep it). */
export const DeleteOutcome = Type.Object({
  outcome: Type.Union([Type.Literal('deleted'), Type.Literal('retired')]),
  entity: Type.Object({}, { additionalProperties: true, description: 'the entity as it was (deleted) or is now (retired)' }),
}, closed)

export const AuditActor = Type.Object({
  type: Type.Union(['clerk', 'user', 'device', 'key', 'customer', 'system'].map((t) => Type.Literal(t))),
  id: Type.String(),
}, closed)

export const AuditRecordJson = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  at: Type.String({ format: 'date-time' }),
  actor: AuditActor,
  action: Type.String({ examples: ['counter.update'] }),
  entity: Type.Object({ type: Type.String(), id: Type.String() }, closed),
  before: Type.Union([Type.Null(), Type.Object({}, { additionalProperties: true })]),
  after: Type.Union([Type.Null(), Type.Object({}, { additionalProperties: true })]),
}, closed)

export const AuditPage = Type.Object({
  data: Type.Array(AuditRecordJson),
  /** The `before` of the next (older) page; null on the last page. */
  next: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
}, closed)

export type AdminUnitSettings = Static<typeof AdminUnitSettings>
export type AdminWorkspace = Static<typeof AdminWorkspace>
export type AdminLocation = Static<typeof AdminLocation>
export type AdminService = Static<typeof AdminService>
export type AdminCounter = Static<typeof AdminCounter>
export type AuditRecordJson = Static<typeof AuditRecordJson>
export type AuditPage = Static<typeof AuditPage>
export type DeleteOutcome = Static<typeof DeleteOutcome>
