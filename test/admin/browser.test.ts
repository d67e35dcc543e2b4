import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { CHROMIUM, guardNetwork, HAVE_CHROMIUM, launchBrowser, Lobby } from '../screens/support'
import { SHOTS } from '../support/shots'
import { addConsoleStaff, addHours, signIn } from './browser-support'
import { fill, STRINGS } from '../../src/screens/client/admin/strings'

/*
 * The administration console (contract §17) in headless Chromium against dist/lobby (build it
 * first: `bun run build`; run this file alone). An admin adds a service with an Arabic name and
 * opening hours (a bad time is said at its field first) and a counter; a manager renames a
 * counter and the queue board, open in another browser, shows the new name within a second;
 * overlapping hours are said in words beside Monday, in English and Arabic (contract §24).
 * Screenshots of /admin and / in English and Arabic go to SHOTS (SCREENSHOTS_DIR=docs/images
 * for the docs).
 */

if (!HAVE_CHROMIUM) console.warn(`SKIPPED admin browser test: no Chromium at ${CHROMIUM}`)

describe.skipIf(!HAVE_CHROMIUM)('the /admin console in Chromium against dist/lobby', () => {
  const lobby = new Lobby()
  const contexts: BrowserContext[] = []
  const pageErrors: string[] = []

  const newPage = async (viewport = { width: 1280, height: 1000 }): Promise<Page> => {
    const context = await launchBrowser()
    contexts.push(context)
    const page = await context.newPage()
    await page.setViewportSize(viewport)
    page.on('pageerror', (error) => pageErrors.push(String(error)))
    return page
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

  test('an admin adds a service with an Arabic name and opening hours, and a counter serving it', async () => {
    const page = await newPage()
    const network = await guardNetwork(contexts[0]!)
    await signIn(page, lobby, 'root')
    expect(new URL(page.url()).pathname).toBe('/admin')
    await page.locator('section[aria-labelledby="h-service"]').waitFor()
    await page.screenshot({ path: join(SHOTS, 'admin-branch-en.png'), fullPage: false })

    const add = page.locator('section[aria-labelledby="h-service"] details.entity-add')
    await add.locator('summary').click()
    await add.getByLabel('Name (English)').fill('Remittances')
    await add.getByLabel('Name (Arabic)').fill('الحوالات')
    await add.getByLabel('Ticket prefix (1–3 capital letters)').fill('R')
    await add.getByLabel(/Its own opening hours/).check()
    // Monday from 08:00, its end left empty: the server's pointer (/openingHours/mon/0/1) lands at that box, in words.
    const monday = await addHours(add, STRINGS.en, 'mon', [['08:00', '']])
    await add.getByRole('button', { name: 'Add', exact: true }).click()
    const until = monday.getByLabel('Monday, until', { exact: true })
    const error = add.locator('.field-error:not([hidden])').first()
    await error.waitFor()
    expect(await until.getAttribute('aria-invalid')).toBe('true')
    expect(await until.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'))
    expect(await error.textContent()).toContain('Opening hours, Monday: “” is not a time of day')
    await until.fill('12:00')
    await addHours(add, STRINGS.en, 'mon', [['13:00', '16:30']])
    for (const day of ['tue', 'wed', 'thu'] as const) await addHours(add, STRINGS.en, day, [['08:00', '16:30']])
    await add.getByRole('button', { name: 'Add', exact: true }).click()
    await page.locator('.saved-message', { hasText: 'Saved.' }).waitFor()
    await page.locator('section[aria-labelledby="h-service"] summary', { hasText: 'Remittances' }).waitFor()

    const addCounter = page.locator('section[aria-labelledby="h-counter"] details.entity-add')
    await addCounter.locator('summary').click()
    await addCounter.getByLabel('Name (English)').fill('Counter 4')
    await addCounter.getByLabel('Name (Arabic)').fill('الشباك ٤')
    await addCounter.getByLabel('Remittances (R)').check()
    await addCounter.getByRole('button', { name: 'Add', exact: true }).click()
    await page.locator('section[aria-labelledby="h-counter"] summary', { hasText: 'Counter 4' }).waitFor()

    // What the console saved is what the API and a provisioning export say.
    const services = await page.evaluate(async () => (await fetch('/api/admin/v1/queue-units/qu_main/services')).json()) as { data: { name: string; names: Record<string, string>; openingHours?: Record<string, string[][]> }[] }
    const remittances = services.data.find((s) => s.name === 'Remittances')!
    expect(remittances.names).toEqual({ en: 'Remittances', ar: 'الحوالات' })
    expect(remittances.openingHours?.mon).toEqual([['08:00', '12:00'], ['13:00', '16:30']])

    // The audit log shows the admin's changes, newest first.
    await page.getByRole('link', { name: 'Audit log' }).click()
    await page.locator('.audit-table tbody tr').first().waitFor()
    expect(await page.locator('.audit-table tbody tr').first().textContent()).toContain('counter.create')
    await page.screenshot({ path: join(SHOTS, 'admin-audit-en.png') })

    await page.goto(`${lobby.url}/admin?lang=ar`)
    await page.locator('section[aria-labelledby="h-service"]').waitFor()
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
    await page.screenshot({ path: join(SHOTS, 'admin-branch-ar.png') })
    await page.locator('details[data-id="cnt_1"] summary').click()
    await page.locator('details[data-id="cnt_1"]').scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(SHOTS, 'admin-counter-ar.png') })

    await page.goto(`${lobby.url}/`)
    await page.screenshot({ path: join(SHOTS, 'start-page-en.png') })
    await page.goto(`${lobby.url}/?lang=ar`)
    await page.screenshot({ path: join(SHOTS, 'start-page-ar.png') })
    expect(network.outside).toEqual([])
  }, 90_000)

  test('errors in words (contract §24): overlapping hours are said beside Monday, in English and in Arabic, with no pointer on the page', async () => {
    const page = await newPage()
    await signIn(page, lobby, 'root')
    for (const lang of ['en', 'ar'] as const) {
      const t = STRINGS[lang]
      await page.goto(`${lobby.url}/admin${lang === 'ar' ? '?lang=ar' : ''}`)
      const hall = page.locator('details[data-id="loc_annex"]')
      await hall.locator('summary').click()
      await hall.getByLabel(t.alwaysOpen).uncheck()
      const monday = await addHours(hall, t, 'mon', [['08:00', '12:00'], ['11:00', '14:00']])
      await hall.getByRole('button', { name: t.save }).click()
      // The overlap is said beside Monday, its second interval marked.
      const second = monday.getByLabel(fill(t.hoursFrom, { day: t.days.mon }), { exact: true }).nth(1)
      const error = page.locator(`[id="${await second.getAttribute('aria-describedby')}"]`)
      await error.waitFor()
      expect(await second.getAttribute('aria-invalid')).toBe('true')
      expect((await error.textContent())!.replace(/[\u2066-\u2069]/g, '')).toBe(lang === 'en'
        ? 'Opening hours, Monday: 08:00–12:00 overlaps 11:00–14:00'
        : 'ساعات العمل، الاثنين: 08:00–12:00 تتداخل مع 11:00–14:00')
      const text = await page.locator('main').innerText()
      expect(text).not.toMatch(/\/openingHours|\/mon\/|overlaps \/|Expected /)
      await hall.scrollIntoViewIfNeeded()
      await monday.scrollIntoViewIfNeeded()
      await page.locator(':focus').evaluateAll((els) => els.forEach((el) => (el as { blur?: () => void }).blur?.()))
      await page.screenshot({ path: join(SHOTS, `admin-error-words-${lang}.png`) })
    }
    expect(pageErrors).toEqual([])
  }, 90_000)

  test('a manager renames a counter; the board in another browser shows it within a second', async () => {
    const board = await newPage({ width: 1920, height: 1080 })
    await board.goto(lobby.screen('/screens/queue/qu_main'))
    const ticket = await lobby.issueTicket('loc_hall', 'svc_accounts')
    const called = await lobby.callNext('cnt_1')
    expect(called?.ticketNumber).toBe(ticket.ticketNumber)
    await board.getByText('Counter 1').first().waitFor({ timeout: 10_000 })

    const page = await newPage()
    await signIn(page, lobby, 'omar')
    await page.goto(`${lobby.url}/admin`)
    const counter = page.locator('details[data-id="cnt_1"]')
    await counter.locator('summary').click()
    await counter.getByLabel('Name (English)').fill('Window One')
    await counter.getByRole('button', { name: 'Save' }).click()
    await page.locator('.saved-message', { hasText: 'Saved.' }).waitFor()
    const saved = Date.now()
    await board.getByText('Window One').first().waitFor({ timeout: 1_000 })
    expect(Date.now() - saved).toBeLessThan(1_000)

    // A manager may not touch users or another unit: the API refuses, in its envelope.
    const other = await page.evaluate(async () => (await fetch('/api/admin/v1/queue-units/qu_nowhere')).status)
    expect(other).toBe(403)
    expect(pageErrors).toEqual([])
  }, 90_000)
})
