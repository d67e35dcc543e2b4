import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { startServer } from '../../src/server'
import { createApp } from '../../src/app'
import { silentLogger } from '../../src/platform/log'
import { tempDir } from '../support/cli'

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
