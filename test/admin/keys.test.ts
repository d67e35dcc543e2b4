import { describe, expect, test } from 'bun:test'
import { AdminCodes as C } from '../../src/admin/errors'
import { auditOf, call, everythingWritten, expectError, expectOk, request, sectionContext, type SectionContext } from './section-helpers'

const SERVICES = '/api/public/v1/queue/services'
const works = async (ctx: SectionContext, secret: string) => (await request(ctx.app, 'GET', SERVICES, { headers: { authorization: `Bearer ${secret}` } })).status
const CMS = { kind: 'queue', owner: 'qu_main', name: 'cms2' }

describe('console: keys and display tokens', () => {
  test('create: the secret once — it works, and it is in no list, log line or audit entry', async () => {
    const ctx = await sectionContext()
    const made = (await expectOk(await call(ctx, ctx.admin, 'POST', '/keys', { body: { ...CMS, scopes: ['services:read'] } }), 201)).data
    expect(made).toEqual({ ...CMS, secret: expect.stringMatching(/^lbq_/), previousWorksUntil: null })
    expect(await works(ctx, made.secret)).toBe(200)
    const list = await (await call(ctx, ctx.admin, 'GET', '/keys')).text()
    expect(list).not.toContain(made.secret)
    expect(JSON.parse(list).data.filter((k: any) => k.name === 'cms2')).toEqual([{ kind: 'queue', owner: 'qu_main', name: 'cms2', state: 'active', created: expect.any(String), lastUsed: expect.any(String), expires: null }])
    expect(everythingWritten(ctx)).not.toContain(made.secret)
    expect(auditOf(ctx, 'key.create')).toMatchObject([{ actor: { type: 'user', id: 'ada' }, entity: { type: 'key', id: 'queue/qu_main/cms2' }, after: { scopes: ['services:read'], issuePerMinute: 60 } }])

    const token = (await expectOk(await call(ctx, ctx.admin, 'POST', '/keys', { body: { kind: 'display', owner: 'ws_demo', name: 'hall-tv' } }), 201)).data.secret
    expect(token).toStartWith('lbd_')
    expect((await request(ctx.app, 'GET', `/api/display/v1/widgets/wdg_announcements?token=${token}`)).status).toBe(200)
  })

  test('create is checked like a provisioning file\'s key: the same pointers, references of its own unit, a taken name 409', async () => {
    const ctx = await sectionContext()
    const scope = await expectError(await call(ctx, ctx.admin, 'POST', '/keys', { body: { ...CMS, scopes: ['tickets:fly'] } }), 422, C.VALIDATION_FAILED)
    expect(scope.error.details.map((d: any) => d.path)).toContain('/scopes/0')
    const stray = await expectError(await call(ctx, ctx.admin, 'POST', '/keys', { body: { kind: 'display', owner: 'ws_demo', name: 'tv', scopes: ['state:read'] } }), 422, C.VALIDATION_FAILED)
    expect(stray.error.details.map((d: any) => d.path)).toContain('/scopes')
    const foreign = await expectError(await call(ctx, ctx.admin, 'POST', '/keys', { body: { ...CMS, services: ['svc_accounts', 'svc_east'] } }), 422, C.VALIDATION_FAILED)
    expect(foreign.error.details).toEqual([{ path: '/services/1', message: 'no such service in this queue unit', rule: 'unknownReference', params: { kind: 'service', value: 'svc_east' } }])
    await expectError(await call(ctx, ctx.admin, 'POST', '/keys', { body: { ...CMS, owner: 'qu_nowhere' } }), 422, C.VALIDATION_FAILED)
    await expectError(await call(ctx, ctx.admin, 'POST', '/keys', { body: { kind: 'webhook', owner: 'whk_crm', name: 'whk_crm' } }), 422, C.VALIDATION_FAILED)
    await expectError(await call(ctx, ctx.admin, 'POST', '/keys', { body: { kind: 'queue', owner: 'qu_main', name: 'all' } }), 409, C.KEY_EXISTS)
    expect(auditOf(ctx)).toEqual([])
  })

  test('rotate with grace: the old secret works until the grace ends, then only the new one; revoke stops it at once', async () => {
    const ctx = await sectionContext()
    const old = ctx.provisioned.secret('queue', 'qu_main', 'all')
    const rotated = (await expectOk(await call(ctx, ctx.admin, 'POST', '/keys/rotate', { body: { kind: 'queue', owner: 'qu_main', name: 'all', graceSeconds: 60 } }))).data
    expect(rotated.previousWorksUntil).toBe(new Date(ctx.clock.now() + 60_000).toISOString())
    expect(await works(ctx, old)).toBe(200)
    expect(await works(ctx, rotated.secret)).toBe(200)
    ctx.clock.advance(61_000)
    expect(await works(ctx, old)).toBe(401)
    expect(await works(ctx, rotated.secret)).toBe(200)
    expect(everythingWritten(ctx)).not.toContain(rotated.secret)
    expect(auditOf(ctx, 'key.rotate')).toMatchObject([{ entity: { id: 'queue/qu_main/all' }, after: { graceSeconds: 60 } }])

    expect((await expectOk(await call(ctx, ctx.admin, 'POST', '/keys/revoke', { body: { kind: 'queue', owner: 'qu_main', name: 'all' } }))).data).toMatchObject({ revoked: 2 })
    expect(await works(ctx, rotated.secret)).toBe(401)
    await expectError(await call(ctx, ctx.admin, 'POST', '/keys/rotate', { body: { kind: 'queue', owner: 'qu_main', name: 'nope' } }), 404, C.KEY_NOT_FOUND)
    await expectError(await call(ctx, ctx.admin, 'POST', '/keys/revoke', { body: { kind: 'queue', owner: 'qu_main', name: 'nope' } }), 404, C.KEY_NOT_FOUND)
  })

  test('administrators only; no session or a key 401; a foreign Origin 403; a body over 16 KB 413', async () => {
    const ctx = await sectionContext()
    const key = ctx.provisioned.secret('queue', 'qu_main', 'all')
    for (const [method, path, body] of [['GET', '/keys'], ['POST', '/keys', CMS], ['POST', '/keys/rotate', { ...CMS, name: 'all' }], ['POST', '/keys/revoke', { ...CMS, name: 'all' }]] as [string, string, unknown?][]) {
      for (const cookie of [ctx.manager, ctx.clerk]) await expectError(await call(ctx, cookie, method, path, { body }), 403, C.ROLE_FORBIDDEN)
      await expectError(await call(ctx, null, method, path, { body }), 401, C.AUTHENTICATION_FAILED)
      await expectError(await call(ctx, null, method, path, { body, headers: { authorization: `Bearer ${key}` } }), 401, C.AUTHENTICATION_FAILED)
      if (method !== 'GET') await expectError(await call(ctx, ctx.admin, method, path, { body, origin: 'http://localhost:8080' }), 403, C.ORIGIN_FORBIDDEN)
    }
    await expectError(await call(ctx, ctx.admin, 'POST', '/keys', { raw: JSON.stringify({ ...CMS, pad: 'x'.repeat(17_000) }), headers: { 'content-type': 'application/json' } }), 413, C.PAYLOAD_TOO_LARGE)
    expect(await works(ctx, key)).toBe(200)
    expect(auditOf(ctx)).toEqual([])
  })
})

describe('console: a key and its audit entry are one transaction', () => {
  test('when the audit entry cannot be written, no key is made and a rotation is undone', async () => {
    const ctx = await sectionContext()
    const before = ctx.db.$client.query('SELECT count(*) AS n FROM credentials').get()
    ctx.db.$client.run("CREATE TRIGGER audit_down BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit log unavailable'); END")
    await expectError(await call(ctx, ctx.admin, 'POST', '/keys', { body: CMS }), 500, 'INTERNAL_ERROR')
    await expectError(await call(ctx, ctx.admin, 'POST', '/keys/rotate', { body: { kind: 'queue', owner: 'qu_main', name: 'all' } }), 500, 'INTERNAL_ERROR')
    expect(ctx.db.$client.query('SELECT count(*) AS n FROM credentials').get()).toEqual(before)
    expect(await works(ctx, ctx.provisioned.secret('queue', 'qu_main', 'all'))).toBe(200)
  })
})
