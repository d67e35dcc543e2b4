import { describe, expect, test } from 'bun:test'
import { AdminCodes as C } from '../../src/admin/errors'
import { applyProvisioning, ProvisioningError } from '../../src/provisioning/service'
import { verifySignature } from '../../src/webhooks/signature'
import { WebhookWorker } from '../../src/webhooks/worker'
import { exampleDocument } from '../support/fixtures'
import { signedIn } from '../people/helpers'
import { auditOf, call, everythingWritten, expectError, expectOk, sectionContext, type SectionContext } from './section-helpers'

const HOOK = { queueUnitId: 'qu_main', id: 'whk_board', url: 'https://board.example/hooks', events: ['ticket.called'] }

/** The outbox's worker with a fake network: every request is kept, answered with `status()`. */
function worker(ctx: SectionContext, status: () => number) {
  const sent: { url: string; headers: Headers; body: string }[] = []
  const fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url, headers: new Headers(init.headers), body: String(init.body) })
    return new Response(null, { status: status() })
  }) as unknown as typeof globalThis.fetch
  return { sent, worker: new WebhookWorker({ db: ctx.db, clock: ctx.clock, log: ctx.deps.log, fetch, random: () => 0.5 }) }
}

describe('console: webhook endpoints', () => {
  test('add (the signing secret once), list, change, disable; each audited without the secret', async () => {
    const ctx = await sectionContext()
    const made = (await expectOk(await call(ctx, ctx.admin, 'POST', '/webhooks', { body: HOOK }), 201)).data
    expect(made.signingSecret).toMatch(/^lbh_[a-z2-7]{52}$/)
    expect(made).toMatchObject({ ...HOOK, active: true })
    const list = await (await call(ctx, ctx.admin, 'GET', '/webhooks')).text()
    expect(list).not.toContain(made.signingSecret)
    expect(JSON.parse(list).data.map((h: any) => h.id)).toEqual(['whk_board', 'whk_crm'])
    const changed = (await expectOk(await call(ctx, ctx.admin, 'PATCH', '/webhooks/whk_board', { body: { events: ['ticket.called', 'ticket.completed'] } }))).data
    expect(changed.events).toEqual(['ticket.called', 'ticket.completed'])
    expect((await expectOk(await call(ctx, ctx.admin, 'POST', '/webhooks/whk_board/disable'))).data.active).toBe(false)
    expect(auditOf(ctx).map((e) => [e.action, e.entity.id])).toEqual([['webhook.disable', 'whk_board'], ['webhook.update', 'whk_board'], ['webhook.create', 'whk_board']])
    expect(auditOf(ctx, 'webhook.update')[0]).toMatchObject({ before: { events: ['ticket.called'] }, after: { events: ['ticket.called', 'ticket.completed'] } })
    expect(everythingWritten(ctx)).not.toContain(made.signingSecret)
    await expectError(await call(ctx, ctx.admin, 'POST', '/webhooks', { body: HOOK }), 409, C.WEBHOOK_EXISTS)
    await expectError(await call(ctx, ctx.admin, 'PATCH', '/webhooks/whk_nope', { body: { active: true } }), 404, C.WEBHOOK_NOT_FOUND)
  })

  test('validated as a provisioning file\'s webhook: the same mistake, the same pointer', async () => {
    const ctx = await sectionContext()
    const bad = { id: 'whk_x', url: 'ftp://nope', events: ['ticket.exploded'] }
    const console = await expectError(await call(ctx, ctx.admin, 'POST', '/webhooks', { body: { queueUnitId: 'qu_main', ...bad } }), 422, C.VALIDATION_FAILED)
    const document = exampleDocument()
    document.workspaces[0]!.queueUnits![0]!.webhooks = [bad as never]
    let file: ProvisioningError | undefined
    try {
      applyProvisioning(ctx.db, document, ctx.clock.now())
    } catch (error) {
      file = error as ProvisioningError
    }
    const prefix = '/workspaces/0/queueUnits/0/webhooks/0'
    expect(console.error.details).toEqual(file!.details.map((d) => ({ ...d, path: d.path.slice(prefix.length) })))
    const change = await expectError(await call(ctx, ctx.admin, 'PATCH', '/webhooks/whk_crm', { body: { url: 'not a url' } }), 422, C.VALIDATION_FAILED)
    expect(change.error.details.map((d: any) => d.path)).toEqual(['/url'])
    await expectError(await call(ctx, ctx.admin, 'POST', '/webhooks', { body: { ...HOOK, queueUnitId: 'qu_nowhere' } }), 422, C.VALIDATION_FAILED)
    expect(auditOf(ctx)).toEqual([])
  })
})

describe('console: test delivery, failed deliveries, redeliver', () => {
  test('a test goes through the outbox, signed with the endpoint\'s secret, and is reported', async () => {
    const ctx = await sectionContext()
    const secret = (await expectOk(await call(ctx, ctx.admin, 'POST', '/webhooks', { body: HOOK }), 201)).data.signingSecret
    const queued = (await expectOk(await call(ctx, ctx.admin, 'POST', '/webhooks/whk_board/test'), 202)).data
    expect(queued).toMatchObject({ webhookId: 'whk_board', event: 'webhook.test', status: 'PENDING', attempts: 0 })
    const { sent, worker: w } = worker(ctx, () => 204)
    await w.tick()
    expect(sent).toHaveLength(1)
    expect(sent[0]!.url).toBe(HOOK.url)
    expect(sent[0]!.headers.get('lobby-event')).toBe('webhook.test')
    expect(verifySignature(secret, sent[0]!.headers.get('lobby-signature')!, sent[0]!.body, Math.floor(ctx.clock.now() / 1000))).toBe(true)
    expect(JSON.parse(sent[0]!.body)).toMatchObject({ type: 'webhook.test', actor: { type: 'user', id: 'ada' }, data: { webhookId: 'whk_board' } })
    expect((await expectOk(await call(ctx, ctx.admin, 'GET', `/webhooks/deliveries/${queued.id}`))).data).toMatchObject({ status: 'DELIVERED', attempts: 1 })
    expect(auditOf(ctx, 'webhook.test')).toMatchObject([{ entity: { id: 'whk_board' }, after: { deliveryId: queued.id } }])
    await call(ctx, ctx.admin, 'POST', '/webhooks/whk_board/disable')
    await expectError(await call(ctx, ctx.admin, 'POST', '/webhooks/whk_board/test'), 422, C.VALIDATION_FAILED)
  })

  test('a delivery given up after 24 hours is listed as failed; Redeliver queues it again and it arrives', async () => {
    const ctx = await sectionContext()
    await expectOk(await call(ctx, ctx.admin, 'POST', '/webhooks', { body: HOOK }), 201)
    const queued = (await expectOk(await call(ctx, ctx.admin, 'POST', '/webhooks/whk_board/test'), 202)).data
    let status = 503
    const { sent, worker: w } = worker(ctx, () => status)
    await w.tick()
    ctx.clock.advance(25 * 3_600_000)
    await w.tick()
    // A day later the morning's session has long ended: the admin signs in again.
    ctx.admin = await signedIn(ctx, 'ada')
    const failed = (await expectOk(await call(ctx, ctx.admin, 'GET', '/webhooks/deliveries'))).data
    expect(failed).toEqual([expect.objectContaining({ id: queued.id, status: 'FAILED', attempts: 2, lastError: 'HTTP 503' })])
    expect((await expectOk(await call(ctx, ctx.admin, 'GET', '/webhooks/deliveries?status=all&webhookId=whk_crm'))).data).toEqual([])
    await expectError(await call(ctx, ctx.admin, 'GET', '/webhooks/deliveries?status=some'), 422, C.VALIDATION_FAILED)

    const again = (await expectOk(await call(ctx, ctx.admin, 'POST', `/webhooks/deliveries/${queued.id}/redeliver`))).data
    expect(again).toMatchObject({ id: queued.id, status: 'PENDING', attempts: 0, lastError: null })
    status = 200
    await w.tick()
    expect(sent).toHaveLength(3)
    expect((await expectOk(await call(ctx, ctx.admin, 'GET', '/webhooks/deliveries'))).data).toEqual([])
    expect(auditOf(ctx, 'webhook.redeliver')).toMatchObject([{ actor: { id: 'ada' }, entity: { type: 'webhook-delivery', id: queued.id }, before: { status: 'FAILED' } }])
    await expectError(await call(ctx, ctx.admin, 'POST', '/webhooks/deliveries/dlv_nope/redeliver'), 404, C.DELIVERY_NOT_FOUND)
  })

  test('administrators only on every webhook route; no session or a key 401; a foreign Origin 403', async () => {
    const ctx = await sectionContext()
    const key = ctx.provisioned.secret('queue', 'qu_main', 'all')
    const routes: [string, string, unknown?][] = [
      ['GET', '/webhooks'], ['POST', '/webhooks', HOOK], ['PATCH', '/webhooks/whk_crm', { active: false }], ['POST', '/webhooks/whk_crm/disable'],
      ['POST', '/webhooks/whk_crm/test'], ['GET', '/webhooks/deliveries'], ['GET', '/webhooks/deliveries/dlv_x'], ['POST', '/webhooks/deliveries/dlv_x/redeliver'],
    ]
    for (const [method, path, body] of routes) {
      for (const cookie of [ctx.manager, ctx.clerk]) await expectError(await call(ctx, cookie, method, path, { body }), 403, C.ROLE_FORBIDDEN)
      await expectError(await call(ctx, null, method, path, { body }), 401, C.AUTHENTICATION_FAILED)
      await expectError(await call(ctx, null, method, path, { body, headers: { authorization: `Bearer ${key}` } }), 401, C.AUTHENTICATION_FAILED)
      if (method !== 'GET') await expectError(await call(ctx, ctx.admin, method, path, { body, origin: 'https://evil.example' }), 403, C.ORIGIN_FORBIDDEN)
    }
    expect(auditOf(ctx)).toEqual([])
  })
})
