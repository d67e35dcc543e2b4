import { describe, expect, test } from 'bun:test'
import { admin, adminContext, expectError, jsonOf, request, UNIT, ADMIN, type AdminTestContext } from './helpers'

/*
 * Contract §16/§17 role rules on every branch route: no session 401, an API key is no
 * credential here (401), a clerk 403 ROLE_FORBIDDEN, a manager of another unit 403
 * UNIT_FORBIDDEN, a write from another origin 403 ORIGIN_FORBIDDEN; the manager of the unit
 * and an admin get through.
 */

const COUNTER = { name: { en: 'Counter 9' }, locationId: 'loc_hall', services: ['svc_accounts'] }

/** Every branch route of qu_main, with a body a permitted caller could send. */
function routes(revision: string): { method: string; path: string; body?: unknown }[] {
  const out: { method: string; path: string; body?: unknown }[] = [
    { method: 'GET', path: UNIT },
    { method: 'PUT', path: UNIT, body: { name: 'Main branch', revision } },
  ]
  for (const [collection, id] of [['locations', 'loc_hall'], ['services', 'svc_accounts'], ['counters', 'cnt_1']] as const) {
    out.push(
      { method: 'GET', path: `${UNIT}/${collection}` },
      { method: 'POST', path: `${UNIT}/${collection}`, body: COUNTER },
      { method: 'GET', path: `${UNIT}/${collection}/${id}` },
      { method: 'PUT', path: `${UNIT}/${collection}/${id}`, body: { ...COUNTER, revision } },
      { method: 'DELETE', path: `${UNIT}/${collection}/${id}?revision=${revision}` },
    )
  }
  return out
}

describe('admin API roles (contract §17)', () => {
  let ctx: AdminTestContext
  const rev = 'AAAAAAAAAAAAAAAA'

  test('no session: 401 on every route, and an API key or a display token is no credential here', async () => {
    ctx = await adminContext()
    const key = ctx.provisioned.secret('queue', 'qu_main', 'all')
    const token = ctx.provisioned.secret('display', 'ws_demo', 'lobby-screens')
    for (const route of [...routes(rev), { method: 'GET', path: `${ADMIN}/queue-units` }, { method: 'GET', path: `${ADMIN}/audit` }]) {
      await expectError(await admin(ctx, null, route.method, route.path, route.body), 401, 'AUTHENTICATION_FAILED')
      await expectError(await admin(ctx, null, route.method, route.path, route.body, { authorization: `Bearer ${key}` }), 401, 'AUTHENTICATION_FAILED')
      await expectError(await admin(ctx, null, route.method, route.path, route.body, { authorization: `Bearer ${token}` }), 401, 'AUTHENTICATION_FAILED')
    }
  })

  test('a clerk: 403 ROLE_FORBIDDEN on every route', async () => {
    for (const route of [...routes(rev), { method: 'GET', path: `${ADMIN}/queue-units` }, { method: 'GET', path: `${ADMIN}/audit` }]) {
      await expectError(await admin(ctx, ctx.cookie.sami, route.method, route.path, route.body), 403, 'ROLE_FORBIDDEN')
    }
  })

  test('a manager of another unit: 403 UNIT_FORBIDDEN on every route of this unit; nothing changed', async () => {
    const before = ctx.db.$client.query('SELECT count(*) AS n FROM audit_log').get()
    for (const route of routes(rev)) {
      const body = await expectError(await admin(ctx, ctx.cookie.omar, route.method, route.path, route.body), 403, 'UNIT_FORBIDDEN')
      expect(body.error.message).toContain('qu_main')
    }
    expect(ctx.db.$client.query('SELECT count(*) AS n FROM audit_log').get()).toEqual(before)
    // Their own unit is theirs, and the list shows only it.
    expect((await admin(ctx, ctx.cookie.omar, 'GET', `${ADMIN}/queue-units/qu_other/counters`)).status).toBe(200)
    const units = await jsonOf(await admin(ctx, ctx.cookie.omar, 'GET', `${ADMIN}/queue-units`))
    expect(units.data.map((u: { id: string }) => u.id)).toEqual(['qu_other'])
  })

  test('a write from another origin: 403 ORIGIN_FORBIDDEN, even for an admin', async () => {
    for (const route of routes(rev).filter((r) => r.method !== 'GET')) {
      await expectError(await admin(ctx, ctx.cookie.root, route.method, route.path, route.body, { origin: 'https://evil.example' }), 403, 'ORIGIN_FORBIDDEN')
    }
  })

  test('the unit\'s manager and an admin read every route; a stale revision is their only refusal on writes', async () => {
    for (const who of ['amira', 'root'] as const) {
      for (const route of routes(rev)) {
        const response = await admin(ctx, ctx.cookie[who], route.method, route.path, route.body)
        if (route.method === 'GET') expect(response.status).toBe(200)
        else if (route.method === 'POST') expect([201, 422]).toContain(response.status)
        else await expectError(response, 409, 'EDIT_CONFLICT')
      }
    }
    const units = await jsonOf(await admin(ctx, ctx.cookie.root, 'GET', `${ADMIN}/queue-units`))
    expect(units.data.map((u: { id: string }) => u.id)).toEqual(['qu_main', 'qu_other'])
  })

  test('the /admin page: signed out → /login, a clerk → 403 in words, a manager → the console', async () => {
    const out = await request(ctx.app, 'GET', '/admin')
    expect(out.status).toBe(303)
    expect(out.headers.get('location')).toBe('/login')
    const clerk = await request(ctx.app, 'GET', '/admin', { headers: { cookie: ctx.cookie.sami } })
    expect(clerk.status).toBe(403)
    expect(await clerk.text()).toContain('The administration console is for managers and administrators')
    const manager = await request(ctx.app, 'GET', '/admin?lang=ar', { headers: { cookie: ctx.cookie.amira } })
    expect(manager.status).toBe(200)
    const html = await manager.text()
    expect(html).toContain('dir="rtl"')
    expect(html).toContain('data-role="manager"')
  })

  test('the start page / links to what the person may open, and /login and /pair; API 404s stay JSON', async () => {
    const anonymous = await (await request(ctx.app, 'GET', '/')).text()
    expect(anonymous).toContain('href="/login"')
    expect(anonymous).toContain('href="/pair"')
    expect(anonymous).not.toContain('href="/admin"')
    const manager = await (await request(ctx.app, 'GET', '/', { headers: { cookie: ctx.cookie.amira } })).text()
    for (const page of ['/admin', '/manage', '/reports', '/login', '/pair']) expect(manager).toContain(`href="${page}"`)
    const clerk = await (await request(ctx.app, 'GET', '/', { headers: { cookie: ctx.cookie.sami } })).text()
    expect(clerk).toContain('href="/desk"')
    expect(clerk).not.toContain('href="/admin"')
    const missing = await request(ctx.app, 'GET', '/api/admin/v1/nothing-here')
    expect(missing.status).toBe(404)
    expect((await jsonOf(missing)).error.code).toBe('NOT_FOUND')
  })
})
