import { Type, type Static } from '@sinclair/typebox'
import { ActorJson, QueueTicket } from '../tickets'
import { QUEUE_EVENT_TYPES, TICKET_EVENT_TYPES } from './outbox'

/*
 * What a webhook endpoint receives (contract §3 Webhooks, §16 Attribution), for the OpenAPI
 * document's `webhooks`: the body `WebhookOutbox.enqueue` writes, and the headers the worker
 * sends with it.
 */

/** The body of every ticket webhook: `{id, type, createdAt, actor, data}`. */
export const TicketWebhookEvent = Type.Object(
  {
    id: Type.String({ description: 'the event (evt_…): the same in every endpoint\'s delivery of it and in every retry' }),
    type: Type.Union(TICKET_EVENT_TYPES.map((t) => Type.Literal(t)), { description: 'what happened; also in the Lobby-Event header' }),
    createdAt: Type.String({ format: 'date-time', description: 'when the change was made (ISO 8601 UTC with milliseconds), not when it was delivered' }),
    actor: ActorJson,
    data: QueueTicket,
  },
  { additionalProperties: false },
)
export type TicketWebhookEvent = Static<typeof TicketWebhookEvent>

/** The data of `queue.wait_target_exceeded` (contract §22). */
export const WaitTargetExceeded = Type.Object(
  {
    queueUnitId: Type.String(),
    locationId: Type.String(),
    serviceId: Type.String(),
    longestWaitSeconds: Type.Integer({ minimum: 0, description: 'the wait of the longest-waiting ticket of the line when the crossing was seen (whole seconds since it was taken)' }),
    ticketNumber: Type.String({ description: 'that ticket\'s number' }),
    ticketId: Type.String({ description: 'that ticket (tkt_…): the delivery is ordered with its ticket events' }),
    waitTargetSeconds: Type.Integer({ minimum: 0, description: 'the service\'s target it passed' }),
  },
  { additionalProperties: false },
)
export type WaitTargetExceeded = Static<typeof WaitTargetExceeded>

/** The body of a line's event (contract §22): the ticket events' envelope with the event's own data. */
export const QueueWebhookEvent = Type.Object(
  {
    id: Type.String({ description: 'the event (evt_…)' }),
    type: Type.Union(QUEUE_EVENT_TYPES.map((t) => Type.Literal(t)), { description: 'what happened; also in the Lobby-Event header' }),
    createdAt: Type.String({ format: 'date-time', description: 'when the crossing was seen' }),
    actor: ActorJson,
    data: WaitTargetExceeded,
  },
  { additionalProperties: false },
)
export type QueueWebhookEvent = Static<typeof QueueWebhookEvent>

const WAIT_EXAMPLE: QueueWebhookEvent = {
  id: 'evt_01JD5WAITTARGET00000000000',
  type: 'queue.wait_target_exceeded',
  createdAt: '2026-11-25T09:45:01.000Z',
  actor: { type: 'system', id: 'wait-target-watch' },
  data: { queueUnitId: 'qu_main', locationId: 'loc_hall', serviceId: 'svc_accounts', longestWaitSeconds: 901, ticketNumber: 'A007', ticketId: 'tkt_01JD5TICKET000000000000000', waitTargetSeconds: 900 },
}

const EXAMPLE: TicketWebhookEvent = {
  id: 'evt_01JD5CALLED000000000000000',
  type: 'ticket.called',
  createdAt: '2026-11-25T09:41:12.345Z',
  actor: { type: 'clerk', id: 'alice' },
  data: {
    id: 'tkt_01JD5TICKET000000000000000',
    ticketId: 'tkt_01JD5TICKET000000000000000',
    ticketNumber: 'A007',
    status: 'CALLED',
    source: 'KIOSK',
    queueUnitId: 'qu_main',
    locationId: 'loc_hall',
    serviceId: 'svc_accounts',
    externalReference: null,
    createdAt: '2026-11-25T09:30:00.000Z',
    calledAt: '2026-11-25T09:41:12.345Z',
    servingAt: null,
    completedAt: null,
    priority: false,
    transfer: null,
  },
}

const header = (description: string, example: string) => ({ in: 'header', required: true, description, schema: { type: 'string' }, example })

/**
 * The OpenAPI 3.1 `webhooks` entry: one request Lobby sends to each subscribed endpoint per
 * ticket event. Named schemas go in `schemas` (the document turns them into components).
 */
export const webhooksDoc = {
  schemas: { TicketWebhookEvent, QueueWebhookEvent },
  webhooks: {
    ticketEvent: {
      post: {
        operationId: 'receiveTicketEvent',
        tags: ['Webhooks'],
        // Lobby is the caller here: no credential of yours, the Lobby-Signature proves the sender.
        security: [],
        summary: 'A ticket event, sent to your endpoint',
        description:
          'Sent for each ticket change to every active endpoint of the queue unit subscribed to its type (contract §3): written to a durable outbox in the ' +
          'change\'s own transaction, delivered at least once, in order per ticket, retried with exponential backoff and jitter for 24 hours, then marked failed. ' +
          '`actor` says who made the change (contract §16): a clerk at a desk by username, a desk or kiosk without one by device name, an API key by credential ID, ' +
          'the daily close as `{type: system, id: daily-close}`. Contract §20: `ticket.reinstated` when a desk brings a no-show back (NO_SHOW→WAITING), and ' +
          '`ticket.approaching` once per ticket when a waiting ticket has the unit\'s `approachingAhead` (default 3) or fewer tickets ahead in call order (actor ' +
          '`{type: system, id: approaching}`; e.g. to send an SMS). `data.transfer` is where a transferred ticket came from and the sending desk\'s note. ' +
          'Verify `Lobby-Signature` over the raw body before parsing it.',
        parameters: [
          { name: 'Lobby-Event', ...header('the event type, as in the body', 'ticket.called') },
          { name: 'Lobby-Delivery', ...header('this delivery (dlv_…): one per endpoint and event, the same in its retries', 'dlv_01JD5DELIVERY0000000000000') },
          {
            name: 'Lobby-Signature',
            ...header('`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the endpoint\'s signing secret (lbh_…)', 't=1795599672,v1=5f0c1e0b6d0a4e8f9a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f'),
          },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: TicketWebhookEvent, example: EXAMPLE } } },
        responses: {
          '2XX': { description: 'received; any other status, a redirect or no answer within 10 seconds is retried' },
        },
      },
    },
    waitTargetExceeded: {
      post: {
        operationId: 'receiveWaitTargetExceeded',
        tags: ['Webhooks'],
        security: [],
        summary: 'A line passed its wait target, sent to your endpoint',
        description:
          'Contract §22: `queue.wait_target_exceeded`, written once per crossing: when the longest current wait of a (service, location) line passes the service\'s ' +
          '`waitTargetSeconds`, and again only after that line dropped back within its target (its longest-waiting ticket was called, or left) and crossed again. ' +
          'Seen by a watch over the lines\' heads in memory, once a second (docs/manage.md); `actor` is `{type: system, id: wait-target-watch}`. ' +
          'Delivered like the ticket events (same headers, signature, retries), to endpoints subscribed to this type.',
        parameters: [
          { name: 'Lobby-Event', ...header('the event type, as in the body', 'queue.wait_target_exceeded') },
          { name: 'Lobby-Delivery', ...header('this delivery (dlv_…)', 'dlv_01JD5DELIVERY0000000000001') },
          { name: 'Lobby-Signature', ...header('as for ticket events', 't=1795599901,v1=5f0c1e0b6d0a4e8f9a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f') },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: QueueWebhookEvent, example: WAIT_EXAMPLE } } },
        responses: {
          '2XX': { description: 'received; any other status, a redirect or no answer within 10 seconds is retried' },
        },
      },
    },
  },
}
