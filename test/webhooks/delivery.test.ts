import { afterEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { testContext, type TestContext } from '../support/app'
import { exampleDocument, provision } from '../support/fixtures'
import { tempDir, runCli } from '../support/cli'
import { openDatabase } from '../../src/db/open'
import { migrateDatabase } from '../../src/root/migrate'
import { createDeps } from '../../src/root/deps'
import { ManualClock } from '../../src/platform/clock'
import { SequentialIds } from '../../src/platform/ids'
import { WebhookOutbox } from '../../src/webhooks/outbox'
import { WebhookWorker, backoffDelay, RETRY_WINDOW_MS } from '../../src/webhooks/worker'
import { verifySignature } from '../../src/webhooks/signature'
import { listDeliveries } from '../../src/webhooks/deliveries'
import type { Actor } from '../../src/platform/actor'

interface Received { headers: Headers; body: string }

/** The actor these events are enqueued with (what `Tickets.changed` passes; contract §16). */
const KEY_ACTOR: Actor = { type: 'key', id: 'cred_operator' }

/** A webhook receiver on 127.0.0.1 that can be told to fail. */
function receiver() {
  const received: Received[] = []
  let status = 200
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const body = await req.text()
      if (status === 200) received.push({ headers: req.headers, body })
      return new Response(null, { status })
    },
  })
  return { received, url: `http://127.0.0.1:${server.port}/hooks`, setStatus: (s: number) => (status = s), stop: () => server.stop(true) }
}

const receivers: ReturnType<typeof receiver>[] = []
afterEach(() => receivers.splice(0).forEach((r) => r.stop()))

function setup(events = ['ticket.created', 'ticket.called', 'ticket.completed'], ctx: TestContext = testContext()) {
  const hook = receiver()
  receivers.push(hook)
  const doc = exampleDocument()
  doc.workspaces[0]!.queueUnits![0]!.webhooks = [{ id: 'whk_crm', url: hook.url, events: events as never }]
  const provisioned = provision(ctx, doc)
  const secret = provisioned.secret('webhook', 'whk_crm', 'whk_crm')
  const outbox = new WebhookOutbox(ctx.db, new SequentialIds())
  const worker = new WebhookWorker({ db: ctx.db, clock: ctx.clock, log: () => {}, random: () => 0.5 })
  const ticket = (id: string, status: string) => ({ id, ticketId: id, status, ticketNumber: 'A001' })
  return { ctx, hook, secret, outbox, worker, ticket }
}

describe('webhook delivery', () => {
  test('the signature verifies over the raw body, with the event headers', async () => {
    const { ctx, hook, secret, outbox, worker, ticket } = setup()
    outbox.enqueue('qu_main', 'ticket.created', KEY_ACTOR, ticket('tkt_1', 'WAITING'), ctx.clock.now())
    expect(await worker.tick()).toBe(1)
    expect(hook.received).toHaveLength(1)
    const { headers, body } = hook.received[0]!
    expect(headers.get('lobby-event')).toBe('ticket.created')
    expect(headers.get('lobby-delivery')).toMatch(/^dlv_/)
    const signature = headers.get('lobby-signature')!
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    expect(verifySignature(secret, signature, body, Math.floor(ctx.clock.now() / 1000))).toBe(true)
    expect(verifySignature(secret, signature, body + ' ', Math.floor(ctx.clock.now() / 1000))).toBe(false)
    expect(verifySignature('lbh_wrong', signature, body, Math.floor(ctx.clock.now() / 1000))).toBe(false)
    const event = JSON.parse(body)
    expect(event).toEqual({ id: expect.stringMatching(/^evt_/), type: 'ticket.created', createdAt: '2026-11-25T09:30:00.000Z', actor: KEY_ACTOR, data: ticket('tkt_1', 'WAITING') })
    expect(listDeliveries(ctx.db, { failedOnly: false })[0]).toMatchObject({ status: 'DELIVERED', attempts: 1 })
  })

  test('only subscribed events are written to the outbox', () => {
    const { ctx, outbox, ticket } = setup(['ticket.called'])
    expect(outbox.enqueue('qu_main', 'ticket.created', KEY_ACTOR, ticket('tkt_1', 'WAITING'), ctx.clock.now())).toBe(0)
    expect(outbox.enqueue('qu_main', 'ticket.called', KEY_ACTOR, ticket('tkt_1', 'CALLED'), ctx.clock.now())).toBe(1)
  })

  test('events of a ticket arrive in order, even when the first one needs retries', async () => {
    const { ctx, hook, outbox, worker, ticket } = setup()
    outbox.enqueue('qu_main', 'ticket.created', KEY_ACTOR, ticket('tkt_1', 'WAITING'), ctx.clock.now())
    outbox.enqueue('qu_main', 'ticket.called', KEY_ACTOR, ticket('tkt_1', 'CALLED'), ctx.clock.now())
    outbox.enqueue('qu_main', 'ticket.created', KEY_ACTOR, ticket('tkt_2', 'WAITING'), ctx.clock.now())
    hook.setStatus(503)
    await worker.tick()
    expect(hook.received).toHaveLength(0)
    hook.setStatus(200)
    // The retry is not due yet: nothing is sent, and ticket.called must not overtake.
    await worker.tick()
    expect(hook.received).toHaveLength(0)
    ctx.clock.advance(backoffDelay(1, () => 0.5))
    await worker.tick()
    await worker.tick()
    const order = hook.received.map((r) => JSON.parse(r.body)).map((e) => `${e.data.id}:${e.type}`)
    expect(order.filter((o) => o.startsWith('tkt_1'))).toEqual(['tkt_1:ticket.created', 'tkt_1:ticket.called'])
    expect(order).toHaveLength(3)
  })

  test('backoff grows exponentially with jitter, and a delivery fails after 24 hours', async () => {
    expect(backoffDelay(1, () => 0)).toBe(2_500)
    expect(backoffDelay(1, () => 1)).toBe(5_000)
    expect(backoffDelay(2, () => 1)).toBe(10_000)
    expect(backoffDelay(5, () => 1)).toBe(80_000)
    expect(backoffDelay(30, () => 1)).toBe(3_600_000)

    const { ctx, hook, outbox, worker, ticket } = setup()
    hook.setStatus(500)
    outbox.enqueue('qu_main', 'ticket.created', KEY_ACTOR, ticket('tkt_1', 'WAITING'), ctx.clock.now())
    const start = ctx.clock.now()
    let attempts = 0
    const gaps: number[] = []
    let last = start
    while (listDeliveries(ctx.db, { failedOnly: false })[0]!.status === 'PENDING') {
      const next = Date.parse(listDeliveries(ctx.db, { failedOnly: false })[0]!.nextAttemptAt!)
      ctx.clock.set(next)
      gaps.push(next - last)
      last = next
      await worker.tick()
      attempts += 1
      expect(attempts).toBeLessThan(100)
    }
    expect(gaps.slice(1, 4)).toEqual([3_750, 7_500, 15_000])
    const failed = listDeliveries(ctx.db, { failedOnly: true })
    expect(failed).toHaveLength(1)
    expect(failed[0]!.lastError).toBe('HTTP 500')
    expect(ctx.clock.now() - start).toBeLessThanOrEqual(RETRY_WINDOW_MS)
    expect(ctx.clock.now() - start).toBeGreaterThan(RETRY_WINDOW_MS - 3_600_000)
  })

  test('an event queued while the receiver is down arrives after it comes back, across a restart', async () => {
    const dir = tempDir()
    const path = join(dir, 'lobby.db')
    const clock = new ManualClock()
    const db1 = openDatabase(path)
    migrateDatabase(db1.$client)
    const ctx1 = { ...testContext(createDeps({ db: db1, clock, ids: new SequentialIds(), log: () => {} })), clock }
    const { hook, outbox, worker, ticket } = setup(undefined, ctx1)
    hook.setStatus(502)
    outbox.enqueue('qu_main', 'ticket.created', KEY_ACTOR, ticket('tkt_1', 'WAITING'), clock.now())
    await worker.tick()
    expect(hook.received).toHaveLength(0)
    db1.$client.close()

    // The server restarts: a new process opens the same file.
    const db2 = openDatabase(path)
    migrateDatabase(db2.$client)
    hook.setStatus(200)
    clock.advance(60_000)
    const worker2 = new WebhookWorker({ db: db2, clock, log: () => {} })
    await worker2.tick()
    expect(hook.received).toHaveLength(1)
    expect(JSON.parse(hook.received[0]!.body).data.id).toBe('tkt_1')
    void worker
  })

  test('many due deliveries of different tickets all go out in one pass', async () => {
    const { ctx, hook, outbox, worker, ticket } = setup()
    for (let i = 0; i < 20; i++) outbox.enqueue('qu_main', 'ticket.created', KEY_ACTOR, ticket(`tkt_${i}`, 'WAITING'), ctx.clock.now())
    expect(await worker.tick()).toBe(20)
    expect(hook.received).toHaveLength(20)
  })

  test('webhooks deliveries and redeliver on the command line', async () => {
    const dir = tempDir()
    const path = join(dir, 'lobby.db')
    const db = openDatabase(path)
    migrateDatabase(db.$client)
    const clock = new ManualClock(Date.now())
    const { outbox, worker, hook, ticket } = setup(undefined, { ...testContext(createDeps({ db, clock, ids: new SequentialIds(), log: () => {} })), clock })
    hook.setStatus(500)
    outbox.enqueue('qu_main', 'ticket.created', KEY_ACTOR, ticket('tkt_1', 'WAITING'), clock.now())
    db.$client.query("UPDATE webhook_deliveries SET status = 'FAILED', attempts = 12, last_error = 'HTTP 500'").run()
    const failed = JSON.parse(runCli(['webhooks', 'deliveries', '--db', path, '--failed']).stdout)
    expect(failed).toHaveLength(1)
    expect(failed[0]).toMatchObject({ status: 'FAILED', attempts: 12, lastError: 'HTTP 500', event: 'ticket.created' })
    const again = runCli(['webhooks', 'redeliver', '--db', path, '--id', failed[0].id])
    expect(again.code).toBe(0)
    hook.setStatus(200)
    clock.set(Date.now() + 1000)
    await worker.tick()
    expect(hook.received).toHaveLength(1)
    expect(runCli(['webhooks', 'redeliver', '--db', path, '--id', 'dlv_nope']).code).toBe(2)
  })
})
