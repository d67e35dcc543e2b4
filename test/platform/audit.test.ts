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

describe('URLs in the audit log carry no user-info (contract §27)', () => {
  test('written: a URL with a user name or password keeps its host, path and query, loses the user-info, at any depth', () => {
    expect(withoutSecrets({ url: 'https://u:p@hooks.example/x?a=1' })).toEqual({ url: 'https://hooks.example/x?a=1' })
    expect(withoutSecrets({ sources: [{ url: 'http://only-user@feed.example:8080/p' }] })).toEqual({ sources: [{ url: 'http://feed.example:8080/p' }] })
    // Within a text too (an error message naming the address), and an address without user-info is left as it is.
    expect(withoutSecrets({ lastError: 'POST https://a:b@x.example/h failed; see https://x.example/doc@2' })).toEqual({ lastError: 'POST https://x.example/h failed; see https://x.example/doc@2' })
    expect(withoutSecrets({ url: 'https://hooks.example/x', note: 'mail me@example.com' })).toEqual({ url: 'https://hooks.example/x', note: 'mail me@example.com' })
    const ctx = testContext()
    appendAudit(ctx.db.$client, { actor: { type: 'user', id: 'admin' }, action: 'webhook.create', entity: { type: 'webhook', id: 'whk_a' }, after: { url: 'https://u:p@hooks.example/x' } }, 1)
    expect(ctx.db.$client.query<{ after: string }, []>('SELECT after FROM audit_log').get()!.after).not.toContain('u:p@')
  })

  test('read: an entry written before the rule (or by hand) is shown without user-info', () => {
    const ctx = testContext()
    ctx.db.$client.query("INSERT INTO audit_log (at, actor, action, entity_type, entity_id, before, after) VALUES (1, 'user:admin', 'webhook.update', 'webhook', 'whk_a', ?1, ?2)")
      .run(JSON.stringify({ url: 'https://old:pw@hooks.example/x' }), JSON.stringify({ url: 'https://new:pw@hooks.example/y' }))
    const [entry] = readAudit(ctx.db.$client)
    expect(entry).toMatchObject({ before: { url: 'https://hooks.example/x' }, after: { url: 'https://hooks.example/y' } })
  })

  test('a manager\'s read can leave entity types out', () => {
    const ctx = testContext()
    for (const type of ['webhook', 'counter', 'queueKey']) {
      appendAudit(ctx.db.$client, { actor: { type: 'user', id: 'admin' }, action: `${type}.create`, entity: { type, id: 'x' }, after: { queueUnitId: 'qu_main' } }, 1)
    }
    expect(readAudit(ctx.db.$client, { queueUnitIds: ['qu_main'], withoutEntityTypes: ['webhook', 'queueKey'] }).map((e) => e.entity.type)).toEqual(['counter'])
  })
})
