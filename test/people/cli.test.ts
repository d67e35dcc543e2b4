import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { runCli, tempDir } from '../support/cli'
import { openDatabase } from '../../src/db/open'
import { createApp } from '../../src/app'
import { createDeps } from '../../src/root/deps'
import { provisionedDatabaseFile } from '../support/fixtures'
import { CHEAP, GOOD_PASSWORD } from './helpers'


/** One request through an app over the database file (a server would be running there). */
async function through(path: string, method: string, url: string, body?: unknown) {
  const db = openDatabase(path)
  try {
    const app = createApp(createDeps({ db, log: () => {}, passwordCost: CHEAP }))
    return await app.handle(new Request(`http://localhost${url}`, {
      method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    }))
  } finally {
    db.$client.close()
  }
}

const ok = (args: string[]) => {
  const run = runCli(args)
  if (run.code !== 0) throw new Error(`lobby ${args.join(' ')}: exit ${run.code}: ${run.stderr}`)
  return JSON.parse(run.stdout)
}

describe('lobby users (contract §16)', () => {
  test('add prints a setup link (24 h, ≥ 128 bits) that sets the password once; list shows the user, never a secret', async () => {
    const path = provisionedDatabaseFile()
    const before = Date.now()
    const added = ok(['users', 'add', '--db', path, '--username', 'omar.k', '--role', 'clerk', '--name', 'Omar Khalil', '--queue-units', 'qu_main'])
    expect(Object.keys(added).sort()).toEqual(['expiresAt', 'setupPath', 'username'])
    expect(added.username).toBe('omar.k')
    expect(added.setupPath).toMatch(/^\/login\/setup\?code=[a-z2-7]{52}$/)
    const ttl = Date.parse(added.expiresAt) - before
    expect(ttl).toBeGreaterThan(24 * 3_600_000 - 60_000)
    expect(ttl).toBeLessThanOrEqual(24 * 3_600_000 + 60_000)
    const code = added.setupPath.split('=')[1]
    expect((await through(path, 'POST', '/api/auth/v1/setup', { code, password: GOOD_PASSWORD, pin: '482913' })).status).toBe(200)
    expect((await through(path, 'POST', '/api/auth/v1/sessions', { username: 'omar.k', password: GOOD_PASSWORD })).status).toBe(200)

    const list = runCli(['users', 'list', '--db', path])
    expect(list.code).toBe(0)
    expect(JSON.parse(list.stdout)).toEqual([
      { username: 'omar.k', displayName: 'Omar Khalil', role: 'clerk', queueUnits: ['qu_main'], state: 'active', passwordSet: true, createdAt: expect.any(String) },
    ])
    expect(list.stdout).not.toContain(code)
    expect(list.stdout).not.toContain('argon2')
  }, 30_000)

  test('reset prints a new link, ends the old one and the password; disable stops sign-in', async () => {
    const path = provisionedDatabaseFile()
    const first = ok(['users', 'add', '--db', path, '--username', 'root', '--role', 'admin'])
    const unused = ok(['users', 'reset', '--db', path, '--username', 'root'])
    expect(unused.setupPath).not.toBe(first.setupPath)
    // The first link stopped working when the second was made.
    expect((await through(path, 'POST', '/api/auth/v1/setup', { code: first.setupPath.split('=')[1], password: GOOD_PASSWORD })).status).toBe(400)
    expect((await through(path, 'POST', '/api/auth/v1/setup', { code: unused.setupPath.split('=')[1], password: GOOD_PASSWORD })).status).toBe(200)
    expect((await through(path, 'POST', '/api/auth/v1/sessions', { username: 'root', password: GOOD_PASSWORD })).status).toBe(200)
    ok(['users', 'reset', '--db', path, '--username', 'root'])
    expect((await through(path, 'POST', '/api/auth/v1/sessions', { username: 'root', password: GOOD_PASSWORD })).status).toBe(401)
    const disabled = ok(['users', 'disable', '--db', path, '--username', 'root'])
    expect(disabled).toMatchObject({ username: 'root', state: 'disabled' })
    expect(ok(['users', 'list', '--db', path])[0]).toMatchObject({ username: 'root', state: 'disabled', passwordSet: false })
  }, 30_000)

  test('bad input: one line on stderr, exit 2; no command takes a password', () => {
    const path = provisionedDatabaseFile()
    ok(['users', 'add', '--db', path, '--username', 'root', '--role', 'admin'])
    for (const [args, message] of [
      [['users', 'add', '--db', path, '--username', 'Root', '--role', 'admin'], '--username must be'],
      [['users', 'add', '--db', path, '--username', 'x'.repeat(65), '--role', 'admin'], '--username must be'],
      [['users', 'add', '--db', path, '--username', 'ok', '--role', 'boss'], '--role must be one of admin, manager, clerk'],
      [['users', 'add', '--db', path, '--username', 'ok'], 'missing --role'],
      [['users', 'add', '--db', path, '--username', 'root', '--role', 'admin'], 'already named "root"'],
      [['users', 'add', '--db', path, '--username', 'ok', '--role', 'clerk', '--queue-units', 'qu_nowhere'], 'no queue unit "qu_nowhere"'],
      [['users', 'add', '--db', path, '--username', 'ok', '--role', 'admin', '--queue-units', 'qu_main'], 'an admin works in every queue unit'],
      [['users', 'add', '--db', path, '--username', 'ok', '--role', 'manager'], 'a manager or a clerk needs at least one queue unit (--queue-units)'],
      [['users', 'add', '--db', path, '--username', 'ok', '--role', 'admin', '--password', 'hunter2hunter2'], "Unknown option '--password'"],
      [['users', 'disable', '--db', path, '--username', 'nobody'], 'no user named "nobody"'],
      [['users', 'reset', '--db', path], 'missing --username'],
      [['users', 'list', '--db', path, '--role', 'admin'], 'users list does not take --role'],
      [['users', 'promote', '--db', path], 'unknown action "promote"'],
      [['users', 'list', '--db', join(tempDir(), 'missing.db')], ''],
    ] as const) {
      const run = runCli([...args])
      expect({ args, code: run.code }).toEqual({ args, code: 2 })
      expect(run.stderr).toContain(message)
      expect(run.stderr.trim().split('\n').length).toBe(1)
      expect(run.stdout).toBe('')
    }
  }, 30_000)

  test('--help', () => {
    const run = runCli(['users', '--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('lobby users add')
  })
})
