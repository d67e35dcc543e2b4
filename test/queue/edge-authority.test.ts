import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { UsageError } from '../../src/cli/args'
import { runEdgeAuthority } from '../../src/cli/edge-authority'
import { activeEdgeLease } from '../../src/queue/edge'
import { QueueCodes } from '../../src/queue/errors'
import { runCli, tempDir } from '../support/cli'
import { queueContext, issue, counts, expectError, type QueueTestContext } from './helpers'

/** An app on a database file, so the CLI function can change it the way the command does. */
function onFile(): QueueTestContext & { file: string; edge: (...args: string[]) => unknown } {
  const file = join(tempDir(), 'lobby.db')
  const db = openDatabase(file)
  migrateDatabase(db.$client)
  const ctx = queueContext(undefined, { db })
  return { ...ctx, file, edge: (...args) => runEdgeAuthority(['--db', file, '--queue-unit', 'qu_main', ...args], ctx.clock.now()) }
}

describe('lobby edge-authority', () => {
  test('take without TTL refuses issue on the next request; release lets it through again', async () => {
    const ctx = onFile()
    expect((await issue(ctx, ctx.key('all'))).status).toBe(201)
    expect(ctx.edge('--holder', 'edge-branch-7')).toEqual({ queueUnitId: 'qu_main', edgeManaged: true, holder: 'edge-branch-7', expiresAt: null, previousHolder: null })
    const before = counts(ctx)
    const refused = await expectError(await issue(ctx, ctx.key('all')), 409, QueueCodes.QUEUE_UNIT_EDGE_MANAGED)
    expect(refused.error.message).not.toContain('until')
    expect(counts(ctx)).toEqual(before)
    ctx.clock.advance(365 * 86_400_000)
    await expectError(await issue(ctx, ctx.key('all')), 409, QueueCodes.QUEUE_UNIT_EDGE_MANAGED)
    expect(ctx.edge('--release')).toEqual({ queueUnitId: 'qu_main', edgeManaged: false, holder: null, expiresAt: null, previousHolder: 'edge-branch-7' })
    expect((await issue(ctx, ctx.key('all'))).status).toBe(201)
  })

  test('a lease with a TTL ends on its own: refused until expiresAt, accepted from expiresAt on', async () => {
    const ctx = onFile()
    expect(ctx.edge('--holder', 'edge-1', '--ttl', '60')).toMatchObject({ holder: 'edge-1', expiresAt: '2026-11-25T09:31:00.000Z' })
    ctx.clock.advance(59_999)
    await expectError(await issue(ctx, ctx.key('all')), 409, QueueCodes.QUEUE_UNIT_EDGE_MANAGED)
    ctx.clock.advance(1)
    expect((await issue(ctx, ctx.key('all'))).status).toBe(201)
    // An ended lease may be taken by anyone; releasing it reports no previous holder.
    expect(ctx.edge('--release')).toMatchObject({ previousHolder: null })
  })

  test('the same holder renews; another holder must wait for a release or the end of the lease', async () => {
    const ctx = onFile()
    ctx.edge('--holder', 'edge-1', '--ttl', '60')
    expect(ctx.edge('--holder', 'edge-1', '--ttl', '600')).toMatchObject({ holder: 'edge-1', expiresAt: '2026-11-25T09:40:00.000Z', previousHolder: 'edge-1' })
    expect(() => ctx.edge('--holder', 'edge-2')).toThrow(/held by Edge "edge-1" until 2026-11-25T09:40:00.000Z; release it first/)
    ctx.clock.advance(600_000)
    expect(ctx.edge('--holder', 'edge-2')).toMatchObject({ holder: 'edge-2', expiresAt: null, previousHolder: null })
  })

  test('the lease is read on every request (no cache): a lease taken between two requests applies to the second', async () => {
    const ctx = onFile()
    expect((await issue(ctx, ctx.key('all'))).status).toBe(201)
    ctx.edge('--holder', 'edge-1')
    await expectError(await issue(ctx, ctx.key('all')), 409, QueueCodes.QUEUE_UNIT_EDGE_MANAGED)
    ctx.edge('--release')
    expect((await issue(ctx, ctx.key('all'))).status).toBe(201)
  })

  test('bad flags and an unknown unit are usage errors', () => {
    const ctx = onFile()
    const bad: string[][] = [
      [],
      ['--release', '--holder', 'x'],
      ['--release', '--ttl', '5'],
      ['--holder', 'x', '--ttl', '0'],
      ['--holder', 'x', '--ttl', '1.5'],
      ['--holder', 'x', '--ttl', String(365 * 86_400 + 1)],
      ['--holder', ''],
      ['--holder', '   '],
      ['--holder', 'x'.repeat(201)],
      ['--holder', 'bad\u0007name'],
      ['--holder', 'x', '--what'],
    ]
    for (const args of bad) expect(() => ctx.edge(...args)).toThrow(UsageError)
    expect(() => runEdgeAuthority(['--db', ctx.file, '--queue-unit', 'qu_nowhere', '--holder', 'x'])).toThrow(/no queue unit "qu_nowhere"/)
    expect(() => runEdgeAuthority(['--db', ctx.file, '--holder', 'x'])).toThrow(/missing --queue-unit/)
    expect(() => runEdgeAuthority(['--db', join(tempDir(), 'missing.db'), '--queue-unit', 'qu_main', '--holder', 'x'])).toThrow(UsageError)
    expect(runEdgeAuthority(['--help'])).toHaveProperty('help')
  })

  test('activeEdgeLease: none, until released, in force, ended at expiresAt', () => {
    expect(activeEdgeLease({ edgeHolder: null, edgeExpiresAt: null }, 0)).toBeNull()
    expect(activeEdgeLease({ edgeHolder: 'e', edgeExpiresAt: null }, 5)).toEqual({ holder: 'e', expiresAt: null })
    expect(activeEdgeLease({ edgeHolder: 'e', edgeExpiresAt: 10 }, 9)).toEqual({ holder: 'e', expiresAt: 10 })
    expect(activeEdgeLease({ edgeHolder: 'e', edgeExpiresAt: 10 }, 10)).toBeNull()
  })

  test('the command prints JSON and exits 0; a bad flag or unknown unit prints one line and exits 2', () => {
    const ctx = onFile()
    const taken = runCli(['edge-authority', '--db', ctx.file, '--queue-unit', 'qu_main', '--holder', 'edge-1', '--ttl', '300'])
    expect(taken.code).toBe(0)
    expect(JSON.parse(taken.stdout)).toMatchObject({ queueUnitId: 'qu_main', edgeManaged: true, holder: 'edge-1' })
    const released = runCli(['edge-authority', '--db', ctx.file, '--queue-unit', 'qu_main', '--release'])
    expect(JSON.parse(released.stdout)).toMatchObject({ edgeManaged: false, previousHolder: 'edge-1' })
    for (const args of [['--queue-unit', 'qu_main'], ['--queue-unit', 'qu_nowhere', '--release'], ['--queue-unit', 'qu_main', '--holder', 'x', '--ttl', 'soon']]) {
      const run = runCli(['edge-authority', '--db', ctx.file, ...args])
      expect(run.code).toBe(2)
      expect(run.stderr.trim().split('\n')).toHaveLength(1)
    }
    expect(runCli(['edge-authority', '--help']).code).toBe(0)
  })
})
