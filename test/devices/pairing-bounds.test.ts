import { afterEach, describe, expect, test } from 'bun:test'
import { postFrom } from '../support/raw-post'
import { join } from 'node:path'
import { runCli, tempDir } from '../support/cli'
import { counterContext } from '../counters/helpers'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { applyProvisioning } from '../../src/provisioning/service'
import { exampleDocument } from '../support/fixtures'
import { DeviceService, DeviceSetupError, DEFAULT_PAIRING_TTL_SECONDS, MAX_PAIRING_TTL_SECONDS } from '../../src/devices/service'
import { PAIR_ATTEMPTS_OVERALL, PAIR_ATTEMPTS_PER_ADDRESS } from '../../src/devices/routes'
import { PAIR, pairingCode } from './helpers'
import type { QueueTestContext } from '../queue/helpers'

/**
 * Contract §23 "Pairing codes": `--ttl` at most 3600 seconds (default 600); wrong codes at most
 * 10 a minute per address and 30 a minute overall. The limits are per TCP peer address, so these
 * tests listen on 127.0.0.1 and connect from other loopback addresses (127.0.0.2, …).
 */

const DESK = { role: 'desk', counterId: 'cnt_1' } as const

describe('pairing code lifetime', () => {
  test('at most 3600 s, 600 s by default', () => {
    expect(DEFAULT_PAIRING_TTL_SECONDS).toBe(600)
    expect(MAX_PAIRING_TTL_SECONDS).toBe(3600)
    const ctx = counterContext()
    const service = new DeviceService(ctx.db, ctx.deps.ids)
    const now = ctx.clock.now()
    expect(Date.parse(service.createPairingCode(DESK, now).expiresAt) - now).toBe(600_000)
    expect(Date.parse(service.createPairingCode({ ...DESK, ttlSeconds: 3600 }, now).expiresAt) - now).toBe(3_600_000)
    for (const ttlSeconds of [3601, 7 * 86_400, 0, -1, 1.5, Number.NaN]) {
      expect(() => service.createPairingCode({ ...DESK, ttlSeconds }, now)).toThrow(DeviceSetupError)
    }
  })

  test('lobby devices pair --ttl 3601 exits 2 with one line; --ttl 3600 prints a code valid an hour', () => {
    const path = join(tempDir(), 'lobby.db')
    const db = openDatabase(path)
    migrateDatabase(db.$client)
    applyProvisioning(db, exampleDocument(), Date.now())
    db.$client.close()
    const tooLong = runCli(['devices', 'pair', '--db', path, '--role', 'desk', '--counter', 'cnt_1', '--ttl', '3601'])
    expect(tooLong.code).toBe(2)
    expect(tooLong.stderr.trim().split('\n')).toHaveLength(1)
    expect(tooLong.stderr).toContain('--ttl must be between 1 and 3600')
    const before = Date.now()
    const hour = runCli(['devices', 'pair', '--db', path, '--role', 'desk', '--counter', 'cnt_1', '--ttl', '3600'])
    expect(hour.code).toBe(0)
    const ttl = Date.parse(JSON.parse(hour.stdout).expiresAt) - before
    expect(ttl).toBeGreaterThanOrEqual(3_600_000)
    expect(ttl).toBeLessThan(3_660_000)
  })
})

function pairFrom(port: number, localAddress: string, code: string): Promise<{ status: number; headers: string }> {
  return postFrom(port, localAddress, PAIR, { code })
}

describe('wrong pairing codes: at most 10 a minute per address, 30 overall', () => {
  let listening: QueueTestContext | null = null
  afterEach(() => {
    listening?.app.stop(true)
    listening = null
  })

  function listen(): { ctx: QueueTestContext; port: number } {
    const ctx = counterContext()
    ctx.app.listen({ port: 0, hostname: '127.0.0.1' })
    listening = ctx
    return { ctx, port: ctx.app.server!.port! }
  }
  const wrongFor = (code: string) => (code === '999999' ? '999998' : '999999')

  test('one address is stopped after 10 wrong codes (its 11th try is 429, even with the right code); another address still pairs', async () => {
    expect(PAIR_ATTEMPTS_PER_ADDRESS).toBe(10)
    const { ctx, port } = listen()
    const code = pairingCode(ctx, DESK)
    for (let i = 0; i < 10; i++) expect((await pairFrom(port, '127.0.0.2', wrongFor(code))).status).toBe(400)
    const limited = await pairFrom(port, '127.0.0.2', code)
    expect(limited.status).toBe(429)
    expect(limited.headers).toContain('retry-after:')
    expect((await pairFrom(port, '127.0.0.3', code)).status).toBe(200)
  })

  test('30 wrong codes a minute overall, from three addresses: the 31st try from a fourth is 429, right code or not; a minute later it pairs', async () => {
    const { ctx, port } = listen()
    const code = pairingCode(ctx, DESK)
    for (const address of ['127.0.0.11', '127.0.0.12', '127.0.0.13']) {
      for (let i = 0; i < 10; i++) expect((await pairFrom(port, address, wrongFor(code))).status).toBe(400)
    }
    expect((await pairFrom(port, '127.0.0.14', wrongFor(code))).status).toBe(429)
    const right = await pairFrom(port, '127.0.0.14', code)
    expect(right.status).toBe(429)
    expect(right.headers).toContain('retry-after:')
    ctx.clock.advance(60_000)
    expect((await pairFrom(port, '127.0.0.14', code)).status).toBe(200)
    expect(PAIR_ATTEMPTS_OVERALL).toBe(30)
  })
})
