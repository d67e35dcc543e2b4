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

  test('passwords: at least 10 characters, not among the 100,000 most common (any case); nothing is used up by a refusal', async () => {
    const ctx = peopleContext()
    const code = codeOf(cli(ctx).addUser({ username: 'root', role: 'admin' }, ctx.clock.now()).setupPath)
    for (const [password, expected] of [
      ['short1234', PeopleCodes.PASSWORD_TOO_SHORT],
      ['ęęęęęęęęę', PeopleCodes.PASSWORD_TOO_SHORT],
      ['password123', PeopleCodes.PASSWORD_TOO_COMMON],
      ['Basketball', PeopleCodes.PASSWORD_TOO_COMMON],
      ['iloveyou12', PeopleCodes.PASSWORD_TOO_COMMON],
      ['x'.repeat(300), PeopleCodes.VALIDATION_FAILED],
    ] as const) {
      const response = await request(ctx.app, 'POST', SETUP, { body: { code, password } })
      expect({ password: password.slice(0, 12), status: response.status }).toEqual({ password: password.slice(0, 12), status: 422 })
      const body = await jsonOf(response)
      expect(body.error.code).toBe(expected)
      expect(JSON.stringify(body)).not.toContain(password)
    }
    // Ten code points, not bytes (and neither one repeated character nor a run).
    expect((await request(ctx.app, 'POST', SETUP, { body: { code, password: 'ęąśćżźńółę' } })).status).toBe(200)
    const none = { username: 'root', workspaceNames: [] }
    expect(passwordProblem('password', none)).toBe('too-short')
    // Contract §27: the 100,000 most common of 10 characters or more (an 11-character one too), in any case.
    for (const common of ['password123', 'PASSWORD123', 'Password123', '1q2w3e4r5t', '1qaz2wsx3edc']) expect(passwordProblem(common, none)).toBe('too-common')
    expect(passwordProblem('quiet lantern 42 orchard', none)).toBeNull()
    expect(passwordProblem('correct horse battery', none)).toBeNull()
  })

  test('contract §27: one repeated character, a run, the username or a workspace\'s name inside are refused, each with its code', async () => {
    const ctx = peopleContext()
    ctx.db.$client.run("INSERT INTO workspaces (id, name, created_at, updated_at) VALUES ('ws_acme', 'Acme Trust', 0, 0)")
    const code = codeOf(cli(ctx).addUser({ username: 'amira.h', role: 'admin' }, ctx.clock.now()).setupPath)
    for (const [password, expected] of [
      ['aaaaaaaaaa', PeopleCodes.PASSWORD_REPEATED],
      ['AaAaAaAaAa', PeopleCodes.PASSWORD_REPEATED],
      [' '.repeat(10), PeopleCodes.PASSWORD_REPEATED],
      ['abcdefghij', PeopleCodes.PASSWORD_SEQUENCE],
      ['1234567890', PeopleCodes.PASSWORD_SEQUENCE],
      ['9876543210', PeopleCodes.PASSWORD_SEQUENCE],
      ['ZYXWVUTSRQPONM', PeopleCodes.PASSWORD_SEQUENCE],
      ['qwertyuiop', PeopleCodes.PASSWORD_SEQUENCE],
      ['my name is AMIRA.H ok', PeopleCodes.PASSWORD_CONTAINS_USERNAME],
      ['welcome to demo 2026', PeopleCodes.PASSWORD_CONTAINS_WORKSPACE],
      ['ACME TRUST forever', PeopleCodes.PASSWORD_CONTAINS_WORKSPACE],
      ['acmetrust4ever', PeopleCodes.PASSWORD_CONTAINS_WORKSPACE],
    ] as const) {
      ctx.clock.advance(7_000) // under the setup's 10 a minute from one address
      const response = await request(ctx.app, 'POST', SETUP, { body: { code, password } })
      const body = await jsonOf(response)
      expect({ password, status: response.status, code: body.error.code }).toEqual({ password, status: 422, code: expected })
      expect(body.error.details).toEqual([{ path: '/password', message: expect.any(String) }])
      expect(JSON.stringify(body)).not.toContain(password)
    }
    // Nothing was used up: a good passphrase still sets the password.
    expect((await request(ctx.app, 'POST', SETUP, { body: { code, password: GOOD_PASSWORD } })).status).toBe(200)
  })

  test('the rules, one by one: runs only over the whole password, names of 3 or more characters only', () => {
    const context = { username: 'amira.h', workspaceNames: ['Demo workspace', 'QA'] }
    expect(passwordProblem('aaaaaaaaaa', context)).toBe('repeated')
    expect(passwordProblem('ęęęęęęęęęę', context)).toBe('repeated')
    expect(passwordProblem('abcdefghij', context)).toBe('sequence')
    expect(passwordProblem('7890123456', context)).toBe('sequence')
    expect(passwordProblem(';lkjhgfdsa', context)).toBe('sequence')
    // A run inside a longer password, or a run with a gap, is not one over the whole password.
    expect(passwordProblem('abcdefghij plus tulips', context)).toBeNull()
    expect(passwordProblem('acegikmoqs', context)).toBeNull()
    expect(passwordProblem('aaaaaaaaab', context)).toBeNull()
    expect(passwordProblem('xAmira.H2026x', context)).toBe('contains-username')
    expect(passwordProblem('demoworkspace!', context)).toBe('contains-workspace')
    // A two-letter name or username is in too many words to be refused.
    expect(passwordProblem('quality lanterns 42', context)).toBeNull()
    expect(passwordProblem('omni lantern 42', { username: 'om', workspaceNames: [] })).toBeNull()
    expect(passwordProblem('omni lantern 42', { username: 'omn', workspaceNames: [] })).toBe('contains-username')
  })

  test('the setup page carries each refusal\'s words, in English and in Arabic (the page script shows the one the API names)', async () => {
    const ctx = peopleContext()
    const link = cli(ctx).addUser({ username: 'root', role: 'admin' }, ctx.clock.now())
    const words = {
      en: {
        PASSWORD_TOO_COMMON: 'This password is among the most common ones. Choose another.',
        PASSWORD_REPEATED: 'The password is one character repeated. Choose another.',
        PASSWORD_SEQUENCE: 'The password is a run of letters, digits or keys in a row (like abcdefghij or 1234567890). Choose another.',
        PASSWORD_CONTAINS_USERNAME: 'The password must not contain your username. Choose another.',
        PASSWORD_CONTAINS_WORKSPACE: 'The password must not contain the name of your organisation (its workspace in Lobby). Choose another.',
      },
      ar: {
        PASSWORD_TOO_COMMON: 'كلمة المرور هذه من أكثر الكلمات شيوعًا. اختر غيرها.',
        PASSWORD_REPEATED: 'كلمة المرور حرف واحد مكرر. اختر غيرها.',
        PASSWORD_SEQUENCE: 'كلمة المرور سلسلة متتالية من الحروف أو الأرقام أو مفاتيح لوحة المفاتيح (مثل abcdefghij أو 1234567890). اختر غيرها.',
        PASSWORD_CONTAINS_USERNAME: 'يجب ألا تحتوي كلمة المرور على اسم المستخدم الخاص بك. اختر غيرها.',
        PASSWORD_CONTAINS_WORKSPACE: 'يجب ألا تحتوي كلمة المرور على اسم مؤسستك (مساحة عملها في Lobby). اختر غيرها.',
      },
    } as const
    for (const lang of ['en', 'ar'] as const) {
      const html = await (await request(ctx.app, 'GET', `${link.setupPath}${lang === 'ar' ? '&lang=ar' : ''}`)).text()
      for (const [code, said] of Object.entries(words[lang])) {
        // The page script reads `data-msg` + the code lowercased without underscores.
        expect(html).toContain(` data-msg${code.toLowerCase().replace(/_/g, '')}="${said}"`)
      }
    }
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
