import { Type } from '@sinclair/typebox'
import { routeDetail } from '../platform/openapi'
import { WEBHOOK_EVENTS } from '../provisioning'
import { AdminCodes as C, AdminSectionErrorExamples } from './errors'

/* The console's webhooks section (contract §17, §3 Webhooks): schemas and OpenAPI details. Administrators only. */

/** The event type of a test delivery: no ticket changed, the endpoint only proves it receives and verifies. */
export const TEST_EVENT = 'webhook.test'

const Events = Type.Array(Type.Union(WEBHOOK_EVENTS.map((e) => Type.Literal(e))), { minItems: 1, uniqueItems: true })
const Url = Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2048 })

/** The head of a create body; the rest is a provisioning file's webhook entry, checked by its schema. */
export const CreateWebhookHead = Type.Object({ queueUnitId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,160}$' }) })

/** What the document shows for a create body: a provisioning file's webhook entry and its queue unit. */
export const CreateWebhookRequest = Type.Object({
  queueUnitId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,160}$' }),
  id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,160}$' }),
  url: Url,
  events: Events,
  active: Type.Optional(Type.Boolean()),
}, { additionalProperties: false })

export const ChangeWebhookRequest = Type.Object({
  url: Type.Optional(Url),
  events: Type.Optional(Events),
  active: Type.Optional(Type.Boolean()),
}, { additionalProperties: false, minProperties: 1 })

const Endpoint = Type.Object({
  id: Type.String(),
  queueUnitId: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  active: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
}, { additionalProperties: false })

export const WebhookResponse = Type.Object({ data: Endpoint }, { additionalProperties: false })
export const WebhookListResponse = Type.Object({ data: Type.Array(Endpoint) }, { additionalProperties: false })
export const CreatedWebhookResponse = Type.Object({
  data: Type.Object({ ...Endpoint.properties, signingSecret: Type.String({ description: 'lbh_…: verify Lobby-Signature with it; shown in this answer only (rotate it in the keys section)' }) }, { additionalProperties: false }),
}, { additionalProperties: false })

const Delivery = Type.Object({
  id: Type.String(),
  webhookId: Type.String(),
  ticketId: Type.String({ description: 'the ticket; `test` for a test delivery' }),
  event: Type.String(),
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('DELIVERED'), Type.Literal('FAILED')]),
  attempts: Type.Integer({ minimum: 0 }),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  deliveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
}, { additionalProperties: false })

export const DeliveryResponse = Type.Object({ data: Delivery }, { additionalProperties: false })
export const DeliveryListResponse = Type.Object({ data: Type.Array(Delivery) }, { additionalProperties: false })

const tags = ['Admin']
const forbidden = { 401: [C.AUTHENTICATION_FAILED], 403: [C.ORIGIN_FORBIDDEN, C.ROLE_FORBIDDEN] } as const
const readForbidden = { 401: [C.AUTHENTICATION_FAILED], 403: [C.ROLE_FORBIDDEN] } as const
const bodyErrors = { 400: [C.INVALID_REQUEST, C.INVALID_JSON], 413: [C.PAYLOAD_TOO_LARGE], 422: [C.VALIDATION_FAILED] } as const
const ENDPOINT = { id: 'whk_crm', queueUnitId: 'qu_main', url: 'https://crm.example/hooks/lobby', events: ['ticket.created', 'ticket.called'], active: true, createdAt: '2026-11-20T08:00:00.000Z', updatedAt: '2026-11-25T09:30:00.000Z' }
const DELIVERY = { id: 'dlv_01JD5DELIVERY0000000000000', webhookId: 'whk_crm', ticketId: 'tkt_01JD5TICKET000000000000000', event: 'ticket.called', status: 'FAILED', attempts: 14, nextAttemptAt: null, lastError: 'HTTP 503', createdAt: '2026-11-24T09:41:12.345Z', deliveredAt: null }
const id = { id: { description: 'the endpoint', example: 'whk_crm' } }
const deliveryId = { id: { description: 'the delivery', example: 'dlv_01JD5DELIVERY0000000000000' } }

export const listWebhooksDocs = routeDetail({
  operationId: 'adminListWebhooks', summary: 'List webhook endpoints', tags, security: 'sessionCookie',
  description: 'Every endpoint: unit, URL, events, active. Never its signing secret.',
  responses: { 200: { description: 'the endpoints', name: 'AdminWebhookListResponse', schema: WebhookListResponse, example: { data: [ENDPOINT] } } },
  errors: readForbidden, errorExamples: AdminSectionErrorExamples,
})

export const createWebhookDocs = routeDetail({
  operationId: 'adminCreateWebhook', summary: 'Add a webhook endpoint', tags, security: 'sessionCookie',
  description: 'A provisioning file\'s webhook entry and its queue unit, checked by the same schema (the same JSON Pointers). A signing secret is made; it is in this answer only. Audited as `webhook.create`.',
  body: { name: 'AdminCreateWebhookRequest', schema: CreateWebhookRequest, examples: { crm: { summary: 'the CRM hears of new and called tickets', value: { queueUnitId: 'qu_main', id: 'whk_crm', url: 'https://crm.example/hooks/lobby', events: ['ticket.created', 'ticket.called'] } } } },
  responses: { 201: { description: 'the endpoint and its signing secret', name: 'AdminCreatedWebhookResponse', schema: CreatedWebhookResponse, example: { data: { ...ENDPOINT, signingSecret: 'lbh_…' } } } },
  errors: { ...bodyErrors, ...forbidden, 409: [C.WEBHOOK_EXISTS] }, errorExamples: AdminSectionErrorExamples,
})

export const changeWebhookDocs = routeDetail({
  operationId: 'adminChangeWebhook', summary: 'Change a webhook endpoint', tags, security: 'sessionCookie', params: id,
  description: 'URL, events or active; the endpoint as changed must pass the provisioning file\'s webhook schema. Audited as `webhook.update`.',
  body: { name: 'AdminChangeWebhookRequest', schema: ChangeWebhookRequest, examples: { events: { summary: 'also completed tickets', value: { events: ['ticket.created', 'ticket.called', 'ticket.completed'] } } } },
  responses: { 200: { description: 'the endpoint as it is now', name: 'AdminWebhookResponse', schema: WebhookResponse, example: { data: ENDPOINT } } },
  errors: { ...bodyErrors, ...forbidden, 404: [C.WEBHOOK_NOT_FOUND] }, errorExamples: AdminSectionErrorExamples,
})

export const disableWebhookDocs = routeDetail({
  operationId: 'adminDisableWebhook', summary: 'Disable a webhook endpoint', tags, security: 'sessionCookie', params: id,
  description: 'No new deliveries are written for it; pending ones fail as "endpoint inactive". Audited as `webhook.disable`.',
  responses: { 200: { description: 'disabled', name: 'AdminWebhookResponse', schema: WebhookResponse, example: { data: { ...ENDPOINT, active: false } } } },
  errors: { ...forbidden, 404: [C.WEBHOOK_NOT_FOUND] }, errorExamples: AdminSectionErrorExamples,
})

export const testWebhookDocs = routeDetail({
  operationId: 'adminTestWebhook', summary: 'Send a test delivery', tags, security: 'sessionCookie', params: id,
  description: `Queues one delivery of type \`${TEST_EVENT}\` to this endpoint through the outbox (signed, retried, reported like any other): body \`{id, type, createdAt, actor, data: {webhookId}}\`. Follow it with GET deliveries/{id}. Audited as \`webhook.test\`. A disabled endpoint: 422.`,
  responses: { 202: { description: 'queued; the worker sends it within a second', name: 'AdminDeliveryResponse', schema: DeliveryResponse, example: { data: { ...DELIVERY, ticketId: 'test', event: TEST_EVENT, status: 'PENDING', attempts: 0, lastError: null, nextAttemptAt: '2026-11-25T09:41:12.345Z' } } } },
  errors: { ...forbidden, 404: [C.WEBHOOK_NOT_FOUND], 422: [C.VALIDATION_FAILED] }, errorExamples: AdminSectionErrorExamples,
})

export const listDeliveriesDocs = routeDetail({
  operationId: 'adminListWebhookDeliveries', summary: 'List webhook deliveries (the failed ones by default)', tags, security: 'sessionCookie',
  description: 'The newest 1000 deliveries, newest first: only the FAILED ones unless `status=all`; `webhookId` narrows to one endpoint.',
  query: {
    status: { description: '`failed` (default) or `all`', example: 'failed', schema: { type: 'string', enum: ['failed', 'all'] } },
    webhookId: { description: 'one endpoint only', example: 'whk_crm' },
  },
  responses: { 200: { description: 'the deliveries', name: 'AdminDeliveryListResponse', schema: DeliveryListResponse, example: { data: [DELIVERY] } } },
  errors: { ...readForbidden, 422: [C.VALIDATION_FAILED] }, errorExamples: AdminSectionErrorExamples,
})

export const readDeliveryDocs = routeDetail({
  operationId: 'adminReadWebhookDelivery', summary: 'One delivery (how a test went)', tags, security: 'sessionCookie', params: deliveryId,
  responses: { 200: { description: 'the delivery', name: 'AdminDeliveryResponse', schema: DeliveryResponse, example: { data: DELIVERY } } },
  errors: { ...readForbidden, 404: [C.DELIVERY_NOT_FOUND] }, errorExamples: AdminSectionErrorExamples,
})

export const redeliverDocs = routeDetail({
  operationId: 'adminRedeliverWebhook', summary: 'Redeliver', tags, security: 'sessionCookie', params: deliveryId,
  description: 'As `lobby webhooks redeliver --id`: queued again with a new 24-hour window, the same body and event ID, in order among its ticket\'s events. Audited as `webhook.redeliver`.',
  responses: { 200: { description: 'queued again', name: 'AdminDeliveryResponse', schema: DeliveryResponse, example: { data: { ...DELIVERY, status: 'PENDING', attempts: 0, lastError: null } } } },
  errors: { ...forbidden, 404: [C.DELIVERY_NOT_FOUND] }, errorExamples: AdminSectionErrorExamples,
})
