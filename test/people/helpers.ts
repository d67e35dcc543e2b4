import { expect } from 'bun:test'
import { jsonOf, request, testContext, type TestContext } from '../support/app'
import { PeopleService, type NewUser } from '../../src/people'

export const SESSIONS = '/api/auth/v1/sessions'
export const CURRENT = '/api/auth/v1/sessions/current'
export const SETUP = '/api/auth/v1/setup'
export const ORIGIN = 'http://localhost'
/** Argon2id at a test's cost: the rules are the same, the hashes only cheaper. */
export const CHEAP = { memoryCost: 1024, timeCost: 1 }
export const GOOD_PASSWORD = 'quiet lantern 42 orchard'

/** An app with cheap password hashes and the main unit `qu_main` present. */
export function peopleContext(overrides: Parameters<typeof testContext>[0] = {}): TestContext {
  const ctx = testContext({ passwordCost: CHEAP, ...overrides })
  ctx.db.$client.run("INSERT INTO workspaces (id, name, created_at, updated_at) VALUES ('ws_demo', 'Demo', 0, 0)")
  ctx.db.$client.run("INSERT INTO queue_units (id, workspace_id, name, created_at, updated_at) VALUES ('qu_main', 'ws_demo', 'Main', 0, 0)")
  return ctx
}

/** The service as the CLI uses it: the app's connection, no write batcher. */
export function cli(ctx: TestContext): PeopleService {
  return new PeopleService({ db: ctx.db, clock: ctx.clock, ids: ctx.deps.ids }, { passwordCost: CHEAP })
}

export function codeOf(setupPath: string): string {
  return new URL(setupPath, ORIGIN).searchParams.get('code')!
}

/** `lobby users add`, then the setup link used with `password` (and a PIN for a clerk). */
export async function withPassword(ctx: TestContext, user: NewUser, password = GOOD_PASSWORD): Promise<void> {
  const link = cli(ctx).addUser(user, ctx.clock.now())
  const response = await request(ctx.app, 'POST', SETUP, { body: { code: codeOf(link.setupPath), password, ...(user.role === 'clerk' ? { pin: '482913' } : {}) } })
  expect(response.status).toBe(200)
}

export function signIn(ctx: TestContext, username: string, password = GOOD_PASSWORD, headers: Record<string, string> = {}) {
  return request(ctx.app, 'POST', SESSIONS, { body: { username, password }, headers })
}

/** The `lobby_session=…` pair of a Set-Cookie header, ready for a Cookie header. */
export function cookieOf(response: Response): string {
  const header = response.headers.get('set-cookie') ?? ''
  const match = /^(lobby_session=lbs_[a-z2-7]+);/.exec(header)
  if (match === null) throw new Error(`no session cookie in ${JSON.stringify(header)}`)
  return match[1]!
}

export async function signedIn(ctx: TestContext, username: string, password = GOOD_PASSWORD): Promise<string> {
  const response = await signIn(ctx, username, password)
  expect(response.status).toBe(200)
  return cookieOf(response)
}

export function current(ctx: TestContext, cookie: string) {
  return request(ctx.app, 'GET', CURRENT, { headers: { cookie } })
}

export { jsonOf, request }
