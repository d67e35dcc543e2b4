import { describe, expect, test } from 'bun:test'
import { appointmentContext, booked, request } from './helpers'
import { foldLine } from '../../src/appointments/ics'

const ORIGIN = 'http://localhost'
const SLOT = '2026-11-26T08:00:00.000Z'

function post(ctx: ReturnType<typeof appointmentContext>, path: string, form: Record<string, string>, origin: string | null = ORIGIN) {
  return request(ctx.app, 'POST', path, { raw: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin === null ? {} : { origin }) } })
}

/** RFC 5545 §3.1: CRLF line ends, physical lines of at most 75 octets, unfolded into content lines. */
function parseIcs(text: string): Map<string, string> {
  expect(text.endsWith('\r\n')).toBe(true)
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
  const physical = text.slice(0, -2).split('\r\n')
  for (const line of physical) expect(new TextEncoder().encode(line).byteLength).toBeLessThanOrEqual(75)
  const lines: string[] = []
  for (const line of physical) {
    if (line.startsWith(' ')) lines[lines.length - 1] += line.slice(1)
    else lines.push(line)
  }
  const props = new Map<string, string>()
  for (const line of lines) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon)
    props.set(props.has(name) ? `${name}#2` : name, line.slice(colon + 1))
  }
  return props
}

describe('the booking page /book/{locationId} (contract §21)', () => {
  test('service, day and free slots; a booking redirects to /b/{code}; the page is English or Arabic', async () => {
    const ctx = appointmentContext()
    const start = await request(ctx.app, 'GET', '/book/loc_hall')
    expect(start.status).toBe(200)
    expect(start.headers.get('content-security-policy')).toContain("form-action 'self'")
    const html = await start.text()
    // The services are radio choices (a closed select cut a long name on a phone).
    expect(html).toContain('<input type="radio" name="service" value="svc_accounts" checked>')
    expect(html).not.toContain('svc_loans')
    const day = await (await request(ctx.app, 'GET', '/book/loc_hall?service=svc_accounts&date=2026-11-26')).text()
    expect(day).toContain(`value="${SLOT}"`)
    const ar = await (await request(ctx.app, 'GET', '/book/loc_hall?lang=ar&service=svc_accounts&date=2026-11-26')).text()
    expect(ar).toContain('dir="rtl"')
    expect(ar).toContain('حجز موعد')

    const done = await post(ctx, '/book/loc_hall', { serviceId: 'svc_accounts', date: '2026-11-26', startAt: SLOT, name: 'Amal Haddad', phone: '+49 30 1234567', email: '', consent: 'on' })
    expect(done.status).toBe(303)
    const location = done.headers.get('location')!
    expect(location).toMatch(/^\/b\/[2-9A-HJKMNP-TV-Z]{8}\?new=1$/)
    const code = location.slice(3, 11)
    const page = await (await request(ctx.app, 'GET', location)).text()
    expect(page).toContain('You are booked.')
    expect(page).toContain(code)
    expect(page).toContain('<svg')
    expect(page).toContain(`/b/${code}/calendar.ics`)
    expect(ctx.logs.map((l) => JSON.stringify(l)).join('\n')).not.toContain(code)
  })

  test('refusals in words: no Origin, a full slot, a missing name, a fourth post in the hour', async () => {
    const ctx = appointmentContext((doc) => { doc.workspaces[0]!.queueUnits![0]!.services!.find((s) => s.id === 'svc_accounts')!.appointments!.capacityPerSlot = 1 })
    const form = { serviceId: 'svc_accounts', date: '2026-11-26', startAt: SLOT, name: 'A', phone: '', email: '' }
    const noOrigin = await post(ctx, '/book/loc_hall', form, null)
    expect(noOrigin.status).toBe(403)
    expect(await noOrigin.text()).toContain('This form must be sent from this page')
    const noName = await post(ctx, '/book/loc_hall', { ...form, name: ' ' })
    expect(noName.status).toBe(422)
    expect(await noName.text()).toContain('a name is required')
    expect((await post(ctx, '/book/loc_hall', form)).status).toBe(303)
    const full = await post(ctx, '/book/loc_hall', { ...form, name: 'B' })
    expect(full.status).toBe(409)
    expect(await full.text()).toContain('that time has just been taken')
    // Contract §27: the window is counted before the body is read, so every post past the Origin
    // check counts, whatever the form turns out to hold: the nameless one, A and B; C is the fourth in the hour.
    const fourth = await post(ctx, '/book/loc_hall', { ...form, startAt: '2026-11-26T08:30:00.000Z', name: 'C' })
    expect(fourth.status).toBe(429)
    expect(fourth.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await fourth.text()).toContain('Please try again in an hour')
    ctx.clock.advance(3_600_000)
    expect((await post(ctx, '/book/loc_hall', { ...form, startAt: '2026-11-26T08:30:00.000Z', name: 'D' })).status).toBe(303)
  })

  test('an unknown location says so; another location offering the service has its own page', async () => {
    const ctx = appointmentContext()
    const response = await request(ctx.app, 'GET', '/book/loc_annex')
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('Annex')
    const none = await request(ctx.app, 'GET', '/book/loc_nowhere')
    expect(none.status).toBe(404)
    expect(await none.text()).toContain('Appointments cannot be booked here.')
  })
})

describe('the booking /b/{code} (contract §21)', () => {
  test('the .ics file is valid RFC 5545: CRLF, folded at 75 octets, escaped, with UID, DTSTAMP, DTSTART and DTEND', async () => {
    const ctx = appointmentContext((doc) => { doc.workspaces[0]!.queueUnits![0]!.name = 'Main branch; Hall, first floor — a long name that certainly needs folding at seventy-five octets' as never })
    const data = await booked(ctx, { startAt: SLOT })
    const response = await request(ctx.app, 'GET', `/b/${data.code}/calendar.ics`)
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    const text = await response.text()
    const props = parseIcs(text)
    expect(props.get('BEGIN')).toBe('VCALENDAR')
    expect(props.get('BEGIN#2')).toBe('VEVENT')
    expect(props.get('VERSION')).toBe('2.0')
    expect(props.get('PRODID')).toBeTruthy()
    expect(props.get('UID')).toBe(`${data.id}@lobby`)
    expect(props.get('DTSTAMP')).toMatch(/^\d{8}T\d{6}Z$/)
    expect(props.get('DTSTART')).toBe('20261126T080000Z')
    expect(props.get('DTEND')).toBe('20261126T081500Z')
    expect(props.get('SUMMARY')).toContain('Main branch\\; Hall\\, first floor')
    expect(text).toContain('\r\n ')
    // Folding never splits a multi-byte character.
    expect(foldLine(`DESCRIPTION:${'ب'.repeat(60)}`).split('\r\n ').every((l) => new TextEncoder().encode(l).byteLength <= 75 && !l.includes('\uFFFD'))).toBe(true)
  })

  test('cancel, then the page says so; move to another free slot; check in inside the window', async () => {
    const ctx = appointmentContext()
    const first = await booked(ctx, { startAt: SLOT })
    const cancelled = await post(ctx, `/b/${first.code}/cancel`, {})
    expect(cancelled.status).toBe(303)
    expect(await (await request(ctx.app, 'GET', `/b/${first.code}`)).text()).toContain('Cancelled')
    expect((await post(ctx, `/b/${first.code}/cancel`, {})).status).toBe(409)

    const second = await booked(ctx, { startAt: SLOT, name: 'Second' })
    const moveChoices = await (await request(ctx.app, 'GET', `/b/${second.code}?date=2026-11-27`)).text()
    expect(moveChoices).toContain('value="2026-11-27T08:00:00.000Z"')
    expect((await post(ctx, `/b/${second.code}/move`, { startAt: '2026-11-27T08:00:00.000Z' })).status).toBe(303)
    const moved = await (await request(ctx.app, 'GET', `/b/${second.code}`)).text()
    expect(moved).toContain('27 November 2026')

    ctx.clock.set('2026-11-27T07:50:00.000Z')
    const page = await (await request(ctx.app, 'GET', `/b/${second.code}`)).text()
    expect(page).toContain('Check in now')
    expect((await post(ctx, `/b/${second.code}/check-in`, {})).status).toBe(303)
    const checkedIn = await (await request(ctx.app, 'GET', `/b/${second.code}`)).text()
    expect(checkedIn).toMatch(/Your ticket number is A\d{3}\./)
    expect(checkedIn).toContain('href="/t/')
    const unknown = await request(ctx.app, 'GET', '/b/ZZZZZZZZ')
    expect(unknown.status).toBe(404)
  })
})

describe('days and times as the reader writes them', () => {
  const page = async (ctx: ReturnType<typeof appointmentContext>, path: string, acceptLanguage?: string) => {
    const response = await request(ctx.app, 'GET', path, { headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage } })
    expect(response.headers.get('vary')).toBe('Accept-Language, Accept-Encoding')
    return response.text()
  }
  // ICU writes a narrow no-break space before AM/PM.
  const spaced = (text: string | undefined) => text?.replace(/[\u202f\u00a0]/g, ' ')
  const slotLabel = (html: string) => spaced(/value="2026-11-26T08:00:00\.000Z"[^>]*><span>([^<]+)</.exec(html)?.[1])
  const when = (html: string) => spaced(/<dd>([^<]*2026[^<]*)<\/dd>/.exec(html)?.[1])

  test('the slots and the booking: 12-hour for en-US, 24-hour for en-GB and without a header, Arabic in Latin digits', async () => {
    const ctx = appointmentContext()
    const day = '/book/loc_hall?service=svc_accounts&date=2026-11-26'
    expect(slotLabel(await page(ctx, day, 'en-US,en;q=0.9'))).toBe('09:00 AM')
    expect(slotLabel(await page(ctx, day, 'en-GB,en;q=0.9'))).toBe('09:00')
    expect(slotLabel(await page(ctx, day))).toBe('09:00')
    // The URL's own locale (`?lang=en-US`) comes before the header's.
    expect(slotLabel(await page(ctx, `${day}&lang=en-US`, 'en-GB'))).toBe('09:00 AM')
    // A header of another language leaves the English page as it was.
    expect(slotLabel(await page(ctx, day, 'de-DE,de;q=0.9'))).toBe('09:00')
    expect(slotLabel(await page(ctx, `${day}&lang=ar`))).toBe('09:00')
    expect(slotLabel(await page(ctx, `${day}&lang=ar`, 'ar-EG'))).toBe('09:00 ص')
    // The day list follows the same locale.
    expect(await page(ctx, day, 'en-US')).toContain('>Thursday, November 26<')
    expect(await page(ctx, day, 'en-GB')).toContain('>Thursday 26 November<')

    const { code } = await booked(ctx, { startAt: SLOT })
    expect(when(await page(ctx, `/b/${code}`, 'en-US'))).toBe('Thursday, November 26, 2026 at 09:00 AM')
    expect(when(await page(ctx, `/b/${code}`, 'en-GB'))).toBe('Thursday, 26 November 2026 at 09:00')
    expect(when(await page(ctx, `/b/${code}?lang=ar`))).toMatch(/^[^\u0660-\u0669]*09:00[^\u0660-\u0669]*$/)
  })

  test('a malformed or endless Accept-Language is not an error: the page keeps its default', async () => {
    const ctx = appointmentContext()
    const day = '/book/loc_hall?service=svc_accounts&date=2026-11-26'
    expect(slotLabel(await page(ctx, day, 'en-@@,en-US;q=0.5'))).toBe('09:00 AM')
    expect(slotLabel(await page(ctx, day, 'en-'.repeat(400)))).toBe('09:00')
    expect(slotLabel(await page(ctx, day, Array.from({ length: 30 }, (_, i) => `x-${i}`).join(',') + ',en-US'))).toBe('09:00')
  })
})

describe('bounds of the customer pages (contract §23)', () => {
  test('a form post from another origin is refused before its body is read; reads are bounded per address', async () => {
    const ctx = appointmentContext()
    const foreign = await post(ctx, '/book/loc_hall', { serviceId: 'svc_accounts', startAt: SLOT, name: 'A' }, 'http://evil.example')
    expect(foreign.status).toBe(403)
    expect(foreign.headers.get('connection')).toBe('close')
    const big = await request(ctx.app, 'POST', '/book/loc_hall', { raw: 'name=' + 'x'.repeat(5000), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN } })
    expect(big.status).toBe(413)
    let last: Response | null = null
    for (let i = 0; i < 601; i += 1) last = await request(ctx.app, 'GET', '/b/ZZZZZZZZ')
    expect(last!.status).toBe(429)
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await last!.text()).toContain('Too many requests from this connection')
  })
})

describe('closed days and "too early" on the booking pages (contract §28)', () => {
  const days = (html: string) => [...html.matchAll(/<option value="(\d{4}-\d{2}-\d{2})"/g)].map((m) => m[1])

  test('no closed day is offered: weekends (no hours) and a closed date are left out; the move form offers the same days', async () => {
    const ctx = appointmentContext((doc) => { (doc.workspaces[0]!.queueUnits![0]!.locations![0]! as any).closedDates = ['2026-12-01'] })
    const offered = days(await (await request(ctx.app, 'GET', '/book/loc_hall')).text())
    // Wednesday 25 November (10:30 in Berlin) to Tuesday 8 December: 14 days less 2 weekends and 1 December.
    expect(offered).toEqual(['2026-11-25', '2026-11-26', '2026-11-27', '2026-11-30', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-07', '2026-12-08'])
    // A closed day asked for in the URL is said to be closed, never given slots.
    const saturday = await (await request(ctx.app, 'GET', '/book/loc_hall?service=svc_accounts&date=2026-11-28')).text()
    expect(saturday).toContain('This day cannot be booked: the branch is closed')
    expect(saturday).not.toContain('name="startAt"')
    const ar = await (await request(ctx.app, 'GET', '/book/loc_hall?lang=ar&service=svc_accounts&date=2026-11-28')).text()
    expect(ar).toContain('الفرع مغلق')
    const { code } = await booked(ctx, { startAt: SLOT })
    expect(days(await (await request(ctx.app, 'GET', `/b/${code}`)).text())).toEqual(offered)
  })

  test('today is not offered once its last slot began: the page opens on the next open day', async () => {
    const ctx = appointmentContext()
    ctx.clock.set('2026-11-27T14:46:00.000Z') // Friday 15:46 in Berlin: the last slot (15:45) began
    const html = await (await request(ctx.app, 'GET', '/book/loc_hall')).text()
    expect(days(html)[0]).toBe('2026-11-30')
    expect(html).toContain('<option value="2026-11-30" selected>')
    expect(html).toContain('value="2026-11-30T08:00:00.000Z"')
  })

  test('a check-in too early says from when, in the location\'s clock, in English and Arabic', async () => {
    const ctx = appointmentContext()
    const { code } = await booked(ctx, { startAt: SLOT }) // Thursday 26 November 09:00 in Berlin: check-in from 08:45
    const page = await (await request(ctx.app, 'GET', `/b/${code}`)).text()
    expect(page).toContain('You can check in here from Thursday 26 November at 08:45 to 09:10.')
    const early = await post(ctx, `/b/${code}/check-in`, {})
    expect(early.status).toBe(409)
    expect(await early.text()).toContain('It is too early to check in. You can check in from Thursday 26 November at 08:45.')
    const ar = await post(ctx, `/b/${code}/check-in?lang=ar`, {})
    expect(await ar.text()).toMatch(/يمكنك تسجيل الحضور ابتداءً من [^<]*08:45/)
    // The same day: the time alone.
    ctx.clock.set('2026-11-26T07:00:00.000Z')
    expect(await (await post(ctx, `/b/${code}/check-in`, {})).text()).toContain('You can check in from 08:45.')
  })
})
