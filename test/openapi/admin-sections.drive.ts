import { request } from '../support/app'
import { wav } from '../voice/support'
import type { PeopleService } from '../../src/people'
import type { TestContext } from '../support/app'

/*
 * The console's devices, staff, keys, webhooks and voice operations (contract §17), driven for
 * test/openapi/responses.test.ts: each succeeds once and meets its common refusals, through the
 * capturing app, so every response is checked against the document.
 */

const ADMIN = '/api/admin/v1'
const ORIGIN = 'http://localhost'

export interface AdminDrive {
  app: { handle(r: Request): Promise<Response> }
  ctx: Pick<TestContext, 'clock'>
  people: PeopleService
  passphrase: string
  /** Session cookies of a manager of qu_main and of a clerk. */
  manager: string
  clerk: string
  expectStatus: (response: Promise<Response>, status: number) => Promise<Response>
}

export async function driveAdminSections({ app, ctx, people, passphrase, manager, clerk, expectStatus }: AdminDrive): Promise<void> {
  const setup = people.addUser({ username: 'root.admin', role: 'admin' }, ctx.clock.now()).setupPath.split('=')[1]!
  await expectStatus(request(app, 'POST', '/api/auth/v1/setup', { body: { code: setup, password: passphrase } }), 200)
  const signedIn = await expectStatus(request(app, 'POST', '/api/auth/v1/sessions', { body: { username: 'root.admin', password: passphrase } }), 200)
  const admin = signedIn.headers.get('set-cookie')!.split(';')[0]!
  const as = (cookie: string | null, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    request(app, method, `${ADMIN}${path}`, { headers: { ...(cookie === null ? {} : { cookie }), ...(method === 'GET' ? {} : { origin: ORIGIN }), ...extra }, ...(body === undefined ? {} : { body }) })
  const data = async (response: Promise<Response>, status: number) => (await (await expectStatus(response, status)).json() as { data: any }).data

  // Devices.
  const pairing = await data(as(manager, 'POST', '/devices/pairings', { role: 'desk', counterId: 'cnt_2', name: 'console-desk' }), 201)
  await expectStatus(as(admin, 'POST', '/devices/pairings', { role: 'desk', counterId: 'cnt_404' }), 422)
  await expectStatus(as(admin, 'POST', '/devices/pairings', { role: 'desk' }, { origin: 'https://evil.example' }), 403)
  await expectStatus(as(clerk, 'POST', '/devices/pairings', { role: 'desk', counterId: 'cnt_2' }), 403)
  await expectStatus(as(null, 'POST', '/devices/pairings', { role: 'desk', counterId: 'cnt_2' }), 401)
  await expectStatus(request(app, 'POST', '/api/devices/v1/pair', { body: { code: pairing.code } }), 200)
  await expectStatus(as(manager, 'GET', '/devices'), 200)
  await expectStatus(as(null, 'GET', '/devices'), 401)
  await expectStatus(as(manager, 'POST', '/devices/console-desk/revoke'), 200)
  await expectStatus(as(manager, 'POST', '/devices/nobody-here/revoke'), 404)

  // Notifications (contract §25).
  await expectStatus(as(admin, 'GET', '/workspaces/ws_demo/notifications'), 200)
  await expectStatus(as(admin, 'GET', '/workspaces/ws_nope/notifications'), 404)
  await expectStatus(as(manager, 'GET', '/workspaces/ws_demo/notifications'), 403)
  await expectStatus(as(admin, 'PUT', '/workspaces/ws_demo/notifications', { country: 'GB', email: { host: '127.0.0.1', port: 9, security: 'none', from: 'lobby@branch.example' }, templates: { en: { called: '{number} to {counter}' } } }), 200)
  await expectStatus(as(admin, 'PUT', '/workspaces/ws_demo/notifications', { templates: { en: { called: '{nope}' } } }), 422)
  await expectStatus(as(admin, 'PATCH', '/workspaces/ws_demo/notifications', { limits: { smsPerMonth: 2000 } }), 200)
  await expectStatus(as(admin, 'PATCH', '/workspaces/ws_demo/notifications', { templates: { en: { called: '{nope}' } } }), 422)
  await expectStatus(as(admin, 'GET', '/workspaces/ws_demo/notifications/messages?failed=true'), 200)
  await expectStatus(as(admin, 'POST', '/workspaces/ws_demo/notifications/test', { channel: 'email', to: 'test@example.com' }), 200)
  await expectStatus(as(admin, 'POST', '/workspaces/ws_demo/notifications/test', { channel: 'sms', to: '07400 123456' }), 422)

  // Staff.
  await expectStatus(as(admin, 'GET', '/users'), 200)
  await expectStatus(as(manager, 'GET', '/users'), 403)
  await expectStatus(as(admin, 'POST', '/users', { username: 'noor.s', role: 'clerk', queueUnits: ['qu_main'] }), 201)
  await expectStatus(as(admin, 'POST', '/users', { username: 'noor.s', role: 'clerk', queueUnits: ['qu_main'] }), 409)
  await expectStatus(as(admin, 'POST', '/users', { username: 'Noor S', role: 'clerk' }), 422)
  await expectStatus(as(admin, 'PATCH', '/users/noor.s', { displayName: 'Noor Saleh' }), 200)
  await expectStatus(as(admin, 'PATCH', '/users/nobody', { displayName: 'X' }), 404)
  await expectStatus(as(admin, 'POST', '/users/noor.s/disable'), 200)
  await expectStatus(as(admin, 'POST', '/users/noor.s/reset'), 200)
  await expectStatus(as(admin, 'POST', '/users/nobody/reset'), 404)

  // Keys.
  await expectStatus(as(admin, 'GET', '/keys'), 200)
  await expectStatus(as(admin, 'POST', '/keys', { kind: 'display', owner: 'ws_demo', name: 'console-tv' }), 201)
  await expectStatus(as(admin, 'POST', '/keys', { kind: 'display', owner: 'ws_demo', name: 'console-tv' }), 409)
  await expectStatus(as(admin, 'POST', '/keys', { kind: 'queue', owner: 'qu_main', name: 'x', scopes: ['nope'] }), 422)
  await expectStatus(as(admin, 'POST', '/keys/rotate', { kind: 'display', owner: 'ws_demo', name: 'console-tv', graceSeconds: 60 }), 200)
  await expectStatus(as(admin, 'POST', '/keys/rotate', { kind: 'display', owner: 'ws_demo', name: 'nothing' }), 404)
  await expectStatus(as(admin, 'POST', '/keys/revoke', { kind: 'display', owner: 'ws_demo', name: 'console-tv' }), 200)
  await expectStatus(as(manager, 'POST', '/keys/revoke', { kind: 'display', owner: 'ws_demo', name: 'console-tv' }), 403)

  // Webhooks.
  await expectStatus(as(admin, 'GET', '/webhooks'), 200)
  await expectStatus(as(admin, 'POST', '/webhooks', { queueUnitId: 'qu_main', id: 'whk_console', url: 'https://example.com/hooks', events: ['ticket.called'] }), 201)
  await expectStatus(as(admin, 'POST', '/webhooks', { queueUnitId: 'qu_main', id: 'whk_console', url: 'https://example.com/hooks', events: ['ticket.called'] }), 409)
  await expectStatus(as(admin, 'PATCH', '/webhooks/whk_console', { events: ['ticket.called', 'ticket.completed'] }), 200)
  await expectStatus(as(admin, 'PATCH', '/webhooks/whk_console', { url: 'nope' }), 422)
  const test = await data(as(admin, 'POST', '/webhooks/whk_console/test'), 202)
  await expectStatus(as(admin, 'GET', `/webhooks/deliveries/${test.id}`), 200)
  await expectStatus(as(admin, 'GET', '/webhooks/deliveries/dlv_nothing'), 404)
  await expectStatus(as(admin, 'GET', '/webhooks/deliveries?status=all'), 200)
  await expectStatus(as(admin, 'POST', `/webhooks/deliveries/${test.id}/redeliver`), 200)
  await expectStatus(as(admin, 'POST', '/webhooks/whk_console/disable'), 200)
  await expectStatus(as(admin, 'POST', '/webhooks/whk_nothing/disable'), 404)

  // Voice clips.
  const clip = wav(400, 9)
  await expectStatus(request(app, 'PUT', `${ADMIN}/voice/clips/ar/ticket`, { headers: { cookie: manager, origin: ORIGIN, 'content-type': 'audio/wav' }, raw: clip as RequestInit['body'] }), 200)
  await expectStatus(request(app, 'PUT', `${ADMIN}/voice/clips/ar/ticket`, { headers: { cookie: manager, origin: ORIGIN, 'content-type': 'text/plain' }, raw: 'x' }), 415)
  await expectStatus(request(app, 'PUT', `${ADMIN}/voice/clips/ar/ticket`, { headers: { cookie: manager, origin: ORIGIN, 'content-type': 'audio/wav' }, raw: new Uint8Array(1024 * 1024 + 10) as RequestInit['body'] }), 413)
  await expectStatus(as(manager, 'GET', '/voice/clips?lang=ar'), 200)
  await expectStatus(as(manager, 'GET', '/voice/clips/ar/ticket'), 200)
  await expectStatus(as(manager, 'GET', '/voice/clips/ar/Z'), 404)
  await expectStatus(as(clerk, 'GET', '/voice/clips'), 403)
  await expectStatus(as(manager, 'DELETE', '/voice/clips/ar/ticket'), 200)

  // Workspaces and queue units made in the console (contract §24): administrators only.
  await expectStatus(as(admin, 'GET', '/workspaces'), 200)
  await expectStatus(as(manager, 'GET', '/workspaces'), 403)
  await expectStatus(as(null, 'GET', '/workspaces'), 401)
  const workspace = await (await expectStatus(as(admin, 'POST', '/workspaces', { name: 'Console bank' }), 201)).json() as { id: string; revision: string }
  await expectStatus(as(admin, 'POST', '/workspaces', { id: workspace.id, name: 'Again' }), 422)
  await expectStatus(as(manager, 'POST', '/workspaces', { name: 'Mine' }), 403)
  await expectStatus(as(null, 'POST', '/workspaces', { name: 'Mine' }), 401)
  await expectStatus(as(admin, 'POST', '/workspaces', { name: 'Mine' }, { origin: 'https://evil.example' }), 403)
  await expectStatus(request(app, 'POST', `${ADMIN}/workspaces`, { raw: '{', headers: { cookie: admin, origin: ORIGIN, 'content-type': 'application/json' } }), 400)
  await expectStatus(request(app, 'POST', `${ADMIN}/workspaces`, { raw: JSON.stringify({ name: 'x'.repeat(70_000) }), headers: { cookie: admin, origin: ORIGIN, 'content-type': 'application/json' } }), 413)
  const renamed = await (await expectStatus(as(admin, 'PATCH', `/workspaces/${workspace.id}`, { name: 'Console savings bank', revision: workspace.revision }), 200)).json() as { revision: string }
  await expectStatus(as(admin, 'PATCH', `/workspaces/${workspace.id}`, { name: 'Stale', revision: workspace.revision }), 409)
  await expectStatus(as(admin, 'PATCH', '/workspaces/ws_nowhere', { name: 'X', revision: renamed.revision }), 404)
  await expectStatus(as(admin, 'PATCH', `/workspaces/${workspace.id}`, { name: '', revision: renamed.revision }), 422)
  await expectStatus(as(manager, 'PATCH', `/workspaces/${workspace.id}`, { name: 'Mine', revision: workspace.revision }), 403)
  await expectStatus(as(null, 'PATCH', `/workspaces/${workspace.id}`, { name: 'Mine', revision: workspace.revision }), 401)
  await expectStatus(as(admin, 'POST', '/queue-units', { workspaceId: workspace.id, name: { en: 'Console branch', ar: 'فرع' }, languages: ['en', 'ar'] }), 201)
  await expectStatus(as(admin, 'POST', '/queue-units', { workspaceId: workspace.id, name: 'Again', id: 'qu_main' }), 422)
  await expectStatus(as(admin, 'POST', '/queue-units', { workspaceId: workspace.id, name: 'Bad', languages: ['not a tag!'] }), 422)
  await expectStatus(as(manager, 'POST', '/queue-units', { workspaceId: workspace.id, name: 'Mine' }), 403)
  await expectStatus(as(null, 'POST', '/queue-units', { workspaceId: workspace.id, name: 'Mine' }), 401)
  await expectStatus(request(app, 'POST', `${ADMIN}/queue-units`, { raw: 'name=x', headers: { cookie: admin, origin: ORIGIN, 'content-type': 'text/plain' } }), 400)
}
