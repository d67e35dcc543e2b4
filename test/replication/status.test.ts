// Without --replicate-to nothing of replication shows: `lobby status` says null and /metrics has
// no replication gauges (they would read 0 and suggest a head office that is up to date).
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { collectStatus } from '../../src/ops/status'
import { testContext, request } from '../support/app'
import { tempDir } from '../support/cli'
import { ReplicationState, replicationStatus } from '../../src/replication/state'
import { WriteBatcher } from '../../src/platform/write-batch'

describe('replication off, and the status of a cursor', () => {
  test('a database that never replicated: status replication is null; /metrics has no replication gauges', async () => {
    const path = join(tempDir(), 'lobby.db')
    const db = openDatabase(path)
    migrateDatabase(db.$client, { log: () => {} })
    expect(collectStatus(db, path, Date.now()).replication).toBeNull()
    db.$client.close()

    const token = 'metrics-token-0123456789abcdef'
    const ctx = testContext({ metricsToken: token })
    const response = await request(ctx.app, 'GET', '/metrics', { headers: { authorization: `Bearer ${token}` } })
    const metrics = await response.text()
    expect(response.status).toBe(200)
    expect(metrics).toContain('lobby_database_bytes')
    expect(metrics).not.toContain('lobby_replication')
  })

  test('pending and lag count the events after the cursor; lastError is kept until a batch goes through', () => {
    const path = join(tempDir(), 'lobby.db')
    const db = openDatabase(path)
    migrateDatabase(db.$client, { log: () => {} })
    const state = new ReplicationState(db, new WriteBatcher(db), 'postgres://branch@ho/db')
    const now = Date.parse('2026-11-26T10:00:00Z')
    state.load(now)
    expect(replicationStatus(db, now)).toMatchObject({ target: 'postgres://branch@ho/db', pending: 0, lagSeconds: 0, lastError: null })
    // Three events, the oldest 90 s old (ticket rows are not needed for the backlog).
    for (const at of [now - 90_000, now - 60_000, now - 1_000]) {
      db.$client.query("INSERT INTO ticket_events (ticket_id, type, to_status, actor, at) VALUES ('tkt_x', 'created', 'WAITING', 'system', ?)").run(at)
    }
    state.fail('connection refused', now)
    expect(replicationStatus(db, now)).toMatchObject({ pending: 3, lagSeconds: 90, lastError: 'connection refused' })
    state.advance(2, 2, now + 1_000)
    expect(replicationStatus(db, now + 1_000)).toMatchObject({ pending: 1, lagSeconds: 2, lastError: null, lastSuccessAt: '2026-11-26T10:00:01.000Z' })
    db.$client.close()
  })
})
