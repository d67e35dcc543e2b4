import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { CHROMIUM, guardNetwork, HAVE_CHROMIUM, launchBrowser, Lobby } from '../screens/support'
import { SHOTS, shoot } from '../support/shots'
import { addConsoleStaff, addHours, setPassword, signIn } from './browser-support'
import { fill, STRINGS } from '../../src/client/admin/strings'

/*
 * The administration console (contract §17) in headless Chromium against dist/lobby (build it
 * first: `bun run build`; run this file alone). An admin adds a service with an Arabic name and
 * opening hours (a bad time is said at its field first) and a counter; a manager renames a
 * counter and the queue board, open in another browser, shows the new name within a second;
 * overlapping hours are said in words beside Monday, in English and Arabic (contract §24).
 * From an empty database (contract §24, issue 44), the first administrator, signed in with the
 * link `serve` printed, sets up the branch in /admin: a refused language tag is said at its
 * field, then the workspace and the unit are made and the unit's forms appear.
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
    await shoot(page, 'admin-branch-en.png', { fullPage: false })

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
    await shoot(page, 'admin-audit-en.png')

    await page.goto(`${lobby.url}/admin?lang=ar`)
    await page.locator('section[aria-labelledby="h-service"]').waitFor()
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
    await shoot(page, 'admin-branch-ar.png')
    await page.locator('details[data-id="cnt_1"] summary').click()
    await page.locator('details[data-id="cnt_1"]').scrollIntoViewIfNeeded()
    await shoot(page, 'admin-counter-ar.png')

    await page.goto(`${lobby.url}/`)
    await shoot(page, 'start-page-en.png')
    await page.goto(`${lobby.url}/?lang=ar`)
    await shoot(page, 'start-page-ar.png')
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
      await shoot(page, `admin-error-words-${lang}.png`)
    }
    expect(pageErrors).toEqual([])
  }, 90_000)

  test('from an empty database: the first administrator sets up the branch in /admin alone (contract §24)', async () => {
    const empty = new Lobby()
    mkdirSync(empty.dir, { recursive: true })
    await empty.serve('0')
    try {
      // The setup link `serve` printed for the first administrator (username "admin").
      let setupPath: string | undefined
      for (let i = 0; i < 50 && setupPath === undefined; i++) {
        setupPath = /\/login\/setup\?code=[a-z2-7]+/.exec(empty.server!.lines.join('\n'))?.[0]
        if (setupPath === undefined) await Bun.sleep(100)
      }
      expect(setupPath).toBeDefined()
      await setPassword(empty, setupPath!)
      const page = await newPage()
      await signIn(page, empty, 'admin')
      await page.goto(`${empty.url}/admin?lang=ar`)
      await page.getByRole('heading', { name: STRINGS.ar.setUpBranch }).waitFor()
      await shoot(page, 'admin-setup-ar.png')

      await page.goto(`${empty.url}/admin`)
      const t = STRINGS.en
      await page.getByRole('heading', { name: t.setUpBranch }).waitFor()
      // No unit yet: nothing else of the Branch section, and no chooser.
      expect(await page.locator('section[aria-labelledby="h-location"]').count()).toBe(0)
      await page.getByLabel(t.workspaceName).fill('Gulf Savings Bank')
      await page.getByLabel(t.unitName).fill('Main branch')
      await page.getByLabel('Arabic (ar)').check()
      await shoot(page, 'admin-setup-en.png')
      const other = page.getByLabel(t.otherLanguages)
      await other.fill('not a tag!')
      await page.getByRole('button', { name: t.createBranch }).click()
      const error = page.locator(`[id="${await other.getAttribute('id')}-error"]`)
      await error.waitFor()
      expect(await other.getAttribute('aria-invalid')).toBe('true')
      expect(await error.textContent()).toContain('is not a language code')
      expect(await page.locator('main').innerText()).not.toMatch(/\/languages|Expected /)

      await other.fill('')
      await page.getByLabel(t.defaultLanguage).selectOption('ar')
      await page.getByRole('button', { name: t.createBranch }).click()
      // The unit's forms: its settings, then locations, services and counters to add.
      await page.locator('section[aria-labelledby="h-location"]').waitFor()
      await page.getByRole('heading', { name: t.unitSettings }).waitFor()
      expect(await page.getByRole('heading', { name: t.setUpBranch }).count()).toBe(0)
      expect(await page.locator('details[data-id="add-unit"] summary').textContent()).toBe(t.addUnit)
      const made = await page.evaluate(async () => ({
        workspaces: await (await fetch('/api/admin/v1/workspaces')).json(),
        units: await (await fetch('/api/admin/v1/queue-units')).json(),
      })) as { workspaces: { data: { id: string; name: string }[] }; units: { data: { workspaceId: string; name: string; languages: string[]; defaultLanguage: string }[] } }
      // One workspace: the attempt refused for its language did not make a second.
      expect(made.workspaces.data.map((w) => w.name)).toEqual(['Gulf Savings Bank'])
      expect(made.units.data).toEqual([expect.objectContaining({ workspaceId: made.workspaces.data[0]!.id, name: 'Main branch', names: { en: 'Main branch' }, languages: ['ar', 'en'], defaultLanguage: 'ar' })])

      // …and the administrator goes on: a location, added with the existing form.
      const add = page.locator('section[aria-labelledby="h-location"] details.entity-add')
      await add.locator('summary').click()
      await add.getByLabel('Name (Arabic)').fill('القاعة')
      await add.getByLabel('Name (English)').fill('Hall')
      await add.getByLabel(t.timezone).fill('Asia/Riyadh')
      await add.getByRole('button', { name: t.add, exact: true }).click()
      await page.locator('section[aria-labelledby="h-location"] summary', { hasText: 'Hall' }).waitFor()
      await shoot(page, 'admin-setup-done-en.png')

      // A second unit, in the workspace chosen from the list: the unit chooser appears, on the new one.
      const addUnit = page.locator('details[data-id="add-unit"]')
      await addUnit.locator('summary').click()
      expect(await addUnit.getByLabel(t.workspace, { exact: true }).inputValue()).toBe(made.workspaces.data[0]!.id)
      expect(await addUnit.getByLabel(t.workspaceName).isVisible()).toBe(false)
      await addUnit.getByLabel(t.unitName).fill('East branch')
      await addUnit.getByRole('button', { name: t.add }).click()
      const chooser = page.getByLabel(t.unit, { exact: true })
      await chooser.waitFor()
      expect(await chooser.locator('option:checked').textContent()).toBe('East branch')
      expect(await chooser.locator('option').allTextContents()).toEqual(['Main branch', 'East branch'])
      await page.locator('section[aria-labelledby="h-location"]').waitFor()
      expect(pageErrors).toEqual([])
    } finally {
      await empty.kill()
    }
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
