import { Elysia } from 'elysia'
import type { AdmissionPlugin } from '../access'
import { Type } from '@sinclair/typebox'
import type { AdminDeps } from './deps'
import { ApiError } from '../platform/errors'
import { ruled } from '../platform/detail-rules'
import { assertSchema, compile } from '../platform/validation'
import { Webhook } from '../provisioning'
import { ADMIN_API } from './branch-routes'
import { actorOf, auditedWrite, jsonAfterAdmission, ok } from './section-kit'
import { AdminCodes as C } from './errors'
import { type AdminWebhooks, WebhookRefused, type Endpoint } from './webhooks-service'
import {
  ChangeWebhookRequest, changeWebhookDocs, CreateWebhookHead, createWebhookDocs, disableWebhookDocs, listDeliveriesDocs, listWebhooksDocs, readDeliveryDocs, redeliverDocs, testWebhookDocs,
} from './webhooks-model'

const MAX_BODY = 16_384
const checkHead = compile(Type.Object(CreateWebhookHead.properties))
/** A provisioning file's webhook entry: one validator for both (contract §17). */
const checkWebhook = compile(Webhook)
const checkChange = compile(ChangeWebhookRequest)

/** What the audit keeps of an endpoint (its signing secret is never part of it). */
const auditView = (e: Endpoint) => ({ queueUnitId: e.queueUnitId, url: e.url, events: e.events, active: e.active })

/**
 * The console's webhooks section (contract §17), administrators only: endpoints (list, add,
 * change, disable), a test delivery through the outbox, the failed deliveries and "Redeliver".
 */
export function adminWebhookRoutes(deps: AdminDeps, { access, adminWebhooks: hooks }: { access: AdmissionPlugin; adminWebhooks: AdminWebhooks }) {
  const endpoint = (id: string) => {
    const found = id.length <= 160 ? hooks.get(id) : null
    if (found === null) throw new ApiError(404, C.WEBHOOK_NOT_FOUND, 'no webhook endpoint with that ID')
    return found
  }
  const delivery = (id: string) => {
    const found = id.length <= 160 ? hooks.delivery(id) : null
    if (found === null) throw new ApiError(404, C.DELIVERY_NOT_FOUND, 'no webhook delivery with that ID')
    return found
  }

  return new Elysia({ name: 'lobby.admin.webhooks' })
    .use(access)
    .get(`${ADMIN_API}/webhooks`, async ({ request, principal }) => {
      return ok(200, { data: hooks.list() })
    }, { admitConsole: { who: 'admin' }, detail: listWebhooksDocs })
    .post(`${ADMIN_API}/webhooks`, async ({ request, principal }) => {
      const body = await jsonAfterAdmission(request, MAX_BODY, checkHead)
      const user = principal.user
      const { queueUnitId, ...entry } = body as Record<string, unknown> & { queueUnitId: string }
      assertSchema(checkWebhook, entry, C.VALIDATION_FAILED)
      const now = deps.clock.now()
      const made = await auditedWrite(deps, user, () => {
        const created = hooks.create(queueUnitId, entry, now)
        return { result: created, audit: { action: 'webhook.create', entity: { type: 'webhook', id: entry.id }, after: auditView(created.endpoint) } }
      }).catch((error) => {
        if (error instanceof WebhookRefused) throw new ApiError(error.kind === 'exists' ? 409 : 422, error.kind === 'exists' ? C.WEBHOOK_EXISTS : C.VALIDATION_FAILED, error.message, [ruled(error.path, error.message, error.rule, error.params)])
        throw error
      })
      deps.log({ level: 'info', msg: 'webhook endpoint added', by: user.username, webhook: entry.id })
      return ok(201, { data: { ...made.endpoint, signingSecret: made.signingSecret } })
    }, { admitConsole: { who: 'admin', body: MAX_BODY }, parse: 'none', detail: createWebhookDocs })
    .patch(`${ADMIN_API}/webhooks/:id`, async ({ request, params, principal }) => {
      const body = await jsonAfterAdmission(request, MAX_BODY, checkChange)
      const user = principal.user
      const before = endpoint(params.id)
      const next = { url: body.url ?? before.url, events: body.events ?? before.events, active: body.active ?? before.active }
      // The endpoint as it would be must pass a provisioning file's schema (the pointers of `body` are its own).
      assertSchema(checkWebhook, { id: before.id, ...next }, C.VALIDATION_FAILED)
      const now = deps.clock.now()
      const after = await auditedWrite(deps, user, () => {
        const changed = hooks.update(before.id, next, now)
        return { result: changed, audit: { action: 'webhook.update', entity: { type: 'webhook', id: before.id }, before: auditView(before), after: auditView(changed) } }
      })
      deps.log({ level: 'info', msg: 'webhook endpoint changed', by: user.username, webhook: before.id })
      return ok(200, { data: after })
    }, { admitConsole: { who: 'admin', body: MAX_BODY }, parse: 'none', detail: changeWebhookDocs })
    .post(`${ADMIN_API}/webhooks/:id/disable`, async ({ request, params, principal }) => {
      const user = principal.user
      const before = endpoint(params.id)
      const now = deps.clock.now()
      const after = await auditedWrite(deps, user, () => {
        const changed = hooks.update(before.id, { url: before.url, events: before.events, active: false }, now)
        return { result: changed, audit: { action: 'webhook.disable', entity: { type: 'webhook', id: before.id }, before: auditView(before), after: auditView(changed) } }
      })
      deps.log({ level: 'info', msg: 'webhook endpoint disabled', by: user.username, webhook: before.id })
      return ok(200, { data: after })
    }, { admitConsole: { who: 'admin' }, detail: disableWebhookDocs })
    .post(`${ADMIN_API}/webhooks/:id/test`, async ({ request, params, principal }) => {
      const user = principal.user
      const target = endpoint(params.id)
      if (!target.active) throw new ApiError(422, C.VALIDATION_FAILED, 'this endpoint is disabled: enable it before testing it', [ruled('/active', 'disabled', 'disabled')])
      const now = deps.clock.now()
      const queued = await auditedWrite(deps, user, () => {
        const test = hooks.queueTest(target, actorOf(user), now)
        return { result: test, audit: { action: 'webhook.test', entity: { type: 'webhook', id: target.id }, after: { deliveryId: test.id } } }
      })
      deps.log({ level: 'info', msg: 'webhook test queued', by: user.username, webhook: target.id, delivery: queued.id })
      return ok(202, { data: queued })
    }, { admitConsole: { who: 'admin' }, detail: testWebhookDocs })
    .get(`${ADMIN_API}/webhooks/deliveries`, async ({ request, query }) => {
      // The session first, then the query (checked here, not by a route schema that would run before it).
      if (query.status !== undefined && query.status !== 'failed' && query.status !== 'all') {
        throw new ApiError(422, C.VALIDATION_FAILED, 'request validation failed', [ruled('status', 'failed or all', 'oneOf', { allowed: ['failed', 'all'] })])
      }
      return ok(200, { data: hooks.deliveries(query.status !== 'all', typeof query.webhookId === 'string' ? query.webhookId : undefined) })
    }, { admitConsole: { who: 'admin' }, detail: listDeliveriesDocs })
    .get(`${ADMIN_API}/webhooks/deliveries/:id`, async ({ request, params, principal }) => {
      return ok(200, { data: delivery(params.id) })
    }, { admitConsole: { who: 'admin' }, detail: readDeliveryDocs })
    .post(`${ADMIN_API}/webhooks/deliveries/:id/redeliver`, async ({ request, params, principal }) => {
      const user = principal.user
      const before = delivery(params.id)
      const now = deps.clock.now()
      const after = await auditedWrite(deps, user, () => {
        const again = hooks.redeliver(before.id, now)!
        return { result: again, audit: { action: 'webhook.redeliver', entity: { type: 'webhook-delivery', id: before.id }, before: { status: before.status, attempts: before.attempts }, after: { status: again.status } } }
      })
      deps.log({ level: 'info', msg: 'webhook delivery queued again', by: user.username, delivery: before.id })
      return ok(200, { data: after })
    }, { admitConsole: { who: 'admin' }, detail: redeliverDocs })
}
