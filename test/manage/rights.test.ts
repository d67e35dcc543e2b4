import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { startServer, type RunningServer } from '../../src/server'
import { applyProvisioning } from '../../src/provisioning/service'
import { PeopleService } from '../../src/people'
import { WireCloseCodes } from '../../src/screens/shared/close-codes'
import { tempDir } from '../support/cli'
import { adminDocument } from '../admin/helpers'
import { CHEAP, GOOD_PASSWORD } from '../people/helpers'
import { createApp } from '../../src/app'

/*
 * Contract §27, "rights that change apply at once" (issue 45, F3): a manager's open live floor
 * closes with 4403 within a second of their units or role changing to exclude it — on a real
 * server, its real re-check timer and a real websocket. A change that keeps the unit keeps the
 * socket; the session's end is still 4401.
 */

let server: RunningServer
let people: PeopleService

beforeAll(async () => {
  server = await startServer({ port: 0, host: '127.0.0.1', dbPath: join(tempDir(), 'lobby.db'), durability: 'normal', announce: () => {}, log: () => {},
    // Cheap Argon2id for the test's sign-ins: the rules are the same, the hashes only cheaper.
    buildApp: (deps) => createApp({ ...deps, passwordCost: CHEAP }) })
  applyProvisioning(server.deps.db, adminDocument(), Date.now())
  people = new PeopleService({ db: server.deps.db, clock: server.deps.clock, ids: server.deps.ids }, { passwordCost: CHEAP })
})
afterAll(async () => {
  await server.stop()
})

async function signedInManager(username: string, units: string[]): Promise<string> {
  const link = people.addUser({ username, role: 'manager', queueUnits: units }, Date.now())
  const code = new URL(link.setupPath, server.url).searchParams.get('code')
  const headers = { 'content-type': 'application/json', origin: server.url }
  expect((await fetch(`${server.url}/api/auth/v1/setup`, { method: 'POST', headers, body: JSON.stringify({ code, password: GOOD_PASSWORD }) })).status).toBe(200)
  const signIn = await fetch(`${server.url}/api/auth/v1/sessions`, { method: 'POST', headers, body: JSON.stringify({ username, password: GOOD_PASSWORD }) })
  expect(signIn.status).toBe(200)
  return /^(lobby_session=[^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')![1]!
}

/** A live-floor socket subscribed to `unit`, once its first snapshot arrived; `closed` resolves with the close code. */
async function floorSocket(cookie: string, unit: string) {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/manage/v1/live`, { headers: { cookie, origin: server.url } } as unknown as string[])
  const closed = new Promise<{ code: number; at: number }>((resolve) => ws.addEventListener('close', (e) => resolve({ code: e.code, at: performance.now() })))
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => ws.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'queue', id: unit }] })))
    ws.addEventListener('message', (e) => {
      if (JSON.parse(String(e.data)).type === 'snapshot') resolve()
    })
    ws.addEventListener('error', () => reject(new Error('socket error')))
    setTimeout(() => reject(new Error('no snapshot within 5 s')), 5_000)
  })
  return { ws, closed }
}

const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> => Promise.race([promise, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms))])

describe('rights that change apply at once on the live floor (contract §27)', () => {
  test('a manager removed from the unit they watch: 4403 within a second (plus the re-check period); the unit they keep stays open', async () => {
    const cookie = await signedInManager('mona', ['qu_main', 'qu_other'])
    const main = await floorSocket(cookie, 'qu_main')
    const other = await floorSocket(cookie, 'qu_other')
    const changedAt = performance.now()
    people.changeUser('mona', { queueUnits: ['qu_other'] })
    const closed = await within(main.closed, 2_500)
    expect(closed).not.toBe('timeout')
    expect((closed as { code: number }).code).toBe(WireCloseCodes.FORBIDDEN)
    // The re-check runs every second (limits.socketRecheckMs): at most one period and a bit.
    expect((closed as { at: number }).at - changedAt).toBeLessThan(2_000)
    // The socket of the unit she keeps is not closed.
    expect(await within(other.closed, 1_500)).toBe('timeout')
    expect(other.ws.readyState).toBe(WebSocket.OPEN)
    other.ws.close()
  }, 20_000)

  test('a manager made a clerk: 4403; a disabled one: 4401 (as before)', async () => {
    const cookie = await signedInManager('nabil', ['qu_main'])
    const floor = await floorSocket(cookie, 'qu_main')
    people.changeUser('nabil', { role: 'clerk' })
    const closed = await within(floor.closed, 2_500)
    expect(closed).not.toBe('timeout')
    expect((closed as { code: number }).code).toBe(WireCloseCodes.FORBIDDEN)

    const second = await signedInManager('rana', ['qu_main'])
    const watched = await floorSocket(second, 'qu_main')
    people.disableUser('rana')
    const gone = await within(watched.closed, 2_500)
    expect(gone).not.toBe('timeout')
    expect((gone as { code: number }).code).toBe(WireCloseCodes.TOKEN_INVALID)
  }, 20_000)
})
