import { describe, expect, test } from 'bun:test'
import { request } from '../support/app'
import { callNext, issued, ok, OP, op, ticketRow } from '../counters/helpers'
import { issue, mainUnit, HALL_ACCOUNTS, TICKETS } from '../queue/helpers'
import { asDevice, jsonOf, pairedCookie } from '../devices/helpers'
import { KioskCodes } from '../../src/kiosk/errors'
import { KIOSK_ISSUE_PER_MINUTE } from '../../src/kiosk/routes'
import { issuedAtKiosk, KIOSK, kioskContext, tapService, ticketCount } from './helpers'

describe('GET /api/devices/v1/kiosk', () => {
  test('lists the active services of its location within its list, with people waiting and the estimate', async () => {
    const ctx = await kioskContext()
    await issuedAtKiosk(ctx, 'svc_accounts')
    await issuedAtKiosk(ctx, 'svc_accounts')
    const view = (await jsonOf(await asDevice(ctx, ctx.kiosk, 'GET', KIOSK))).data
    expect(view).toMatchObject({ branchName: 'Main branch', queueUnit: { id: 'qu_main', active: true }, location: { id: 'loc_hall', name: 'Main hall', timezone: 'Europe/Berlin' } })
    // svc_closed is inactive; the annex's lines are another location's.
    expect(view.services).toEqual([
      { id: 'svc_accounts', name: 'Accounts', names: { en: 'Accounts' }, prefix: 'A', open: true, opensAt: null, waiting: 2, estimatedWaitSeconds: 900, noCounterOpen: true, priorityEstimatedWaitSeconds: null, peopleAhead: 2, priorityPeopleAhead: null, counterFree: false },
      { id: 'svc_loans', name: 'Loans', names: { en: 'Loans' }, prefix: 'L', open: true, opensAt: null, waiting: 0, estimatedWaitSeconds: 300, noCounterOpen: true, priorityEstimatedWaitSeconds: null, peopleAhead: 0, priorityPeopleAhead: null, counterFree: false },
    ])
    expect(view.priorityChoice).toBe(false)
    const limited = await pairedCookie(ctx, { role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_hall', services: ['svc_loans'] })
    expect((await jsonOf(await asDevice(ctx, limited, 'GET', KIOSK))).data.services.map((s: { id: string }) => s.id)).toEqual(['svc_loans'])
  })

  test('only a paired kiosk: no cookie, a desk or a Queue key is 401', async () => {
    const ctx = await kioskContext()
    const desk = await pairedCookie(ctx, { role: 'desk', counterId: 'cnt_1' })
    for (const headers of [{}, { cookie: desk }, { authorization: `Bearer ${ctx.key('all')}` }] as Record<string, string>[]) {
      const response = await request(ctx.app, 'GET', KIOSK, { headers })
      expect(response.status).toBe(401)
      expect((await jsonOf(response)).error.code).toBe(KioskCodes.AUTHENTICATION_FAILED)
    }
  })
})

describe('POST /api/devices/v1/kiosk/tickets', () => {
  test('issues at its location by the public issue\'s rules: numbering, source KIOSK, its place in line, its phone page', async () => {
    const ctx = await kioskContext()
    const first = await issuedAtKiosk(ctx)
    const second = await issuedAtKiosk(ctx)
    expect(first.ticket).toMatchObject({ ticketNumber: 'A001', source: 'KIOSK', locationId: 'loc_hall', serviceId: 'svc_accounts', status: 'WAITING' })
    expect(second).toMatchObject({ ticket: { ticketNumber: 'A002' }, peopleAhead: 1, estimatedWaitSeconds: 600, serviceName: 'Accounts', locationName: 'Main hall', branchName: 'Main branch' })
    expect(first.peopleAhead).toBe(0)
    expect(first.ticket.trackingUrl).toMatch(/^\/t\/[a-z2-7]{24}$/)
    expect(first.printPath).toBe(`/kiosk/tickets/${first.ticket.id}/print`)
    // The same numbering as the public API: a public issue takes the next number.
    const publicTicket = (await jsonOf(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS))).data
    expect(publicTicket.ticketNumber).toBe('A003')
    expect(ticketRow(ctx, first.ticket.id)).toMatchObject({ source: 'KIOSK', location_id: 'loc_hall', tracking_code: first.ticket.trackingUrl.slice(3) })
    // The webhook and the live state saw it like any ticket.
    const state = (await jsonOf(await request(ctx.app, 'GET', '/api/public/v1/queue/state', { headers: { authorization: `Bearer ${ctx.key('all')}` } }))).data
    expect(state.services.find((s: { id: string; locationId: string }) => s.id === 'svc_accounts' && s.locationId === 'loc_hall').waiting).toBe(3)
  })

  test('only at its location and its services: another service is 403 SERVICE_FORBIDDEN, an inactive one 422; nothing is written', async () => {
    const ctx = await kioskContext({ services: ['svc_accounts'] })
    const forbidden = await tapService(ctx, 'svc_loans')
    expect(forbidden.status).toBe(403)
    expect((await jsonOf(forbidden)).error.code).toBe(KioskCodes.SERVICE_FORBIDDEN)
    const all = await pairedCookie(ctx, { role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_hall' })
    for (const serviceId of ['svc_closed', 'svc_unknown']) {
      const response = await tapService(ctx, serviceId, undefined, all)
      expect(response.status).toBe(422)
      expect((await jsonOf(response)).error).toMatchObject({ code: KioskCodes.VALIDATION_FAILED, details: [{ path: '/serviceId' }] })
    }
    // A kiosk in the annex: Loans is not offered there.
    const annex = await pairedCookie(ctx, { role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_annex' })
    const notOffered = await tapService(ctx, 'svc_loans', undefined, annex)
    expect(notOffered.status).toBe(422)
    // The body names a service only: a location in it is refused, never used.
    const withLocation = await asDevice(ctx, ctx.kiosk, 'POST', `${KIOSK}/tickets`, { serviceId: 'svc_accounts', locationId: 'loc_annex' }, { 'idempotency-key': 'loc-1' })
    expect(withLocation.status).toBe(422)
    expect(ticketCount(ctx)).toBe(0)
    const annexTicket = await jsonOf(await tapService(ctx, 'svc_accounts', undefined, annex))
    expect(annexTicket.data.ticket.locationId).toBe('loc_annex')
  })

  test('a retried tap (same Idempotency-Key) returns the same ticket, replayed; a double tap sent at once makes one ticket', async () => {
    const ctx = await kioskContext()
    const first = await tapService(ctx, 'svc_accounts', 'tap-A')
    const again = await tapService(ctx, 'svc_accounts', 'tap-A')
    expect(first.status).toBe(201)
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect((await jsonOf(again)).data.ticket.id).toBe((await jsonOf(first)).data.ticket.id)
    const [x, y] = await Promise.all([tapService(ctx, 'svc_loans', 'tap-B'), tapService(ctx, 'svc_loans', 'tap-B')])
    expect((await jsonOf(x)).data.ticket.id).toBe((await jsonOf(y)).data.ticket.id)
    expect(ticketCount(ctx)).toBe(2)
    // The same key for another service is another intent: refused, not a second ticket.
    const reused = await tapService(ctx, 'svc_loans', 'tap-A')
    expect(reused.status).toBe(409)
    expect((await jsonOf(reused)).error.code).toBe(KioskCodes.IDEMPOTENCY_KEY_REUSED)
    // Keys are the kiosk's own: another kiosk's same key is its own tap.
    const other = await pairedCookie(ctx, { role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_hall' })
    expect((await tapService(ctx, 'svc_accounts', 'tap-A', other)).headers.get('idempotent-replayed')).toBeNull()
    expect(ticketCount(ctx)).toBe(3)
  })

  test('needs an Idempotency-Key, JSON, and this server\'s Origin; each refusal writes nothing', async () => {
    const ctx = await kioskContext()
    const noKey = await asDevice(ctx, ctx.kiosk, 'POST', `${KIOSK}/tickets`, { serviceId: 'svc_accounts' })
    expect(noKey.status).toBe(400)
    expect((await jsonOf(noKey)).error).toMatchObject({ code: KioskCodes.INVALID_REQUEST, details: [{ path: 'Idempotency-Key' }] })
    const foreign = await request(ctx.app, 'POST', `${KIOSK}/tickets`, { headers: { cookie: ctx.kiosk, origin: 'https://evil.example', 'idempotency-key': 'k1' }, body: { serviceId: 'svc_accounts' } })
    expect(foreign.status).toBe(403)
    expect((await jsonOf(foreign)).error.code).toBe(KioskCodes.ORIGIN_FORBIDDEN)
    const notJson = await asDevice(ctx, ctx.kiosk, 'POST', `${KIOSK}/tickets`, undefined, { 'idempotency-key': 'k2', 'content-type': 'application/json' })
    expect(notJson.status).toBe(400)
    expect(ticketCount(ctx)).toBe(0)
  })

  test(`rate limit per device: ${KIOSK_ISSUE_PER_MINUTE} a minute, then 429 with Retry-After; another kiosk is not affected; a minute later it issues again`, async () => {
    const ctx = await kioskContext()
    for (let i = 0; i < KIOSK_ISSUE_PER_MINUTE; i++) expect((await tapService(ctx, 'svc_accounts')).status).toBe(201)
    const limited = await tapService(ctx, 'svc_accounts')
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await jsonOf(limited)).error.code).toBe(KioskCodes.RATE_LIMITED)
    expect(ticketCount(ctx)).toBe(KIOSK_ISSUE_PER_MINUTE)
    const other = await pairedCookie(ctx, { role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_hall' })
    expect((await tapService(ctx, 'svc_accounts', undefined, other)).status).toBe(201)
    ctx.clock.advance(60_001)
    expect((await tapService(ctx, 'svc_accounts')).status).toBe(201)
  })

  test('an inactive queue unit is 403 QUEUE_UNIT_INACTIVE and the start screen lists nothing; an Edge holding authority is 409', async () => {
    const ctx = await kioskContext()
    ctx.db.$client.run("UPDATE queue_units SET edge_holder = 'edge-1', edge_expires_at = NULL WHERE id = 'qu_main'")
    const edge = await tapService(ctx, 'svc_accounts')
    expect(edge.status).toBe(409)
    expect((await jsonOf(edge)).error.code).toBe(KioskCodes.QUEUE_UNIT_EDGE_MANAGED)
    ctx.db.$client.run("UPDATE queue_units SET edge_holder = NULL, active = 0 WHERE id = 'qu_main'")
    const inactive = await tapService(ctx, 'svc_accounts')
    expect(inactive.status).toBe(403)
    expect((await jsonOf(inactive)).error.code).toBe(KioskCodes.QUEUE_UNIT_INACTIVE)
    const view = (await jsonOf(await asDevice(ctx, ctx.kiosk, 'GET', KIOSK))).data
    expect(view).toMatchObject({ queueUnit: { active: false }, services: [] })
    expect(ticketCount(ctx)).toBe(0)
  })
})

describe('the "Priority" choice (contract §8)', () => {
  test('offered where the unit has kioskPriority: a priority ticket is called before the normal ones, and its estimate says so', async () => {
    const ctx = await kioskContext({ edit: (doc) => void (mainUnit(doc).kioskPriority = true) })
    await issuedAtKiosk(ctx)
    await issuedAtKiosk(ctx)
    const view = (await jsonOf(await asDevice(ctx, ctx.kiosk, 'GET', KIOSK))).data
    expect(view.priorityChoice).toBe(true)
    expect(view.services[0]).toMatchObject({ id: 'svc_accounts', waiting: 2, estimatedWaitSeconds: 900, priorityEstimatedWaitSeconds: 300 })
    const response = await asDevice(ctx, ctx.kiosk, 'POST', `${KIOSK}/tickets`, { serviceId: 'svc_accounts', priority: true }, { 'idempotency-key': 'prio-1' })
    const body = (await jsonOf(response)).data
    expect(response.status).toBe(201)
    expect(body).toMatchObject({ ticket: { ticketNumber: 'A003', priority: true, source: 'KIOSK' }, peopleAhead: 0 })
    expect((await ok(callNext(ctx, 'cnt_1'))).ticketNumber).toBe('A003')
  })

  test('refused where the unit does not offer it: 422 on /priority, nothing written', async () => {
    const ctx = await kioskContext()
    const response = await asDevice(ctx, ctx.kiosk, 'POST', `${KIOSK}/tickets`, { serviceId: 'svc_accounts', priority: true }, { 'idempotency-key': 'prio-2' })
    expect(response.status).toBe(422)
    expect((await jsonOf(response)).error.details).toEqual([{ path: '/priority', message: expect.any(String) }])
    expect(ticketCount(ctx)).toBe(0)
  })
})

describe('GET /kiosk/tickets/{ticketId}/print', () => {
  test('a page for 80 mm roll paper with the number, service, location, branch, date and time, people ahead, wait and a QR code', async () => {
    const ctx = await kioskContext()
    await issuedAtKiosk(ctx)
    const ticket = await issuedAtKiosk(ctx)
    const response = await request(ctx.app, 'GET', ticket.printPath, { headers: { cookie: ctx.kiosk } })
    expect(response.status).toBe(200)
    const html = await response.text()
    for (const text of ['Main branch', 'Main hall', '>A002<', '>Accounts<', 'class="ahead">1<', '10 min', 'Nov 25, 2026', '<svg', `http://localhost${ticket.ticket.trackingUrl}`]) expect(html).toContain(text)
    const css = /href="(\/kiosk\/assets\/print-80\.[0-9a-f]+\.css)"/.exec(html)![1]!
    const stylesheet = await (await request(ctx.app, 'GET', css)).text()
    expect(stylesheet).toContain('@page { margin: 3mm 4mm; }')
    expect(stylesheet).toContain('max-width: 72mm')
    // The ticket's language (English here): the URL's `lang` no longer changes it (contract §18).
    const narrow = await (await request(ctx.app, 'GET', `${ticket.printPath}?paper=58&lang=ar`, { headers: { cookie: ctx.kiosk } })).text()
    expect(narrow).toMatch(/print-58\.[0-9a-f]+\.css/)
    expect(narrow).toContain('<html lang="en" dir="ltr">')
  })

  test('the date and time as the printing browser writes the ticket\'s language: en-GB, en-US, none', async () => {
    const ctx = await kioskContext()
    const ticket = await issuedAtKiosk(ctx)
    const printed = async (acceptLanguage?: string) => {
      const response = await request(ctx.app, 'GET', ticket.printPath, { headers: { cookie: ctx.kiosk, ...(acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage }) } })
      expect(response.headers.get('vary')).toBe('Accept-Language, Accept-Encoding')
      return (await response.text()).replace(/[\u202f\u00a0]/g, ' ')
    }
    expect(await printed('en-GB,en;q=0.9')).toMatch(/25 Nov 2026, \d{2}:\d{2}/)
    expect(await printed('en-US,en;q=0.9')).toMatch(/Nov 25, 2026, \d{1,2}:\d{2} [AP]M/)
    // Another language in the header leaves the ticket's language's own way.
    expect(await printed('de-DE')).toMatch(/Nov 25, 2026, \d{1,2}:\d{2} [AP]M/)
    // The words stay the ticket's language whatever the header says.
    expect(await printed('ar-EG,ar')).toContain('<html lang="en" dir="ltr">')
  })

  test('says in words when the device is not a kiosk or the ticket is not its own', async () => {
    const ctx = await kioskContext()
    const ticket = await issuedAtKiosk(ctx)
    const unpaired = await request(ctx.app, 'GET', ticket.printPath)
    expect(unpaired.status).toBe(401)
    expect(await unpaired.text()).toContain('not paired as a kiosk')
    const annex = await pairedCookie(ctx, { role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_annex' })
    const elsewhere = await request(ctx.app, 'GET', ticket.printPath, { headers: { cookie: annex } })
    expect(elsewhere.status).toBe(404)
    expect(await elsewhere.text()).toContain('No such ticket at this kiosk')
  })
})

describe('printing is for the kiosk that issued the ticket, within 10 minutes (contract §23)', () => {
  test('another kiosk of the same location, and a ticket issued by the API or at a desk, are 404 in words', async () => {
    const ctx = await kioskContext()
    const ticket = await issuedAtKiosk(ctx)
    const sameHall = await pairedCookie(ctx, { role: 'kiosk', queueUnitId: 'qu_main', locationId: 'loc_hall' })
    const other = await request(ctx.app, 'GET', ticket.printPath, { headers: { cookie: sameHall } })
    expect(other.status).toBe(404)
    expect(await other.text()).toContain('No such ticket at this kiosk')
    const viaApi = await issued(ctx)
    const apiPrint = await request(ctx.app, 'GET', `/kiosk/tickets/${viaApi.id}/print`, { headers: { cookie: ctx.kiosk } })
    expect(apiPrint.status).toBe(404)
    // The kiosk that issued it still prints it.
    expect((await request(ctx.app, 'GET', ticket.printPath, { headers: { cookie: ctx.kiosk } })).status).toBe(200)
  })

  test('its own ticket prints until 10 minutes after issue (the injected clock), then says it can no longer be printed', async () => {
    const ctx = await kioskContext()
    const ticket = await issuedAtKiosk(ctx)
    ctx.clock.advance(10 * 60_000)
    expect((await request(ctx.app, 'GET', ticket.printPath, { headers: { cookie: ctx.kiosk } })).status).toBe(200)
    ctx.clock.advance(1)
    const late = await request(ctx.app, 'GET', ticket.printPath, { headers: { cookie: ctx.kiosk } })
    expect(late.status).toBe(410)
    const html = await late.text()
    expect(html).toContain('can no longer be printed')
    expect(html).not.toContain(ticket.ticket.ticketNumber)
  })
})

describe('trackingUrl', () => {
  test('in walk-in and operator answers; the public API\'s ticket stays exactly the spec\'s', async () => {
    const ctx = await kioskContext()
    const publicTicket = (await jsonOf(await issue(ctx, ctx.key('all'), HALL_ACCOUNTS))).data
    expect(Object.keys(publicTicket).sort()).toEqual(['calledAt', 'completedAt', 'createdAt', 'externalReference', 'id', 'locationId', 'queueUnitId', 'serviceId', 'servingAt', 'source', 'status', 'ticketId', 'ticketNumber'])
    const read = (await jsonOf(await request(ctx.app, 'GET', `${TICKETS}/${publicTicket.id}`, { headers: { authorization: `Bearer ${ctx.key('all')}` } }))).data
    expect(read.trackingUrl).toBeUndefined()
    const called = await ok(callNext(ctx, 'cnt_1'))
    expect(called.trackingUrl).toBe(`/t/${ticketRow(ctx, publicTicket.id).tracking_code}`)
    const walkIn = await ok(op(ctx, 'POST', '/tickets', HALL_ACCOUNTS, undefined, { 'idempotency-key': 'w1' }), 201)
    expect(walkIn.trackingUrl).toMatch(/^\/t\/[a-z2-7]{24}$/)
    const desk = await pairedCookie(ctx, { role: 'desk', counterId: 'cnt_2' })
    const deskWalkIn = await ok(asDevice(ctx, desk, 'POST', `${OP}/tickets`, HALL_ACCOUNTS, { 'idempotency-key': 'w2' }), 201)
    expect(deskWalkIn.trackingUrl).toMatch(/^\/t\/[a-z2-7]{24}$/)
  })

  test('codes come from the injected generator (tests) and are unique per ticket', async () => {
    let n = 0
    const ctx = await kioskContext({ overrides: { trackingCodes: () => `code${String(++n).padStart(20, 'a')}` } })
    const ticket = await issuedAtKiosk(ctx)
    expect(ticket.ticket.trackingUrl).toBe('/t/code' + 'a'.repeat(19) + '1')
    expect(mainUnit).toBeDefined()
  })
})
