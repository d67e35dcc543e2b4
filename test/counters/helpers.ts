import { expect } from 'bun:test'
import { request, jsonOf } from '../support/app'
import { queueContext, mainUnit, issue, HALL_ACCOUNTS, type QueueTestContext } from '../queue/helpers'
import type { ProvisioningFile } from '../../src/provisioning/model'
import { TICKET_EVENT_TYPES } from '../../src/webhooks/outbox'

export const OP = '/api/operator/v1'

/**
 * Every ticket event but `ticket.approaching` (contract §20: written for a ticket as soon as it
 * is near its turn, which most tests' short lines are at once); test/counters/journey.test.ts
 * subscribes to it.
 */
export const TRANSITION_WEBHOOKS = TICKET_EVENT_TYPES.filter((type) => type !== 'ticket.approaching')

/** A provisioned app whose webhook subscribes to every ticket event but `ticket.approaching`. */
export function counterContext(edit: (doc: ProvisioningFile) => void = () => {}, overrides: Parameters<typeof queueContext>[1] = {}): QueueTestContext {
  return queueContext((doc) => {
    mainUnit(doc).webhooks = [{ id: 'whk_crm', url: 'http://127.0.0.1:9/hooks', events: [...TRANSITION_WEBHOOKS] }]
    edit(doc)
  }, overrides)
}


/**
 * Contract §27: call-next at a closed counter is 409 COUNTER_CLOSED. Tests open the counter
 * through the API first, as a clerk does at the desk (a no-op when it is open).
 */
export const openCounter = (ctx: QueueTestContext, counterId: string, secret?: string) => ok(op(ctx, 'POST', `/counters/${counterId}/open`, undefined, secret))

/** One operator request with the `operator` key (or `secret`). */
export function op(ctx: QueueTestContext, method: string, path: string, body?: unknown, secret: string | null = ctx.key('operator'), headers: Record<string, string> = {}) {
  return request(ctx.app, method, `${OP}${path}`, {
    headers: { ...(secret === null ? {} : { authorization: `Bearer ${secret}` }), ...headers },
    ...(body === undefined ? {} : { body }),
  })
}

/** Issues a ticket through the public API (key `all`) and returns its JSON. */
export async function issued(ctx: QueueTestContext, body: { locationId: string; serviceId: string } = HALL_ACCOUNTS) {
  const res = await issue(ctx, ctx.key('all'), body)
  expect(res.status).toBe(201)
  return (await jsonOf(res)).data as { id: string; ticketNumber: string; status: string; serviceId: string; locationId: string }
}

/** An operator action that must succeed; returns `data`. */
export async function ok(response: Promise<Response> | Response, status = 200) {
  const res = await response
  const text = await res.text()
  expect({ status: res.status, text }).toMatchObject({ status })
  return JSON.parse(text).data
}

/**
 * Opens the counter (a no-op when it is open, a 404 answers for itself below), then calls next:
 * what a clerk does at the desk. `callNextOnly` is the bare call, for the closed-counter rule.
 */
export const callNext = async (ctx: QueueTestContext, counterId: string, secret?: string) => {
  await op(ctx, 'POST', `/counters/${counterId}/open`, undefined, secret)
  return callNextOnly(ctx, counterId, secret)
}
export const callNextOnly = (ctx: QueueTestContext, counterId: string, secret?: string) => op(ctx, 'POST', `/counters/${counterId}/call-next`, undefined, secret)
export const act = (ctx: QueueTestContext, ticketId: string, action: string, body?: unknown, secret?: string) =>
  op(ctx, 'POST', `/tickets/${ticketId}/${action}`, body, secret)

type Row = Record<string, any>
const all = (ctx: QueueTestContext, query: string, ...params: (string | number)[]) => ctx.db.$client.query(query).all(...params) as Row[]

export const ticketRow = (ctx: QueueTestContext, id: string) => all(ctx, 'SELECT * FROM tickets WHERE id = ?', id)[0]!
export const eventsOf = (ctx: QueueTestContext, id: string) => all(ctx, 'SELECT * FROM ticket_events WHERE ticket_id = ? ORDER BY id', id)
export const deliveriesOf = (ctx: QueueTestContext, id: string) => all(ctx, 'SELECT * FROM webhook_deliveries WHERE ticket_id = ? ORDER BY rowid', id)
export const revision = (ctx: QueueTestContext, unit = 'qu_main') => (all(ctx, 'SELECT state_revision AS r FROM queue_units WHERE id = ?', unit)[0]!).r as number
/** The line's `service_stats` row, or null before anything was counted there. */
export const stats = (ctx: QueueTestContext, serviceId: string, locationId = 'loc_hall'): Row =>
  all(ctx, 'SELECT * FROM service_stats WHERE service_id = ? AND location_id = ?', serviceId, locationId)[0] ?? (null as unknown as Row)
export const counterRow = (ctx: QueueTestContext, id: string) => all(ctx, 'SELECT * FROM counters WHERE id = ?', id)[0]!

/** Everything a transition writes, to compare before and after a refusal. */
export function snapshot(ctx: QueueTestContext) {
  return {
    tickets: all(ctx, 'SELECT * FROM tickets ORDER BY id'),
    events: all(ctx, 'SELECT count(*) AS n FROM ticket_events')[0]!.n,
    deliveries: all(ctx, 'SELECT count(*) AS n FROM webhook_deliveries')[0]!.n,
    calls: all(ctx, 'SELECT count(*) AS n FROM ticket_calls')[0]!.n,
    stats: all(ctx, 'SELECT * FROM service_stats ORDER BY service_id, location_id'),
    counters: all(ctx, 'SELECT id, open, open_day FROM counters ORDER BY id'),
    revision: revision(ctx),
  }
}

/** The webhook event types written for a ticket, in order. */
export const webhookTypes = (ctx: QueueTestContext, id: string) => deliveriesOf(ctx, id).map((d) => d.event_type)

export { jsonOf, HALL_ACCOUNTS, mainUnit }
