import { describe, expect, test } from 'bun:test'
import { JoinCodes } from '../../src/join/errors'
import { JOIN_TICKETS_PER_ADDRESS } from '../../src/join/routes'
import { qrSvg } from '../../src/platform/qr'
import { parseCidr } from '../../src/platform/client-address'
import type { RollingWindowLimiter } from '../../src/platform/rate-limit'
import { mainUnit, issue, HALL_ACCOUNTS } from '../queue/helpers'
import { act, callNext, ok, eventsOf, deliveriesOf } from '../counters/helpers'
import { cookieOf, JOIN, joinContext, joinGet, joinPost, ORIGIN, pageCode, ticketRows } from './helpers'
import { anonymousBodyBudget } from '../../src/platform/anonymous-forms'
import { bodyBudget } from '../../src/platform/body'
import { capture, ResponseChecker } from '../support/capture'

describe('GET /join/{locationId}', () => {
  test('lists the location\'s services with waiting and the kiosk\'s wait words, a button each, in the asked language', async () => {
    const ctx = joinContext()
    await issue(ctx, ctx.key('all'), HALL_ACCOUNTS)
    const response = await joinGet(ctx)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self'")
    // Under no-referrer a browser sends `Origin: null` with the form, which the Origin check refuses.
    expect(response.headers.get('referrer-policy')).toBe('same-origin')
    const html = await response.text()
    expect(html).not.toContain('no-referrer')
    expect(html).toContain('Main branch')
    expect(html).toContain('Main hall')
    // One waiting, no counter open: the kiosk's words.
    expect(html).toMatch(/data-service-id="svc_accounts"[^]*1 waiting[^]*about 10 min[^]*No counter is open right now/)
    expect(html).toMatch(/data-service-id="svc_loans"[^]*Nobody waiting/)
    expect(html).toContain('aria-label="Take a ticket for Accounts"')
    // The inactive service and the annex's are not listed.
    expect(html).not.toContain('svc_closed')
    // The language switch, and Arabic by Accept-Language or ?lang=.
    expect(html).toContain('href="/join/loc_hall?lang=ar"')
    for (const arabic of [await joinGet(ctx, JOIN, { 'accept-language': 'ar-EG,ar;q=0.9' }), await joinGet(ctx, `${JOIN}?lang=ar`)]) {
      const page = await arabic.text()
      expect(page).toContain('<html lang="ar" dir="rtl">')
      expect(page).toContain('الحسابات')
      expect(page).toContain('القاعة الرئيسية')
      expect(page).toContain('خذ تذكرة')
    }
  })

  test('a location without remoteJoin, disabled, inactive or unknown: a page in words, 404', async () => {
    const ctx = joinContext((doc) => {
      const unit = mainUnit(doc)
      unit.locations![1]!.remoteJoin = { enabled: false }
    })
    for (const path of ['/join/loc_annex', '/join/loc_nowhere']) {
      const response = await joinGet(ctx, path)
      expect(response.status).toBe(404)
      const html = await response.text()
      expect(html).toContain('Joining from a phone is not offered here')
      expect(pageCode(html)).toBe(JoinCodes.JOIN_NOT_OFFERED)
    }
    const plain = joinContext((doc) => { delete mainUnit(doc).locations![0]!.remoteJoin })
    expect((await joinGet(plain)).status).toBe(404)
    const posted = await joinPost(ctx, { serviceId: 'svc_accounts' }, { path: '/join/loc_annex', json: true })
    expect(posted.status).toBe(404)
    expect((await posted.json() as any).error.code).toBe(JoinCodes.JOIN_NOT_OFFERED)
    expect(ticketRows(ctx)).toEqual([])
  })

  test('a closed service says when it opens and offers no button; the POST is 409 SERVICE_CLOSED in words', async () => {
    // 2026-11-25 is a Wednesday; 09:30 UTC is 10:30 in Berlin.
    const ctx = joinContext((doc) => { mainUnit(doc).services![1]!.openingHours = { wed: [['14:00', '16:00']] } })
    const html = await (await joinGet(ctx)).text()
    // The kiosk's words and clock ("Opens 02:00 PM" in English, today: no weekday).
    expect(html).toMatch(/data-service-id="svc_loans" data-open="false">[^]*Closed now[^]*Opens 02:00\sPM/)
    expect(html).not.toContain('name="serviceId" value="svc_loans"')
    const refused = await joinPost(ctx, { serviceId: 'svc_loans' })
    expect(refused.status).toBe(409)
    const page = await refused.text()
    expect(pageCode(page)).toBe(JoinCodes.SERVICE_CLOSED)
    expect(page).toContain('This service is closed right now')
    expect(page).toMatch(/It opens 02:00\sPM\./)
    const asJson = await joinPost(ctx, { serviceId: 'svc_loans' }, { json: true })
    expect((await asJson.json() as any).error.code).toBe(JoinCodes.SERVICE_CLOSED)
    expect(ticketRows(ctx)).toEqual([])
  })

  test('the opening time is written as the reader\'s English writes it: en-GB 14:00, en-US 02:00 PM, the URL\'s locale first', async () => {
    const ctx = joinContext((doc) => { mainUnit(doc).services![1]!.openingHours = { wed: [['14:00', '16:00']] } })
    const opens = async (path: string, acceptLanguage: string) => {
      const response = await joinGet(ctx, path, { 'accept-language': acceptLanguage })
      expect(response.headers.get('vary')).toBe('Accept-Language, Accept-Encoding')
      return /Opens ([^<]+)</.exec(await response.text())?.[1]?.replace(/[\u202f\u00a0]/g, ' ')
    }
    expect(await opens(JOIN, 'en-GB,en;q=0.9')).toBe('14:00')
    expect(await opens(JOIN, 'en-US,en;q=0.9')).toBe('02:00 PM')
    expect(await opens(`${JOIN}?lang=en-GB`, 'en-US')).toBe('14:00')
    // The refusal page of a closed service's POST says it the same way.
    const refused = await joinPost(ctx, { serviceId: 'svc_loans' }, { headers: { 'accept-language': 'en-GB' } })
    expect(await refused.text()).toContain('It opens 14:00.')
  })
})

describe('POST /join/{locationId}', () => {
  test('a tap issues a REMOTE ticket (no credential, customer actor, the page\'s language) and redirects to its phone page', async () => {
    const ctx = joinContext()
    const response = await joinPost(ctx, { serviceId: 'svc_accounts', language: 'ar', key: 'page-1' })
    expect(response.status).toBe(303)
    const [row] = ticketRows(ctx)
    expect(row).toMatchObject({ source: 'REMOTE', credentialId: null, language: 'ar', status: 'WAITING' })
    expect(response.headers.get('location')).toBe(`/t/${row!.trackingCode}`)
    const cookie = response.headers.get('set-cookie')!
    expect(cookie).toBe(`lobby_join=${row!.trackingCode}; HttpOnly; SameSite=Lax; Path=/join/loc_hall; Max-Age=86400`)
    expect(eventsOf(ctx, row!.id)[0]).toMatchObject({ type: 'created', actor: `customer:${row!.id}` })
    // The integrator's webhook says the same (contract §16 "Attribution").
    expect(deliveriesOf(ctx, row!.id).map((d) => [d.event_type, JSON.parse(d.body).actor, JSON.parse(d.body).data.source])).toEqual([['ticket.created', { type: 'customer', id: row!.id }, 'REMOTE']])
    // The phone page reads it, in the language it was taken in.
    const status = await (await ctx.app.handle(new Request(`http://localhost/api/phone/v1/tickets/${row!.trackingCode}`))).json() as any
    expect(status.data).toMatchObject({ state: 'WAITING', ticketNumber: 'A001', language: 'ar', serviceName: 'الحسابات' })
  })

  test('JSON: 201 with the ticket (source REMOTE) and its phone page; the same key gives the same ticket', async () => {
    const ctx = joinContext()
    const first = await joinPost(ctx, { serviceId: 'svc_accounts', key: 'k-1' }, { json: true })
    expect(first.status).toBe(201)
    const body = (await first.json() as any).data
    expect(body.ticket).toMatchObject({ source: 'REMOTE', ticketNumber: 'A001', locationId: 'loc_hall' })
    expect(body.trackingUrl).toBe(body.ticket.trackingUrl)
    // A double tap: the second request (no cookie yet) with the page's key gives the same ticket.
    const again = await joinPost(ctx, { serviceId: 'svc_accounts', key: 'k-1' }, { json: true })
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect((await again.json() as any).data.ticket.id).toBe(body.ticket.id)
    expect(ticketRows(ctx)).toHaveLength(1)
  })

  test('one active ticket per browser per location: the page links to it, a POST is 409 ACTIVE_TICKET; once it is done a new one is allowed', async () => {
    const ctx = joinContext()
    const taken = await joinPost(ctx, { serviceId: 'svc_accounts' })
    const cookie = cookieOf(taken)
    const code = taken.headers.get('location')!
    const page = await (await joinGet(ctx, JOIN, { cookie })).text()
    expect(page).toContain('You already have a ticket here')
    expect(page).toContain(`href="${code}"`)
    expect(page).toContain('A001')
    expect(page).not.toContain('name="serviceId"')
    const refused = await joinPost(ctx, { serviceId: 'svc_loans' }, { cookie })
    expect(refused.status).toBe(409)
    const words = await refused.text()
    expect(pageCode(words)).toBe(JoinCodes.ACTIVE_TICKET)
    expect(words).toContain(`href="${code}"`)
    const json = await joinPost(ctx, { serviceId: 'svc_loans' }, { cookie, json: true })
    expect(await json.json() as any).toMatchObject({ error: { code: JoinCodes.ACTIVE_TICKET, details: [{ path: 'Cookie', message: code }] } })
    expect(ticketRows(ctx)).toHaveLength(1)
    // Another browser (no cookie) may join.
    expect((await joinPost(ctx, { serviceId: 'svc_loans' }, { peer: '192.0.2.11' })).status).toBe(303)
    // Served to the end: the same browser may take a new ticket.
    const [mine] = ticketRows(ctx)
    await ok(callNext(ctx, 'cnt_2'))
    await ok(act(ctx, mine!.id, 'start'))
    await ok(act(ctx, mine!.id, 'complete'))
    expect(await (await joinGet(ctx, JOIN, { cookie })).text()).toContain('name="serviceId"')
    const next = await joinPost(ctx, { serviceId: 'svc_accounts' }, { cookie })
    expect(next.status).toBe(303)
    expect(ticketRows(ctx)).toHaveLength(3)
  })

  test(`${JOIN_TICKETS_PER_ADDRESS} tickets per client address per 10 minutes: the 4th is 429 in words; other addresses and a later time are not held`, async () => {
    const ctx = joinContext()
    for (let i = 0; i < 3; i++) expect((await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '198.51.100.7' })).status).toBe(303)
    const refused = await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '198.51.100.7' })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500)
    const page = await refused.text()
    expect(pageCode(page)).toBe(JoinCodes.RATE_LIMITED)
    expect(page).toContain('Too many tickets from this connection')
    expect((await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '198.51.100.7', json: true })).status).toBe(429)
    expect((await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '198.51.100.8' })).status).toBe(303)
    // Contract §23: the windows live in the limiter's bounded per-address store, one key per address.
    const limiter = ctx.deps.limiter as RollingWindowLimiter
    expect(limiter.addresses.size).toBe(2)
    expect(limiter.fixed.size).toBe(0)
    ctx.clock.advance(9 * 60_000)
    expect((await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '198.51.100.7' })).status).toBe(429)
    ctx.clock.advance(61_000)
    expect((await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '198.51.100.7' })).status).toBe(303)
    expect(ticketRows(ctx)).toHaveLength(5)
  })

  test('the address is the one --trusted-proxy attributes: X-Forwarded-For from a trusted proxy, ignored from anyone else', async () => {
    const ctx = joinContext(() => {}, [parseCidr('10.0.0.1')!])
    const viaProxy = (client: string) => joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '10.0.0.1', headers: { 'x-forwarded-for': client } })
    for (let i = 0; i < 3; i++) expect((await viaProxy('203.0.113.5')).status).toBe(303)
    expect((await viaProxy('203.0.113.5')).status).toBe(429)
    // Another customer behind the same proxy is another address.
    expect((await viaProxy('203.0.113.6')).status).toBe(303)
  })

  test('contract §27: remoteJoin.perAddressPer10Min 5 admits 5 from one address, then 429 in words; 0 admits many', async () => {
    const five = joinContext((doc) => { mainUnit(doc).locations![0]!.remoteJoin = { enabled: true, perAddressPer10Min: 5 } })
    for (let i = 0; i < 5; i++) expect((await joinPost(five, { serviceId: 'svc_accounts' }, { peer: '198.51.100.7' })).status).toBe(303)
    const refused = await joinPost(five, { serviceId: 'svc_accounts' }, { peer: '198.51.100.7' })
    expect(refused.status).toBe(429)
    expect(pageCode(await refused.text())).toBe(JoinCodes.RATE_LIMITED)
    const json = await joinPost(five, { serviceId: 'svc_accounts' }, { peer: '198.51.100.7', json: true })
    expect((await json.json() as { error: { code: string; message: string } }).error.message).toStartWith('over 5 tickets per 10 minutes from this address')

    const unlimited = joinContext((doc) => { mainUnit(doc).locations![0]!.remoteJoin = { enabled: true, perAddressPer10Min: 0 } })
    for (let i = 0; i < 12; i++) expect((await joinPost(unlimited, { serviceId: i % 2 ? 'svc_loans' : 'svc_accounts' }, { peer: '198.51.100.7' })).status).toBe(303)
    expect(ticketRows(unlimited)).toHaveLength(12)
    // No window is kept for an address that is never limited.
    expect((unlimited.deps.limiter as RollingWindowLimiter).addresses.size).toBe(0)
  })

  test('contract §27: inside remoteJoin.guestNetworks no per-address limit (guest Wi-Fi behind NAT); one active ticket per browser still holds', async () => {
    const ctx = joinContext((doc) => { mainUnit(doc).locations![0]!.remoteJoin = { enabled: true, guestNetworks: ['192.168.50.0/24', '2001:db8:50::/48'] } })
    const first = await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '192.168.50.9' })
    expect(first.status).toBe(303)
    // Other browsers behind the same NAT address: more than 3 in 10 minutes.
    for (let i = 0; i < 6; i++) expect((await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '192.168.50.9' })).status).toBe(303)
    for (let i = 0; i < 4; i++) expect((await joinPost(ctx, { serviceId: 'svc_loans' }, { peer: '2001:db8:50:7::1' })).status).toBe(303)
    // The first browser, with its cookie, still has its one ticket.
    const again = await joinPost(ctx, { serviceId: 'svc_loans' }, { peer: '192.168.50.9', cookie: cookieOf(first) })
    expect(again.status).toBe(409)
    expect(pageCode(await again.text())).toBe(JoinCodes.ACTIVE_TICKET)
    // Outside the guest networks the limit holds.
    for (let i = 0; i < 3; i++) expect((await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '198.51.100.7' })).status).toBe(303)
    expect((await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '198.51.100.7' })).status).toBe(429)
    expect(ticketRows(ctx)).toHaveLength(14)
  })

  test('contract §27: IPv6 clients are limited per /64 — two addresses of one /64 share the limit, another /64 does not', async () => {
    const ctx = joinContext((doc) => { mainUnit(doc).locations![0]!.remoteJoin = { enabled: true, perAddressPer10Min: 2 } }, [parseCidr('10.0.0.1')!])
    const viaProxy = (client: string) => joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '10.0.0.1', headers: { 'x-forwarded-for': client } })
    expect((await viaProxy('2001:db8:1:2::a')).status).toBe(303)
    expect((await viaProxy('2001:db8:1:2:ffff:eeee:dddd:cccc')).status).toBe(303)
    expect((await viaProxy('2001:db8:1:2::b')).status).toBe(429)
    expect((await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '2001:db8:1:2::c' })).status).toBe(429)
    // Another /64 of the same /48 is another client.
    expect((await viaProxy('2001:db8:1:3::a')).status).toBe(303)
    // IPv4 stays per address.
    expect((await viaProxy('203.0.113.5')).status).toBe(303)
    expect((await viaProxy('203.0.113.6')).status).toBe(303)
    expect((await viaProxy('203.0.113.5')).status).toBe(303)
    expect((await viaProxy('203.0.113.5')).status).toBe(429)
  })

  test('only while the service\'s waiting count is under maxWaiting: the page says full, the POST is 409 QUEUE_FULL', async () => {
    const ctx = joinContext((doc) => { mainUnit(doc).locations![0]!.remoteJoin = { enabled: true, maxWaiting: 2 } })
    await issue(ctx, ctx.key('all'), HALL_ACCOUNTS)
    expect((await joinPost(ctx, { serviceId: 'svc_accounts' })).status).toBe(303)
    const html = await (await joinGet(ctx)).text()
    expect(html).toMatch(/data-service-id="svc_accounts"[^]*Full for now: please take a ticket at the kiosk/)
    expect(html).toContain('name="serviceId" value="svc_loans"')
    const refused = await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '192.0.2.20' })
    expect(refused.status).toBe(409)
    expect(pageCode(await refused.text())).toBe(JoinCodes.QUEUE_FULL)
    expect((await (await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '192.0.2.21', json: true })).json() as any).error.code).toBe(JoinCodes.QUEUE_FULL)
    // The kiosk and the public API are not limited by it.
    expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS)).status).toBe(201)
    // Once one is called, there is room again.
    await ok(callNext(ctx, 'cnt_2'))
    await ok(callNext(ctx, 'cnt_1'))
    expect((await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '192.0.2.22' })).status).toBe(303)
  })

  test('allowedNetworks: an address inside one joins; outside, or unknown, is 403 NETWORK_FORBIDDEN in words', async () => {
    const ctx = joinContext((doc) => { mainUnit(doc).locations![0]!.remoteJoin = { enabled: true, allowedNetworks: ['192.168.10.0/24', 'fd00::/8'] } })
    expect((await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '192.168.10.44' })).status).toBe(303)
    expect((await joinPost(ctx, { serviceId: 'svc_loans' }, { peer: 'fd12::7' })).status).toBe(303)
    for (const peer of ['192.168.11.44', '2001:db8::1', '']) {
      const refused = await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer })
      expect(refused.status).toBe(403)
      const page = await refused.text()
      expect(pageCode(page)).toBe(JoinCodes.NETWORK_FORBIDDEN)
      expect(page).toContain('works only on the branch&#39;s own Wi-Fi')
    }
    expect((await (await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '8.8.8.8', json: true })).json() as any).error.code).toBe(JoinCodes.NETWORK_FORBIDDEN)
    expect(ticketRows(ctx)).toHaveLength(2)
  })

  test('CSRF: a POST from another origin, or with none, is 403 ORIGIN_FORBIDDEN and takes no ticket', async () => {
    const ctx = joinContext()
    for (const origin of ['https://evil.example', 'null', null]) {
      const refused = await joinPost(ctx, { serviceId: 'svc_accounts' }, { origin })
      expect(refused.status).toBe(403)
      // Refused before its body was read (contract §23).
      expect(refused.headers.get('connection')).toBe('close')
      expect(pageCode(await refused.text())).toBe(JoinCodes.ORIGIN_FORBIDDEN)
    }
    const json = await joinPost(ctx, { serviceId: 'svc_accounts' }, { origin: 'https://evil.example', json: true })
    expect((await json.json() as any).error.code).toBe(JoinCodes.ORIGIN_FORBIDDEN)
    expect(ticketRows(ctx)).toEqual([])
    // Refused before the rate limit: the address still has its 3 tickets.
    for (let i = 0; i < 3; i++) expect((await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '192.0.2.30' })).status).toBe(303)
  })

  test('bad input is a clear 4xx: an unknown or inactive service 422, a language the unit lacks 422, another body type 400', async () => {
    const ctx = joinContext()
    for (const serviceId of ['svc_closed', 'svc_nowhere']) {
      const refused = await joinPost(ctx, { serviceId }, { json: true, peer: `192.0.2.${serviceId.length}` })
      expect(refused.status).toBe(422)
      expect((await refused.json() as any).error.code).toBe(JoinCodes.VALIDATION_FAILED)
    }
    const language = await joinPost(ctx, { serviceId: 'svc_accounts', language: 'fr' }, { json: true, peer: '192.0.2.40' })
    expect(await language.json() as any).toMatchObject({ error: { code: JoinCodes.VALIDATION_FAILED, details: [{ path: '/language' }] } })
    const missing = await joinPost(ctx, {}, { peer: '192.0.2.41' })
    expect(missing.status).toBe(422)
    expect(await missing.text()).toContain('That choice is not available')
    const text = await joinPost(ctx, { serviceId: 'svc_accounts' }, { peer: '192.0.2.42', headers: { 'content-type': 'text/plain' } })
    expect(text.status).toBe(400)
    expect(ticketRows(ctx)).toEqual([])
  })
})

describe('POST /join/{locationId} as an anonymous form (contract §27)', () => {
  /** The form POST with a chunked body that sends `first` bytes and then waits until `end()` breaks it off. */
  function heldJoin(ctx: ReturnType<typeof joinContext>, peer: string, first: number) {
    let stop: (() => void) | null = null
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('serviceId=svc_accounts&x='.padEnd(first, 'x')))
        stop = () => controller.error(new Error('client gone'))
      },
    })
    const response = ctx.app.handle(new Request(`${ORIGIN}${JOIN}`, {
      method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', 'x-test-peer': peer }, body, duplex: 'half',
    } as RequestInit))
    return { response, end: () => stop?.() }
  }

  test('its body is held against the anonymous forms\' budget, never the authenticated one; over the window it is not read at all', async () => {
    const ctx = joinContext()
    const held = heldJoin(ctx, '192.0.2.60', 300)
    try {
      await Bun.sleep(50)
      expect(anonymousBodyBudget.inFlight).toBe(300)
      expect(bodyBudget.inFlight).toBe(0)
      // A Queue key's issue is not held up by it.
      expect((await issue(ctx, ctx.key('all'), HALL_ACCOUNTS)).status).toBe(201)
    } finally {
      held.end()
    }
    expect((await held.response).status).toBe(400)
    expect(anonymousBodyBudget.inFlight).toBe(0)
    // That broken-off post counted in the address's window (it is counted before the body); two more, then refused unread.
    for (let i = 1; i < JOIN_TICKETS_PER_ADDRESS; i++) expect((await joinPost(ctx, { serviceId: 'svc_nowhere' }, { peer: '192.0.2.60' })).status).toBe(422)
    const refused = heldJoin(ctx, '192.0.2.60', 100)
    const answer = await Promise.race([refused.response, Bun.sleep(2000).then(() => 'timeout' as const)])
    refused.end()
    expect(answer).not.toBe('timeout')
    expect((answer as Response).status).toBe(429)
    expect((answer as Response).headers.get('connection')).toBe('close')
  })
})

describe('GET /join/{locationId}/poster', () => {
  test('an A4 page with the names in the unit\'s languages and the QR code of the join page\'s absolute URL', async () => {
    const ctx = joinContext()
    const response = await joinGet(ctx, '/join/loc_hall/poster')
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('Main branch')
    expect(html).toContain('الفرع الرئيسي · القاعة الرئيسية')
    expect(html).toContain(qrSvg('http://localhost/join/loc_hall', { label: 'Join the queue from your phone' }))
    expect(html).toContain('http://localhost/join/loc_hall')
    const css = await (await ctx.app.handle(new Request(`http://localhost${/href="(\/join-assets\/poster\.[0-9a-f]+\.css)"/.exec(html)![1]}`))).text()
    expect(css).toContain('@page{size:A4 portrait')
    // --public-origin wins over the request's Host.
    const behindProxy = joinContext(() => {}, [], 'https://queue.bank.example')
    expect(await (await joinGet(behindProxy, '/join/loc_hall/poster')).text()).toContain(qrSvg('https://queue.bank.example/join/loc_hall', { label: 'Join the queue from your phone' }))
    expect((await joinGet(ctx, '/join/loc_annex/poster')).status).toBe(404)
  })
})

describe('OpenAPI', () => {
  test('documents the ticket issue, its form and JSON bodies, its redirect and every refusal code', async () => {
    const ctx = joinContext()
    const doc: any = await (await ctx.app.handle(new Request('http://localhost/swagger/json'))).json()
    const post = doc.paths['/join/{locationId}'].post
    expect(post.operationId).toBe('issueJoinTicket')
    expect(Object.keys(post.requestBody.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded'])
    expect(post.responses['303']).toBeDefined()
    for (const code of ['ORIGIN_FORBIDDEN', 'NETWORK_FORBIDDEN', 'ACTIVE_TICKET', 'QUEUE_FULL', 'SERVICE_CLOSED', 'RATE_LIMITED', 'JOIN_NOT_OFFERED']) {
      expect(JSON.stringify(post.responses)).toContain(code)
    }
    expect(post.description).toContain('/join/{locationId}/poster')
    expect(post.tags).toEqual(['Join'])
  })

  test('every answer of the form and of JSON, success and each refusal, is one the document lists: status, media type and body (issue 48)', async () => {
    const ctx = joinContext((doc) => {
      const unit = mainUnit(doc)
      unit.locations![0]!.remoteJoin = { enabled: true, maxWaiting: 1, allowedNetworks: ['192.0.2.0/24'] }
    })
    const { app, exchanges } = capture(ctx.app)
    const recorded = { ...ctx, app } as typeof ctx
    const form = (fields: Record<string, string>, options: Parameters<typeof joinPost>[2] = {}) => joinPost(recorded, fields, options)
    const statuses: string[] = []
    const seen = async (answer: Promise<Response>) => {
      const response = await answer
      statuses.push(`${response.status} ${response.headers.get('content-type')?.split(';')[0]}`)
      return response
    }
    const taken = await seen(form({ serviceId: 'svc_accounts' }, { peer: '192.0.2.1' }))
    await seen(form({ serviceId: 'svc_loans' }, { peer: '192.0.2.2', cookie: cookieOf(taken) }))
    await seen(form({ serviceId: 'svc_accounts' }, { peer: '192.0.2.3' }))
    await seen(form({ serviceId: 'svc_loans' }, { peer: '192.0.2.4', origin: 'https://evil.example' }))
    await seen(form({ serviceId: 'svc_loans' }, { peer: '198.51.100.7' }))
    await seen(form({ serviceId: 'svc_loans' }, { peer: '192.0.2.5', headers: { 'content-type': 'text/plain' } }))
    await seen(form({ serviceId: 'svc_nowhere' }, { peer: '192.0.2.6' }))
    await seen(form({ serviceId: 'svc_loans', language: 'fr' }, { peer: '192.0.2.7' }))
    await seen(form({ serviceId: 'svc_loans', key: 'x'.repeat(2000) }, { peer: '192.0.2.8' }))
    await seen(form({ serviceId: 'svc_loans' }, { peer: '192.0.2.9', path: '/join/loc_nowhere' }))
    for (let i = 0; i < JOIN_TICKETS_PER_ADDRESS + 1; i++) await seen(form({ serviceId: `svc_nowhere_${i}` }, { peer: '192.0.2.10' }))
    // The same refusals asked in JSON, and a body that is not JSON.
    await seen(form({ serviceId: 'svc_loans' }, { peer: '192.0.2.11', json: true }))
    await seen(form({ serviceId: 'svc_loans' }, { peer: '192.0.2.16', json: true, cookie: cookieOf(taken) }))
    await seen(form({ serviceId: 'svc_loans' }, { peer: '192.0.2.12', json: true, origin: 'https://evil.example' }))
    await seen(form({ serviceId: 'svc_nowhere' }, { peer: '192.0.2.13', json: true }))
    await seen(form({ serviceId: 'svc_loans' }, { peer: '192.0.2.14', json: true, path: '/join/loc_nowhere' }))
    await seen(recorded.app.handle(new Request(`${ORIGIN}${JOIN}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-test-peer': '192.0.2.15' }, body: '{"serviceId":' })))
    // Every kind of answer was met: the redirect, pages in words and the JSON envelope for each status.
    expect([...new Set(statuses)].sort()).toEqual([
      '201 application/json', '303 undefined', '400 application/json', '400 text/html', '403 application/json', '403 text/html', '404 application/json', '404 text/html',
      '409 application/json', '409 text/html', '413 text/html', '422 application/json', '422 text/html', '429 text/html',
    ])
    const doc: any = await (await ctx.app.handle(new Request(`${ORIGIN}/swagger/json`))).json()
    const checker = new ResponseChecker(doc)
    expect(exchanges.flatMap((e) => checker.problems(e))).toEqual([])
  })
})
