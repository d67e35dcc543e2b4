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
function demoAtMidday(): string {
  const demo = readFileSync(join(import.meta.dir, '../../src/provisioning/demo.yaml'), 'utf8')
  const hall = 'id: loc_hall, name: { en: Main hall, ar: القاعة الرئيسية }, timezone: Europe/Berlin'
  if (!demo.includes(hall)) throw new Error('demo.yaml no longer names loc_hall as this test expects')
  const file = join(tempDir('lobby-midday-'), 'demo.yaml')
  writeFileSync(file, demo.replace(hall, hall.replace('Europe/Berlin', zoneAtMidday())))
  return file
}

function cli(lobby: Lobby, ...args: string[]): any {
  const run = Bun.spawnSync([ensureBinary(), ...args, '--db', lobby.db], { stdout: 'pipe', stderr: 'pipe' })
  if (run.exitCode !== 0) throw new Error(`${args.join(' ')}: ${run.stderr.toString()}`)
  return JSON.parse(run.stdout.toString())
}

describe.skipIf(!HAVE_CHROMIUM)('appointments in Chromium against dist/lobby', () => {
  const lobby = new Lobby()
  let phones: BrowserContext
  let kiosks: BrowserContext
  let phone: Page
  let kiosk: Page
  const pageErrors: string[] = []

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    await lobby.start(demoAtMidday())
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

  /** Books the first free slot on the phone's page; returns the booking code from the confirmation's URL. */
  async function bookFirstSlot(name: string, bookLabel: string, screenshot?: string): Promise<string> {
    const slot = phone.locator('.slot').first()
    await slot.waitFor()
    await slot.click()
    await phone.locator('#name').fill(name)
    if (screenshot !== undefined) await shoot(phone, screenshot, { fullPage: true })
    await phone.getByRole('button', { name: bookLabel, exact: true }).click()
    await phone.waitForURL(/\/b\/[2-9A-Z]{8}/)
    return new URL(phone.url()).pathname.slice(3)
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
    await kiosk.getByRole('button', { name: 'I have an appointment' }).click()
    await kiosk.getByLabel('Your booking code').fill(code.toLowerCase())
    await shoot(kiosk, 'kiosk-appointment-en.png')
    await kiosk.getByRole('button', { name: 'Check in', exact: true }).click()
    const number = kiosk.locator('.kiosk-ticket-number')
    await number.waitFor()
    const appointmentNumber = (await number.textContent())!
    expect(appointmentNumber).toMatch(/^L\d{3}$/)

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
      await deskPage.getByText(/^Checked in: ticket L\d{3}$/).waitFor()
      expect(await panel.locator('.desk-appointment[data-status="CHECKED_IN"]').count()).toBe(2)
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
