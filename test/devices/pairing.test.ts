import { describe, expect, test } from 'bun:test'
import { request } from '../support/app'
import { counterContext } from '../counters/helpers'
import { DeviceCodes } from '../../src/devices/errors'
import { PAIR_ATTEMPTS_OVERALL, PAIR_ATTEMPTS_PER_ADDRESS } from '../../src/devices/routes'
import { DeviceService } from '../../src/devices/service'
import { hashSecret } from '../../src/platform/credentials'
import { asDevice, cookieOf, jsonOf, PAIR, pairingCode } from './helpers'

const DESK = { role: 'desk', counterId: 'cnt_1' } as const

describe('POST /api/devices/v1/pair', () => {
  test('a good code answers the role and home and sets the HttpOnly, SameSite=Strict cookie; the secret is stored only hashed', async () => {
    const ctx = counterContext()
    const response = await request(ctx.app, 'POST', PAIR, { body: { code: pairingCode(ctx, DESK), deviceName: 'front-desk-pc' } })
    expect(response.status).toBe(200)
    expect(await jsonOf(response)).toEqual({ role: 'desk', home: '/desk', name: 'front-desk-pc' })
    const header = response.headers.get('set-cookie')!
    expect(header).toMatch(/^lobby_device=lbv_[a-z2-7]+; /)
    const attributes = header.split(';').slice(1).map((a) => a.trim())
    expect(attributes).toContain('HttpOnly')
    expect(attributes).toContain('SameSite=Strict')
    expect(attributes).toContain('Path=/')
    expect(attributes).not.toContain('Secure')

    const secret = cookieOf(response).slice('lobby_device='.length)
    expect((secret.length - 4) * 5).toBeGreaterThanOrEqual(128)
    const row = ctx.db.$client.query("SELECT * FROM credentials WHERE kind = 'device'").get() as Record<string, unknown>
    expect(row).toMatchObject({ name: 'front-desk-pc', secret: null, secret_hash: hashSecret(secret) })
    expect(JSON.stringify(ctx.db.$client.query('SELECT * FROM credentials').all())).not.toContain(secret)
  })

  test('over TLS the cookie is also Secure', async () => {
    const ctx = counterContext()
    const response = await ctx.app.handle(new Request(`https://localhost${PAIR}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: pairingCode(ctx, DESK) }),
    }))
    expect(response.status).toBe(200)
    expect(response.headers.get('set-cookie')!.split(';').map((a) => a.trim())).toContain('Secure')
  })

  test('a wrong code is 400 PAIRING_CODE_INVALID and pairs nothing', async () => {
    const ctx = counterContext()
    const good = pairingCode(ctx, DESK)
    const wrong = good === '000000' ? '000001' : '000000'
    for (const code of [wrong, 'abcdef', '12345']) {
      const response = await request(ctx.app, 'POST', PAIR, { body: { code } })
      expect(response.status).toBe(400)
      expect((await jsonOf(response)).error.code).toBe(DeviceCodes.PAIRING_CODE_INVALID)
      expect(response.headers.get('set-cookie')).toBeNull()
    }
    expect(new DeviceService(ctx.db).list()).toEqual([])
  })

  test('a code works once: the second use is 400 PAIRING_CODE_INVALID', async () => {
    const ctx = counterContext()
    const code = pairingCode(ctx, DESK)
    expect((await request(ctx.app, 'POST', PAIR, { body: { code } })).status).toBe(200)
    const again = await request(ctx.app, 'POST', PAIR, { body: { code } })
    expect(again.status).toBe(400)
    expect((await jsonOf(again)).error.code).toBe(DeviceCodes.PAIRING_CODE_INVALID)
    expect(new DeviceService(ctx.db).list()).toHaveLength(1)
  })

  test('a code expires after its TTL (default 600 s): valid just before, refused at the end', async () => {
    const ctx = counterContext()
    const fresh = pairingCode(ctx, DESK)
    const expiring = pairingCode(ctx, DESK)
    ctx.clock.advance(600_000 - 1)
    expect((await request(ctx.app, 'POST', PAIR, { body: { code: fresh } })).status).toBe(200)
    ctx.clock.advance(1)
    const late = await request(ctx.app, 'POST', PAIR, { body: { code: expiring } })
    expect(late.status).toBe(400)
    expect((await jsonOf(late)).error.code).toBe(DeviceCodes.PAIRING_CODE_INVALID)
  })

  test('more than 10 tries a minute from one address is 429 with Retry-After, even with the right code; a minute later it works', async () => {
    const ctx = counterContext()
    const code = pairingCode(ctx, DESK)
    for (let i = 0; i < PAIR_ATTEMPTS_PER_ADDRESS; i++) {
      expect((await request(ctx.app, 'POST', PAIR, { body: { code: code === '999999' ? '999998' : '999999' } })).status).toBe(400)
    }
    const limited = await request(ctx.app, 'POST', PAIR, { body: { code } })
    expect(limited.status).toBe(429)
    expect((await jsonOf(limited)).error.code).toBe(DeviceCodes.RATE_LIMITED)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    ctx.clock.advance(60_000)
    expect((await request(ctx.app, 'POST', PAIR, { body: { code } })).status).toBe(200)
  })

  test('more than 100 tries a minute overall is 429', async () => {
    const ctx = counterContext()
    const code = pairingCode(ctx, DESK)
    // 100 tries from other addresses (the route counts every address in `pair:all`).
    for (let i = 0; i < PAIR_ATTEMPTS_OVERALL; i++) expect(ctx.deps.limiter.attempt('pair:all', PAIR_ATTEMPTS_OVERALL, ctx.clock.now()).allowed).toBe(true)
    const limited = await request(ctx.app, 'POST', PAIR, { body: { code } })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).not.toBeNull()
  })

  test('bad bodies: not JSON 400 INVALID_JSON, a missing code 422, another content type 400', async () => {
    const ctx = counterContext()
    const notJson = await request(ctx.app, 'POST', PAIR, { raw: '{', headers: { 'content-type': 'application/json' } })
    expect((await jsonOf(notJson)).error.code).toBe(DeviceCodes.INVALID_JSON)
    const missing = await request(ctx.app, 'POST', PAIR, { body: { deviceName: 'x' } })
    expect(missing.status).toBe(422)
    const form = await request(ctx.app, 'POST', PAIR, { raw: 'code=123456', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(form.status).toBe(400)
    expect((await jsonOf(form)).error.code).toBe(DeviceCodes.INVALID_REQUEST)
  })

  test('a second device of the same name gets a suffix; the page says who it is', async () => {
    const ctx = counterContext()
    const first = cookieOf(await request(ctx.app, 'POST', PAIR, { body: { code: pairingCode(ctx, DESK) } }))
    const second = await request(ctx.app, 'POST', PAIR, { body: { code: pairingCode(ctx, DESK) } })
    expect((await jsonOf(second)).name).toBe('desk-cnt_1-2')
    const me = await asDevice(ctx, first, 'GET', '/api/devices/v1/device')
    expect((await jsonOf(me)).data).toEqual({
      name: 'desk-cnt_1', role: 'desk', home: '/desk', binding: { workspaceId: 'ws_demo', queueUnitId: 'qu_main', locationId: 'loc_hall', counterId: 'cnt_1' },
    })
  })

  test('pairing a browser again replaces its old device, which is revoked', async () => {
    const ctx = counterContext()
    const first = cookieOf(await request(ctx.app, 'POST', PAIR, { body: { code: pairingCode(ctx, DESK) } }))
    const again = await request(ctx.app, 'POST', PAIR, { body: { code: pairingCode(ctx, { role: 'display', workspaceId: 'ws_demo' }) }, headers: { cookie: first } })
    expect(again.status).toBe(200)
    expect(new DeviceService(ctx.db).list().map((d) => `${d.name}:${d.state}`)).toEqual(['desk-cnt_1:revoked', 'display-ws_demo:active'])
    expect((await asDevice(ctx, first, 'GET', '/api/devices/v1/device')).status).toBe(401)
    // A wrong code changes nothing: the browser keeps its pairing.
    const second = cookieOf(again)
    expect((await request(ctx.app, 'POST', PAIR, { body: { code: '000000' }, headers: { cookie: second } })).status).toBe(400)
    expect((await asDevice(ctx, second, 'GET', '/api/devices/v1/device')).status).toBe(200)
  })

  test('the /pair page is served with its embedded assets, no CDN', async () => {
    const ctx = counterContext()
    const page = await request(ctx.app, 'GET', '/pair?code=123456&lang=ar')
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('dir="rtl"')
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    // Its own embedded assets, and the icon every page shares (src/platform/favicon.ts).
    expect(assets.filter((a) => a !== '/favicon.ico').every((a) => a.startsWith('/devices/assets/'))).toBe(true)
    for (const asset of assets) expect((await request(ctx.app, 'GET', asset)).status).toBe(200)
  })
})
