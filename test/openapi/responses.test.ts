import { describe, expect, test } from 'bun:test'
import { jsonOf, request, testContext } from '../support/app'
import { capture, ResponseChecker, type Exchange } from '../support/capture'
import { counterContext } from '../counters/helpers'
import { issueHeaders, mainUnit, HALL_ACCOUNTS } from '../queue/helpers'
import { pairingCode, cookieOf, ORIGIN } from '../devices/helpers'
import { envelope, scheduleData } from '../widgets/support'
import { makeMonth } from '../prayer/support'
import { storeClips } from '../../src/voice/service'
import { wav, FULL_SET } from '../voice/support'
import { PeopleService } from '../../src/people'
import { driveAdminSections } from './admin-sections.drive'

/*
 * Contract §15: the document says what the server sends. Every operation of /swagger/json is
 * driven here at least once with a valid request (and its common errors) through the real app;
 * each response is checked against its operation: status, media type, required headers, body
 * (JSON Schema 2020-12 by Ajv) and the credential the request used. A new route this test does
 * not drive fails it.
 */

const METRICS_TOKEN = 'metrics-token-0123456789abcdef'
const SOURCE = 'psrc_centralmosque-0001-london'
const OP = '/api/operator/v1'
const INBOUND_SECRET = 'inbound-secret-0123456789'

async function driveEveryOperation() {
  const ctx = counterContext((doc) => {
    const unit = mainUnit(doc)
    unit.apiKeys!.push({ name: 'reports', scopes: ['reports:read'] })
    unit.apiKeys!.push({ name: 'booker', scopes: ['appointments:write'] })
    unit.services!.find((s) => s.id === 'svc_accounts')!.appointments = { enabled: true, capacityPerSlot: 2 }
    doc.workspaces[0]!.notifications = {
      country: 'GB',
      sms: { url: 'http://127.0.0.1:9/sms', inboundSecret: INBOUND_SECRET },
      email: { host: '127.0.0.1', port: 9, security: 'none', from: 'lobby@branch.example' },
      webPush: { subject: 'mailto:branch@example.com' },
    }
  }, { metricsToken: METRICS_TOKEN })
  ctx.clock.set('2026-11-25T11:00:00.000Z')
  const { app, exchanges } = capture(ctx.app)
  /** Requests that did not get the status this test meant to provoke. */
  const unexpected: string[] = []
  const all = ctx.key('all')
  const operator = ctx.key('operator')
  const reports = ctx.key('reports')
  const workspace = ctx.provisioned.secret('workspace', 'ws_demo', 'cms')
  const display = ctx.provisioned.secret('display', 'ws_demo', 'lobby-screens')
  const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` })
  const get = (path: string, headers: Record<string, string> = {}) => request(app, 'GET', path, { headers })
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => request(app, 'POST', path, { body, headers })
  const expectStatus = async (response: Promise<Response>, status: number) => {
    const r = await response
    if (r.status !== status) unexpected.push(`${exchanges.at(-1)?.method} ${exchanges.at(-1)?.url}: ${r.status}, not ${status}: ${(await r.clone().text()).slice(0, 200)}`)
    return r
  }
  const data = async (response: Promise<Response>, status = 200) => (await jsonOf(await expectStatus(response, status))).data

  // Platform.
  await expectStatus(get('/health'), 200)
  await expectStatus(get('/metrics', bearer(METRICS_TOKEN)), 200)
  await expectStatus(get('/metrics'), 401)
  await expectStatus(get('/metrics', bearer('wrong-token-0123456789abcdef')), 401)

  // Public queue API.
  await expectStatus(get('/api/public/v1/queue/services', bearer(all)), 200)
  await expectStatus(get('/api/public/v1/queue/services'), 401)
  await expectStatus(get('/api/public/v1/queue/services', bearer(operator)), 403)
  const issue = (body: unknown, headers: Record<string, string> = {}) =>
    request(app, 'POST', '/api/public/v1/queue/tickets', { headers: { ...issueHeaders(ctx, all), ...headers }, raw: JSON.stringify(body) })
  const first = await data(issue(HALL_ACCOUNTS), 201)
  await expectStatus(issue(HALL_ACCOUNTS, { 'idempotency-key': 'replayed-key-0001' }), 201)
  await expectStatus(issue(HALL_ACCOUNTS, { 'idempotency-key': 'replayed-key-0001' }), 201)
  await expectStatus(issue({ locationId: 'loc_annex', serviceId: 'svc_loans' }, { 'idempotency-key': 'replayed-key-0001' }), 409)
  await expectStatus(issue({ locationId: 'loc_hall' }), 422)
  await expectStatus(issue(HALL_ACCOUNTS, { 'x-request-timestamp': 'yesterday' }), 400)
  await expectStatus(issue(HALL_ACCOUNTS, { authorization: 'Bearer lbq_unknownunknownunknown' }), 401)
  await expectStatus(get(`/api/public/v1/queue/tickets/${first.id}`, bearer(all)), 200)
  await expectStatus(get('/api/public/v1/queue/tickets/tkt_unknown', bearer(all)), 404)
  await expectStatus(get('/api/public/v1/queue/state', bearer(all)), 200)

  // Widget push and prayer months (workspace key).
  const widgetPush = '/api/public/v1/widgets/wdg_schedule_lobby/data/push'
  await expectStatus(post(widgetPush, envelope('TODAYS_SCHEDULE', scheduleData(2)), bearer(workspace)), 200)
  await expectStatus(post(widgetPush, { pushVersion: 1 }, bearer(workspace)), 422)
  await expectStatus(request(app, 'POST', widgetPush, { headers: { ...bearer(workspace), 'content-type': 'text/plain' }, raw: 'hello' }), 415)
  await expectStatus(post(widgetPush, envelope('TODAYS_SCHEDULE', scheduleData(2))), 401)
  const months = `/api/public/v1/prayer-schedules/sources/${SOURCE}/months`
  await expectStatus(post(months, makeMonth('2026-11'), { ...bearer(workspace), 'idempotency-key': 'prayer-key-000001' }), 201)
  await expectStatus(post(months, makeMonth('2026-11'), { ...bearer(workspace), 'idempotency-key': 'prayer-key-000002' }), 200)
  await expectStatus(post(months, { period: '2026-11' }, { ...bearer(workspace), 'idempotency-key': 'prayer-key-000003' }), 422)
  await expectStatus(get(`${months}/2026-11`, bearer(workspace)), 200)
  await expectStatus(get(`${months}/2026-12`, bearer(workspace)), 404)
  await expectStatus(get(`${months}/2026-11`, bearer(display)), 403)

  // Operator API: counters, a walk-in (priority), every transition. Call-next at a closed
  // counter first: 409 COUNTER_CLOSED (contract §27), in the document.
  const closed = await expectStatus(post(`${OP}/counters/cnt_1/call-next`, undefined, bearer(operator)), 409)
  expect((JSON.parse(await closed.clone().text()) as { error: { code: string } }).error.code).toBe('COUNTER_CLOSED')
  await data(post(`${OP}/counters/cnt_1/open`, undefined, bearer(operator)))
  await data(post(`${OP}/counters/cnt_2/open`, undefined, bearer(operator)))
  await expectStatus(post(`${OP}/counters/cnt_unknown/open`, undefined, bearer(operator)), 404)
  const walkIn = await data(post(`${OP}/tickets`, { ...HALL_ACCOUNTS, priority: true }, { ...bearer(operator), 'idempotency-key': 'walk-in-0001' }), 201)
  await expectStatus(post(`${OP}/tickets`, { locationId: 'loc_hall' }, bearer(operator)), 422)
  await data(post(`${OP}/tickets/${walkIn.id}/call`, { counterId: 'cnt_1' }, bearer(operator)))
  await data(post(`${OP}/tickets/${walkIn.id}/recall`, undefined, bearer(operator)))
  await data(post(`${OP}/tickets/${walkIn.id}/start`, undefined, bearer(operator)))
  await data(post(`${OP}/tickets/${walkIn.id}/complete`, undefined, bearer(operator)))
  await expectStatus(post(`${OP}/tickets/${walkIn.id}/complete`, undefined, bearer(operator)), 409)
  await data(post(`${OP}/tickets/${first.id}/call`, { counterId: 'cnt_2' }, bearer(operator)))
  await data(post(`${OP}/tickets/${first.id}/requeue`, { position: 'FIRST' }, bearer(operator)))
  await data(post(`${OP}/tickets/${first.id}/call`, { counterId: 'cnt_2' }, bearer(operator)))
  await data(post(`${OP}/tickets/${first.id}/transfer`, { serviceId: 'svc_loans', note: 'Wants a <b>loan</b>' }, bearer(operator)))
  const next = await data(post(`${OP}/counters/cnt_1/call-next`, undefined, bearer(operator)))
  await data(post(`${OP}/tickets/${next.ticket?.id ?? next.id}/no-show`, undefined, bearer(operator)))
  // Contract §20: brought back, then no-show again (the counter is free for what follows).
  await data(post(`${OP}/tickets/${next.ticket?.id ?? next.id}/reinstate`, { position: 'FIRST' }, bearer(operator)))
  await expectStatus(post(`${OP}/tickets/${next.ticket?.id ?? next.id}/reinstate`, { position: 'FIRST' }, bearer(operator)), 409)
  const waiting = await data(issue(HALL_ACCOUNTS), 201)
  await data(post(`${OP}/tickets/${waiting.id}/cancel`, undefined, bearer(operator)))
  await expectStatus(post(`${OP}/tickets/tkt_unknown/start`, undefined, bearer(operator)), 404)
  await expectStatus(post(`${OP}/tickets/${waiting.id}/start`, undefined), 401)
  await data(post(`${OP}/counters/cnt_2/close`, undefined, bearer(operator)))
  await expectStatus(get(`${OP}/queue`, bearer(operator)), 200)
  await expectStatus(get(`${OP}/tickets/${first.id}/events`, bearer(operator)), 200)
  await expectStatus(get(`${OP}/queue`, bearer(all)), 403)

  // Reports.
  for (const report of ['daily', 'counters', 'summary']) {
    await expectStatus(get(`${OP}/reports/${report}?from=2026-11-25&to=2026-11-25`, bearer(reports)), 200)
    await expectStatus(get(`${OP}/reports/${report}?from=2026-13-01&to=2026-11-25`, bearer(reports)), 422)
  }

  // Appointments (§21): slots, book (201, replay, 409 full, 422 refusal), list, check-in, cancel, the report and its CSV.
  const booker = ctx.key('booker')
  const APT = `${OP}/appointments`
  const slotStart = '2026-11-26T09:00:00.000Z'
  await expectStatus(get(`${APT}/slots?date=2026-11-26&locationId=loc_hall&serviceId=svc_accounts`, bearer(booker)), 200)
  await expectStatus(get(`${APT}/slots?date=2026-11-26&locationId=loc_hall&serviceId=svc_loans`, bearer(booker)), 422)
  await expectStatus(get(`${APT}/slots?date=2026-11-26&locationId=loc_hall&serviceId=svc_accounts`), 401)
  await expectStatus(get(`${APT}/slots?date=2026-11-26&locationId=loc_hall&serviceId=svc_accounts`, bearer(operator)), 403)
  const appointment = await data(post(APT, { ...HALL_ACCOUNTS, startAt: slotStart, name: 'Amal' }, { ...bearer(booker), 'idempotency-key': 'apt-0001' }), 201)
  await expectStatus(post(APT, { ...HALL_ACCOUNTS, startAt: slotStart, name: 'Amal' }, { ...bearer(booker), 'idempotency-key': 'apt-0002' }), 200)
  await expectStatus(post(APT, { ...HALL_ACCOUNTS, startAt: slotStart, name: 'Jonas' }, { ...bearer(booker), 'idempotency-key': 'apt-0003' }), 201)
  await expectStatus(post(APT, { ...HALL_ACCOUNTS, startAt: slotStart, name: 'Mira' }, { ...bearer(booker), 'idempotency-key': 'apt-0006' }), 409)
  await expectStatus(post(APT, { ...HALL_ACCOUNTS, startAt: '2026-11-26T09:07:00.000Z', name: 'Jonas' }, { ...bearer(booker), 'idempotency-key': 'apt-0004' }), 422)
  await expectStatus(post(APT, { ...HALL_ACCOUNTS, startAt: slotStart, name: 'Jonas' }, bearer(booker)), 400)
  await expectStatus(get(`${APT}?date=2026-11-26&locationId=loc_hall`, bearer(booker)), 200)
  await expectStatus(post(`${APT}/${appointment.id}/check-in`, undefined, bearer(booker)), 409)
  await expectStatus(post(`${APT}/apt_unknown/cancel`, undefined, bearer(booker)), 404)
  const second = await data(post(APT, { ...HALL_ACCOUNTS, startAt: '2026-11-25T11:15:00.000Z', name: 'Jonas' }, { ...bearer(booker), 'idempotency-key': 'apt-0005' }), 201)
  await expectStatus(post(`${APT}/${second.id}/check-in`, undefined, bearer(booker)), 201)
  await data(post(`${APT}/${appointment.id}/cancel`, undefined, bearer(booker)))
  await expectStatus(get(`${OP}/reports/appointments?from=2026-11-25&to=2026-11-26`, bearer(reports)), 200)
  await expectStatus(get(`${OP}/reports/appointments/csv?from=2026-11-25&to=2026-11-26`, bearer(reports)), 200)
  await expectStatus(get(`${OP}/reports/appointments?from=2026-11-27&to=2026-11-26`, bearer(reports)), 422)
  await expectStatus(get(`${OP}/reports/appointments?from=2026-11-25&to=2026-11-26`, bearer(booker)), 403)

  // Display feeds: a token in the header, in the query, a paired display's cookie; 304 and 401.
  const state = '/api/display/v1/queue-units/qu_main/state'
  const shown = await expectStatus(get(state, bearer(display)), 200)
  expect((await jsonOf(shown)).recentCalls.length).toBeGreaterThan(0)
  await expectStatus(get(state, { ...bearer(display), 'if-none-match': shown.headers.get('etag')! }), 304)
  await expectStatus(get(`${state}?token=${display}`), 200)
  await expectStatus(get(state), 401)
  await expectStatus(get('/api/display/v1/queue-units/qu_unknown/state', bearer(display)), 404)
  await expectStatus(get(`/api/display/v1/widgets/wdg_schedule_lobby?token=${display}`), 200)
  await expectStatus(get(`/api/display/v1/widgets/wdg_inactive`, bearer(display)), 200)
  await expectStatus(get(`/api/display/v1/prayer-schedules/sources/${SOURCE}/months/2026-11`, bearer(display)), 200)
  await expectStatus(get(`/api/display/v1/prayer-schedules/sources/${SOURCE}/today?token=${display}`), 200)

  // Voice.
  storeClips(ctx.db, 'ar', FULL_SET.map((name, i) => ({ name, contentType: 'audio/wav' as const, bytes: wav(300, i + 1) })), ctx.clock.now())
  const manifest = await jsonOf(await expectStatus(get('/api/display/v1/queue-units/qu_main/voice?lang=ar', bearer(display)), 200))
  await expectStatus(get(`/api/display/v1/queue-units/qu_main/voice?lang=${'x'.repeat(20)}&token=${display}`), 400)
  const clip = manifest.clips.find((c: { name: string }) => c.name === 'ticket')
  const audio = await expectStatus(get(`${clip.href}&token=${display}`), 200)
  await expectStatus(get(clip.href, { ...bearer(display), 'if-none-match': audio.headers.get('etag')! }), 304)
  await expectStatus(get('/api/display/v1/voice-clips/ar/hello', bearer(display)), 404)

  // Devices: pairing, then each role's reads.
  const pair = async (pairing: Parameters<typeof pairingCode>[1]) => cookieOf(await expectStatus(post('/api/devices/v1/pair', { code: pairingCode(ctx, pairing) }), 200))
  await expectStatus(post('/api/devices/v1/pair', { code: '000000' }), 400)
  await expectStatus(post('/api/devices/v1/pair', { code: 12 }), 422)
  const desk = await pair({ role: 'desk', counterId: 'cnt_1' })
  const kiosk = await pair({ role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_hall' })
  const screen = await pair({ role: 'display', workspaceId: 'ws_demo' })
  await expectStatus(get('/api/devices/v1/device', { cookie: desk }), 200)
  await expectStatus(get('/api/devices/v1/device'), 401)
  await expectStatus(get('/api/devices/v1/boards', { cookie: screen }), 200)
  await expectStatus(get('/api/devices/v1/desk', { cookie: desk }), 200)
  await expectStatus(get('/api/devices/v1/desk', { cookie: kiosk }), 401)
  await expectStatus(get('/api/devices/v1/kiosk', { cookie: kiosk }), 200)
  const tapped = await data(post('/api/devices/v1/kiosk/tickets', { serviceId: 'svc_accounts' }, { cookie: kiosk, origin: ORIGIN, 'idempotency-key': 'tap-0001' }), 201)
  await expectStatus(post('/api/devices/v1/kiosk/tickets', { serviceId: 'svc_accounts' }, { cookie: desk, origin: ORIGIN, 'idempotency-key': 'tap-0002' }), 401)
  const kioskBooking = await data(post(`${OP}/appointments`, { ...HALL_ACCOUNTS, startAt: '2026-11-25T11:15:00.000Z', name: 'Kiosk Customer' }, { ...bearer(ctx.key('booker')), 'idempotency-key': 'apt-kiosk' }), 201)
  await expectStatus(post('/api/devices/v1/kiosk/appointments/check-in', { code: kioskBooking.code }, { cookie: kiosk, origin: ORIGIN }), 201)
  await expectStatus(post('/api/devices/v1/kiosk/appointments/check-in', { code: 'ZZZZZZZZ' }, { cookie: kiosk, origin: ORIGIN }), 404)
  await expectStatus(post(`${OP}/counters/cnt_1/call-next`, undefined, { cookie: desk, origin: ORIGIN }), 200)
  await expectStatus(get(`${state}`, { cookie: screen }), 200)

  // Joining from a phone (contract §20): JSON, from this server's page.
  ctx.db.$client.run(`UPDATE locations SET remote_join = '{"enabled":true,"maxWaiting":50,"allowedNetworks":[]}' WHERE id = 'loc_hall'`)
  const joined = await data(post('/join/loc_hall', { serviceId: 'svc_loans' }, { origin: ORIGIN }), 201)
  await expectStatus(post('/join/loc_hall', { serviceId: 'svc_loans' }, { origin: ORIGIN, cookie: `lobby_join=${String(joined.trackingUrl).slice(3)}` }), 409)
  await expectStatus(post('/join/loc_hall', { serviceId: 'svc_loans' }, { origin: 'https://elsewhere.example' }), 403)
  await expectStatus(post('/join/loc_annex', { serviceId: 'svc_accounts' }, { origin: ORIGIN }), 404)

  // The phone.
  const code = String(tapped.ticket.trackingUrl).slice('/t/'.length)
  await expectStatus(get(`/api/phone/v1/tickets/${code}`), 200)
  await expectStatus(get(`/api/phone/v1/tickets/${code}x`), 404)
  // Contract §20: leave, more time, the rating (the Origin rule, the refusals in the envelope).
  const trackingOf = (id: string) => (ctx.db.$client.query('SELECT tracking_code AS c FROM tickets WHERE id = ?1').get(id) as { c: string }).c
  const phoneChange = (ticketCode: string, action: string, body?: unknown, headers: Record<string, string> = { origin: ORIGIN }) => post(`/api/phone/v1/tickets/${ticketCode}/${action}`, body, headers)
  const leaving = trackingOf((await data(issue(HALL_ACCOUNTS), 201)).id)
  await expectStatus(phoneChange(leaving, 'more-time'), 200)
  await expectStatus(phoneChange(leaving, 'more-time'), 200)
  await expectStatus(phoneChange(leaving, 'more-time'), 409)
  await expectStatus(phoneChange(leaving, 'leave', undefined, {}), 403)
  await expectStatus(phoneChange(leaving, 'leave'), 200)
  await expectStatus(phoneChange(leaving, 'leave'), 409)
  await expectStatus(phoneChange(`${leaving}x`, 'leave'), 404)
  const visited = trackingOf(walkIn.id)
  await expectStatus(phoneChange(leaving, 'feedback', { rating: 5 }), 409)
  await expectStatus(phoneChange(visited, 'feedback', { rating: 9 }), 422)
  await expectStatus(request(app, 'POST', `/api/phone/v1/tickets/${visited}/feedback`, { headers: { origin: ORIGIN, 'content-type': 'application/json' }, raw: '{' }), 400)
  // Contract §25: "Notify me", its list and removal, the push key, the gateway's signed replies.
  const notified = trackingOf((await data(issue(HALL_ACCOUNTS), 201)).id)
  await expectStatus(phoneChange(notified, 'notify', { channel: 'email', to: 'amal@example.com' }), 201)
  await expectStatus(phoneChange(notified, 'notify', { channel: 'sms', to: 'not a number' }), 422)
  await expectStatus(phoneChange(notified, 'notify', { channel: 'email', to: 'amal@example.com' }, {}), 403)
  await expectStatus(phoneChange(`${notified}x`, 'notify', { channel: 'email', to: 'amal@example.com' }), 404)
  await expectStatus(phoneChange(visited, 'notify', { channel: 'email', to: 'amal@example.com' }), 409)
  await expectStatus(get(`/api/phone/v1/tickets/${notified}/notify`), 200)
  await expectStatus(request(app, 'DELETE', `/api/phone/v1/tickets/${notified}/notify`, { headers: { origin: ORIGIN } }), 200)
  await expectStatus(get('/api/phone/v1/push-key'), 200)
  const reply = JSON.stringify({ from: '+447400123456', text: 'hello' })
  const signature = `sha256=${new Bun.CryptoHasher('sha256', INBOUND_SECRET).update(reply).digest('hex')}`
  await expectStatus(request(app, 'POST', '/api/notifications/v1/sms/inbound', { headers: { 'content-type': 'application/json', 'x-lobby-signature': signature }, raw: reply }), 200)
  await expectStatus(request(app, 'POST', '/api/notifications/v1/sms/inbound', { headers: { 'content-type': 'application/json' }, raw: reply }), 401)
  await expectStatus(phoneChange(visited, 'feedback', { rating: 5, comment: '<b>kind</b>' }), 200)
  await expectStatus(phoneChange(visited, 'feedback', { rating: 4 }), 409)

  // People (contract §16): a setup link, sign-in (and its lock), who is signed in, sign-out.
  const people = new PeopleService({ db: ctx.db, clock: ctx.clock, ids: ctx.deps.ids })
  const setupCode = people.addUser({ username: 'amira.h', role: 'manager', queueUnits: ['qu_main'] }, ctx.clock.now()).setupPath.split('=')[1]!
  const passphrase = 'quiet lantern 42 orchard'
  await expectStatus(post('/api/auth/v1/setup', { code: setupCode, password: 'short' }), 422)
  await expectStatus(post('/api/auth/v1/setup', { code: setupCode, password: passphrase }, { origin: ORIGIN }), 200)
  await expectStatus(post('/api/auth/v1/setup', { code: setupCode, password: passphrase }), 400)
  await expectStatus(post('/api/auth/v1/sessions', { username: 'amira.h', password: 'wrong password here' }), 401)
  await expectStatus(post('/api/auth/v1/sessions', { username: 'amira.h' }), 422)
  const signedIn = await expectStatus(post('/api/auth/v1/sessions', { username: 'amira.h', password: passphrase }, { origin: ORIGIN }), 200)
  const session = signedIn.headers.get('set-cookie')!.split(';')[0]!
  await expectStatus(get('/api/auth/v1/sessions/current', { cookie: session }), 200)
  await expectStatus(get('/api/auth/v1/sessions/current'), 401)
  await expectStatus(request(app, 'DELETE', '/api/auth/v1/sessions/current', { headers: { cookie: session } }), 403)
  await expectStatus(request(app, 'DELETE', '/api/auth/v1/sessions/current', { headers: { cookie: session, origin: ORIGIN } }), 200)
  // The staff report (§16): a reports key, a manager's session, a clerk's session (403).
  await expectStatus(get(`${OP}/reports/staff?from=2026-11-25&to=2026-11-25`, bearer(reports)), 200)
  await expectStatus(get(`${OP}/reports/staff?from=2026-11-25&to=2026-11-24`, bearer(reports)), 422)
  await expectStatus(get(`${OP}/reports/staff?from=2026-11-25&to=2026-11-25`), 401)
  const managerAgain = (await expectStatus(post('/api/auth/v1/sessions', { username: 'amira.h', password: passphrase }, { origin: ORIGIN }), 200)).headers.get('set-cookie')!.split(';')[0]!
  await expectStatus(get(`${OP}/reports/staff?from=2026-11-25&to=2026-11-25`, { cookie: managerAgain }), 200)
  const clerkCode = people.addUser({ username: 'lina.k', role: 'clerk', queueUnits: ['qu_main'] }, ctx.clock.now()).setupPath.split('=')[1]!
  await expectStatus(post('/api/auth/v1/setup', { code: clerkCode, password: passphrase, pin: '482913' }, { origin: ORIGIN }), 200)
  const clerkSession = (await expectStatus(post('/api/auth/v1/sessions', { username: 'lina.k', password: passphrase }, { origin: ORIGIN }), 200)).headers.get('set-cookie')!.split(';')[0]!
  await expectStatus(get(`${OP}/reports/staff?from=2026-11-25&to=2026-11-25`, { cookie: clerkSession }), 403)
  // The live floor (§22): a manager's units and floor, a clerk refused, a counter opened and closed for lunch.
  const floorApi = '/api/manage/v1/queue-units'
  await expectStatus(get(floorApi, { cookie: managerAgain }), 200)
  await expectStatus(get(floorApi), 401)
  await expectStatus(get(floorApi, { cookie: clerkSession }), 403)
  await expectStatus(get(`${floorApi}/qu_main/floor`, { cookie: managerAgain }), 200)
  await expectStatus(get(`${floorApi}/qu_other/floor`, { cookie: managerAgain }), 404)
  await expectStatus(post(`${floorApi}/qu_main/counters/cnt_2/open`, {}, { cookie: managerAgain, origin: ORIGIN }), 200)
  await expectStatus(post(`${floorApi}/qu_main/counters/cnt_2/close`, { reason: 'Nap' }, { cookie: managerAgain, origin: ORIGIN }), 422)
  await expectStatus(post(`${floorApi}/qu_main/counters/cnt_9/close`, { reason: 'Lunch' }, { cookie: managerAgain, origin: ORIGIN }), 404)
  await expectStatus(post(`${floorApi}/qu_main/counters/cnt_2/close`, { reason: 'Lunch' }, { cookie: managerAgain }), 403)
  await expectStatus(post(`${floorApi}/qu_main/counters/cnt_2/close`, { reason: 'Lunch' }, { cookie: managerAgain, origin: ORIGIN }), 200)
  // The feedback report (§20), the same readers.
  const ratings = await data(get(`${OP}/reports/feedback?from=2026-11-25&to=2026-11-25`, bearer(reports)))
  if (ratings.comments.length !== 1) unexpected.push(`the feedback report has ${ratings.comments.length} comments, not 1`)
  await expectStatus(get(`${OP}/reports/feedback?from=2026-11-25&to=2026-11-24`, bearer(reports)), 422)
  await expectStatus(get(`${OP}/reports/feedback?from=2026-11-25&to=2026-11-25`), 401)
  await expectStatus(get(`${OP}/reports/feedback?from=2026-11-25&to=2026-11-25`, { cookie: managerAgain }), 200)
  await expectStatus(get(`${OP}/reports/feedback?from=2026-11-25&to=2026-11-25`, { cookie: clerkSession }), 403)
  // The admin console's API (contract §17): the manager of qu_main reads and edits its branch.
  const ADMIN = '/api/admin/v1/queue-units'
  const asManager = { cookie: managerAgain, origin: ORIGIN }
  const put = (path: string, body: unknown, headers: Record<string, string>) => request(app, 'PUT', path, { body, headers })
  const remove = (path: string, headers: Record<string, string>) => request(app, 'DELETE', path, { headers })
  await expectStatus(get(ADMIN, { cookie: managerAgain }), 200)
  await expectStatus(get(ADMIN, { cookie: clerkSession }), 403)
  await expectStatus(get(ADMIN), 401)
  const adminUnit = await jsonOf(await expectStatus(get(`${ADMIN}/qu_main`, { cookie: managerAgain }), 200))
  await expectStatus(get(`${ADMIN}/qu_elsewhere`, { cookie: managerAgain }), 403)
  {
    const { id: _id, workspaceId: _ws, names, name: _name, revision, ...settings } = adminUnit
    const renamed = await jsonOf(await expectStatus(put(`${ADMIN}/qu_main`, { ...settings, name: { ...names, ar: 'الفرع الرئيسي' }, revision }, asManager), 200))
    await expectStatus(put(`${ADMIN}/qu_main`, { ...settings, name: names, revision }, asManager), 409)
    await expectStatus(put(`${ADMIN}/qu_main`, { ...settings, name: names, revision: renamed.revision }, { cookie: managerAgain }), 403)
    await expectStatus(put(`${ADMIN}/qu_main`, { ...settings, name: '', revision: renamed.revision }, asManager), 422)
    // The console's save: a merge patch of what changed (contract §24).
    const patched = await jsonOf(await expectStatus(request(app, 'PATCH', `${ADMIN}/qu_main`, { body: { noShowGraceMinutes: 25, revision: renamed.revision }, headers: asManager }), 200))
    await expectStatus(request(app, 'PATCH', `${ADMIN}/qu_main`, { body: { noShowGraceMinutes: 20, revision: renamed.revision }, headers: asManager }), 409)
    await expectStatus(request(app, 'PATCH', `${ADMIN}/qu_main`, { body: { noShowGraceMinutes: -1, revision: patched.revision }, headers: asManager }), 422)
  }
  const adminBodies = {
    locations: { id: 'loc_new', name: { en: 'New hall', ar: 'القاعة الجديدة' }, timezone: 'Europe/Berlin', openingHours: { mon: [['08:00', '16:00']] } },
    services: { id: 'svc_new', name: { en: 'New service', ar: 'خدمة جديدة' }, prefix: 'N', locations: ['loc_new'] },
    counters: { id: 'cnt_new', name: { en: 'New counter', ar: 'شباك جديد' }, locationId: 'loc_new', services: ['svc_new'] },
  } as const
  const saved: Record<string, { revision: string }> = {}
  for (const [collection, body] of Object.entries(adminBodies)) {
    const path = `${ADMIN}/qu_main/${collection}`
    await expectStatus(get(path, { cookie: managerAgain }), 200)
    await expectStatus(request(app, 'POST', path, { body: { ...body, prefix: 'lower' }, headers: asManager }), 422)
    await expectStatus(request(app, 'POST', path, { raw: 'name=x', headers: { ...asManager, 'content-type': 'text/plain' } }), 400)
    await expectStatus(request(app, 'POST', path, { raw: '{', headers: { ...asManager, 'content-type': 'application/json' } }), 400)
    const created = await jsonOf(await expectStatus(request(app, 'POST', path, { body, headers: asManager }), 201))
    await expectStatus(get(`${path}/${body.id}`, { cookie: managerAgain }), 200)
    await expectStatus(get(`${path}/nothing`, { cookie: managerAgain }), 404)
    const { id: _id, revision, ...rest } = body as Record<string, unknown> & { revision?: string }
    const updated = await jsonOf(await expectStatus(put(`${path}/${body.id}`, { ...rest, name: { en: 'Renamed' }, revision: created.revision }, asManager), 200))
    await expectStatus(put(`${path}/${body.id}`, { ...rest, revision: created.revision }, asManager), 409)
    const patchedEntity = await jsonOf(await expectStatus(request(app, 'PATCH', `${path}/${body.id}`, { body: { name: { ar: 'معدل' }, revision: updated.revision }, headers: asManager }), 200))
    await expectStatus(request(app, 'PATCH', `${path}/${body.id}`, { body: { name: { ar: '' }, revision: patchedEntity.revision }, headers: asManager }), 422)
    await expectStatus(request(app, 'PATCH', `${path}/${body.id}`, { body: { name: { ar: 'x' }, revision: updated.revision }, headers: asManager }), 409)
    saved[collection] = patchedEntity
  }
  await expectStatus(remove(`${ADMIN}/qu_main/services/svc_new?revision=${saved.services!.revision}`, asManager), 409)
  await expectStatus(remove(`${ADMIN}/qu_main/counters/cnt_new`, asManager), 422)
  for (const collection of ['counters', 'services', 'locations'] as const) {
    await expectStatus(remove(`${ADMIN}/qu_main/${collection}/${adminBodies[collection].id}?revision=${saved[collection]!.revision}`, asManager), 200)
  }
  await expectStatus(get('/api/admin/v1/audit?entityType=counter', { cookie: managerAgain }), 200)
  await expectStatus(get('/api/admin/v1/audit?limit=0', { cookie: managerAgain }), 422)
  await expectStatus(get('/api/admin/v1/audit', { cookie: clerkSession }), 403)
  await expectStatus(get('/api/admin/v1/audit'), 401)
  // A row to check against the schema: the clerk's break with a reason, as the desk sign-in writes it.
  ctx.db.$client.run(`INSERT INTO staff_intervals (user_id, username, queue_unit_id, location_id, counter_id, kind, reason, business_day, started_at, ended_at)
    SELECT id, username, 'qu_main', 'loc_hall', 'cnt_1', 'break', 'Lunch', '2026-11-25', ${Date.parse('2026-11-25T10:00:00Z')}, NULL FROM users WHERE username = 'lina.k'`)
  const staffRows = await data(get(`${OP}/reports/staff?from=2026-11-25&to=2026-11-25&queueUnitId=qu_main`, bearer(reports)))
  if (staffRows.length !== 1) unexpected.push(`the staff report has ${staffRows.length} rows, not 1`)
  // A clerk at the desk (contract §16): a PIN sign-in, its refusals, a required sign-in, a break, sign-out.
  const deskClerkCode = people.addUser({ username: 'samir.k', role: 'clerk', displayName: 'Samir Khoury', queueUnits: ['qu_main'] }, ctx.clock.now()).setupPath.split('=')[1]!
  await expectStatus(post('/api/auth/v1/setup', { code: deskClerkCode, password: passphrase, pin: '482913' }), 200)
  const atDesk = { cookie: desk, origin: ORIGIN }
  await expectStatus(post('/api/devices/v1/desk/clerk', { username: 'samir.k', pin: '000000' }, atDesk), 401)
  await expectStatus(post('/api/devices/v1/desk/clerk', { username: 'samir.k', pin: '482913' }, { origin: ORIGIN }), 401)
  await expectStatus(post('/api/devices/v1/desk/clerk', { username: 'samir.k' }, atDesk), 422)
  await expectStatus(post('/api/devices/v1/desk/clerk', { username: 'samir.k', pin: '482913' }, { cookie: desk }), 403)
  await expectStatus(request(app, 'DELETE', '/api/devices/v1/desk/clerk', { headers: { cookie: desk } }), 403)
  await expectStatus(request(app, 'DELETE', '/api/devices/v1/desk/clerk', { headers: atDesk }), 200)
  ctx.db.$client.run("UPDATE queue_units SET desk_sign_in = 'required' WHERE id = 'qu_main'")
  await expectStatus(post(`${OP}/counters/cnt_1/close`, undefined, atDesk), 403)
  await expectStatus(post('/api/devices/v1/desk/clerk', { username: 'samir.k', pin: '482913' }, atDesk), 200)
  await expectStatus(get('/api/devices/v1/desk', { cookie: desk }), 200)
  ctx.db.$client.run("UPDATE queue_units SET desk_sign_in = 'optional' WHERE id = 'qu_main'")
  await expectStatus(post(`${OP}/counters/cnt_2/open`, undefined, bearer(operator)), 200)
  await expectStatus(post(`${OP}/counters/cnt_2/close`, { reason: 'Coffee' }, bearer(operator)), 422)
  await expectStatus(post(`${OP}/counters/cnt_2/close`, { reason: 'Lunch' }, bearer(operator)), 200)
  // The console's devices, staff, keys, webhooks and voice sections (contract §17).
  await driveAdminSections({ app, ctx, people, passphrase, manager: managerAgain, clerk: clerkSession, expectStatus })
  for (let i = 0; i < 5; i++) await post('/api/devices/v1/desk/clerk', { username: 'nobody', pin: '000000' }, atDesk)
  await expectStatus(post('/api/devices/v1/desk/clerk', { username: 'nobody', pin: '000000' }, atDesk), 429)

  for (let i = 0; i < 5; i++) await post('/api/auth/v1/sessions', { username: 'nobody', password: 'wrong password here' })
  await expectStatus(post('/api/auth/v1/sessions', { username: 'nobody', password: 'wrong password here' }), 429)

  // Limits: a body over the route's bound (413), too many pairing attempts (429 with Retry-After).
  await expectStatus(issue({ ...HALL_ACCOUNTS, padding: 'x'.repeat(20_000) }), 413)
  await expectStatus(request(app, 'POST', '/api/devices/v1/pair', { headers: { 'content-type': 'application/json' }, raw: JSON.stringify({ code: '1'.repeat(2000) }) }), 413)
  for (let i = 0; i < 10; i++) await post('/api/devices/v1/pair', { code: '000000' })
  await expectStatus(post('/api/devices/v1/pair', { code: '000000' }), 429)

  return { ctx, exchanges, unexpected }
}

describe('real responses match the OpenAPI document (contract §15)', () => {
  test('every operation is driven, and every response is one its operation documents', async () => {
    const { ctx, exchanges, unexpected } = await driveEveryOperation()
    expect(unexpected).toEqual([])
    const doc = await jsonOf(await request(ctx.app, 'GET', '/swagger/json'))
    const checker = new ResponseChecker(doc)
    const problems = exchanges.flatMap((e: Exchange) => checker.problems(e))
    expect(problems).toEqual([])
    // A route added to the document without a request here fails this line.
    const covered = new Set(exchanges.map((e) => checker.operationOf(e.method, e.url)?.operation.operationId).filter((id) => id !== undefined))
    expect([...covered].sort()).toEqual(checker.operationIds())
    // Each operation's success, not just its errors.
    const succeeded = new Set(exchanges.filter((e) => e.status < 300).map((e) => checker.operationOf(e.method, e.url)?.operation.operationId))
    expect([...succeeded].sort()).toEqual(checker.operationIds())
  }, 30_000)

  test('the checker catches a response the document does not describe', async () => {
    const doc = await jsonOf(await request(testContext().app, 'GET', '/swagger/json'))
    const checker = new ResponseChecker(doc)
    const base = { method: 'get', url: '/api/public/v1/queue/services', requestHeaders: new Headers(), headers: new Headers({ 'content-type': 'application/json' }) }
    expect(checker.problems({ ...base, status: 200, body: '{"data":[{"unexpected":true}]}' }).length).toBeGreaterThan(0)
    expect(checker.problems({ ...base, status: 418, body: '{}' })).toEqual([expect.stringContaining('status not documented')])
    expect(checker.problems({ ...base, status: 200, headers: new Headers({ 'content-type': 'text/html' }), body: '<p>' })).toEqual([expect.stringContaining('media type text/html')])
    // A display read with the token in the query, against a document that does not declare it.
    const state = { ...base, url: '/api/display/v1/queue-units/qu_main/state?token=lbd_x', status: 304, headers: new Headers(), body: '' }
    expect(checker.problems(state)).toEqual([])
    const undeclared = structuredClone(doc)
    delete undeclared.components.securitySchemes.displayTokenQuery
    for (const item of Object.values<any>(undeclared.paths)) for (const op of Object.values<any>(item)) op.security = op.security?.filter((r: object) => !('displayTokenQuery' in r))
    expect(new ResponseChecker(undeclared).problems(state)).toEqual([expect.stringContaining('?token= was accepted')])
  }, 30_000)

  test('every documented response example is valid against its own schema', async () => {
    const doc = await jsonOf(await request(testContext().app, 'GET', '/swagger/json'))
    const checker = new ResponseChecker(doc)
    const problems: string[] = []
    for (const item of Object.values<any>(doc.paths)) for (const op of Object.values<any>(item)) {
      for (const [status, response] of Object.entries<any>(op.responses)) for (const [mediaType, content] of Object.entries<any>(response.content ?? {})) {
        if (content.schema.format === 'binary' || !mediaType.includes('json')) continue
        const examples = [content.example, ...Object.values<any>(content.examples ?? {}).map((e) => e.value)].filter((e) => e !== undefined)
        for (const example of examples) problems.push(...checker.errorsOf(content.schema, example).map((e) => `${op.operationId} ${status}: ${e}`))
      }
    }
    expect(problems).toEqual([])
  }, 90_000) // every example of the document compiled and checked: 25 s at load 20 on 2 cores
})
