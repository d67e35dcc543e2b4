import type { Db } from '../db/open'
import type { IdGenerator } from '../platform/ids'
import type { Actor } from '../platform/actor'
import type { DetailParams, DetailRule } from '../platform/detail-rules'
import { isoTime } from '../platform/clock'
import { insertCredential, NO_PROPERTIES } from '../structure'
import { listDeliveries, readDelivery, redeliver, type DeliveryListing } from '../webhooks'
import { TEST_EVENT } from './webhooks-model'

/*
 * The console's webhooks section: endpoints stored as a provisioning file stores them (the
 * `webhooks` row and its `webhook` signing credential), a test delivery written into the same
 * outbox the worker drains, and the deliveries and redelivery of src/webhooks/deliveries.ts
 * (what `lobby webhooks` uses). Free of HTTP.
 */

export interface Endpoint {
  id: string
  queueUnitId: string
  url: string
  events: string[]
  active: boolean
  createdAt: string
  updatedAt: string
}

interface EndpointRow {
  id: string
  queueUnitId: string
  url: string
  events: string
  active: number
  createdAt: number
  updatedAt: number
}

const endpointOf = (r: EndpointRow): Endpoint => ({
  id: r.id, queueUnitId: r.queueUnitId, url: r.url, events: JSON.parse(r.events) as string[], active: r.active === 1, createdAt: isoTime(r.createdAt), updatedAt: isoTime(r.updatedAt),
})

const COLUMNS = 'id, queue_unit_id AS queueUnitId, url, events, active, created_at AS createdAt, updated_at AS updatedAt'

export class WebhookRefused extends Error {
  constructor(public readonly kind: 'exists' | 'invalid', message: string, public readonly path: string, public readonly rule: DetailRule, public readonly params?: DetailParams) {
    super(message)
  }
}

export class AdminWebhooks {
  constructor(private readonly db: Db, private readonly ids: IdGenerator) {}

  private get sql() {
    return this.db.$client
  }

  list(): Endpoint[] {
    return this.sql.query<EndpointRow, []>(`SELECT ${COLUMNS} FROM webhooks ORDER BY queue_unit_id, id`).all().map(endpointOf)
  }

  get(id: string): Endpoint | null {
    const row = this.sql.query<EndpointRow, [string]>(`SELECT ${COLUMNS} FROM webhooks WHERE id = ?1`).get(id)
    return row === null ? null : endpointOf(row)
  }

  /** A new endpoint and its signing secret (returned for the answer only). */
  create(queueUnitId: string, hook: { id: string; url: string; events: string[]; active?: boolean }, now: number): { endpoint: Endpoint; signingSecret: string } {
    if (this.sql.query('SELECT 1 FROM queue_units WHERE id = ?1').get(queueUnitId) === null) throw new WebhookRefused('invalid', `no queue unit "${queueUnitId}"`, '/queueUnitId', 'unknownReference', { kind: 'queueUnit', value: queueUnitId })
    if (this.get(hook.id) !== null) throw new WebhookRefused('exists', `a webhook endpoint "${hook.id}" exists`, '/id', 'taken', { kind: 'webhook' })
    this.sql.query('INSERT INTO webhooks (id, queue_unit_id, url, events, active, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)')
      .run(hook.id, queueUnitId, hook.url, JSON.stringify(hook.events), hook.active ?? true ? 1 : 0, now)
    // As a provisioning file's entry: the credential is named after the endpoint (src/provisioning/service.ts).
    const signingSecret = insertCredential(this.db, this.ids, 'webhook', hook.id, hook.id, NO_PROPERTIES, now)
    return { endpoint: this.get(hook.id)!, signingSecret }
  }

  update(id: string, next: { url: string; events: string[]; active: boolean }, now: number): Endpoint {
    this.sql.query('UPDATE webhooks SET url = ?2, events = ?3, active = ?4, updated_at = ?5 WHERE id = ?1').run(id, next.url, JSON.stringify(next.events), next.active ? 1 : 0, now)
    return this.get(id)!
  }

  /**
   * A test delivery to `endpoint`, written into the outbox like a ticket event's (the worker
   * signs, sends, retries and reports it). Its `ticket_id` is `test`: tests of one endpoint go
   * out in order, and never wait behind a ticket's events.
   */
  queueTest(endpoint: Endpoint, actor: Actor, now: number): DeliveryListing {
    const id = this.ids.next('dlv_')
    const body = JSON.stringify({ id: this.ids.next('evt_'), type: TEST_EVENT, createdAt: isoTime(now), actor, data: { webhookId: endpoint.id } })
    this.sql.query("INSERT INTO webhook_deliveries (id, webhook_id, ticket_id, event_type, body, status, attempts, next_attempt_at, created_at) VALUES (?1, ?2, 'test', ?3, ?4, 'PENDING', 0, ?5, ?5)")
      .run(id, endpoint.id, TEST_EVENT, body, now)
    return this.delivery(id)!
  }

  deliveries(failedOnly: boolean, webhookId: string | undefined): DeliveryListing[] {
    const all = listDeliveries(this.db, { failedOnly })
    return webhookId === undefined ? all : all.filter((d) => d.webhookId === webhookId)
  }

  delivery(id: string): DeliveryListing | null {
    return readDelivery(this.db, id)
  }

  redeliver(id: string, now: number): DeliveryListing | null {
    return redeliver(this.db, id, now) ? this.delivery(id) : null
  }
}
