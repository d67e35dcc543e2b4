import { describe, expect, test } from 'bun:test'
import { testContext, type TestContext } from '../support/app'
import { CHEAP, GOOD_PASSWORD, SETUP, cli, codeOf, cookieOf } from '../people/helpers'
import { ADMIN, admin, expectError, jsonOf, request } from './helpers'
import { exportProvisioning } from '../../src/provisioning/export'
import { applyProvisioning } from '../../src/provisioning/service'
import type { ProvisioningFile } from '../../src/provisioning/model'
import type { NewUser } from '../../src/people'

/*
 * Contract §24, issue 44: from an empty database an administrator makes, in the console alone,
 * the workspace and a queue unit (POST workspaces, POST queue-units), then its location, service
 * and counter through the Branch routes; what was made is what `provision --export` writes, and
 * applying that export changes nothing. A manager is refused; a taken ID is 422 at /id; bad
 * languages are 422 at /languages, each with the rule the page says in words.
 */

async function signedIn(ctx: TestContext, user: NewUser): Promise<string> {
  const link = cli(ctx).addUser(user, ctx.clock.now())
  expect((await request(ctx.app, 'POST', SETUP, { body: { code: codeOf(link.setupPath), password: GOOD_PASSWORD } })).status).toBe(200)
  const response = await request(ctx.app, 'POST', '/api/auth/v1/sessions', { body: { username: user.username, password: GOOD_PASSWORD } })
  expect(response.status).toBe(200)
  return cookieOf(response)
}

const auditActions = (ctx: TestContext) => ctx.db.$client.query<{ actor: string; action: string; entity_id: string }, []>(
  'SELECT actor, action, entity_id FROM audit_log ORDER BY id').all()

describe('a branch from an empty database, in the console alone (contract §24)', () => {
  const ctx = testContext({ passwordCost: CHEAP })
  let root: string
  let workspaceId: string
  let unitId: string

  test('the database is empty: no workspace, no unit', async () => {
    root = await signedIn(ctx, { username: 'root', role: 'admin' })
    expect(await jsonOf(await admin(ctx, root, 'GET', `${ADMIN}/workspaces`))).toEqual({ data: [] })
    expect(await jsonOf(await admin(ctx, root, 'GET', `${ADMIN}/queue-units`))).toEqual({ data: [] })
  })

  test('an admin makes a workspace (its ID made by the server) and renames it with its revision', async () => {
    const created = await admin(ctx, root, 'POST', `${ADMIN}/workspaces`, { name: 'Gulf Savings' })
    expect(created.status).toBe(201)
    const workspace = await jsonOf(created)
    expect(workspace).toEqual({ id: expect.stringMatching(/^ws_/), name: 'Gulf Savings', revision: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/) })
    workspaceId = workspace.id
    expect(await jsonOf(await admin(ctx, root, 'GET', `${ADMIN}/workspaces`))).toEqual({ data: [workspace] })

    const renamed = await jsonOf(await admin(ctx, root, 'PATCH', `${ADMIN}/workspaces/${workspaceId}`, { name: 'Gulf Savings Bank', revision: workspace.revision }))
    expect(renamed).toMatchObject({ id: workspaceId, name: 'Gulf Savings Bank' })
    expect(renamed.revision).not.toBe(workspace.revision)
    const stale = await expectError(await admin(ctx, root, 'PATCH', `${ADMIN}/workspaces/${workspaceId}`, { name: 'Other', revision: workspace.revision }), 409, 'EDIT_CONFLICT')
    expect(stale.error.current).toEqual(renamed)
    const emptied = await expectError(await admin(ctx, root, 'PATCH', `${ADMIN}/workspaces/${workspaceId}`, { name: null, revision: renamed.revision }), 422, 'VALIDATION_FAILED')
    expect(emptied.error.details).toEqual([expect.objectContaining({ path: '/name', rule: 'required' })])
    await expectError(await admin(ctx, root, 'PATCH', `${ADMIN}/workspaces/ws_nowhere`, { name: 'X', revision: renamed.revision }), 404, 'NOT_FOUND')
    // Keys, tokens, widgets and units have their own doors: not fields of a workspace here.
    const extra = await expectError(await admin(ctx, root, 'POST', `${ADMIN}/workspaces`, { name: 'X', apiKeys: [{ name: 'cms' }] }), 422, 'VALIDATION_FAILED')
    expect(extra.error.details).toEqual([expect.objectContaining({ path: '/apiKeys', rule: 'unknownField' })])
    const taken = await expectError(await admin(ctx, root, 'POST', `${ADMIN}/workspaces`, { id: workspaceId, name: 'Again' }), 422, 'VALIDATION_FAILED')
    expect(taken.error.details).toEqual([expect.objectContaining({ path: '/id', rule: 'taken' })])
    const nameless = await expectError(await admin(ctx, root, 'POST', `${ADMIN}/workspaces`, { id: 'ws bad' }), 422, 'VALIDATION_FAILED')
    expect(nameless.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['/id', '/name'])
  })

  test('an admin makes a queue unit speaking English and Arabic; the answer is the unit as GET gives it', async () => {
    const created = await admin(ctx, root, 'POST', `${ADMIN}/queue-units`, { workspaceId, name: { en: 'Main branch', ar: 'الفرع الرئيسي' }, languages: ['en', 'ar'], defaultLanguage: 'en', kioskPriority: true })
    expect(created.status).toBe(201)
    const unit = await jsonOf(created)
    unitId = unit.id
    expect(unitId).toMatch(/^qu_/)
    expect(unit).toMatchObject({ workspaceId, name: 'Main branch', names: { en: 'Main branch', ar: 'الفرع الرئيسي' }, languages: ['en', 'ar'], kioskPriority: true, deskSignIn: 'optional' })
    expect(await jsonOf(await admin(ctx, root, 'GET', `${ADMIN}/queue-units/${unitId}`))).toEqual(unit)
    expect((await jsonOf(await admin(ctx, root, 'GET', `${ADMIN}/queue-units`))).data).toEqual([unit])
  })

  test('then a location, a service and a counter through the Branch routes', async () => {
    const path = `${ADMIN}/queue-units/${unitId}`
    const location = await jsonOf(await admin(ctx, root, 'POST', `${path}/locations`, { name: { en: 'Hall', ar: 'القاعة' }, timezone: 'Asia/Riyadh', openingHours: { sun: [['08:00', '16:00']] } }))
    expect(location.id).toMatch(/^loc_/)
    const service = await jsonOf(await admin(ctx, root, 'POST', `${path}/services`, { name: { en: 'Accounts', ar: 'الحسابات' }, prefix: 'A', locations: [location.id] }))
    expect(service.id).toMatch(/^svc_/)
    const counter = await admin(ctx, root, 'POST', `${path}/counters`, { name: { en: 'Counter 1', ar: 'الشباك 1' }, locationId: location.id, services: [service.id] })
    expect(counter.status).toBe(201)
  })

  test('every change was audited as the admin\'s', () => {
    const entries = auditActions(ctx).filter((e) => e.action !== 'user.create')
    expect(entries.every((e) => e.actor === 'user:root')).toBe(true)
    expect(entries.map((e) => e.action)).toEqual(['workspace.create', 'workspace.update', 'queueUnit.create', 'location.create', 'service.create', 'counter.create'])
  })

  test('the export holds them, and applying it changes nothing', () => {
    const exported = exportProvisioning(ctx.db)
    expect(exported.workspaces).toHaveLength(1)
    const [ws] = exported.workspaces
    expect(ws).toMatchObject({ id: workspaceId, name: 'Gulf Savings Bank' })
    const unit = ws!.queueUnits![0]!
    expect(unit).toMatchObject({ id: unitId, name: { en: 'Main branch', ar: 'الفرع الرئيسي' }, defaultLanguage: 'en', languages: ['en', 'ar'], kioskPriority: true })
    expect([unit.locations!.length, unit.services!.length, unit.counters!.length]).toEqual([1, 1, 1])
    expect(unit.counters![0]).toMatchObject({ locationId: unit.locations![0]!.id, services: [unit.services![0]!.id] })

    const entries = auditActions(ctx).length
    const result = applyProvisioning(ctx.db, JSON.parse(JSON.stringify(exported)) as ProvisioningFile, ctx.clock.now() + 1000)
    for (const counts of Object.values(result.applied)) expect(counts.created + counts.updated).toBe(0)
    expect(exportProvisioning(ctx.db)).toEqual(exported)
    expect(auditActions(ctx).length).toBe(entries)
    // And to an empty database it gives the same structure.
    const elsewhere = testContext()
    applyProvisioning(elsewhere.db, JSON.parse(JSON.stringify(exported)) as ProvisioningFile, elsewhere.clock.now())
    expect(exportProvisioning(elsewhere.db)).toEqual(exported)
  })

  test('an ID any unit has is 422 at /id; bad languages 422 at /languages; a missing or unknown workspace 422 at /workspaceId; children are not fields', async () => {
    const taken = await expectError(await admin(ctx, root, 'POST', `${ADMIN}/queue-units`, { workspaceId, id: unitId, name: 'Again' }), 422, 'VALIDATION_FAILED')
    expect(taken.error.details).toEqual([expect.objectContaining({ path: '/id', rule: 'taken', params: { kind: 'queue unit' } })])

    const badTag = await expectError(await admin(ctx, root, 'POST', `${ADMIN}/queue-units`, { workspaceId, name: 'East', languages: ['en', 'not a tag!'] }), 422, 'VALIDATION_FAILED')
    expect(badTag.error.details).toEqual([expect.objectContaining({ path: '/languages/1', rule: 'languageTag' })])
    const noDefault = await expectError(await admin(ctx, root, 'POST', `${ADMIN}/queue-units`, { workspaceId, name: 'East', defaultLanguage: 'fr', languages: ['en', 'ar'] }), 422, 'VALIDATION_FAILED')
    expect(noDefault.error.details).toEqual([expect.objectContaining({ path: '/languages', rule: 'languageMissing' })])
    const none = await expectError(await admin(ctx, root, 'POST', `${ADMIN}/queue-units`, { workspaceId, name: 'East', languages: [] }), 422, 'VALIDATION_FAILED')
    expect(none.error.details).toEqual([expect.objectContaining({ path: '/languages', rule: 'minItems' })])
    const twice = await expectError(await admin(ctx, root, 'POST', `${ADMIN}/queue-units`, { workspaceId, name: 'East', languages: ['en', 'EN'] }), 422, 'VALIDATION_FAILED')
    expect(twice.error.details).toEqual([expect.objectContaining({ path: '/languages', rule: 'uniqueItems' })])

    const missing = await expectError(await admin(ctx, root, 'POST', `${ADMIN}/queue-units`, { name: 'East' }), 422, 'VALIDATION_FAILED')
    expect(missing.error.details).toEqual([expect.objectContaining({ path: '/workspaceId', rule: 'required' })])
    const unknown = await expectError(await admin(ctx, root, 'POST', `${ADMIN}/queue-units`, { workspaceId: 'ws_nowhere', name: 'East' }), 422, 'VALIDATION_FAILED')
    expect(unknown.error.details).toEqual([expect.objectContaining({ path: '/workspaceId', rule: 'unknownReference', params: { kind: 'workspace', value: 'ws_nowhere' } })])
    const children = await expectError(await admin(ctx, root, 'POST', `${ADMIN}/queue-units`, { workspaceId, name: 'East', counters: [] }), 422, 'VALIDATION_FAILED')
    expect(children.error.details).toEqual([expect.objectContaining({ path: '/counters', rule: 'unknownField' })])
    const nameless = await expectError(await admin(ctx, root, 'POST', `${ADMIN}/queue-units`, { workspaceId, name: { ar: '' } }), 422, 'VALIDATION_FAILED')
    expect(nameless.error.details).toEqual([expect.objectContaining({ path: '/name/ar' })])
    // Nothing of the refusals was written.
    expect((await jsonOf(await admin(ctx, root, 'GET', `${ADMIN}/queue-units`))).data).toHaveLength(1)
  })

  test('a manager and a clerk are refused (403 ROLE_FORBIDDEN); no session is 401; another Origin is 403', async () => {
    const manager = await signedIn(ctx, { username: 'amira', role: 'manager', queueUnits: [unitId] })
    for (const [method, path, body] of [
      ['GET', `${ADMIN}/workspaces`, undefined],
      ['POST', `${ADMIN}/workspaces`, { name: 'Mine' }],
      ['PATCH', `${ADMIN}/workspaces/${workspaceId}`, { name: 'Mine', revision: 'AAAAAAAAAAAAAAAA' }],
      ['POST', `${ADMIN}/queue-units`, { workspaceId, name: 'Mine' }],
    ] as const) {
      await expectError(await admin(ctx, manager, method, path, body), 403, 'ROLE_FORBIDDEN')
      await expectError(await admin(ctx, null, method, path, body), 401, 'AUTHENTICATION_FAILED')
    }
    await expectError(await admin(ctx, root, 'POST', `${ADMIN}/queue-units`, { workspaceId, name: 'Mine' }, { origin: 'https://evil.example' }), 403, 'ORIGIN_FORBIDDEN')
    expect((await jsonOf(await admin(ctx, root, 'GET', `${ADMIN}/queue-units`))).data).toHaveLength(1)
  })

  test('a second unit in the same workspace: the chooser has two', async () => {
    const second = await jsonOf(await admin(ctx, root, 'POST', `${ADMIN}/queue-units`, { workspaceId, id: 'qu_east', name: 'East branch' }))
    expect(second).toMatchObject({ id: 'qu_east', languages: ['en'], defaultLanguage: 'en' })
    expect((await jsonOf(await admin(ctx, root, 'GET', `${ADMIN}/queue-units`))).data.map((u: { id: string }) => u.id)).toEqual([unitId, 'qu_east'])
  })
})
