import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { startServer } from '../../src/server'
import { runCli, tempDir } from '../support/cli'
import { GOOD_PASSWORD, SETUP } from './helpers'

/*
 * Contract §24, first start: no shell step before the browser. `serve` on nothing creates and
 * migrates the database and prints a first administrator's setup link; `/` says where to look;
 * the link is good once; a new start prints a new one until an administrator has a password.
 * The CLI's writing commands create and migrate a missing database too; reading ones do not.
 */

async function start(dbPath: string) {
  const printed: string[] = []
  const logs: Record<string, unknown>[] = []
  const server = await startServer({
    port: 0, host: '127.0.0.1', dbPath, durability: 'normal',
    announce: (text) => printed.push(text),
    log: (record) => logs.push(record),
  })
  return { server, printed: () => printed.join(''), logs }
}

const linkIn = (text: string): URL => {
  const match = /(http:\/\/\S+\/login\/setup\?code=[a-z2-7]+)/.exec(text)
  if (match === null) throw new Error(`no setup link in ${JSON.stringify(text)}`)
  return new URL(match[1]!)
}

describe('first start (contract §24)', () => {
  test('serve on nothing: the database is made, a first-admin link is printed (never logged), / says so, the link sets a password once', async () => {
    const dbPath = join(tempDir(), 'new', 'lobby.db')
    const first = await start(dbPath)
    try {
      expect(existsSync(dbPath)).toBe(true)
      const link = linkIn(first.printed())
      expect(first.printed()).toContain('username "admin"')
      expect(link.origin).toBe(first.server.url)
      // The log says a link was printed, never the code.
      const code = link.searchParams.get('code')!
      expect(first.logs.some((l) => l.msg === 'first administrator: setup link printed on stdout')).toBe(true)
      expect(JSON.stringify(first.logs)).not.toContain(code)

      const home = await (await fetch(`${first.server.url}/`)).text()
      expect(home).toContain('no administrator yet')
      expect(home).toContain('setup link the server printed')
      const arabic = await (await fetch(`${first.server.url}/?lang=ar`)).text()
      expect(arabic).toContain('لا يوجد مسؤول')

      expect((await fetch(link)).status).toBe(200)
      const set = await fetch(`${first.server.url}${SETUP}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: first.server.url }, body: JSON.stringify({ code, password: GOOD_PASSWORD }) })
      expect(set.status).toBe(200)
      expect(await set.json()).toMatchObject({ username: 'admin', role: 'admin' })
      const again = await fetch(`${first.server.url}${SETUP}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: first.server.url }, body: JSON.stringify({ code, password: GOOD_PASSWORD }) })
      expect(again.status).toBe(400)
      expect(await (await fetch(`${first.server.url}/`)).text()).not.toContain('no administrator yet')
      const signIn = await fetch(`${first.server.url}/api/auth/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json', origin: first.server.url }, body: JSON.stringify({ username: 'admin', password: GOOD_PASSWORD }) })
      expect(signIn.status).toBe(200)
    } finally {
      await first.server.stop()
    }
    // An administrator has a password now: the next start prints nothing.
    const second = await start(dbPath)
    await second.server.stop()
    expect(second.printed()).toBe('')
  }, 30_000)

  test('a start without an administrator yet prints a new link; the first used ends the others; the account is made once and audited', async () => {
    const dbPath = join(tempDir(), 'lobby.db')
    const first = await start(dbPath)
    const oldCode = linkIn(first.printed()).searchParams.get('code')!
    await first.server.stop()
    const second = await start(dbPath)
    try {
      const newCode = linkIn(second.printed()).searchParams.get('code')!
      expect(newCode).not.toBe(oldCode)
      const users = second.server.deps.db.$client.query("SELECT username, role FROM users").all()
      expect(users).toEqual([{ username: 'admin', role: 'admin' }])
      const audit = second.server.deps.db.$client.query("SELECT actor, action, entity_id AS id FROM audit_log WHERE action = 'user.create'").all()
      expect(audit).toEqual([{ actor: 'system:serve:first-start', action: 'user.create', id: 'admin' }])
      const post = (code: string) => fetch(`${second.server.url}${SETUP}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: second.server.url }, body: JSON.stringify({ code, password: GOOD_PASSWORD }) })
      expect((await post(newCode)).status).toBe(200)
      expect((await post(oldCode)).status).toBe(400)
    } finally {
      await second.server.stop()
    }
  }, 30_000)

  test('users add on a database that does not exist creates and migrates it; status on one that does not exist still refuses', () => {
    const dir = tempDir()
    const dbPath = join(dir, 'fresh', 'lobby.db')
    const added = runCli(['users', 'add', '--db', dbPath, '--username', 'amira', '--role', 'admin'])
    expect(added.stderr).toBe('')
    expect(added.code).toBe(0)
    expect(JSON.parse(added.stdout)).toMatchObject({ username: 'amira', setupPath: expect.stringMatching(/^\/login\/setup\?code=/) })
    const missing = join(dir, 'missing.db')
    const status = runCli(['status', '--db', missing])
    expect(status.code).not.toBe(0)
    expect(status.stderr).toContain('database not found')
    expect(existsSync(missing)).toBe(false)
  }, 30_000)
})
