import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { tempDir } from '../support/cli'
import { ensureBinary, startBinary, type RunningBinary } from '../support/binary'
import { exampleDocument } from '../support/fixtures'

const running: RunningBinary[] = []
afterAll(async () => {
  for (const r of running) if (r.proc.exitCode === null) await r.stop('SIGKILL')
})

/** Runs `dist/lobby <args>` to completion. */
function lobby(...args: string[]) {
  const result = Bun.spawnSync([ensureBinary(), ...args], { stdout: 'pipe', stderr: 'pipe' })
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() }
}

describe('dist/lobby: the Queue API over real HTTP', () => {
  test('provision with the CLI, issue, replay, read; edge-authority taken while serving refuses the next issue', async () => {
    const dir = tempDir()
    const db = join(dir, 'lobby.db')
    const file = join(dir, 'lobby.json')
    await Bun.write(file, JSON.stringify(exampleDocument()))
    const provisioned = lobby('provision', '--db', db, '--file', file)
    expect(provisioned.code).toBe(0)
    const secrets = JSON.parse(provisioned.stdout).secrets as { kind: string; owner: string; name: string; secret: string }[]
    const key = secrets.find((s) => s.kind === 'queue' && s.name === 'all')!.secret

    const server = await startBinary(['serve', '--port', '0', '--host', '127.0.0.1', '--db', db])
    running.push(server)
    const url = `${server.url}/api/public/v1/queue`
    const auth = { authorization: `Bearer ${key}` }
    const issue = (idempotencyKey: string, body: unknown = { locationId: 'loc_hall', serviceId: 'svc_accounts', externalReference: 'e2e' }) =>
      fetch(`${url}/tickets`, {
        method: 'POST',
        headers: {
          ...auth,
          'content-type': 'application/json',
          'x-request-timestamp': new Date().toISOString(),
          'x-request-nonce': randomUUID(),
          'idempotency-key': idempotencyKey,
          'x-correlation-id': 'e2e-queue-1',
        },
        body: JSON.stringify(body),
      })

    const services = await fetch(`${url}/services`, { headers: auth })
    expect(services.status).toBe(200)
    expect(((await services.json()) as any).data.services).toHaveLength(3)

    const first = await issue('e2e-order-1')
    expect(first.status).toBe(201)
    expect(first.headers.get('x-correlation-id')).toBe('e2e-queue-1')
    const firstText = await first.text()
    const ticket = JSON.parse(firstText).data
    expect(ticket).toMatchObject({ ticketNumber: 'A001', status: 'WAITING', source: 'API', externalReference: 'e2e' })
    expect(ticket.id).toMatch(/^tkt_/)
    expect(ticket.ticketId).toBe(ticket.id)

    // The retry of a client that lost the response: new nonce and timestamp, same key and body.
    const replay = await issue('e2e-order-1')
    expect(replay.status).toBe(201)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(await replay.text()).toBe(firstText)

    const read = await fetch(`${url}/tickets/${ticket.id}`, { headers: auth })
    expect(read.status).toBe(200)
    expect(((await read.json()) as any).data).toEqual(ticket)

    const state = (await (await fetch(`${url}/state`, { headers: auth })).json()) as any
    expect(state.data.services.find((s: any) => s.id === 'svc_accounts' && s.locationId === 'loc_hall')).toMatchObject({ waiting: 1, nowServing: null })

    const tooLarge = await fetch(`${url}/tickets`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: ' '.repeat(16_385) })
    expect(tooLarge.status).toBe(413)
    expect(((await tooLarge.json()) as any).error.code).toBe('PAYLOAD_TOO_LARGE')

    // An Edge takes authority through the CLI while the server runs: the very next issue is refused.
    const taken = lobby('edge-authority', '--db', db, '--queue-unit', 'qu_main', '--holder', 'edge-e2e', '--ttl', '3600')
    expect(taken.code).toBe(0)
    expect(JSON.parse(taken.stdout)).toMatchObject({ queueUnitId: 'qu_main', edgeManaged: true, holder: 'edge-e2e' })
    const refused = await issue('e2e-order-2')
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as any).error.code).toBe('QUEUE_UNIT_EDGE_MANAGED')

    expect(lobby('edge-authority', '--db', db, '--queue-unit', 'qu_main', '--release').code).toBe(0)
    const afterRelease = await issue('e2e-order-2')
    expect(afterRelease.status).toBe(201)
    expect(((await afterRelease.json()) as any).data.ticketNumber).toBe('A002')

    expect(await server.stop('SIGTERM')).toBe(0)
  }, 30_000)

  test('after a restart, a verbatim replay with a new nonce meets the persisted Idempotency-Key', async () => {
    const dir = tempDir()
    const db = join(dir, 'lobby.db')
    const file = join(dir, 'lobby.json')
    await Bun.write(file, JSON.stringify(exampleDocument()))
    const key = (JSON.parse(lobby('provision', '--db', db, '--file', file).stdout).secrets as any[]).find((s) => s.name === 'kiosk').secret
    const send = (url: string) => fetch(`${url}/api/public/v1/queue/tickets`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-timestamp': new Date().toISOString(),
        'x-request-nonce': randomUUID(), 'idempotency-key': 'survives-restart',
      },
      body: '{"locationId":"loc_hall","serviceId":"svc_accounts"}',
    })
    const one = await startBinary(['serve', '--port', '0', '--host', '127.0.0.1', '--db', db])
    running.push(one)
    const original = await (await send(one.url)).text()
    expect(await one.stop('SIGTERM')).toBe(0)
    const two = await startBinary(['serve', '--port', '0', '--host', '127.0.0.1', '--db', db])
    running.push(two)
    const again = await send(two.url)
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.text()).toBe(original)
    expect(await two.stop('SIGTERM')).toBe(0)
  }, 30_000)
})
