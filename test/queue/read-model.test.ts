import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { createDeps } from '../../src/root/deps'
import { DEFAULT_CHANGE_POLL_MS } from '../../src/platform/db-changes'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { DailyClose } from '../../src/counters/daily-close'
import { SequentialIds } from '../../src/platform/ids'
import { runCli, tempDir } from '../support/cli'
import { exampleDocument } from '../support/fixtures'
import { get, issue, queueContext, SERVICES, STATE, TICKETS, type QueueTestContext } from './helpers'
import { act, callNext, counterContext, issued, ok, op, OP, HALL_ACCOUNTS, mainUnit } from '../counters/helpers'

/**
 * The public reads answer from memory (src/queue/read-model.ts, src/platform/credentials.ts).
 * Here the app looks for other processes' changes only once, at its first read
 * (`changePollMs: Infinity`), so every fresh answer below comes from the commit of this
 * process itself, never from polling.
 */
const ownCommitsOnly = { changePollMs: Number.POSITIVE_INFINITY }

/** What the three reads answer now, as the caller `all` sees them; `ticketId`'s read too. */
async function reads(app: QueueTestContext['app'], ctx: QueueTestContext, ticketId?: string) {
  const text = async (path: string) => {
    const res = await get({ ...ctx, app }, path, ctx.key('all'))
    return `${res.status} ${await res.text()}`
  }
  return {
    state: await text(STATE),
    services: await text(SERVICES),
    ticket: ticketId === undefined ? null : await text(`${TICKETS}/${ticketId}`),
  }
}

/** The same reads from an app built now on the same database: no memory of earlier reads. */
function freshApp(ctx: QueueTestContext) {
  return createApp(createDeps({ db: ctx.db, clock: ctx.clock, ids: new SequentialIds(), log: () => {}, changePollMs: 0 }))
}

/**
 * Reads (so the model holds them), runs `write`, then expects the model's answers to equal those
 * of an app without memory, and (`visible`) to differ from before: the write changed something
 * these reads show (a recall, or a first open counter, changes nothing they show).
 */
async function expectFreshAfter(ctx: QueueTestContext, ticketId: string | undefined, write: () => Promise<unknown> | unknown, visible = true) {
  const before = await reads(ctx.app, ctx, ticketId)
  expect(await reads(ctx.app, ctx, ticketId)).toEqual(before)
  await write()
  const after = await reads(ctx.app, ctx, ticketId)
  expect(after).toEqual(await reads(freshApp(ctx), ctx, ticketId))
  if (visible) expect(after).not.toEqual(before)
}

function walkIn(ctx: QueueTestContext) {
  return ctx.app.handle(new Request(`http://localhost${OP}/tickets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.key('operator')}`, 'content-type': 'application/json' },
    body: JSON.stringify(HALL_ACCOUNTS),
  }))
}

describe('the read model is never stale after a commit of this process', () => {
  test('ticket issue, walk-in, and each operator transition', async () => {
    const ctx = counterContext(() => {}, ownCommitsOnly)
    const first = await issued(ctx)
    await expectFreshAfter(ctx, first.id, async () => expect((await issue(ctx, ctx.key('all'))).status).toBe(201))
    await expectFreshAfter(ctx, first.id, async () => expect((await walkIn(ctx)).status).toBe(201))
    await expectFreshAfter(ctx, first.id, () => ok(callNext(ctx, 'cnt_1')))
    ctx.clock.advance(30_000)
    await expectFreshAfter(ctx, first.id, () => ok(act(ctx, first.id, 'recall')), false)
    await expectFreshAfter(ctx, first.id, () => ok(act(ctx, first.id, 'start')))
    await expectFreshAfter(ctx, first.id, () => ok(act(ctx, first.id, 'complete')))
    const second = await issued(ctx)
    await expectFreshAfter(ctx, second.id, () => ok(act(ctx, second.id, 'call', { counterId: 'cnt_2' })))
    await expectFreshAfter(ctx, second.id, () => ok(act(ctx, second.id, 'requeue', { position: 'FIRST' })))
    await expectFreshAfter(ctx, second.id, () => ok(act(ctx, second.id, 'call', { counterId: 'cnt_2' })))
    await expectFreshAfter(ctx, second.id, () => ok(act(ctx, second.id, 'transfer', { serviceId: 'svc_loans' })))
    await expectFreshAfter(ctx, second.id, () => ok(act(ctx, second.id, 'call', { counterId: 'cnt_1' })))
    await expectFreshAfter(ctx, second.id, () => ok(act(ctx, second.id, 'no-show')))
    const third = await issued(ctx)
    await expectFreshAfter(ctx, third.id, () => ok(act(ctx, third.id, 'cancel')))
  })

  test('counter open and close', async () => {
    const ctx = counterContext(() => {}, ownCommitsOnly)
    const ticket = await issued(ctx)
    await issued(ctx)
    // Two waiting: one open counter estimates as none does, two halve it (the services list's estimate).
    await expectFreshAfter(ctx, ticket.id, () => ok(op(ctx, 'POST', '/counters/cnt_1/open')), false)
    await expectFreshAfter(ctx, ticket.id, () => ok(op(ctx, 'POST', '/counters/cnt_2/open')))
    await expectFreshAfter(ctx, ticket.id, () => ok(op(ctx, 'POST', '/counters/cnt_2/close')))
  })

  test('the daily close', async () => {
    const ctx = counterContext(() => {}, ownCommitsOnly)
    const ticket = await issued(ctx)
    ctx.clock.set(Date.parse('2026-11-25T23:00:00.000Z')) // local midnight in Berlin
    await expectFreshAfter(ctx, ticket.id, () => expect(new DailyClose(ctx.deps).runDue(ctx.clock.now()).length).toBeGreaterThan(0))
  })

  test('an unknown ticket read before it is issued is found once it is', async () => {
    const ctx = queueContext(() => {}, ownCommitsOnly)
    // SequentialIds: the next ticket's ID is predictable only through its answer, so read a miss, issue, read.
    expect((await get(ctx, `${TICKETS}/tkt_none`, ctx.key('all'))).status).toBe(404)
    const res = await issue(ctx, ctx.key('all'))
    const id = ((await res.json()) as { data: { id: string } }).data.id
    expect((await get(ctx, `${TICKETS}/${id}`, ctx.key('all'))).status).toBe(200)
  })
})

/** An app on a database file, with the poll's clock in the test's hand. */
function fileContext(pollMs = DEFAULT_CHANGE_POLL_MS) {
  const dir = tempDir()
  const path = join(dir, 'lobby.db')
  const db = openDatabase(path)
  migrateDatabase(db.$client)
  let monotonic = 1000
  const ctx = counterContext((doc) => {
    mainUnit(doc).apiKeys!.push({ name: 'spare' })
  }, { db, changePollMs: pollMs, changePollClock: () => monotonic })
  return { ctx, path, advance: (ms: number) => (monotonic += ms) }
}

describe(`changes by another process (the CLI) are seen within ${DEFAULT_CHANGE_POLL_MS} ms`, () => {
  test('a key revoked by `lobby keys revoke` stops working once the bound passed', async () => {
    const { ctx, path, advance } = fileContext()
    expect((await get(ctx, STATE, ctx.key('spare'))).status).toBe(200)
    const cli = runCli(['keys', 'revoke', '--db', path, '--kind', 'queue', '--owner', 'qu_main', '--name', 'spare'])
    expect(cli.code).toBe(0)
    advance(DEFAULT_CHANGE_POLL_MS)
    const res = await get(ctx, STATE, ctx.key('spare'))
    expect(res.status).toBe(401)
    expect((await get(ctx, SERVICES, ctx.key('spare'))).status).toBe(401)
    // Other keys are unaffected.
    expect((await get(ctx, STATE, ctx.key('all'))).status).toBe(200)
  })

  test('a rotated key (no grace) stops working and the new one works', async () => {
    const { ctx, path, advance } = fileContext()
    // The CLI ends the old key at its own clock's now: the app's clock follows the real one here.
    ctx.clock.set(Date.now())
    expect((await get(ctx, STATE, ctx.key('spare'))).status).toBe(200)
    const cli = runCli(['keys', 'rotate', '--db', path, '--kind', 'queue', '--owner', 'qu_main', '--name', 'spare'])
    expect(cli.code).toBe(0)
    const fresh = JSON.parse(cli.stdout).secret as string
    advance(DEFAULT_CHANGE_POLL_MS)
    ctx.clock.set(Date.now())
    expect((await get(ctx, STATE, ctx.key('spare'))).status).toBe(401)
    expect((await get(ctx, STATE, fresh)).status).toBe(200)
  })

  test('provisioning through the CLI: a renamed service and a switched-off unit show in every read', async () => {
    const { ctx, path, advance } = fileContext()
    const ticket = await issued(ctx)
    const before = await reads(ctx.app, ctx, ticket.id)
    expect(before.state).toContain('"name":"Accounts"')
    // The test's own document, as a file the CLI reads: the accounts service renamed.
    const edited = exampleDocument()
    mainUnit(edited).apiKeys!.push({ name: 'spare' })
    mainUnit(edited).services![0]!.name = 'Accounts and cards'
    const file = join(tempDir(), 'provision.json')
    await Bun.write(file, JSON.stringify(edited))
    expect(runCli(['provision', '--db', path, '--file', file]).code).toBe(0)
    advance(DEFAULT_CHANGE_POLL_MS)
    const after = await reads(ctx.app, ctx, ticket.id)
    expect(after.state).toContain('"name":"Accounts and cards"')
    expect(after.services).toContain('"name":"Accounts and cards"')
    expect(after).toEqual(await reads(freshApp(ctx), ctx, ticket.id))

    mainUnit(edited).active = false
    await Bun.write(file, JSON.stringify(edited))
    expect(runCli(['provision', '--db', path, '--file', file]).code).toBe(0)
    advance(DEFAULT_CHANGE_POLL_MS)
    const off = await reads(ctx.app, ctx, ticket.id)
    for (const answer of [off.state, off.services, off.ticket]) expect(answer).toStartWith('403 ')
  })

  test('Edge authority taken by the CLI refuses the next ticket issue', async () => {
    const { ctx, path, advance } = fileContext()
    expect((await issue(ctx, ctx.key('all'))).status).toBe(201)
    expect(runCli(['edge-authority', '--db', path, '--queue-unit', 'qu_main', '--holder', 'edge-1']).code).toBe(0)
    advance(DEFAULT_CHANGE_POLL_MS)
    expect((await issue(ctx, ctx.key('all'))).status).toBe(409)
  })
})
