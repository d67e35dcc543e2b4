import { describe, expect, test } from 'bun:test'
import { QueueCodes } from '../../src/queue/errors'
import { queueContext, mainUnit, issue, counts, jsonOf, HALL_ACCOUNTS } from './helpers'

/** Issues arriving together share one transaction (WriteBatcher); each must still behave as if alone. */
describe('ticket issue: group commit', () => {
  function context() {
    return queueContext((doc) => {
      mainUnit(doc).apiKeys!.find((k) => k.name === 'all')!.rateLimits = { issuePerMinute: 1000 }
    })
  }

  test('concurrent issues: each its own number, and listeners hear each change with its own revision, after the commit', async () => {
    const ctx = context()
    const startRevision = ctx.db.$client.query<{ r: number }, []>("SELECT state_revision AS r FROM queue_units WHERE id = 'qu_main'").get()!.r
    const heard: { revision: number; inTransaction: boolean }[] = []
    ctx.deps.events.queueChanges.on((change) => heard.push({ revision: change.stateRevision, inTransaction: ctx.db.$client.inTransaction }))
    const responses = await Promise.all(Array.from({ length: 8 }, () => issue(ctx, ctx.key('all'))))
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201))
    const numbers = (await Promise.all(responses.map(jsonOf))).map((b) => b.data.ticketNumber)
    expect(numbers).toEqual(['A001', 'A002', 'A003', 'A004', 'A005', 'A006', 'A007', 'A008'])
    expect(heard).toEqual(Array.from({ length: 8 }, (_, i) => ({ revision: startRevision + i + 1, inTransaction: false })))
  })

  test('a refused issue in the middle of a batch writes nothing and leaves the others whole', async () => {
    const ctx = context()
    const [first, refused, last] = await Promise.all([
      issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'k-1' }),
      issue(ctx, ctx.key('all'), { locationId: 'loc_nowhere', serviceId: 'svc_accounts' }, { idempotencyKey: 'k-2' }),
      issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'k-3' }),
    ])
    expect([first!.status, refused!.status, last!.status]).toEqual([201, 422, 201])
    expect((await jsonOf(refused!)).error.code).toBe(QueueCodes.VALIDATION_FAILED)
    expect([(await jsonOf(first!)).data.ticketNumber, (await jsonOf(last!)).data.ticketNumber]).toEqual(['A001', 'A002'])
    expect(counts(ctx)).toEqual({ tickets: 2, idempotency: 2, sequences: 1, stats: 2, events: 2 })
  })

  test('the same Idempotency-Key twice in one batch: one ticket, the second answer is its replay', async () => {
    const ctx = context()
    const [a, b] = await Promise.all([
      issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'same-key' }),
      issue(ctx, ctx.key('all'), HALL_ACCOUNTS, { idempotencyKey: 'same-key' }),
    ])
    expect([a!.status, b!.status]).toEqual([201, 201])
    expect(a!.headers.get('idempotent-replayed')).toBeNull()
    expect(b!.headers.get('idempotent-replayed')).toBe('true')
    expect(await b!.text()).toBe(await a!.text())
    expect(counts(ctx).tickets).toBe(1)
  })
})
