import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { ensureBinary } from '../support/binary'
import { tempDir } from '../support/cli'
import { zoneAtMidday } from '../support/midday'
import { SHOTS, shoot } from '../support/shots'
import { CHROMIUM, guardNetwork, HAVE_CHROMIUM, LANDSCAPE, launchBrowser, Lobby } from '../screens/support'

/**
 * Contract §21 in headless Chromium against dist/lobby (the demo branch: Loans at the main hall
 * takes appointments, 2 seats a slot, open at any hour): book on a 360×740 phone, get the .ics,
 * cancel, book again (in Arabic), check in at the kiosk with the code, and be called before a
 * walk-in who came later. Screenshots (SCREENSHOTS_DIR=docs/images): book-en.png, book-ar.png,
 * booking-en.png, kiosk-appointment-en.png.
 */
const PHONE = { width: 360, height: 740 }

if (!HAVE_CHROMIUM) console.warn(`SKIPPED appointment browser tests: no Chromium at ${CHROMIUM}`)

/** The demo branch with its hall where it is now midday (test/support/midday.ts). */
function demoAtMidday(zone: string): string {
  const demo = readFileSync(join(import.meta.dir, '../../src/provisioning/demo.yaml'), 'utf8')
  const hall = 'id: loc_hall, name: { en: Main hall, ar: القاعة الرئيسية }, timezone: Europe/Berlin'
  // A key that books through the operator API (contract §21), beside the phone's 3 bookings an hour.
  const keys = '        apiKeys:\n'
  if (!demo.includes(hall) || !demo.includes(keys)) throw new Error('demo.yaml no longer names loc_hall and qu_main\'s keys as this test expects')
  const file = join(tempDir('lobby-midday-'), 'demo.yaml')
  writeFileSync(file, demo.replace(hall, hall.replace('Europe/Berlin', zone)).replace(keys, `${keys}          - { name: booker, scopes: [appointments:write] }\n`))
  return file
}

/** A pattern of an instant's time in `zone` as an English device page writes it: `23:30` or `11:30 PM` (its Intl's 'en'). */
function timeIn(instant: number, zone: string): string {
  const parts = (locale: string) => new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: zone }).formatToParts(instant)
  const h23 = parts('en-GB').map((p) => p.value).join('')
  const h12 = parts('en-US').filter((p) => p.type === 'hour' || p.type === 'minute').map((p) => p.value).join(':')
  const period = parts('en-US').find((p) => p.type === 'dayPeriod')?.value ?? ''
  return `(?:${h23}|${h12}\\s${period})`
}

function cli(lobby: Lobby, ...args: string[]): any {
  const run = Bun.spawnSync([ensureBinary(), ...args, '--db', lobby.db], { stdout: 'pipe', stderr: 'pipe' })
  if (run.exitCode !== 0) throw new Error(`${args.join(' ')}: ${run.stderr.toString()}`)
  return JSON.parse(run.stdout.toString())
}

describe.skipIf(!HAVE_CHROMIUM)('appointments in Chromium against dist/lobby', () => {
  const lobby = new Lobby()
  const zone = zoneAtMidday()
  let phones: BrowserContext
  let kiosks: BrowserContext
  let phone: Page
  let kiosk: Page
  const pageErrors: string[] = []

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    await lobby.start(demoAtMidday(zone))
    phones = await launchBrowser()
    kiosks = await launchBrowser()
    await guardNetwork(phones)
    await guardNetwork(kiosks)
    phone = await phones.newPage()
    await phone.setViewportSize(PHONE)
    kiosk = await kiosks.newPage()
    await kiosk.setViewportSize(LANDSCAPE)
    for (const page of [phone, kiosk]) page.on('pageerror', (error) => pageErrors.push(String(error)))
  }, 60_000)

  afterAll(async () => {
    await phones?.close()
    await kiosks?.close()
    await lobby.kill()
  }, 30_000)

  /**
   * Books the first free slot on the phone's page; returns the booking code from the confirmation's URL.
   * A first slot that starts within 20 s (a browser step's bound) could start before Book and be
   * refused as past: the page is drawn again once it has started, and its next slot (15 minutes
   * on) is booked, which the kiosk and the desk can still check in (check-in opens 15 minutes before).
   */
  async function bookFirstSlot(name: string, bookLabel: string, screenshot?: string): Promise<string> {
    const slot = phone.locator('.slot').first()
    await slot.waitFor()
    const startsAt = Date.parse((await slot.locator('input').getAttribute('value'))!)
    if (startsAt - Date.now() < 20_000) {
      await Bun.sleep(Math.max(0, startsAt - Date.now() + 1_000))
      await phone.reload()
      await slot.waitFor()
    }
    await slot.click()
    await phone.locator('#name').fill(name)
    if (screenshot !== undefined) await shoot(phone, screenshot, { fullPage: true })
    await phone.getByRole('button', { name: bookLabel, exact: true }).click()
    await phone.waitForURL(/\/b\/[2-9A-Z]{8}/)
    return new URL(phone.url()).pathname.slice(3)
  }

  /** Books tonight's last free slot of Loans through the operator API (the `booker` key). */
  async function bookLastSlotByKey(name: string): Promise<{ code: string; startAt: string }> {
    const headers = { authorization: `Bearer ${lobby.secret('queue', 'qu_main', 'booker')}`, 'content-type': 'application/json' }
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(Date.now())
    const slots = await (await fetch(`${lobby.url}/api/operator/v1/appointments/slots?date=${today}&locationId=loc_hall&serviceId=svc_loans`, { headers })).json() as { data: { slots: { startAt: string; free: number }[] } }
    const last = slots.data.slots.filter((s) => s.free > 0).at(-1)!
    const response = await fetch(`${lobby.url}/api/operator/v1/appointments`, {
      method: 'POST', headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ locationId: 'loc_hall', serviceId: 'svc_loans', startAt: last.startAt, name }),
    })
    expect(response.status).toBe(201)
    const { data } = await response.json() as { data: { code: string; startAt: string } }
    return data
  }

  test('book on a phone, get the .ics, cancel, book again in Arabic, check in at the kiosk, be called before a later walk-in', async () => {
    // 1. Book: the one bookable service (Loans) is chosen, today's free times are listed.
    await phone.goto(`${lobby.url}/book/loc_hall`)
    expect(await phone.locator('h1').textContent()).toBe('Book an appointment')
    // Nothing wider than the phone (no sideways scrolling at 360 px).
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width)
    const first = await bookFirstSlot('Amal Haddad', 'Book', 'book-en.png')
    await phone.getByText('You are booked.').waitFor()
    expect(await phone.locator('.code').textContent()).toBe(first)
    expect(await phone.locator('.qr svg').count()).toBe(1)
    await shoot(phone, 'booking-en.png', { fullPage: true })

    // 2. The calendar file, downloaded as a customer would.
    const [download] = await Promise.all([phone.waitForEvent('download'), phone.getByRole('link', { name: 'Add to calendar (.ics)' }).click()])
    const ics = readFileSync((await download.path())!, 'utf8')
    expect(ics.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true)
    expect(ics).toMatch(/\r\nDTSTART:\d{8}T\d{6}Z\r\n/)
    expect(ics).toContain(`Booking code ${first}`)

    // 3. Cancel from the booking page, by keyboard.
    await phone.getByRole('button', { name: 'Yes, cancel my appointment' }).focus()
    await phone.keyboard.press('Enter')
    await phone.getByText('Cancelled', { exact: true }).waitFor()

    // 4. Book again, in Arabic.
    await phone.goto(`${lobby.url}/book/loc_hall?lang=ar`)
    expect(await phone.locator('html').getAttribute('dir')).toBe('rtl')
    const code = await bookFirstSlot('أمل حداد', 'احجز', 'book-ar.png')
    await phone.getByText('تم حجز موعدك.').waitFor()
    expect(code).not.toBe(first)

    // 5. The kiosk: "I have an appointment", type the code, check in.
    const { code: pairing } = cli(lobby, 'devices', 'pair', '--role', 'kiosk', '--queue-unit', 'qu_main', '--location', 'loc_hall', '--name', 'kiosk-hall')
    await kiosk.goto(`${lobby.url}/pair?code=${pairing}`)
    await kiosk.getByRole('button', { name: 'Pair', exact: true }).click()
    await kiosk.waitForURL(/\/kiosk/)
    await kiosk.locator('.kiosk-service:not([disabled])').first().waitFor()
    // Contract §28: a booking for tonight's last slot is too early, and the kiosk says from when.
    const late = await bookLastSlotByKey('Late Customer')
    const opensAt = timeIn(Date.parse(late.startAt) - 15 * 60_000, zone)
    await kiosk.getByRole('button', { name: 'I have an appointment' }).click()
    await kiosk.getByLabel('Your booking code').fill(late.code)
    await kiosk.getByRole('button', { name: 'Check in', exact: true }).click()
    await kiosk.getByText('It is too early to check in').waitFor()
    await kiosk.getByText(new RegExp(`^You can check in from ${opensAt}\\.$`)).waitFor()
    await kiosk.getByRole('button', { name: 'OK', exact: true }).click()
    await kiosk.locator('.kiosk-service:not([disabled])').first().waitFor()
    await kiosk.getByRole('button', { name: 'I have an appointment' }).click()
    await kiosk.getByLabel('Your booking code').fill(code.toLowerCase())
    await shoot(kiosk, 'kiosk-appointment-en.png')
    await kiosk.getByRole('button', { name: 'Check in', exact: true }).click()
    const number = kiosk.locator('.kiosk-ticket-number')
    await number.waitFor()
    const appointmentNumber = (await number.textContent())!
    expect(appointmentNumber).toMatch(/^L\d{3}$/)
    // Contract §28: the ticket is marked as an appointment, with its slot's time.
    expect(await kiosk.locator('.kiosk-ticket-appointment').textContent()).toMatch(/^Appointment \d{2}:\d{2}(\s[AP]M)?$/)

    // 6. A walk-in who comes later is called after the appointment.
    const walkIn = await lobby.issueTicket('loc_hall', 'svc_loans')
    const called = await lobby.callNext('cnt_1')
    expect(called?.ticketNumber).toBe(appointmentNumber)
    await lobby.finish(called!.id)
    expect((await lobby.callNext('cnt_1'))?.ticketNumber).toBe(walkIn.ticketNumber)

    // The desk of Counter 1 (Loans) lists today's appointment as checked in.
    const desks = await launchBrowser()
    try {
      const deskPage = await desks.newPage()
      await deskPage.setViewportSize(LANDSCAPE)
      const { code: deskCode } = cli(lobby, 'devices', 'pair', '--role', 'desk', '--counter', 'cnt_1', '--name', 'desk-1')
      await deskPage.goto(`${lobby.url}/pair?code=${deskCode}`)
      await deskPage.getByRole('button', { name: 'Pair', exact: true }).click()
      await deskPage.waitForURL(/\/desk/)
      const panel = deskPage.getByRole('region', { name: 'Appointments today' })
      await panel.getByText('أمل حداد').waitFor()
      expect(await panel.locator('.desk-appointment[data-status="CHECKED_IN"]').count()).toBe(1)
      // A third booking (the phone's third in the hour: within its limit), checked in at the desk.
      await phone.goto(`${lobby.url}/book/loc_hall`)
      await bookFirstSlot('Jonas Weber', 'Book')
      await deskPage.getByRole('button', { name: 'Check in: Jonas Weber' }).click()
      const checkedIn = deskPage.getByText(/^Checked in: ticket L\d{3}$/)
      await checkedIn.waitFor()
      const jonas = (await checkedIn.textContent())!.slice(-4)
      // The outcome is written before the desk reads its view again: wait for the list.
      await panel.locator('.desk-appointment[data-status="CHECKED_IN"]').nth(1).waitFor()
      expect(await panel.locator('.desk-appointment[data-status="CHECKED_IN"]').count()).toBe(2)
      // Contract §28: the appointment's ticket is marked in the desk's line, and its Call button says so.
      const row = deskPage.locator('.desk-tickets li', { has: deskPage.locator('.desk-ticket-number', { hasText: jonas }) })
      await row.locator('.desk-appointment-badge', { hasText: 'Appointment' }).waitFor()
      expect(await row.getByRole('button', { name: 'Call' }).getAttribute('aria-describedby')).toContain('desk-appointment-ticket-')
      // Too early at the desk: from when, in the location's clock.
      await deskPage.getByRole('button', { name: 'Check in: Late Customer' }).click()
      await deskPage.getByText(new RegExp(`^Too early to check in: check-in opens ${opensAt}\\.$`)).waitFor()
      await shoot(deskPage, 'desk-appointments-en.png', { fullPage: true })
    } finally {
      await desks.close()
    }

    // The booking page says the customer is checked in, with the ticket number.
    await phone.goto(`${lobby.url}/b/${code}`)
    await phone.getByText(appointmentNumber, { exact: false }).first().waitFor()
    expect(pageErrors).toEqual([])
  }, 90_000)
})
