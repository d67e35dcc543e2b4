import { expect } from 'bun:test'
import { testContext, request, jsonOf, type TestContext } from '../support/app'
import { provision, exampleDocument, type Provisioned } from '../support/fixtures'
import type { ProvisioningFile } from '../../src/provisioning/model'

export const SERVICES = '/api/public/v1/queue/services'
export const TICKETS = '/api/public/v1/queue/tickets'
export const STATE = '/api/public/v1/queue/state'

export interface QueueTestContext extends TestContext {
  provisioned: Provisioned
  /** The secret of a queue key of qu_main, by name. */
  key(name: string): string
}

/** A provisioned app; `edit` adjusts a copy of the example document first. */
export function queueContext(edit: (doc: ProvisioningFile) => void = () => {}, overrides: Parameters<typeof testContext>[0] = {}): QueueTestContext {
  const ctx = testContext(overrides)
  const document = exampleDocument()
  edit(document)
  const provisioned = provision(ctx, document)
  return { ...ctx, provisioned, key: (name) => provisioned.secret('queue', 'qu_main', name) }
}

/** The example document's queue unit, for edits. */
export function mainUnit(doc: ProvisioningFile) {
  return doc.workspaces[0]!.queueUnits![0]!
}

let nonceSeq = 0
/** A fresh nonce (≥ 12 characters) on every call. */
export function freshNonce(): string {
  nonceSeq += 1
  return `nonce-${String(nonceSeq).padStart(10, '0')}`
}

export interface IssueOptions {
  /** Replaces the generated headers (undefined removes one). */
  headers?: Record<string, string | undefined>
  idempotencyKey?: string
  nonce?: string
  timestamp?: string
  /** Sent as is instead of the JSON of `body`. */
  raw?: RequestInit['body']
}

/** The headers a correct ticket issue carries, at the test clock's time. */
export function issueHeaders(ctx: Pick<TestContext, 'clock'>, secret: string, options: IssueOptions = {}): Record<string, string> {
  const headers: Record<string, string | undefined> = {
    authorization: `Bearer ${secret}`,
    'content-type': 'application/json',
    'x-request-timestamp': options.timestamp ?? new Date(ctx.clock.now()).toISOString(),
    'x-request-nonce': options.nonce ?? freshNonce(),
    'idempotency-key': options.idempotencyKey ?? `idem-${freshNonce()}`,
    ...options.headers,
  }
  return Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>
}

export const HALL_ACCOUNTS = { locationId: 'loc_hall', serviceId: 'svc_accounts' }

/** POST /tickets as a client would send it. */
export function issue(ctx: QueueTestContext, secret: string, body: unknown = HALL_ACCOUNTS, options: IssueOptions = {}) {
  const headers = issueHeaders(ctx, secret, options)
  return ctx.app.handle(new Request(`http://localhost${TICKETS}`, {
    method: 'POST',
    headers,
    body: options.raw !== undefined ? options.raw : JSON.stringify(body),
  }))
}

export function get(ctx: QueueTestContext, path: string, secret: string | null, headers: Record<string, string> = {}) {
  return request(ctx.app, 'GET', path, { headers: { ...(secret === null ? {} : { authorization: `Bearer ${secret}` }), ...headers } })
}

/** Rows of every table a ticket issue writes. */
export function counts(ctx: Pick<TestContext, 'db'>) {
  const n = (table: string) => (ctx.db.$client.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
  return {
    tickets: n('tickets'),
    idempotency: n('idempotency_records'),
    sequences: n('ticket_sequences'),
    stats: (ctx.db.$client.query('SELECT coalesce(sum(waiting), 0) AS n FROM service_stats').get() as { n: number }).n,
    events: n('ticket_events'),
  }
}

/** Asserts status, error code, the envelope and its correlation ID; returns the body. */
export async function expectError(response: Response, status: number, code: string) {
  const text = await response.text()
  expect({ status: response.status, text }).toMatchObject({ status })
  const body = JSON.parse(text)
  expect(body.error.code).toBe(code)
  expect(typeof body.error.message).toBe('string')
  expect(body.error.correlationId).toBe(response.headers.get('x-correlation-id'))
  return body
}

export { jsonOf }
