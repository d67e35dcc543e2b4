import { expect, setDefaultTimeout } from 'bun:test'
import { jsonOf, request, testContext, type TestContext } from '../support/app'
import { exampleDocument, provision, type Provisioned } from '../support/fixtures'
import { CHEAP, signedIn, withPassword } from '../people/helpers'
import { readAudit } from '../../src/platform/audit'

/* Shared by the console sections' tests (devices, staff, keys, webhooks, voice). */

// Each test signs four people in (four Argon2 hashes and checks, cheap ones): slower than 5 s on a busy 2-core box.
setDefaultTimeout(30_000)

export const ADMIN = '/api/admin/v1'
export const ORIGIN = 'http://localhost'

export interface SectionContext extends TestContext {
  provisioned: Provisioned
  /** Session cookies: an admin, a manager of qu_main, a manager of qu_east only, a clerk of qu_main. */
  admin: string
  manager: string
  eastManager: string
  clerk: string
}

/** The example branch plus a second unit `qu_east` (counter cnt_e1), and one signed-in person of each role. */
export async function sectionContext(): Promise<SectionContext> {
  const ctx = testContext({ passwordCost: CHEAP })
  const document = exampleDocument()
  document.workspaces[0]!.queueUnits!.push({
    id: 'qu_east', name: 'East branch',
    locations: [{ id: 'loc_east', name: 'East hall', timezone: 'Europe/Berlin' }],
    services: [{ id: 'svc_east', name: 'East accounts', prefix: 'E', locations: ['loc_east'] }],
    counters: [{ id: 'cnt_e1', name: 'East 1', locationId: 'loc_east', services: ['svc_east'] }],
  })
  const provisioned = provision(ctx, document)
  await withPassword(ctx, { username: 'ada', role: 'admin' })
  await withPassword(ctx, { username: 'mona', role: 'manager', queueUnits: ['qu_main'] })
  await withPassword(ctx, { username: 'emil', role: 'manager', queueUnits: ['qu_east'] })
  await withPassword(ctx, { username: 'carl', role: 'clerk', queueUnits: ['qu_main'] })
  return {
    ...ctx, provisioned,
    admin: await signedIn(ctx, 'ada'),
    manager: await signedIn(ctx, 'mona'),
    eastManager: await signedIn(ctx, 'emil'),
    clerk: await signedIn(ctx, 'carl'),
  }
}

/** A console request: the cookie, and this server's Origin on a write unless `origin` says otherwise. */
export function call(ctx: TestContext, cookie: string | null, method: string, path: string, options: { body?: unknown; raw?: RequestInit['body']; headers?: Record<string, string>; origin?: string | null } = {}) {
  const headers: Record<string, string> = { ...options.headers }
  if (cookie !== null) headers.cookie = cookie
  const origin = options.origin === undefined ? (method === 'GET' ? null : ORIGIN) : options.origin
  if (origin !== null) headers.origin = origin
  return request(ctx.app, method, `${ADMIN}${path}`, { headers, ...(options.body !== undefined ? { body: options.body } : {}), ...(options.raw !== undefined ? { raw: options.raw } : {}) })
}

export async function expectError(response: Response, status: number, code: string): Promise<any> {
  const body = await jsonOf(response)
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code })
  expect(body.error.message).toBeString()
  return body
}

export async function expectOk(response: Response, status = 200): Promise<any> {
  const body = await jsonOf(response)
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(body)}`)
  return body
}

/** The console's audit entries (the fixture's provisioning file writes its own, by `system:provision…`, which these tests leave aside). */
export function auditOf(ctx: TestContext, action?: string) {
  return readAudit(ctx.db.$client, { limit: 1000, ...(action === undefined ? {} : { action }) }).filter((e) => e.actor.type !== 'system')
}

/** Every log line and audit row as one text, to look for a secret in. */
export function everythingWritten(ctx: TestContext): string {
  return JSON.stringify(ctx.logs) + JSON.stringify(readAudit(ctx.db.$client, { limit: 1000 }))
}

export { jsonOf, request }
