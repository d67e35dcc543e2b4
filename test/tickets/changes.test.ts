import { describe, expect, test } from 'bun:test'
import { queueContext, issue, HALL_ACCOUNTS } from '../queue/helpers'

const revisionOf = (ctx: ReturnType<typeof queueContext>) =>
  ctx.db.$client.query<{ r: number }, []>("SELECT state_revision AS r FROM queue_units WHERE id = 'qu_main'").get()!.r

describe('ticket changes reach listeners only once committed', () => {
  test('a write that bumps the revision and then throws is undone, and no listener hears of it', async () => {
    const ctx = queueContext()
    const heard: number[] = []
    ctx.deps.events.queueChanges.on((change) => heard.push(change.stateRevision))
    const before = revisionOf(ctx)
    const failed = ctx.deps.writes.run(() => {
      ctx.deps.tickets.touch('qu_main')
      throw new Error('refused after the change was noted')
    })
    await expect(failed).rejects.toThrow('refused after the change was noted')
    expect(heard).toEqual([])
    expect(revisionOf(ctx)).toBe(before)
  })

  test('several changes of one unit in one write are told once, with the last revision, after COMMIT', async () => {
    const ctx = queueContext()
    const heard: { revision: number; inTransaction: boolean; stored: number }[] = []
    ctx.deps.events.queueChanges.on((change) => heard.push({ revision: change.stateRevision, inTransaction: ctx.db.$client.inTransaction, stored: revisionOf(ctx) }))
    const before = revisionOf(ctx)
    await ctx.deps.writes.run(() => {
      ctx.deps.tickets.touch('qu_main')
      ctx.deps.tickets.touch('qu_main')
    })
    expect(heard).toEqual([{ revision: before + 2, inTransaction: false, stored: before + 2 }])
  })

  test('the Tickets object is built once per app and shared by every feature', async () => {
    const ctx = queueContext()
    expect((ctx.app.decorator as { deps: typeof ctx.deps }).deps.tickets).toBe(ctx.deps.tickets)
    const res = await issue(ctx, ctx.key('all'), HALL_ACCOUNTS)
    expect(res.status).toBe(201)
    const id = ((await res.json()) as { data: { id: string } }).data.id
    expect(ctx.deps.tickets.byId(id)?.ticketNumber).toBe('A001')
  })
})
