import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { CHROMIUM, guardNetwork, HAVE_CHROMIUM, launchBrowser, Lobby } from '../screens/support'
import { SHOTS, shoot } from '../support/shots'
import { addConsoleStaff, addHours, signIn } from './browser-support'
import { STRINGS } from '../../src/client/admin/strings'

/*
 * The console's Devices, Staff, Keys and Voice sections in headless Chromium against
 * dist/lobby (build it first: `bun run build`; run this file alone). An admin adds a service
 * with an Arabic name and opening hours and a counter, pairs a kiosk from the Devices section
 * (the code read off the page), the kiosk (another browser) pairs at /pair?code=… and offers
 * the service; a second service reaches it within a second. Screenshots (SCREENSHOTS_DIR=
 * docs/images for the docs) in English and Arabic, landscape 1366×768 and portrait 768×1024,
 * and the printed pairing sheet (print media, A4 width).
 */

if (!HAVE_CHROMIUM) console.warn(`SKIPPED admin sections browser test: no Chromium at ${CHROMIUM}`)

const LANDSCAPE = { width: 1366, height: 768 }
const PORTRAIT = { width: 768, height: 1024 }
const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const

/** A short valid WAV (8 kHz mono 16-bit silence). */
function wav(): Buffer {
  const samples = 800
  const data = samples * 2
  const b = Buffer.alloc(44 + data)
  b.write('RIFF', 0); b.writeUInt32LE(36 + data, 4); b.write('WAVE', 8); b.write('fmt ', 12)
  b.writeUInt32LE(16, 16); b.writeUInt16LE(1, 20); b.writeUInt16LE(1, 22); b.writeUInt32LE(8000, 24)
  b.writeUInt32LE(16000, 28); b.writeUInt16LE(2, 32); b.writeUInt16LE(16, 34); b.write('data', 36); b.writeUInt32LE(data, 40)
  return b
}

describe.skipIf(!HAVE_CHROMIUM)('the console sections in Chromium against dist/lobby', () => {
  const lobby = new Lobby()
  const contexts: BrowserContext[] = []
  const pageErrors: string[] = []

  const newPage = async (viewport = LANDSCAPE): Promise<Page> => {
    const context = await launchBrowser()
    contexts.push(context)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: lobby.url })
    const page = await context.newPage()
    await page.setViewportSize(viewport)
    page.on('pageerror', (error) => pageErrors.push(String(error)))
    // The console confirms revocations and resets in a dialog: the test says yes.
    page.on('dialog', (dialog) => void dialog.accept())
    return page
  }

  const addService = async (page: Page, en: string, ar: string, prefix: string, hours: boolean) => {
    const add = page.locator('section[aria-labelledby="h-service"] details.entity-add')
    await add.locator('summary').click()
    await add.getByLabel('Name (English)').fill(en)
    await add.getByLabel('Name (Arabic)').fill(ar)
    await add.getByLabel('Ticket prefix (1–3 capital letters)').fill(prefix)
    // Offered at the main hall (where the kiosk stands) only.
    await add.getByLabel('Main hall').check()
    await add.getByLabel('Annex').uncheck()
    if (hours) {
      await add.getByLabel(/Its own opening hours/).check()
      // Open whenever the test runs, so the kiosk offers it.
      for (const day of EVERY_DAY) await addHours(add, STRINGS.en, day, [['00:00', '23:59']])
    }
    await add.getByRole('button', { name: 'Add', exact: true }).click()
    await page.locator('section[aria-labelledby="h-service"] summary', { hasText: en }).waitFor()
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    await lobby.start()
    await addConsoleStaff(lobby)
  }, 60_000)

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await lobby.kill()
  }, 30_000)

  test('an admin adds a service and a counter, pairs a kiosk from Devices; the kiosk shows the service, and a new one within a second', async () => {
    const page = await newPage()
    const network = await guardNetwork(contexts[0]!)
    await signIn(page, lobby, 'root')
    await page.locator('section[aria-labelledby="h-service"]').waitFor()
    await addService(page, 'Remittances', 'الحوالات', 'R', true)
    const services = await page.evaluate(async () => (await fetch('/api/admin/v1/queue-units/qu_main/services')).json()) as { data: { id: string; name: string; openingHours?: Record<string, string[][]> }[] }
    const remittances = services.data.find((s) => s.name === 'Remittances')!
    expect(remittances.openingHours?.sun).toEqual([['00:00', '23:59']])

    const addCounter = page.locator('section[aria-labelledby="h-counter"] details.entity-add')
    await addCounter.locator('summary').click()
    await addCounter.getByLabel('Name (English)').fill('Counter 4')
    await addCounter.getByLabel('Name (Arabic)').fill('الشباك ٤')
    // Remittances is offered at the main hall only, so the counter stands there (contract §27).
    await addCounter.getByLabel(STRINGS.en.location, { exact: true }).selectOption({ label: 'Main hall' })
    await addCounter.getByLabel('Remittances (R)').check()
    await addCounter.getByRole('button', { name: 'Add', exact: true }).click()
    await page.locator('section[aria-labelledby="h-counter"] summary', { hasText: 'Counter 4' }).waitFor()

    // The main hall takes phone joins: its editor links to the join poster.
    await page.locator('details[data-id="loc_hall"] summary').click()
    expect(await page.locator('details[data-id="loc_hall"]').getByRole('link', { name: 'Print the join poster' }).getAttribute('href')).toBe('/join/loc_hall/poster')

    // Devices: a kiosk at the main hall. A bad name is said at its field first.
    await page.getByRole('link', { name: 'Devices' }).click()
    const pair = page.locator('section[aria-labelledby="h-pair"]')
    await pair.getByLabel('Device').selectOption('kiosk')
    await pair.getByLabel('Location').selectOption('loc_hall')
    const name = pair.getByLabel(/Name in the list/)
    await name.fill('hall kiosk!')
    await pair.getByRole('button', { name: 'Make a pairing code' }).click()
    await pair.locator('.field-error:not([hidden])').first().waitFor()
    expect(await name.getAttribute('aria-invalid')).toBe('true')
    await name.fill('hall-kiosk-2')
    await pair.getByRole('button', { name: 'Make a pairing code' }).click()
    const sheet = page.locator('.pairing-sheet')
    await sheet.waitFor()
    const code = (await sheet.locator('.pairing-code [aria-hidden="true"]').textContent())!.replace(/\s/g, '')
    expect(code).toMatch(/^\d{6}$/)
    expect(await sheet.locator('.qr svg').count()).toBe(1)
    expect(await sheet.getByRole('button', { name: 'Print' }).isVisible()).toBe(true)
    await shoot(page, 'admin-devices-en.png')

    // The printed sheet: the code, the QR code and the steps; no navigation, no form, no Print button.
    await page.setViewportSize({ width: 794, height: 1123 })
    await page.emulateMedia({ media: 'print' })
    expect(await page.locator('#admin-nav').isVisible()).toBe(false)
    expect(await page.locator('section[aria-labelledby="h-pair"] form').isVisible()).toBe(false)
    expect(await sheet.getByRole('button', { name: 'Print' }).isVisible()).toBe(false)
    expect(await sheet.locator('.pairing-code').isVisible()).toBe(true)
    await shoot(page, 'admin-pairing-sheet.png')
    await page.emulateMedia({ media: 'screen' })
    await page.setViewportSize(LANDSCAPE)

    // The kiosk, in another browser, pairs with the code read off the console.
    const kiosk = await newPage({ width: 1080, height: 1920 })
    await kiosk.goto(`${lobby.url}/pair?code=${code}`)
    await kiosk.getByRole('button', { name: 'Pair', exact: true }).click()
    await kiosk.waitForURL(/\/kiosk/)
    await kiosk.locator(`.kiosk-service[data-service-id="${remittances.id}"]`, { hasText: 'Remittances' }).waitFor({ timeout: 10_000 })

    // The list says the kiosk is paired and when it was last seen.
    await page.getByRole('link', { name: 'Audit log' }).click()
    await page.getByRole('link', { name: 'Devices' }).click()
    const row = page.locator('.admin-table tr', { hasText: 'hall-kiosk-2' })
    await row.waitFor()
    expect(await row.textContent()).toContain('active')

    // Another service at the main hall reaches the open kiosk within a second.
    await page.getByRole('link', { name: 'Branch' }).click()
    await page.locator('section[aria-labelledby="h-service"]').waitFor()
    await addService(page, 'Currency exchange', 'صرف العملات', 'X', false)
    const saved = Date.now()
    await kiosk.locator('.kiosk-service', { hasText: 'Currency exchange' }).waitFor({ timeout: 1_000 })
    expect(Date.now() - saved).toBeLessThan(1_000)

    // Revoke, after the confirmation: the kiosk's list row says so.
    await page.getByRole('link', { name: 'Devices' }).click()
    await page.getByRole('button', { name: 'Revoke hall-kiosk-2' }).click()
    await page.locator('.admin-table tr', { hasText: 'hall-kiosk-2' }).filter({ hasText: 'revoked' }).waitFor()
    expect(network.outside).toEqual([])
  }, 120_000)

  test('Staff: a person added shows the setup link once, with Copy and its QR code', async () => {
    const page = await newPage()
    await signIn(page, lobby, 'root')
    await page.goto(`${lobby.url}/admin#staff`)
    const add = page.locator('section[aria-labelledby="h-add-user"]')
    await add.getByLabel(/^Username/).fill('lina')
    await add.getByLabel('Full name').fill('Lina Saleh')
    await add.getByLabel('Role').selectOption('clerk')
    await add.getByLabel(/Queue units/).fill('qu_main')
    await add.getByRole('button', { name: 'Add', exact: true }).click()
    const box = page.locator('.secret-box')
    await box.waitFor()
    expect(await box.textContent()).toContain('Shown only now')
    const link = (await box.locator('.secret-value').textContent())!
    expect(link).toContain('/login/setup?code=')
    await box.getByRole('button', { name: 'Copy' }).click()
    await box.getByText('Copied.').waitFor()
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(link)
    await page.locator('.admin-table tr', { hasText: 'lina' }).waitFor()
    // The list never shows the link again.
    expect(await page.locator('.admin-table').textContent()).not.toContain('setup?code=')
    await shoot(page, 'admin-staff-en.png')

    await page.setViewportSize(PORTRAIT)
    await page.goto(`${lobby.url}/admin?lang=ar#staff`)
    await page.locator('.admin-table tr', { hasText: 'lina' }).waitFor()
    await shoot(page, 'admin-staff-ar.png')
  }, 60_000)

  test('Keys (Arabic): a display token is made, its secret shown once; Devices in Arabic, portrait', async () => {
    const page = await newPage(PORTRAIT)
    await signIn(page, lobby, 'root')
    await page.goto(`${lobby.url}/admin?lang=ar#keys`)
    const create = page.locator('section[aria-labelledby="h-create-key"]')
    await create.getByLabel('النوع').selectOption('display')
    await create.getByLabel(/^الاسم/).fill('lobby-tv-2')
    await create.getByRole('button', { name: 'إنشاء' }).click()
    const box = page.locator('.secret-box')
    await box.waitFor()
    expect((await box.locator('.secret-value').textContent())!.length).toBeGreaterThan(20)
    await page.locator('.admin-table tr', { hasText: 'lobby-tv-2' }).waitFor()
    await shoot(page, 'admin-keys-ar.png')
    await page.setViewportSize(LANDSCAPE)
    await page.goto(`${lobby.url}/admin#keys`)
    await page.locator('.admin-table tr', { hasText: 'lobby-tv-2' }).waitFor()
    await shoot(page, 'admin-keys-en.png')

    await page.setViewportSize(PORTRAIT)
    await page.goto(`${lobby.url}/admin?lang=ar#devices`)
    const pair = page.locator('section[aria-labelledby="h-pair"]')
    await pair.getByLabel('الجهاز').selectOption('desk')
    await pair.getByLabel('الشباك').selectOption('cnt_1')
    await pair.getByRole('button', { name: 'إنشاء رمز إقران' }).click()
    await page.locator('.pairing-sheet .qr svg').waitFor()
    await shoot(page, 'admin-devices-ar.png')
  }, 60_000)

  test('Voice clips: the missing ones listed, an upload, a player without autoplay', async () => {
    const page = await newPage()
    await signIn(page, lobby, 'root')
    await page.goto(`${lobby.url}/admin#voice`)
    const english = page.locator('section[aria-labelledby="h-voice-en"]')
    await english.waitFor()
    expect(await english.textContent()).toContain('please-go-to')
    await english.getByLabel(/^Clip name/).fill('ticket')
    await english.getByLabel(/^Audio file/).setInputFiles({ name: 'ticket.wav', mimeType: 'audio/wav', buffer: wav() })
    await english.getByRole('button', { name: 'Upload' }).click()
    const player = page.locator('section[aria-labelledby="h-voice-en"] audio[aria-label="Play ticket"]')
    await player.waitFor()
    expect(await player.getAttribute('controls')).not.toBeNull()
    expect(await player.getAttribute('autoplay')).toBeNull()
    expect(await page.locator('section[aria-labelledby="h-voice-en"] .admin-table').textContent()).toContain('audio/wav')
    await page.locator('section[aria-labelledby="h-voice-en"] h3').scrollIntoViewIfNeeded()
    await page.evaluate('window.scrollBy(0, -80)')
    await shoot(page, 'admin-voice-en.png')
    await page.setViewportSize(PORTRAIT)
    await page.goto(`${lobby.url}/admin?lang=ar#voice`)
    await page.locator('section[aria-labelledby="h-voice-en"] audio').waitFor()
    await shoot(page, 'admin-voice-ar.png')
  }, 60_000)

  test('the audit log writes its times as the reader\'s English does: en-GB from the browser, en-US when the URL says so', async () => {
    const page = await newPage()
    await signIn(page, lobby, 'root')
    // ICU writes a narrow no-break space before AM/PM.
    const firstTime = async () => {
      const cell = page.locator('.audit-table tbody tr time').first()
      await cell.waitFor()
      return (await cell.textContent())!.replace(/[\u202f\u00a0]/g, ' ')
    }
    // The test browser's locale is en-GB: "27 Nov 2026, 02:50:07".
    await page.goto(`${lobby.url}/admin#audit`)
    expect(await firstTime()).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2}$/)
    // A bare `?lang=en` (the language switch's link) names no locale: still the browser's en-GB.
    await page.goto(`${lobby.url}/admin?lang=en#audit`)
    expect(await firstTime()).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2}$/)
    // "Nov 27, 2026, 2:50:07 AM".
    await page.goto(`${lobby.url}/admin?lang=en-US#audit`)
    expect(await firstTime()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M$/)
    expect(pageErrors).toEqual([])
  }, 60_000)

  test('Audit log: a counter renamed shows as Name (English), old → new, without its unchanged fields; no scroll region a keyboard cannot reach; axe-clean, English and Arabic', async () => {
    // axe-core is injected as a script of the test's own: this browser lets it past the page's CSP.
    const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
    const context = await launchBrowser({ bypassCSP: true })
    contexts.push(context)
    const page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(String(error)))
    await signIn(page, lobby, 'root')
    await page.goto(`${lobby.url}/admin#branch`)
    const counter = page.locator('details[data-id="cnt_2"]')
    await counter.locator('summary').click()
    await counter.getByLabel('Name (English)').fill('Window Two')
    await counter.getByRole('button', { name: 'Save' }).click()
    await page.locator('.saved-message', { hasText: 'Saved.' }).waitFor()

    await page.getByRole('link', { name: 'Audit log' }).click()
    const entry = page.locator('.audit-table tbody tr', { hasText: 'counter.update' }).filter({ hasText: 'cnt_2' }).first()
    await entry.waitFor()
    expect(await entry.locator('.audit-fields dt').allTextContents()).toEqual(['Name (English)'])
    expect(await entry.locator('.audit-fields dd .audit-was bdi').textContent()).toBe('Counter 2')
    expect(await entry.locator('.audit-fields dd .audit-now bdi').textContent()).toBe('Window Two')
    expect(await entry.locator('.audit-fields dd').textContent()).toContain('→')
    // The unchanged fields are not listed (they are in the whole snapshots, on demand).
    expect(await entry.locator('.audit-fields').textContent()).not.toContain('Counter 1')
    expect(await entry.locator('.audit-fields').textContent()).not.toContain('loc_hall')
    // A create lists the fields it set, as the provisioning file did.
    const created = page.locator('.audit-table tbody tr', { hasText: 'counter.create' }).filter({ hasText: 'cnt_1' })
    expect(await created.locator('.audit-fields dt').allTextContents()).toEqual(expect.arrayContaining(['Name (Arabic)', 'Location', 'Serves']))

    /** Elements whose content scrolls (overflow auto or scroll, more content than room) and that a keyboard cannot reach. */
    const unreachableScrollers = () => page.evaluate(() => {
      const d = (globalThis as any).document
      return [...d.querySelectorAll('#admin-main *')].filter((el: any) => {
        const style = (globalThis as any).getComputedStyle(el)
        const scrolls = (/(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth) || (/(auto|scroll)/.test(style.overflowY) && el.scrollHeight > el.clientHeight)
        const reachable = el.tabIndex >= 0 || el.querySelector('a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])') !== null
        return scrolls && !reachable
      }).map((el: any) => `${el.tagName.toLowerCase()}.${el.className}`)
    })
    const axeProblems = async (label: string) => {
      await page.addScriptTag({ content: AXE })
      return (await page.evaluate(async () => {
        const result = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] })
        return result.violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'scrollable-region-focusable')
          .map((v: any) => `${v.id} at ${v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')).join(', ')}`)
      }) as string[]).map((p) => `${label}: ${p}`)
    }
    const problems: string[] = []
    for (const lang of ['en', 'ar']) {
      await page.goto(`${lobby.url}/admin${lang === 'ar' ? '?lang=ar' : ''}#audit`)
      await page.locator('.audit-table tbody tr .audit-fields').first().waitFor()
      // Every entry's whole snapshots open: the long ones too must not become scroll regions.
      for (const summary of await page.locator('.audit-everything > summary').all()) await summary.click()
      problems.push(...(await unreachableScrollers()).map((s) => `${lang}: scrolls, unreachable: ${s}`))
      problems.push(...(await axeProblems(lang)))
      if (lang === 'ar') {
        const arabic = page.locator('.audit-table tbody tr', { hasText: 'cnt_2' }).first()
        expect(await arabic.locator('.audit-fields dt').allTextContents()).toEqual(['الاسم (الإنجليزية)'])
        expect(await arabic.locator('.audit-fields dd').textContent()).toContain('←')
      }
      // Closed again for the picture.
      await page.evaluate(() => { for (const d of (globalThis as any).document.querySelectorAll('.audit-everything[open]')) d.open = false })
      await page.evaluate('window.scrollTo(0, 0); document.querySelector(".table-scroll").scrollLeft = 0')
      await shoot(page, `admin-audit-fields-${lang}.png`)
    }
    expect(problems).toEqual([])
    expect(pageErrors).toEqual([])
  }, 90_000)

  test('a manager sees Branch, Devices, Voice clips and the Audit log, never Staff nor Keys', async () => {
    const page = await newPage()
    await signIn(page, lobby, 'omar')
    await page.goto(`${lobby.url}/admin`)
    const nav = page.locator('#admin-nav a')
    await nav.first().waitFor()
    expect(await nav.allTextContents()).toEqual(['Branch', 'Devices', 'Voice clips', 'Audit log'])
    const users = await page.evaluate(async () => (await fetch('/api/admin/v1/users')).status)
    expect(users).toBe(403)
    // A manager pairs no display (a workspace's): the choice is not offered.
    await page.goto(`${lobby.url}/admin#devices`)
    const device = page.locator('section[aria-labelledby="h-pair"]').getByLabel('Device')
    await device.waitFor()
    const roles = await device.locator('option').evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value))
    expect(roles).toEqual(['kiosk', 'desk', 'reports'])
    expect(pageErrors).toEqual([])
  }, 60_000)
})
