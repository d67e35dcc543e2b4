import { expect } from 'bun:test'
import { jsonOf, request, testContext, type TestContext } from '../support/app'
import { exampleDocument, provision, type Provisioned } from '../support/fixtures'
import { CHEAP, cookieOf, GOOD_PASSWORD, ORIGIN, SETUP, cli, codeOf } from '../people/helpers'
import type { ProvisioningFile } from '../../src/provisioning/model'
import type { NewUser } from '../../src/people'

export const ADMIN = '/api/admin/v1'
export const UNIT = `${ADMIN}/queue-units/qu_main`
export { ORIGIN, jsonOf, request }

export interface AdminTestContext extends TestContext {
  provisioned: Provisioned
  /** Session cookies by username: `root` (admin), `amira` (manager of qu_main), `omar` (manager of qu_other), `sami` (clerk of qu_main). */
  cookie: Record<'root' | 'amira' | 'omar' | 'sami', string>
}

/** The example document with a second queue unit (`qu_other`) for "another unit" checks. */
export function adminDocument(): ProvisioningFile {
  const doc = exampleDocument()
  doc.workspaces[0]!.queueUnits!.push({
    id: 'qu_other', name: 'Other branch',
    locations: [{ id: 'loc_other', name: 'Other hall', timezone: 'Europe/Berlin' }],
    services: [{ id: 'svc_other', name: 'Other', prefix: 'O', locations: ['loc_other'] }],
    counters: [{ id: 'cnt_other', name: 'Other 1', locationId: 'loc_other', services: ['svc_other'] }],
  })
  return doc
}

async function signedInUser(ctx: TestContext, user: NewUser): Promise<string> {
  const link = cli(ctx).addUser(user, ctx.clock.now())
  const setup = await request(ctx.app, 'POST', SETUP, { body: { code: codeOf(link.setupPath), password: GOOD_PASSWORD, ...(user.role === 'clerk' ? { pin: '482913' } : {}) } })
  expect(setup.status).toBe(200)
  const response = await request(ctx.app, 'POST', '/api/auth/v1/sessions', { body: { username: user.username, password: GOOD_PASSWORD } })
  expect(response.status).toBe(200)
  return cookieOf(response)
}

/** A provisioned app with an admin, two managers and a clerk signed in. */
export async function adminContext(edit: (doc: ProvisioningFile) => void = () => {}): Promise<AdminTestContext> {
  const ctx = testContext({ passwordCost: CHEAP })
  const doc = adminDocument()
  edit(doc)
  const provisioned = provision(ctx, doc)
  const cookie = {
    root: await signedInUser(ctx, { username: 'root', role: 'admin' }),
    amira: await signedInUser(ctx, { username: 'amira', role: 'manager', queueUnits: ['qu_main'] }),
    omar: await signedInUser(ctx, { username: 'omar', role: 'manager', queueUnits: ['qu_other'] }),
    sami: await signedInUser(ctx, { username: 'sami', role: 'clerk', queueUnits: ['qu_main'] }),
  }
  return { ...ctx, provisioned, cookie }
}

/** A console request: the session cookie, and this server's Origin on a write (as a browser sends it). */
export function admin(ctx: TestContext, cookie: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return request(ctx.app, method, path, {
    headers: { ...(cookie === null ? {} : { cookie }), ...(method === 'GET' ? {} : { origin: ORIGIN }), ...headers },
    ...(body === undefined ? {} : { body }),
  })
}

export async function expectError(response: Response, status: number, code: string): Promise<any> {
  const body = await jsonOf(response)
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code })
  return body
}
