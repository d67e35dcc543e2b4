import { describe, expect, test } from 'bun:test'
import { AdminCodes as C } from '../../src/admin/errors'
import { CURRENT, GOOD_PASSWORD, SETUP, codeOf, signIn } from '../people/helpers'
import { clerkContext, deskOf, deskView, signedInAt } from '../desk/helpers'
import { signedIn, withPassword } from '../people/helpers'
import { auditOf, call, everythingWritten, expectError, expectOk, request, sectionContext } from './section-helpers'

const NEW_CLERK = { username: 'nadia', role: 'clerk', displayName: 'Nadia K.', queueUnits: ['qu_main'] }

describe('console: staff accounts', () => {
  test('an admin adds a user: the setup link and its QR code once, absent from the list, the logs and the audit; the link sets the password', async () => {
    const ctx = await sectionContext()
    const made = (await expectOk(await call(ctx, ctx.admin, 'POST', '/users', { body: NEW_CLERK }), 201)).data
    expect(made.setupPath).toMatch(/^\/login\/setup\?code=[a-z2-7]{52}$/)
    expect(made.setupUrl).toBe(`http://localhost${made.setupPath}`)
    expect(made.qrSvg).toStartWith('<svg')
    const code = codeOf(made.setupPath)
    const list = await (await call(ctx, ctx.admin, 'GET', '/users')).text()
    expect(list).not.toContain(code)
    expect(JSON.parse(list).data.find((u: any) => u.username === 'nadia')).toEqual({ username: 'nadia', displayName: 'Nadia K.', role: 'clerk', queueUnits: ['qu_main'], state: 'active', passwordSet: false, createdAt: expect.any(String) })
    expect(everythingWritten(ctx)).not.toContain(code)
    expect(auditOf(ctx, 'user.create')).toMatchObject([{ actor: { type: 'user', id: 'ada' }, entity: { type: 'user', id: 'nadia' }, after: { role: 'clerk', queueUnits: ['qu_main'] } }])
    const setup = await request(ctx.app, 'POST', SETUP, { body: { code, password: GOOD_PASSWORD, pin: '135790' } })
    expect(setup.status).toBe(200)
  })

  test('the same rules as lobby users: a taken name is 409, bad input 422 at its field, an unknown unit too', async () => {
    const ctx = await sectionContext()
    await expectError(await call(ctx, ctx.admin, 'POST', '/users', { body: { username: 'mona', role: 'manager', queueUnits: ['qu_main'] } }), 409, C.USER_EXISTS)
    const bad = await expectError(await call(ctx, ctx.admin, 'POST', '/users', { body: { username: 'Bad Name', role: 'boss' } }), 422, C.VALIDATION_FAILED)
    expect(bad.error.details.map((d: any) => d.path).sort()).toEqual(['/role', '/username'])
    const unit = await expectError(await call(ctx, ctx.admin, 'POST', '/users', { body: { username: 'x', role: 'manager', queueUnits: ['qu_nowhere'] } }), 422, C.VALIDATION_FAILED)
    expect(unit.error.details).toEqual([{ path: '/queueUnits', message: 'no queue unit "qu_nowhere"', rule: 'unknownReference', params: { kind: 'queueUnit' } }])
    const admin = await expectError(await call(ctx, ctx.admin, 'POST', '/users', { body: { username: 'x', role: 'admin', queueUnits: ['qu_main'] } }), 422, C.VALIDATION_FAILED)
    expect(admin.error.details[0].path).toBe('/queueUnits')
    expect(auditOf(ctx, 'user.create')).toEqual([])
  })

  test('a manager or clerk needs at least one queue unit: add and change without one are 422 at /queueUnits, nothing written', async () => {
    const ctx = await sectionContext()
    const needsUnit = 'a manager or a clerk needs at least one queue unit (queueUnits)'
    for (const body of [{ username: 'nour', role: 'manager' }, { username: 'nour', role: 'clerk', queueUnits: [] }]) {
      const refused = await expectError(await call(ctx, ctx.admin, 'POST', '/users', { body }), 422, C.VALIDATION_FAILED)
      expect(refused.error.details).toEqual([{ path: '/queueUnits', message: needsUnit, rule: 'minItems', params: { min: 1 } }])
    }
    expect((await expectOk(await call(ctx, ctx.admin, 'GET', '/users'))).data.map((u: any) => u.username)).not.toContain('nour')
    // An admin has no unit list: becoming a clerk or a manager needs units given with the role.
    await expectOk(await call(ctx, ctx.admin, 'POST', '/users', { body: { username: 'zaid', role: 'admin' } }), 201)
    for (const body of [{ role: 'clerk' }, { role: 'manager', queueUnits: [] }]) {
      const refused = await expectError(await call(ctx, ctx.admin, 'PATCH', '/users/zaid', { body }), 422, C.VALIDATION_FAILED)
      expect(refused.error.details).toEqual([{ path: '/queueUnits', message: needsUnit, rule: 'minItems', params: { min: 1 } }])
    }
    // A manager's units cannot be emptied either.
    await expectError(await call(ctx, ctx.admin, 'PATCH', '/users/mona', { body: { queueUnits: [] } }), 422, C.VALIDATION_FAILED)
    expect(auditOf(ctx).map((e) => e.action)).toEqual(['user.create'])
    expect((await expectOk(await call(ctx, ctx.admin, 'PATCH', '/users/zaid', { body: { role: 'clerk', queueUnits: ['qu_main'] } }))).data).toMatchObject({ role: 'clerk', queueUnits: ['qu_main'] })
  })

  test('change role and units, disable (sessions end), reset (a new link, the old password gone); each audited', async () => {
    const ctx = await sectionContext()
    const changed = (await expectOk(await call(ctx, ctx.admin, 'PATCH', '/users/mona', { body: { queueUnits: ['qu_main', 'qu_east'] } }))).data
    expect(changed).toMatchObject({ username: 'mona', role: 'manager', queueUnits: ['qu_main', 'qu_east'] })
    expect(auditOf(ctx, 'user.update')).toMatchObject([{ before: { queueUnits: ['qu_main'] }, after: { queueUnits: ['qu_main', 'qu_east'] } }])
    // The signed-in manager sees the new units on the next request.
    expect((await expectOk(await request(ctx.app, 'GET', CURRENT, { headers: { cookie: ctx.manager } }))).queueUnits).toEqual(['qu_main', 'qu_east'])
    await expectError(await call(ctx, ctx.admin, 'PATCH', '/users/mona', { body: {} }), 422, C.VALIDATION_FAILED)
    await expectError(await call(ctx, ctx.admin, 'PATCH', '/users/nobody', { body: { role: 'clerk' } }), 404, C.USER_NOT_FOUND)
    await expectError(await call(ctx, ctx.admin, 'PATCH', '/users/ada', { body: { role: 'manager', queueUnits: ['qu_main'] } }), 422, C.VALIDATION_FAILED)
    await expectError(await call(ctx, ctx.admin, 'POST', '/users/ada/disable'), 422, C.VALIDATION_FAILED)

    expect((await expectOk(await call(ctx, ctx.admin, 'POST', '/users/mona/disable'))).data).toEqual({ username: 'mona', state: 'disabled', sessionsEnded: 1 })
    expect((await request(ctx.app, 'GET', CURRENT, { headers: { cookie: ctx.manager } })).status).toBe(401)
    const reset = (await expectOk(await call(ctx, ctx.admin, 'POST', '/users/mona/reset'))).data
    expect(reset.setupPath).toMatch(/^\/login\/setup\?code=/)
    expect((await signIn(ctx, 'mona')).status).toBe(401)
    expect(everythingWritten(ctx)).not.toContain(codeOf(reset.setupPath))
    expect(auditOf(ctx).map((e) => e.action)).toEqual(['user.reset', 'user.disable', 'user.update'])
    expect(auditOf(ctx, 'user.reset')).toMatchObject([{ before: { state: 'disabled', passwordSet: true }, after: { state: 'active', passwordSet: false } }])
  })

  test('administrators only: a manager and a clerk get 403 ROLE_FORBIDDEN on every route, no session 401, a foreign Origin 403', async () => {
    const ctx = await sectionContext()
    const routes: [string, string, unknown?][] = [
      ['GET', '/users'], ['POST', '/users', NEW_CLERK], ['PATCH', '/users/carl', { role: 'manager' }], ['POST', '/users/carl/disable'], ['POST', '/users/carl/reset'],
    ]
    for (const [method, path, body] of routes) {
      for (const cookie of [ctx.manager, ctx.clerk]) await expectError(await call(ctx, cookie, method, path, { body }), 403, C.ROLE_FORBIDDEN)
      await expectError(await call(ctx, null, method, path, { body }), 401, C.AUTHENTICATION_FAILED)
      const key = ctx.provisioned.secret('queue', 'qu_main', 'all')
      await expectError(await call(ctx, null, method, path, { body, headers: { authorization: `Bearer ${key}` } }), 401, C.AUTHENTICATION_FAILED)
      if (method !== 'GET') await expectError(await call(ctx, ctx.admin, method, path, { body, origin: 'https://evil.example' }), 403, C.ORIGIN_FORBIDDEN)
    }
    expect(auditOf(ctx)).toEqual([])
  })
})

describe('console: a clerk moved to another unit', () => {
  test('is signed out of the desk of the unit no longer theirs, at once', async () => {
    const ctx = await clerkContext()
    const desk = await deskOf(ctx)
    await signedInAt(ctx, desk, 'samir.k')
    expect((await deskView(ctx, desk)).clerk).toMatchObject({ username: 'samir.k' })
    await withPassword(ctx, { username: 'ada', role: 'admin' })
    const admin = await signedIn(ctx, 'ada')
    await expectOk(await call(ctx, admin, 'PATCH', '/users/samir.k', { body: { queueUnits: ['qu_other'] } }))
    expect((await deskView(ctx, desk)).clerk).toBeNull()
    // Renaming alone changes no unit: another clerk stays signed in.
    await signedInAt(ctx, desk, 'lina.m')
    await expectOk(await call(ctx, admin, 'PATCH', '/users/lina.m', { body: { displayName: 'Lina M.' } }))
    expect((await deskView(ctx, desk)).clerk).toEqual({ username: 'lina.m', displayName: 'Lina M.' })
  })
})
