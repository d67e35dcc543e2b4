// Contract §14 and §16: the clerks' roll-ups (report_staff_daily) reach head office with the
// other report roll-ups of their day, replaced by later readings as the day goes on.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { createCluster, postgresUnavailable, type TestCluster } from './postgres'
import { counterContext, issued, op } from '../counters/helpers'
import { migrateHeadOffice } from '../../src/replication/postgres-schema'
import { Replicator } from '../../src/replication/replicator'
import { parseReplicationTarget } from '../../src/replication/target'
import type { QueueTestContext } from '../queue/helpers'

const unavailable = postgresUnavailable()
let cluster: TestCluster
let admin: SQL

/** A ticket called and started by the operator key at `counterId`, then completed (or marked no-show) by a signed-in clerk. */
async function servedBy(ctx: QueueTestContext, username: string, counterId: string, seconds: number, outcome: 'complete' | 'noShow' = 'complete') {
  const ticket = await issued(ctx)
  expect((await op(ctx, 'POST', `/tickets/${ticket.id}/call`, { counterId })).status).toBe(200)
  // A no-show is of a called ticket; a completion of one being served.
  if (outcome === 'complete') expect((await op(ctx, 'POST', `/tickets/${ticket.id}/start`)).status).toBe(200)
  ctx.clock.advance(seconds * 1000)
  await ctx.deps.writes.run(() => {
    const row = ctx.deps.tickets.byId(ticket.id)!
    if (outcome === 'complete') ctx.deps.tickets.complete(row, `clerk:${username}`, ctx.clock.now())
    else ctx.deps.tickets.noShow(row, `clerk:${username}`, ctx.clock.now())
  })
}

const branchRows = (ctx: QueueTestContext) => ctx.db.$client.query(
  'SELECT username, business_day AS day, served, no_show AS "noShow", service_count AS services, service_sum AS "serviceSum", service_p50 AS p50, service_p90 AS p90 FROM report_staff_daily ORDER BY 1, 2',
).all()

const headOfficeRows = async () => [...await admin`
  SELECT username, to_char(business_day, 'YYYY-MM-DD') AS day, served, no_show AS "noShow", service_count AS services, service_sum::int AS "serviceSum", service_p50 AS p50, service_p90 AS p90
  FROM lobby.report_staff_daily ORDER BY 1, 2`]

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const value = await read()
    if (ok(value) || Date.now() > deadline) return value
    await Bun.sleep(50)
  }
}

describe.skipIf(unavailable !== null)('head office: the clerks\' roll-ups (contract §14, §16)', () => {
  beforeAll(async () => {
    cluster = createCluster()
    admin = cluster.admin()
    expect(await migrateHeadOffice(admin)).toEqual([1, 2, 3, 4])
  }, 120_000)

  afterAll(async () => {
    await admin?.close({ timeout: 0 }).catch(() => {})
    cluster?.destroy()
  })

  test('a clerk\'s completions and no-shows arrive as the branch has them, and a later reading replaces the row', async () => {
    const ctx = counterContext()
    ctx.clock.set('2026-11-25T09:00:00Z')
    await servedBy(ctx, 'alice', 'cnt_1', 120)
    await servedBy(ctx, 'alice', 'cnt_1', 300)
    await servedBy(ctx, 'bob', 'cnt_2', 60, 'noShow')
    const replicator = new Replicator({ db: ctx.db, writes: ctx.deps.writes, clock: ctx.clock, log: () => {}, target: parseReplicationTarget(cluster.url()), queueChanges: ctx.deps.events.queueChanges, pollMs: 50, gatherMs: 0, retryMs: 100 })
    replicator.start()
    try {
      const first = branchRows(ctx)
      expect(first).toEqual([
        { username: 'alice', day: '2026-11-25', served: 2, noShow: 0, services: 2, serviceSum: 420, p50: 120, p90: 300 },
        { username: 'bob', day: '2026-11-25', served: 0, noShow: 1, services: 0, serviceSum: 0, p50: null, p90: null },
      ])
      expect(await until(headOfficeRows, (rows) => rows.length === 2)).toEqual(first)
      // The day goes on: alice's third ticket changes her row at head office too.
      await servedBy(ctx, 'alice', 'cnt_1', 600)
      const later = branchRows(ctx)
      expect(later[0]).toMatchObject({ served: 3, serviceSum: 1020 })
      expect(await until(headOfficeRows, (rows) => (rows[0] as { served: number }).served === 3)).toEqual(later)
    } finally {
      await replicator.stop()
    }
  }, 60_000)
})
