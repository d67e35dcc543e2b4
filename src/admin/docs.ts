import { routeDetail, type RouteDoc } from '../platform/openapi'
import { AdminCodes, AdminErrorExamples } from './errors'
import {
  AdminCounter, AdminCounterList, AdminLocation, AdminWorkspace, AdminWorkspaceList, UnitCreate, WorkspaceCreate, WorkspacePatch, AdminLocationList, AdminService, AdminServiceList, AdminUnitList, AdminUnitSettings, AuditPage,
  CounterCreate, CounterPatch, CounterUpdate, DeleteOutcome, LocationCreate, LocationPatch, LocationUpdate, ServiceCreate, ServicePatch, ServiceUpdate, UnitSettingsPatch, UnitSettingsUpdate,
} from './model'
import type { EntityKind } from './branch-service'

/*
 * The OpenAPI details of the admin API (contract §17; src/admin/branch-routes.ts and
 * audit-routes.ts): tag "Admin", the session cookie, named bodies with examples, and each
 * route's error codes by status.
 */

const TAGS = ['Admin']
const REV = 'mJ3k9QxV2aPz7LwE'

const readErrors = { 401: [AdminCodes.AUTHENTICATION_FAILED], 403: [AdminCodes.ROLE_FORBIDDEN, AdminCodes.UNIT_FORBIDDEN], 404: [AdminCodes.NOT_FOUND] } as const
const writeErrors = {
  400: [AdminCodes.INVALID_REQUEST, AdminCodes.INVALID_JSON],
  401: [AdminCodes.AUTHENTICATION_FAILED],
  403: [AdminCodes.ORIGIN_FORBIDDEN, AdminCodes.ROLE_FORBIDDEN, AdminCodes.UNIT_FORBIDDEN],
  404: [AdminCodes.NOT_FOUND],
  413: [AdminCodes.PAYLOAD_TOO_LARGE],
  422: [AdminCodes.VALIDATION_FAILED],
} as const

const unitParam = { unitId: { description: 'the queue unit', example: 'qu_main' } }
const ID_EXAMPLE = { location: 'loc_main', service: 'svc_accounts', counter: 'ctr_1' } as const

const EXAMPLES = {
  location: {
    id: 'loc_main', name: { en: 'Main branch', ar: 'الفرع الرئيسي' }, timezone: 'Asia/Riyadh', active: true,
    openingHours: { sun: [['08:00', '16:00']], mon: [['08:00', '16:00']], tue: [['08:00', '16:00']], wed: [['08:00', '16:00']], thu: [['08:00', '12:00']], fri: [], sat: [] },
    closedDates: ['2026-12-02'], lastTicketMinutesBeforeClose: 15, remoteJoin: { enabled: true, maxWaiting: 50, allowedNetworks: ['192.168.10.0/24'] },
  },
  service: {
    id: 'svc_accounts', name: { en: 'Accounts', ar: 'الحسابات' }, prefix: 'A', active: true, locations: ['loc_main'],
    defaultServiceSeconds: 300, waitTargetSeconds: 900, openingHours: { mon: [['09:00', '12:00']] },
  },
  counter: { id: 'ctr_1', name: { en: 'Counter 1', ar: 'الشباك 1' }, locationId: 'loc_main', services: ['svc_accounts'], active: true },
} as const

const viewExample = (kind: EntityKind) => {
  const e = EXAMPLES[kind]
  return { ...e, name: e.name.en, names: e.name, revision: REV }
}

const unitExample = {
  id: 'qu_main', workspaceId: 'ws_bank', name: 'Main branch', names: { en: 'Main branch', ar: 'الفرع الرئيسي' }, defaultLanguage: 'en', languages: ['en', 'ar'], active: true,
  priority: { mode: 'FIRST' }, kioskPriority: false, deskSignIn: 'optional', breakReasons: ['Break', 'Lunch', 'Admin work', 'Other'],
  noShowGraceMinutes: 30, approachingAhead: 3, revision: REV,
}
const { id: _id, workspaceId: _ws, names: _names, revision: _rev, ...unitBody } = unitExample

const SCHEMAS = {
  location: { create: LocationCreate, update: LocationUpdate, patch: LocationPatch, view: AdminLocation, list: AdminLocationList },
  service: { create: ServiceCreate, update: ServiceUpdate, patch: ServicePatch, view: AdminService, list: AdminServiceList },
  counter: { create: CounterCreate, update: CounterUpdate, patch: CounterPatch, view: AdminCounter, list: AdminCounterList },
} as const
const Title = { location: 'Location', service: 'Service', counter: 'Counter' } as const
const Plural = { location: 'Locations', service: 'Services', counter: 'Counters' } as const

/** EDIT_CONFLICT's `error.current`: the entity as it is now, to show and reload. */
const currentOf = (view: unknown) => ({ ...(view as object), description: 'EDIT_CONFLICT only: the entity as it is now (someone else changed it); show it and let the person make their change again' })

const base = (doc: Omit<RouteDoc, 'tags' | 'security' | 'errorExamples'>) => routeDetail({ ...doc, tags: TAGS, security: 'sessionCookie', errorExamples: AdminErrorExamples })

export const listUnitsDocs = base({
  operationId: 'listAdminQueueUnits',
  summary: 'The queue units you may configure',
  description: 'An admin sees every unit, a manager its own. Each with its settings (no children) and its `revision`.',
  responses: { 200: { description: 'the units', name: 'AdminUnitList', schema: AdminUnitList, example: { data: [unitExample] } } },
  errors: { 401: readErrors[401], 403: [AdminCodes.ROLE_FORBIDDEN] },
})

export const readUnitDocs = base({
  operationId: 'readAdminQueueUnit',
  summary: 'A queue unit\'s settings',
  params: unitParam,
  responses: { 200: { description: 'the settings', name: 'AdminUnitSettings', schema: AdminUnitSettings, example: unitExample } },
  errors: readErrors,
})

export const updateUnitDocs = base({
  operationId: 'updateAdminQueueUnit',
  summary: 'Replace a queue unit\'s settings',
  description: 'The body is the unit as a provisioning file writes it, without locations, services, counters, keys and webhooks, plus the `revision` it was loaded at. ' +
    'Absent optional fields take their defaults, as in a file. Checked by the provisioning validator: an error\'s pointer is relative to the body. A stale revision: 409 EDIT_CONFLICT with `error.current`.',
  params: unitParam,
  body: { name: 'AdminUnitSettingsUpdate', schema: UnitSettingsUpdate, examples: { arabic: { summary: 'offer Arabic too', value: { ...unitBody, name: { en: 'Main branch', ar: 'الفرع الرئيسي' }, revision: REV } } } },
  responses: { 200: { description: 'the settings as saved', name: 'AdminUnitSettings', schema: AdminUnitSettings, example: unitExample } },
  errors: { ...writeErrors, 409: [AdminCodes.EDIT_CONFLICT, AdminCodes.HQ_MANAGED] },
  errorProperties: { current: currentOf(AdminUnitSettings) },
})

const MERGE_RULES = 'A JSON Merge Patch (RFC 7386) plus the `revision` it was loaded at: the fields named change, every other keeps its value ' +
  '(appointment settings, names in languages not sent). `null` removes an optional field (it takes its default); an object merges key by key ' +
  '(`{"name": {"ar": null}}` removes the Arabic name only); an array replaces. The merged entity is checked by the provisioning validator ' +
  '(an error\'s pointer is relative to the entity). A stale revision: 409 EDIT_CONFLICT with `error.current`. The console saves this way (contract §24).'

export const patchUnitDocs = base({
  operationId: 'patchAdminQueueUnit',
  summary: 'Change some of a queue unit\'s settings',
  description: MERGE_RULES,
  params: unitParam,
  body: { name: 'AdminUnitSettingsPatch', schema: UnitSettingsPatch, examples: { grace: { summary: 'a longer no-show grace, nothing else', value: { noShowGraceMinutes: 45, revision: REV } } } },
  responses: { 200: { description: 'the settings as saved', name: 'AdminUnitSettings', schema: AdminUnitSettings, example: unitExample } },
  errors: { ...writeErrors, 409: [AdminCodes.EDIT_CONFLICT, AdminCodes.HQ_MANAGED] },
  errorProperties: { current: currentOf(AdminUnitSettings) },
})

/** The writes only an administrator makes (a manager: 403 ROLE_FORBIDDEN); a missing workspace is 422 at `/workspaceId`, not 404. */
const adminWriteErrors = { 400: writeErrors[400], 401: writeErrors[401], 403: [AdminCodes.ORIGIN_FORBIDDEN, AdminCodes.ROLE_FORBIDDEN], 413: writeErrors[413], 422: writeErrors[422] } as const
const workspaceExample = { id: 'ws_bank', name: 'Gulf Savings Bank', revision: REV }

export const listWorkspacesDocs = base({
  operationId: 'listAdminWorkspaces',
  summary: 'The workspaces (administrators)',
  description: 'Every workspace, in creation order, with its `revision`: where a new queue unit can go. Empty on a new database (contract §24). A manager: 403 ROLE_FORBIDDEN.',
  responses: { 200: { description: 'the workspaces', name: 'AdminWorkspaceList', schema: AdminWorkspaceList, example: { data: [workspaceExample] } } },
  errors: { 401: readErrors[401], 403: [AdminCodes.ROLE_FORBIDDEN] },
})

export const createWorkspaceDocs = base({
  operationId: 'createAdminWorkspace',
  summary: 'Add a workspace (administrators)',
  description: 'The first step on an empty database (contract §24). `id` may be left out: the server makes `ws_…`; an `id` in use is 422 at `/id`. ' +
    'Checked and written as a provisioning file naming only this workspace (audited `workspace.create`); an error\'s pointer is relative to the body. ' +
    'Its keys, display tokens, widgets and prayer sources are not fields here.',
  body: { name: 'AdminWorkspaceCreate', schema: WorkspaceCreate, examples: { bank: { summary: 'a bank, its ID made by the server', value: { name: 'Gulf Savings Bank' } } } },
  responses: { 201: { description: 'the workspace as saved', name: 'AdminWorkspace', schema: AdminWorkspace, example: workspaceExample } },
  errors: adminWriteErrors,
})

export const patchWorkspaceDocs = base({
  operationId: 'patchAdminWorkspace',
  summary: 'Rename a workspace (administrators)',
  description: 'A JSON Merge Patch of `name` plus the `revision` it was loaded at (audited `workspace.update`). A stale revision: 409 EDIT_CONFLICT with `error.current`.',
  params: { workspaceId: { description: 'the workspace', example: 'ws_bank' } },
  body: { name: 'AdminWorkspacePatch', schema: WorkspacePatch, examples: { rename: { summary: 'a new name', value: { name: 'Gulf Savings', revision: REV } } } },
  responses: { 200: { description: 'the workspace as saved', name: 'AdminWorkspace', schema: AdminWorkspace, example: { ...workspaceExample, name: 'Gulf Savings' } } },
  errors: { ...adminWriteErrors, 404: [AdminCodes.NOT_FOUND], 409: [AdminCodes.EDIT_CONFLICT] },
  errorProperties: { current: currentOf(AdminWorkspace) },
})

export const createUnitDocs = base({
  operationId: 'createAdminQueueUnit',
  summary: 'Add a queue unit (administrators)',
  description: 'Contract §24: a queue unit made in the console. The body is `workspaceId` and the unit\'s settings as a provisioning file writes them ' +
    '(no locations, services, counters, keys or webhooks: add them with their own routes); `id` may be left out: the server makes `qu_…`. ' +
    'Checked by the provisioning validator and written in one transaction (audited `queueUnit.create`); an error\'s pointer is relative to the body. ' +
    'An `id` any unit has: 422 at `/id`; a workspace that does not exist: 422 at `/workspaceId`. The answer is the unit as `readAdminQueueUnit` gives it.',
  body: {
    name: 'AdminQueueUnitCreate', schema: UnitCreate,
    examples: { bilingual: { summary: 'a branch speaking English and Arabic', value: { workspaceId: 'ws_bank', name: { en: 'Main branch', ar: 'الفرع الرئيسي' }, defaultLanguage: 'en', languages: ['en', 'ar'] } } },
  },
  responses: { 201: { description: 'the unit\'s settings as saved', name: 'AdminUnitSettings', schema: AdminUnitSettings, example: unitExample } },
  errors: adminWriteErrors,
})

const PATCH_EXAMPLES = {
  location: { summary: 'close on 2 December, nothing else', value: { closedDates: ['2026-12-02'], revision: REV } },
  service: { summary: 'a 20-minute wait target, nothing else', value: { waitTargetSeconds: 1200, revision: REV } },
  counter: { summary: 'rename it in Arabic only', value: { name: { ar: 'الشباك الأول' }, revision: REV } },
} as const

const entityParams = (kind: EntityKind) => ({ ...unitParam, id: { description: `the ${kind}`, example: ID_EXAMPLE[kind] } })

function entityDocs(kind: EntityKind) {
  const schemas = SCHEMAS[kind]
  const { id: _ignored, ...updateExample } = EXAMPLES[kind]
  return {
    list: base({
      operationId: `listAdmin${Plural[kind]}`,
      summary: `The unit's ${Plural[kind].toLowerCase()}`,
      params: unitParam,
      responses: { 200: { description: Plural[kind].toLowerCase(), name: `Admin${Title[kind]}List`, schema: schemas.list, example: { data: [viewExample(kind)] } } },
      schemas: { [`Admin${Title[kind]}`]: schemas.view },
      errors: readErrors,
    }),
    read: base({
      operationId: `readAdmin${Title[kind]}`,
      summary: `A ${kind}`,
      params: entityParams(kind),
      responses: { 200: { description: `the ${kind}`, name: `Admin${Title[kind]}`, schema: schemas.view, example: viewExample(kind) } },
      errors: readErrors,
    }),
    create: base({
      operationId: `createAdmin${Title[kind]}`,
      summary: `Add a ${kind}`,
      description: `The body is the ${kind} as a provisioning file writes it (\`id\` may be left out: the server makes one). Checked by the provisioning validator; an error's pointer is relative to the body.`,
      params: unitParam,
      body: { name: `Admin${Title[kind]}Create`, schema: schemas.create, examples: { example: { summary: `a ${kind} named in English and Arabic`, value: EXAMPLES[kind] } } },
      responses: { 201: { description: `the ${kind} as saved`, name: `Admin${Title[kind]}`, schema: schemas.view, example: viewExample(kind) } },
      errors: { ...writeErrors, 409: [AdminCodes.HQ_MANAGED] },
    }),
    update: base({
      operationId: `updateAdmin${Title[kind]}`,
      summary: `Replace a ${kind}`,
      description: `The whole ${kind} as a provisioning file writes it, plus the \`revision\` it was loaded at; absent optional fields take their defaults. A stale revision: 409 EDIT_CONFLICT with \`error.current\`.`,
      params: entityParams(kind),
      body: { name: `Admin${Title[kind]}Update`, schema: schemas.update, examples: { rename: { summary: 'rename it', value: { ...updateExample, revision: REV } } } },
      responses: { 200: { description: `the ${kind} as saved`, name: `Admin${Title[kind]}`, schema: schemas.view, example: viewExample(kind) } },
      errors: { ...writeErrors, 409: [AdminCodes.EDIT_CONFLICT, AdminCodes.HQ_MANAGED] },
      errorProperties: { current: currentOf(schemas.view) },
    }),
    patch: base({
      operationId: `patchAdmin${Title[kind]}`,
      summary: `Change some fields of a ${kind}`,
      description: MERGE_RULES,
      params: entityParams(kind),
      body: { name: `Admin${Title[kind]}Patch`, schema: schemas.patch, examples: { change: PATCH_EXAMPLES[kind] } },
      responses: { 200: { description: `the ${kind} as saved`, name: `Admin${Title[kind]}`, schema: schemas.view, example: viewExample(kind) } },
      errors: { ...writeErrors, 409: [AdminCodes.EDIT_CONFLICT, AdminCodes.HQ_MANAGED] },
      errorProperties: { current: currentOf(schemas.view) },
    }),
    remove: base({
      operationId: `deleteAdmin${Title[kind]}`,
      summary: `Delete or retire a ${kind}`,
      description: `Contract §17: a ${kind} with history (tickets, roll-ups, a paired device) is retired (\`active: false\`), never deleted; one without may be deleted, unless other configuration refers to it (409 ENTITY_IN_USE).`,
      params: entityParams(kind),
      query: { revision: { description: 'the revision the entity was loaded at', required: true, example: REV, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{16}$' } } },
      responses: { 200: { description: 'deleted or retired', name: 'AdminDeleteOutcome', schema: DeleteOutcome, example: { outcome: 'retired', entity: { ...viewExample(kind), active: false } } } },
      errors: { 401: readErrors[401], 403: writeErrors[403], 404: readErrors[404], 409: [AdminCodes.EDIT_CONFLICT, AdminCodes.ENTITY_IN_USE, AdminCodes.HQ_MANAGED], 422: [AdminCodes.VALIDATION_FAILED] },
      errorProperties: { current: currentOf(schemas.view) },
    }),
  }
}

export const ENTITY_DOCS = { location: entityDocs('location'), service: entityDocs('service'), counter: entityDocs('counter') } as const

export const readAuditDocs = base({
  operationId: 'readAdminAudit',
  summary: 'The audit log, newest first',
  description: 'Every change by the console, the CLI and provisioning files (contract §17), secrets never. An admin sees every entry; a manager the entries of its queue units ' +
    '(the unit itself, and entities whose snapshot names one of its units as `queueUnitId`), never webhook or key entries (types `webhook`, `webhook-delivery`, ' +
    '`queueKey`, `workspaceKey`, `displayToken`, `key`: admins only, contract §27). URLs are shown without user-info, to everyone. ' +
    'Page with `before` = the previous page\'s `next`.',
  query: {
    since: { description: 'only entries at or after this instant (ISO 8601)', example: '2026-11-25T00:00:00.000Z', schema: { type: 'string', format: 'date-time' } },
    entityType: { description: 'only this entity type (letters, dots and hyphens)', example: 'counter', schema: { type: 'string', maxLength: 40 } },
    action: { description: 'only this action', example: 'counter.update', schema: { type: 'string', maxLength: 60 } },
    before: { description: 'only entries older than this entry id (paging)', example: 120, schema: { type: 'integer', minimum: 1 } },
    limit: { description: 'at most this many (1–200, default 50)', example: 50, schema: { type: 'integer', minimum: 1, maximum: 200 } },
  },
  responses: {
    200: {
      description: 'entries, newest first', name: 'AdminAuditPage', schema: AuditPage,
      example: {
        data: [{
          id: 121, at: '2026-11-25T09:31:02.120Z', actor: { type: 'user', id: 'amira.h' }, action: 'counter.update', entity: { type: 'counter', id: 'ctr_1' },
          before: { queueUnitId: 'qu_main', ...EXAMPLES.counter }, after: { queueUnitId: 'qu_main', ...EXAMPLES.counter, name: { en: 'Counter One', ar: 'الشباك 1' } },
        }],
        next: 120,
      },
    },
  },
  errors: { 401: readErrors[401], 403: [AdminCodes.ROLE_FORBIDDEN], 422: [AdminCodes.VALIDATION_FAILED] },
})

