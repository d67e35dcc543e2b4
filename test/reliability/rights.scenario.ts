import { describe, expect } from 'bun:test'
import { IDS, lobby, provisionBranch, scenario } from './support'

const s = scenario(
  'rights',
  'Issue 45, F3 and F5 against dist/lobby: a manager watching two units on the live floor (a real websocket) is removed from one by ' +
    'an administrator in the console: that socket closes with 4403 within a second of the re-check, the other stays open. A webhook ' +
    'whose URL holds user:pass@ is created in the console: the administrator\'s audit log shows it without user-info, and the ' +
    'manager of its unit sees no webhook or key entry at all (contract §27).',
)

const PASSWORD = 'quiet lantern 42 orchard'

describe('rights that change and secrets in the audit log', () => {
  s.test('F3: removed from a unit, its floor socket closes 4403 at once; F5: no user-info in the audit log, webhook entries for admins only', async () => {
    const branch = provisionBranch()
    const server = await branch.serve()
    const origin = server.url
    const json = { 'content-type': 'application/json', origin }
    const person = async (username: string, role: string, units: string[]): Promise<string> => {
      const added = lobby(['users', 'add', '--db', branch.db, '--username', username, '--role', role, ...(units.length > 0 ? ['--queue-units', units.join(',')] : [])])
      expect(added.code).toBe(0)
      const code = new URL(JSON.parse(added.stdout).setupPath, origin).searchParams.get('code')
      expect((await fetch(`${origin}/api/auth/v1/setup`, { method: 'POST', headers: json, body: JSON.stringify({ code, password: PASSWORD }) })).status).toBe(200)
      const signIn = await fetch(`${origin}/api/auth/v1/sessions`, { method: 'POST', headers: json, body: JSON.stringify({ username, password: PASSWORD }) })
      expect(signIn.status).toBe(200)
      return /^(lobby_session=[^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')![1]!
    }
    const root = await person('root', 'admin', [])
    const mona = await person('mona', 'manager', [IDS.unit, IDS.otherUnit])

    const floor = async (unit: string) => {
      const ws = new WebSocket(`${origin.replace('http', 'ws')}/api/manage/v1/live`, { headers: { cookie: mona, origin } } as unknown as string[])
      const closed = new Promise<{ code: number; at: number }>((resolve) => ws.addEventListener('close', (e) => resolve({ code: e.code, at: performance.now() })))
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no snapshot of ${unit} within 10 s`)), 10_000)
        ws.addEventListener('open', () => ws.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'queue', id: unit }] })))
        ws.addEventListener('message', (e) => {
          if (JSON.parse(String(e.data)).type === 'snapshot') (clearTimeout(timer), resolve())
        })
      })
      return { ws, closed }
    }
    const main = await floor(IDS.unit)
    const other = await floor(IDS.otherUnit)
    const changedAt = performance.now()
    const change = await fetch(`${origin}/api/admin/v1/users/mona`, { method: 'PATCH', headers: { ...json, cookie: root }, body: JSON.stringify({ queueUnits: [IDS.otherUnit] }) })
    expect(change.status).toBe(200)
    const closed = await Promise.race([main.closed, Bun.sleep(3_000).then(() => null)])
    s.set('socket of the unit taken away closed with', closed?.code ?? 'still open after 3 s')
    expect(closed?.code).toBe(4403)
    s.set('closed after the change (ms)', Math.round(closed!.at - changedAt))
    expect(closed!.at - changedAt).toBeLessThan(2_000)
    const otherClosed = await Promise.race([other.closed, Bun.sleep(1_500).then(() => null)])
    s.set('socket of the unit kept', otherClosed === null ? 'open' : `closed ${otherClosed.code}`)
    expect(otherClosed).toBeNull()
    other.ws.close()

    // F5: a webhook URL with user-info, made in the console.
    const hook = await fetch(`${origin}/api/admin/v1/webhooks`, { method: 'POST', headers: { ...json, cookie: root }, body: JSON.stringify({ queueUnitId: IDS.unit, id: 'whk_secret', url: 'https://hookuser:hookpass@hooks.example/in', events: ['ticket.called'] }) })
    expect(hook.status).toBe(201)
    const adminAudit = await (await fetch(`${origin}/api/admin/v1/audit?limit=200`, { headers: { cookie: root } })).text()
    expect(adminAudit).toContain('https://hooks.example/in')
    expect(adminAudit).not.toContain('hookpass')
    const nour = await person('nour', 'manager', [IDS.unit])
    const managerAudit = await fetch(`${origin}/api/admin/v1/audit?limit=200`, { headers: { cookie: nour } })
    expect(managerAudit.status).toBe(200)
    const entries = ((await managerAudit.json()) as { data: { entity: { type: string } }[] }).data
    const secretTypes = entries.filter((e) => ['webhook', 'webhook-delivery', 'queueKey', 'workspaceKey', 'displayToken', 'key'].includes(e.entity.type))
    s.set('webhook and key entries a manager sees', secretTypes.length)
    expect(secretTypes).toEqual([])
    expect(JSON.stringify(entries)).not.toContain('hookpass')
    expect(await server.stop('SIGTERM')).toBe(0)
  }, 60_000)
})
