import { describe, expect, test } from 'bun:test'
import { testContext } from '../support/app'
import { appendAudit, readAudit, withoutSecrets } from '../../src/platform/audit'

describe('the audit log (contract §17)', () => {
  test('entries read back newest first with actor, entity and snapshots; filters and paging', () => {
    const ctx = testContext()
    const sqlite = ctx.db.$client
    appendAudit(sqlite, { actor: { type: 'user', id: 'amina' }, action: 'service.create', entity: { type: 'service', id: 'svc_a' }, after: { name: 'Accounts' } }, Date.UTC(2026, 10, 26, 9))
    appendAudit(sqlite, { actor: { type: 'system', id: 'provision' }, action: 'counter.update', entity: { type: 'counter', id: 'cnt_1' }, before: { name: 'C1' }, after: { name: 'Counter 1' } }, Date.UTC(2026, 10, 26, 10))
    const all = readAudit(sqlite)
    expect(all.map((e) => e.action)).toEqual(['counter.update', 'service.create'])
    expect(all[1]).toEqual({ id: 1, at: '2026-11-26T09:00:00.000Z', actor: { type: 'user', id: 'amina' }, action: 'service.create', entity: { type: 'service', id: 'svc_a' }, before: null, after: { name: 'Accounts' } })
    expect(readAudit(sqlite, { entityType: 'service' }).map((e) => e.id)).toEqual([1])
    expect(readAudit(sqlite, { since: Date.UTC(2026, 10, 26, 9, 30) }).map((e) => e.id)).toEqual([2])
    expect(readAudit(sqlite, { beforeId: 2 }).map((e) => e.id)).toEqual([1])
    expect(readAudit(sqlite, { limit: 1 }).map((e) => e.id)).toEqual([2])
  })

  test('no secret reaches the table, at any depth', () => {
    const ctx = testContext()
    const sqlite = ctx.db.$client
    appendAudit(sqlite, {
      actor: { type: 'user', id: 'admin' }, action: 'key.create', entity: { type: 'key', id: 'cred_1' },
      after: { name: 'crm', secret: 'lq_live_abc', secretHash: 'x', keys: [{ pin: '123456', pinHash: 'h', scopes: ['tickets:write'] }], setupCode: 's', passwordHash: 'p' },
    }, 1)
    const stored = sqlite.query<{ after: string }, []>('SELECT after FROM audit_log').get()!.after
    expect(JSON.parse(stored)).toEqual({ name: 'crm', keys: [{ scopes: ['tickets:write'] }] })
    expect(stored).not.toContain('lq_live_abc')
    expect(withoutSecrets({ a: { token: 't', b: 1 } })).toEqual({ a: { b: 1 } })
  })
})
