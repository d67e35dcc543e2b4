import { describe, expect, test } from 'bun:test'
import { AdminCodes as C } from '../../src/admin/errors'
import { auditOf, call, everythingWritten, expectError, expectOk, jsonOf, ORIGIN, request, sectionContext } from './section-helpers'

const DESK = { role: 'desk', counterId: 'cnt_1', name: 'desk-1' }

describe('console: pair a device', () => {
  test('an admin gets a six-digit code, its absolute /pair URL and a QR code; the code pairs a browser at /pair and is in no log or audit entry', async () => {
    const ctx = await sectionContext()
    const made = (await expectOk(await call(ctx, ctx.admin, 'POST', '/devices/pairings', { body: DESK }), 201)).data
    expect(made.code).toMatch(/^\d{6}$/)
    expect(made.pairPath).toBe(`/pair?code=${made.code}`)
    expect(made.pairUrl).toBe(`http://localhost/pair?code=${made.code}`)
    expect(made.qrSvg).toStartWith('<svg xmlns="http://www.w3.org/2000/svg"')
    expect(made.expiresAt).toBe(new Date(ctx.clock.now() + 600_000).toISOString())
    const [entry] = auditOf(ctx, 'device.pair')
    expect(entry).toMatchObject({ actor: { type: 'user', id: 'ada' }, entity: { type: 'device', id: 'desk-1' }, after: { role: 'desk', binding: { counterId: 'cnt_1' } } })
    expect(everythingWritten(ctx)).not.toContain(made.code)

    const paired = await request(ctx.app, 'POST', '/api/devices/v1/pair', { body: { code: made.code }, headers: { origin: ORIGIN } })
    expect(paired.status).toBe(200)
    expect((await jsonOf(paired)).role).toBe('desk')
    const list = (await expectOk(await call(ctx, ctx.admin, 'GET', '/devices'))).data
    expect(list).toEqual([{ name: 'desk-1', role: 'desk', binding: { queueUnitId: 'qu_main', locationId: 'loc_hall', counterId: 'cnt_1' }, pairedAt: expect.any(String), lastUsedAt: null, state: 'active' }])
  })

  test('bad bindings are 422 at the field; a manager pairs in its own units only, never a display; a clerk is 403', async () => {
    const ctx = await sectionContext()
    const unknown = await expectError(await call(ctx, ctx.admin, 'POST', '/devices/pairings', { body: { role: 'desk', counterId: 'cnt_9' } }), 422, C.VALIDATION_FAILED)
    expect(unknown.error.details).toEqual([{ path: '/counterId', message: 'no counter "cnt_9"', rule: 'unknownReference', params: { kind: 'counter' } }])
    const missing = await expectError(await call(ctx, ctx.admin, 'POST', '/devices/pairings', { body: { role: 'kiosk', queueUnitId: 'qu_main' } }), 422, C.VALIDATION_FAILED)
    expect(missing.error.details[0].path).toBe('/locationId')
    const stray = await expectError(await call(ctx, ctx.admin, 'POST', '/devices/pairings', { body: { ...DESK, colour: 'red' } }), 422, C.VALIDATION_FAILED)
    expect(stray.error.details[0].path).toBe('/colour')

    await expectOk(await call(ctx, ctx.manager, 'POST', '/devices/pairings', { body: DESK }), 201)
    await expectOk(await call(ctx, ctx.manager, 'POST', '/devices/pairings', { body: { role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_hall' } }), 201)
    await expectError(await call(ctx, ctx.manager, 'POST', '/devices/pairings', { body: { role: 'desk', counterId: 'cnt_e1' } }), 403, C.UNIT_FORBIDDEN)
    await expectError(await call(ctx, ctx.manager, 'POST', '/devices/pairings', { body: { role: 'reports', queueUnitId: 'qu_east' } }), 403, C.UNIT_FORBIDDEN)
    await expectError(await call(ctx, ctx.manager, 'POST', '/devices/pairings', { body: { role: 'display', workspaceId: 'ws_demo' } }), 403, C.UNIT_FORBIDDEN)
    await expectOk(await call(ctx, ctx.admin, 'POST', '/devices/pairings', { body: { role: 'display', workspaceId: 'ws_demo' } }), 201)
    await expectError(await call(ctx, ctx.clerk, 'POST', '/devices/pairings', { body: DESK }), 403, C.ROLE_FORBIDDEN)
    await expectError(await call(ctx, ctx.clerk, 'GET', '/devices'), 403, C.ROLE_FORBIDDEN)
    expect(auditOf(ctx, 'device.pair').map((e) => e.actor.id)).toEqual(['ada', 'mona', 'mona'])
  })

  test('no session, a queue key, a paired device or a foreign Origin: refused before the body is read', async () => {
    const ctx = await sectionContext()
    await expectError(await call(ctx, null, 'POST', '/devices/pairings', { body: DESK }), 401, C.AUTHENTICATION_FAILED)
    await expectError(await call(ctx, null, 'GET', '/devices'), 401, C.AUTHENTICATION_FAILED)
    const key = ctx.provisioned.secret('queue', 'qu_main', 'all')
    await expectError(await call(ctx, null, 'GET', '/devices', { headers: { authorization: `Bearer ${key}` } }), 401, C.AUTHENTICATION_FAILED)
    const code = (await expectOk(await call(ctx, ctx.admin, 'POST', '/devices/pairings', { body: DESK }), 201)).data.code
    const paired = await request(ctx.app, 'POST', '/api/devices/v1/pair', { body: { code } })
    const deviceCookie = /^(lobby_device=[^;]+)/.exec(paired.headers.get('set-cookie')!)![1]!
    await expectError(await call(ctx, deviceCookie, 'GET', '/devices'), 401, C.AUTHENTICATION_FAILED)
    await expectError(await call(ctx, ctx.admin, 'POST', '/devices/pairings', { body: DESK, origin: 'https://evil.example' }), 403, C.ORIGIN_FORBIDDEN)
    await expectError(await call(ctx, ctx.admin, 'POST', '/devices/pairings', { body: DESK, origin: null }), 403, C.ORIGIN_FORBIDDEN)
    await expectError(await call(ctx, ctx.admin, 'POST', '/devices/pairings', { raw: 'x'.repeat(9000), headers: { 'content-type': 'application/json' } }), 413, C.PAYLOAD_TOO_LARGE)
    await expectError(await call(ctx, ctx.admin, 'POST', '/devices/pairings', { raw: '{', headers: { 'content-type': 'application/json' } }), 400, C.INVALID_JSON)
  })
})

describe('console: list and revoke devices', () => {
  async function pairedDesk(ctx: Awaited<ReturnType<typeof sectionContext>>, body: Record<string, unknown>) {
    const code = (await expectOk(await call(ctx, ctx.admin, 'POST', '/devices/pairings', { body }), 201)).data.code
    const paired = await request(ctx.app, 'POST', '/api/devices/v1/pair', { body: { code } })
    return /^(lobby_device=[^;]+)/.exec(paired.headers.get('set-cookie')!)![1]!
  }

  test('revoking makes the device\'s cookie fail at once; the audit says who; a manager sees and revokes its own units\' devices only', async () => {
    const ctx = await sectionContext()
    const desk = await pairedDesk(ctx, DESK)
    await pairedDesk(ctx, { role: 'desk', counterId: 'cnt_e1', name: 'east-desk' })
    const whoAmI = () => request(ctx.app, 'GET', '/api/devices/v1/device', { headers: { cookie: desk } })
    expect((await whoAmI()).status).toBe(200)

    expect((await expectOk(await call(ctx, ctx.manager, 'GET', '/devices'))).data.map((d: any) => d.name)).toEqual(['desk-1'])
    expect((await expectOk(await call(ctx, ctx.eastManager, 'GET', '/devices'))).data.map((d: any) => d.name)).toEqual(['east-desk'])
    await expectError(await call(ctx, ctx.manager, 'POST', '/devices/east-desk/revoke'), 403, C.UNIT_FORBIDDEN)
    await expectError(await call(ctx, ctx.manager, 'POST', '/devices/nobody/revoke'), 404, C.DEVICE_NOT_FOUND)
    await expectError(await call(ctx, ctx.manager, 'POST', '/devices/desk-1/revoke', { origin: 'https://evil.example' }), 403, C.ORIGIN_FORBIDDEN)

    expect((await expectOk(await call(ctx, ctx.manager, 'POST', '/devices/desk-1/revoke'))).data).toEqual({ name: 'desk-1', revoked: 1 })
    expect((await whoAmI()).status).toBe(401)
    expect(auditOf(ctx, 'device.revoke')).toMatchObject([{ actor: { type: 'user', id: 'mona' }, entity: { type: 'device', id: 'desk-1' }, after: { state: 'revoked' } }])
    expect((await expectOk(await call(ctx, ctx.admin, 'GET', '/devices'))).data.map((d: any) => [d.name, d.state])).toEqual([['desk-1', 'revoked'], ['east-desk', 'active']])
  })
})

describe('console: devices role rules on every route', () => {
  test('a clerk 403, no session 401, a queue key or display token 401, a foreign Origin 403; a manager may not revoke a display', async () => {
    const ctx = await sectionContext()
    const key = ctx.provisioned.secret('queue', 'qu_main', 'all')
    const token = ctx.provisioned.secret('display', 'ws_demo', 'lobby-screens')
    const code = (await expectOk(await call(ctx, ctx.admin, 'POST', '/devices/pairings', { body: { role: 'display', workspaceId: 'ws_demo', name: 'hall-tv' } }), 201)).data.code
    expect((await request(ctx.app, 'POST', '/api/devices/v1/pair', { body: { code } })).status).toBe(200)
    const routes: [string, string, unknown?][] = [['POST', '/devices/pairings', DESK], ['GET', '/devices'], ['POST', '/devices/hall-tv/revoke']]
    for (const [method, path, body] of routes) {
      await expectError(await call(ctx, ctx.clerk, method, path, { body }), 403, C.ROLE_FORBIDDEN)
      await expectError(await call(ctx, null, method, path, { body }), 401, C.AUTHENTICATION_FAILED)
      await expectError(await call(ctx, null, method, path, { body, headers: { authorization: `Bearer ${key}` } }), 401, C.AUTHENTICATION_FAILED)
      await expectError(await call(ctx, null, `${method}`, `${path}${path.includes('?') ? '&' : '?'}token=${token}`, { body }), 401, C.AUTHENTICATION_FAILED)
      if (method !== 'GET') await expectError(await call(ctx, ctx.manager, method, path, { body, origin: 'https://evil.example' }), 403, C.ORIGIN_FORBIDDEN)
    }
    // The manager's list leaves the display out; revoking it is an administrator's.
    expect((await expectOk(await call(ctx, ctx.manager, 'GET', '/devices'))).data).toEqual([])
    await expectError(await call(ctx, ctx.manager, 'POST', '/devices/hall-tv/revoke'), 403, C.UNIT_FORBIDDEN)
    expect((await expectOk(await call(ctx, ctx.admin, 'POST', '/devices/hall-tv/revoke'))).data).toEqual({ name: 'hall-tv', revoked: 1 })
    expect(auditOf(ctx).map((e) => e.action)).toEqual(['device.revoke', 'device.pair'])
  })
})

describe('console: a write and its audit entry are one transaction', () => {
  test('when the audit entry cannot be written, the pairing is not made either', async () => {
    const ctx = await sectionContext()
    ctx.db.$client.run("CREATE TRIGGER audit_down BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit log unavailable'); END")
    await expectError(await call(ctx, ctx.admin, 'POST', '/devices/pairings', { body: DESK }), 500, 'INTERNAL_ERROR')
    expect(ctx.db.$client.query('SELECT count(*) AS n FROM pairing_codes').get()).toEqual({ n: 0 })
    ctx.db.$client.run('DROP TRIGGER audit_down')
    await expectOk(await call(ctx, ctx.admin, 'POST', '/devices/pairings', { body: DESK }), 201)
    expect(ctx.db.$client.query('SELECT count(*) AS n FROM pairing_codes').get()).toEqual({ n: 1 })
  })
})
