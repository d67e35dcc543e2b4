import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { startServer } from '../../src/server'
import { createApp } from '../../src/app'
import { silentLogger } from '../../src/platform/log'
import { tempDir } from '../support/cli'
import { startBinary, type RunningBinary } from '../support/binary'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { applyProvisioning } from '../../src/provisioning/service'
import { DeviceService } from '../../src/devices/service'
import { exampleDocument } from '../support/fixtures'

test('stopping finishes a slow in-flight request, refuses new connections, and closes the database', async () => {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  let arrived!: () => void
  const reached = new Promise<void>((resolve) => (arrived = resolve))
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dbPath: join(tempDir(), 'lobby.db'),
    durability: 'full',
    log: silentLogger,
    buildApp: (deps) => createApp(deps).get('/slow', async () => {
      arrived()
      await gate
      return { done: true }
    }),
  })
  const inFlight = fetch(`${server.url}/slow`)
  await reached // the request is in the handler: in flight for sure, however loaded the machine
  let stopped = false
  const stopping = server.stop().then(() => (stopped = true))
  await Bun.sleep(50)
  expect(stopped).toBe(false)
  await expect(fetch(`${server.url}/health`)).rejects.toThrow()
  release()
  const res = await inFlight
  expect(res.status).toBe(200)
  expect(await res.json()).toEqual({ done: true })
  await stopping
  expect(() => server.deps.db.$client.query('SELECT 1').get()).toThrow()
})

test('a request still working at the end of the grace is cut: stopping never waits on it (contract §23)', async () => {
  let arrived!: () => void
  const reached = new Promise<void>((resolve) => (arrived = resolve))
  const logs: Record<string, unknown>[] = []
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dbPath: join(tempDir(), 'lobby.db'),
    durability: 'normal',
    log: (entry) => logs.push(entry),
    stopGraceMs: 100,
    buildApp: (deps) => createApp(deps).get('/forever', async () => {
      arrived()
      await new Promise(() => {})
      return 'never'
    }),
  })
  const stuck = fetch(`${server.url}/forever`).then(() => 'answered', () => 'cut')
  await reached
  await server.stop()
  expect(await stuck).toBe('cut')
  expect(logs.some((l) => l.msg === 'requests still open at shutdown were closed')).toBe(true)
  expect(logs.at(-1)?.msg).toBe('stopped')
})

const running: RunningBinary[] = []
afterAll(async () => {
  for (const r of running) if (r.proc.exitCode === null && r.proc.signalCode === null) await r.stop('SIGKILL')
})

/**
 * Contract §23 "Stopping", against dist/lobby (`bun run build` first): SIGTERM while phone long
 * polls and a display websocket are open ends the process within 2 seconds; the polls are
 * answered with the current status, the websocket is closed with 1012 (service restart).
 */
test('SIGTERM with phone polls and a websocket open: exit 0 within 2 s, polls answered, socket closed 1012', async () => {
  const path = join(tempDir(), 'lobby.db')
  const db = openDatabase(path)
  migrateDatabase(db.$client)
  const provisioned = applyProvisioning(db, exampleDocument(), Date.now())
  const token = provisioned.secrets.find((s) => s.kind === 'display')!.secret
  const { code } = new DeviceService(db).createPairingCode({ role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_hall' }, Date.now())
  db.$client.close()

  const server = await startBinary(['serve', '--port', '0', '--host', '127.0.0.1', '--db', path, '--durability', 'normal'])
  running.push(server)
  const paired = await fetch(`${server.url}/api/devices/v1/pair`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify({ code }) })
  expect(paired.status).toBe(200)
  const cookie = /^(lobby_device=lbv_[a-z2-7]+);/.exec(paired.headers.get('set-cookie')!)![1]!
  const issued = await fetch(`${server.url}/api/devices/v1/kiosk/tickets`, {
    method: 'POST',
    headers: { cookie, origin: server.url, 'content-type': 'application/json', 'idempotency-key': 'shutdown-live-1' },
    body: JSON.stringify({ serviceId: 'svc_accounts' }),
  })
  expect(issued.status).toBe(201)
  const trackingUrl = ((await issued.json()) as { data: { ticket: { trackingUrl: string } } }).data.ticket.trackingUrl
  const statusUrl = `${server.url}/api/phone/v1/tickets/${trackingUrl.slice('/t/'.length)}`
  const current = (await (await fetch(statusUrl)).json()) as { version: string }

  // The display websocket, subscribed and holding its snapshot.
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/display/v1/live?token=${token}`)
  const closed = new Promise<number>((resolve) => socket.addEventListener('close', (event) => resolve(event.code)))
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => socket.send(JSON.stringify({ type: 'subscribe', topics: [{ kind: 'queue', id: 'qu_main' }] })))
    socket.addEventListener('message', () => resolve())
    socket.addEventListener('error', () => reject(new Error('websocket failed')))
  })
  // Two phones waiting on the ticket (long polls of up to 20 s), each on its own connection.
  const polls = [1, 2].map(() => fetch(`${statusUrl}?since=${current.version}`)
    .then(async (r) => ({ status: r.status, body: (await r.json()) as { version?: string } }), (error) => ({ status: String(error), body: {} as { version?: string } })))
  // The polls were sent before the websocket's round trip below; one more round trip on a third
  // connection makes it all but certain the server holds them before the signal.
  await fetch(`${server.url}/health`)
  await Bun.sleep(100)

  const signalAt = performance.now()
  server.proc.kill('SIGTERM')
  const exit = await Promise.race([server.proc.exited, Bun.sleep(5_000).then(() => 'still running 5 s after SIGTERM' as const)])
  const tookMs = performance.now() - signalAt
  expect(exit).toBe(0)
  expect(tookMs).toBeLessThan(2_000)
  expect(await closed).toBe(1012)
  const answers = await Promise.all(polls)
  expect(answers.map((a) => [a.status, a.body.version])).toEqual([[200, current.version], [200, current.version]])
  expect(server.lines.some((l) => l.includes('"msg":"stopped"'))).toBe(true)
  // Answered, not cut at the end of the grace.
  expect(server.lines.filter((l) => l.includes('requests still open at shutdown'))).toEqual([])
}, 30_000)
