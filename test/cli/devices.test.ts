import { describe, expect, test } from 'bun:test'
import { runCli } from '../support/cli'
import { openDatabase } from '../../src/db/open'
import { createApp } from '../../src/app'
import { createDeps } from '../../src/root/deps'
import { provisionedDatabaseFile } from '../support/fixtures'


/** Pairs a browser against the database file with the printed code; returns the response. */
async function pairWith(path: string, code: string, deviceName?: string) {
  const db = openDatabase(path)
  try {
    const app = createApp(createDeps({ db, log: () => {} }))
    return await app.handle(new Request('http://localhost/api/devices/v1/pair', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, ...(deviceName ? { deviceName } : {}) }),
    }))
  } finally {
    db.$client.close()
  }
}

describe('lobby devices', () => {
  test('pair prints a six-digit code, its pair path, the role and the expiry (--ttl, default 600 s)', () => {
    const path = provisionedDatabaseFile()
    const before = Date.now()
    const run = runCli(['devices', 'pair', '--db', path, '--role', 'desk', '--counter', 'cnt_1'])
    expect(run.code).toBe(0)
    const printed = JSON.parse(run.stdout)
    expect(Object.keys(printed).sort()).toEqual(['code', 'expiresAt', 'pairPath', 'role'])
    expect(printed.code).toMatch(/^\d{6}$/)
    expect(printed.pairPath).toBe(`/pair?code=${printed.code}`)
    expect(printed.role).toBe('desk')
    const ttl = Date.parse(printed.expiresAt) - before
    expect(ttl).toBeGreaterThanOrEqual(600_000)
    expect(ttl).toBeLessThan(660_000)
    const short = JSON.parse(runCli(['devices', 'pair', '--db', path, '--role', 'display', '--workspace', 'ws_demo', '--ttl', '30']).stdout)
    expect(Date.parse(short.expiresAt) - Date.now()).toBeLessThanOrEqual(30_000)
  })

  test('every role pairs with its binding; list shows them, never a secret; revoke --name stops one', async () => {
    const path = provisionedDatabaseFile()
    const pairings = [
      ['--role', 'desk', '--counter', 'cnt_1', '--name', 'counter-1-pc'],
      ['--role', 'kiosk', '--queue-unit', 'qu_main', '--location', 'loc_hall', '--services', 'svc_accounts,svc_loans', '--name', 'hall-kiosk'],
      ['--role', 'display', '--workspace', 'ws_demo', '--name', 'lobby-tv'],
      ['--role', 'reports', '--queue-unit', 'qu_main', '--name', 'manager'],
    ]
    const secrets: string[] = []
    for (const flags of pairings) {
      const run = runCli(['devices', 'pair', '--db', path, ...flags])
      expect(run.code).toBe(0)
      const response = await pairWith(path, JSON.parse(run.stdout).code)
      expect(response.status).toBe(200)
      secrets.push(/lobby_device=(lbv_[a-z2-7]+)/.exec(response.headers.get('set-cookie')!)![1]!)
    }
    const listed = runCli(['devices', 'list', '--db', path])
    expect(listed.code).toBe(0)
    const devices = JSON.parse(listed.stdout)
    expect(devices.map((d: Record<string, unknown>) => ({ name: d.name, role: d.role, binding: d.binding, state: d.state }))).toEqual([
      { name: 'counter-1-pc', role: 'desk', binding: { queueUnitId: 'qu_main', locationId: 'loc_hall', counterId: 'cnt_1' }, state: 'active' },
      { name: 'hall-kiosk', role: 'kiosk', binding: { queueUnitId: 'qu_main', locationId: 'loc_hall', services: ['svc_accounts', 'svc_loans'] }, state: 'active' },
      { name: 'lobby-tv', role: 'display', binding: { workspaceId: 'ws_demo' }, state: 'active' },
      { name: 'manager', role: 'reports', binding: { queueUnitId: 'qu_main' }, state: 'active' },
    ])
    for (const device of devices) {
      expect(Object.keys(device).sort()).toEqual(['binding', 'lastUsedAt', 'name', 'pairedAt', 'role', 'state'])
      expect(device.pairedAt).toMatch(/Z$/)
    }
    for (const secret of secrets) expect(listed.stdout).not.toContain(secret)

    const revoked = runCli(['devices', 'revoke', '--db', path, '--name', 'lobby-tv'])
    expect(revoked.code).toBe(0)
    expect(JSON.parse(revoked.stdout)).toEqual({ name: 'lobby-tv', revoked: 1 })
    const after = JSON.parse(runCli(['devices', 'list', '--db', path]).stdout)
    expect(after.map((d: { name: string; state: string }) => `${d.name}:${d.state}`)).toEqual(['counter-1-pc:active', 'hall-kiosk:active', 'lobby-tv:revoked', 'manager:active'])
  })

  test('mistakes are one line on stderr and exit 2, with nothing written', () => {
    const path = provisionedDatabaseFile()
    const cases: [string[], string][] = [
      [['devices', 'pair', '--db', path, '--role', 'desk'], 'needs --counter'],
      [['devices', 'pair', '--db', path, '--role', 'desk', '--counter', 'cnt_9'], 'no counter "cnt_9"'],
      [['devices', 'pair', '--db', path, '--role', 'desk', '--counter', 'cnt_1', '--workspace', 'ws_demo'], 'does not take --workspace'],
      [['devices', 'pair', '--db', path, '--role', 'kiosk', '--queue-unit', 'qu_main', '--location', 'loc_nowhere'], 'no location "loc_nowhere"'],
      [['devices', 'pair', '--db', path, '--role', 'kiosk', '--queue-unit', 'qu_main', '--location', 'loc_hall', '--services', 'svc_x'], 'no service "svc_x"'],
      [['devices', 'pair', '--db', path, '--role', 'display', '--workspace', 'ws_x'], 'no workspace "ws_x"'],
      [['devices', 'pair', '--db', path, '--role', 'admin'], '--role must be one of'],
      [['devices', 'pair', '--db', path, '--role', 'desk', '--counter', 'cnt_1', '--ttl', '0'], '--ttl must be between'],
      [['devices', 'pair', '--db', path, '--role', 'desk', '--counter', 'cnt_1', '--name', 'has space'], '--name must be'],
      [['devices', 'revoke', '--db', path, '--name', 'nobody'], 'no device named "nobody"'],
      [['devices', 'revoke', '--db', path], 'missing --name'],
      [['devices', 'unpair', '--db', path], 'unknown action'],
    ]
    for (const [args, message] of cases) {
      const run = runCli(args)
      expect({ args, code: run.code }).toEqual({ args, code: 2 })
      expect(run.stderr.trim().split('\n')).toHaveLength(1)
      expect(run.stderr).toContain(message)
    }
    expect(JSON.parse(runCli(['devices', 'list', '--db', path]).stdout)).toEqual([])
  })

  test('a name in use by a paired device is refused until that device is revoked', async () => {
    const path = provisionedDatabaseFile()
    const first = JSON.parse(runCli(['devices', 'pair', '--db', path, '--role', 'desk', '--counter', 'cnt_1', '--name', 'pc-1']).stdout)
    expect((await pairWith(path, first.code)).status).toBe(200)
    const taken = runCli(['devices', 'pair', '--db', path, '--role', 'desk', '--counter', 'cnt_2', '--name', 'pc-1'])
    expect(taken.code).toBe(2)
    expect(taken.stderr).toContain('already named "pc-1"')
    expect(runCli(['devices', 'revoke', '--db', path, '--name', 'pc-1']).code).toBe(0)
    expect(runCli(['devices', 'pair', '--db', path, '--role', 'desk', '--counter', 'cnt_2', '--name', 'pc-1']).code).toBe(0)
  })
})
