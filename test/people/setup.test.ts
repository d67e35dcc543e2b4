import { describe, expect, test } from 'bun:test'
import { PeopleCodes, SETUP_CODE_TTL_MS } from '../../src/people'
import { passwordProblem } from '../../src/people'
import { cli, codeOf, GOOD_PASSWORD, jsonOf, ORIGIN, peopleContext, request, SETUP, signIn } from './helpers'

describe('setup links (contract §16)', () => {
  test('a setup link works once; only a hash of its code is stored', async () => {
    const ctx = peopleContext()
    const link = cli(ctx).addUser({ username: 'root', role: 'admin' }, ctx.clock.now())
    const code = codeOf(link.setupPath)
    const stored = ctx.db.$client.query('SELECT code_hash FROM user_setup_codes').all() as { code_hash: string }[]
    expect(stored.map((r) => r.code_hash)).not.toContain(code)
    const first = await request(ctx.app, 'POST', SETUP, { body: { code, password: GOOD_PASSWORD }, headers: { origin: ORIGIN } })
    expect(first.status).toBe(200)
    expect(await jsonOf(first)).toEqual({ username: 'root', role: 'admin', next: '/login' })
    const again = await request(ctx.app, 'POST', SETUP, { body: { code, password: 'another good passphrase' } })
    expect(again.status).toBe(400)
    expect((await jsonOf(again)).error.code).toBe(PeopleCodes.SETUP_CODE_INVALID)
    expect((await signIn(ctx, 'root')).status).toBe(200)
    expect((await signIn(ctx, 'root', 'another good passphrase')).status).toBe(401)
  })

  test('two requests racing with one code: one wins', async () => {
    const ctx = peopleContext()
    const code = codeOf(cli(ctx).addUser({ username: 'root', role: 'admin' }, ctx.clock.now()).setupPath)
    const answers = await Promise.all(['first good passphrase', 'second good passphrase'].map((password) => request(ctx.app, 'POST', SETUP, { body: { code, password } })))
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400])
  })

  test('a link expires after 24 hours; the page says so in words', async () => {
    const ctx = peopleContext()
    const link = cli(ctx).addUser({ username: 'root', role: 'admin' }, ctx.clock.now())
    ctx.clock.advance(SETUP_CODE_TTL_MS - 1000)
    const page = await request(ctx.app, 'GET', link.setupPath)
    expect(await page.text()).toContain('id="password"')
    ctx.clock.advance(1000)
    const expiredPage = await (await request(ctx.app, 'GET', link.setupPath)).text()
    expect(expiredPage).toContain('wrong, expired or already used')
    expect(expiredPage).not.toContain('<form')
    const response = await request(ctx.app, 'POST', SETUP, { body: { code: codeOf(link.setupPath), password: GOOD_PASSWORD } })
    expect(response.status).toBe(400)
    expect((await jsonOf(response)).error.code).toBe(PeopleCodes.SETUP_CODE_INVALID)
  })

  test('passwords: at least 10 characters, not among the 10,000 most common (any case); nothing is used up by a refusal', async () => {
    const ctx = peopleContext()
    const code = codeOf(cli(ctx).addUser({ username: 'root', role: 'admin' }, ctx.clock.now()).setupPath)
    for (const [password, expected] of [
      ['short1234', PeopleCodes.PASSWORD_TOO_SHORT],
      ['ęęęęęęęęę', PeopleCodes.PASSWORD_TOO_SHORT],
      ['1234567890', PeopleCodes.PASSWORD_TOO_COMMON],
      ['qwertyuiop', PeopleCodes.PASSWORD_TOO_COMMON],
      ['Basketball', PeopleCodes.PASSWORD_TOO_COMMON],
      ['x'.repeat(300), PeopleCodes.VALIDATION_FAILED],
    ] as const) {
      const response = await request(ctx.app, 'POST', SETUP, { body: { code, password } })
      expect({ password: password.slice(0, 12), status: response.status }).toEqual({ password: password.slice(0, 12), status: 422 })
      const body = await jsonOf(response)
      expect(body.error.code).toBe(expected)
      expect(JSON.stringify(body)).not.toContain(password)
    }
    expect((await request(ctx.app, 'POST', SETUP, { body: { code, password: 'ęęęęęęęęęę' } })).status).toBe(200)
    expect(passwordProblem('password')).toBe('too-short')
    expect(passwordProblem('iloveyou12')).toBeNull()
    expect(passwordProblem('1qaz2wsx3edc')).toBeNull()
    expect(passwordProblem('michael1234')).toBeNull()
    expect(passwordProblem('1q2w3e4r5t')).toBe('too-common')
  })

  test('a clerk sets a 6-digit PIN with the password, hashed the same way; other roles have none', async () => {
    const ctx = peopleContext()
    const clerk = codeOf(cli(ctx).addUser({ username: 'omar.k', role: 'clerk', queueUnits: ['qu_main'] }, ctx.clock.now()).setupPath)
    const page = await (await request(ctx.app, 'GET', `/login/setup?code=${clerk}`)).text()
    expect(page).toContain('id="pin"')
    for (const pin of [undefined, '12345', '1234567', '12345a', '١٢٣٤٥٦']) {
      const response = await request(ctx.app, 'POST', SETUP, { body: { code: clerk, password: GOOD_PASSWORD, ...(pin === undefined ? {} : { pin }) } })
      expect(response.status).toBe(422)
      expect((await jsonOf(response)).error.code).toBe(PeopleCodes.PIN_INVALID)
    }
    expect((await request(ctx.app, 'POST', SETUP, { body: { code: clerk, password: GOOD_PASSWORD, pin: '048213' } })).status).toBe(200)
    const row = ctx.db.$client.query("SELECT pin_hash, password_hash FROM users WHERE username = 'omar.k'").get() as { pin_hash: string; password_hash: string }
    expect(row.pin_hash).toStartWith('$argon2id$')
    expect(row.password_hash).toStartWith('$argon2id$')
    expect(await Bun.password.verify('048213', row.pin_hash)).toBe(true)

    const manager = codeOf(cli(ctx).addUser({ username: 'amira.h', role: 'manager', queueUnits: ['qu_main'] }, ctx.clock.now()).setupPath)
    expect(await (await request(ctx.app, 'GET', `/login/setup?code=${manager}`)).text()).not.toContain('id="pin"')
    const withPin = await request(ctx.app, 'POST', SETUP, { body: { code: manager, password: GOOD_PASSWORD, pin: '123456' } })
    expect((await jsonOf(withPin)).error.code).toBe(PeopleCodes.PIN_INVALID)
  })

  test('bad input is never a 500: wrong types, unknown fields, not JSON, a huge body', async () => {
    const ctx = peopleContext()
    for (const raw of ['{', '[]', 'null', '{"code":1,"password":2}', '{"code":"x","password":"y","admin":true}']) {
      const response = await request(ctx.app, 'POST', SETUP, { raw, headers: { 'content-type': 'application/json' } })
      expect([400, 422]).toContain(response.status)
    }
    expect((await request(ctx.app, 'POST', SETUP, { raw: 'code=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(400)
    expect((await request(ctx.app, 'POST', SETUP, { raw: JSON.stringify({ code: 'x'.repeat(5000), password: 'y' }), headers: { 'content-type': 'application/json' } })).status).toBe(413)
  })
})
