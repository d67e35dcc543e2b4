import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { CHROMIUM, guardNetwork, HAVE_CHROMIUM, launchBrowser, Lobby } from '../screens/support'
import { SHOTS, shoot as shootPage } from '../support/shots'
import { addConsoleStaff, signIn } from './browser-support'
import { STRINGS, type Lang } from '../../src/client/admin/strings'

/*
 * The Branch editors' pickers (contract §24) in headless Chromium against dist/lobby (build it
 * first: `bun run build`; run this file alone): a time zone found by typing a city, opening
 * hours added interval by interval in HH:MM, a closed date, durations in minutes, a service's
 * appointments, the unit's languages and break reasons. Each save is checked against what the
 * admin API then holds. Screenshots of the hours editor in English and Arabic at 1280×800 go to
 * SHOTS (SCREENSHOTS_DIR=docs/images for the docs).
 */

if (!HAVE_CHROMIUM) console.warn(`SKIPPED admin editors browser test: no Chromium at ${CHROMIUM}`)

const LANDSCAPE = { width: 1280, height: 800 }
const UNIT = '/api/admin/v1/queue-units/qu_main'

describe.skipIf(!HAVE_CHROMIUM)('the Branch editors\' pickers in Chromium against dist/lobby', () => {
  const lobby = new Lobby()
  const contexts: BrowserContext[] = []
  const pageErrors: string[] = []
  let page: Page

  const get = async <T>(path: string): Promise<T> => page.evaluate(async (url) => (await fetch(url)).json(), `${UNIT}${path}`) as Promise<T>

  /** Opens an entity's form on the Branch section, in `lang`. */
  const open = async (id: string, lang: Lang = 'en'): Promise<Locator> => {
    await page.goto(`${lobby.url}/admin${lang === 'ar' ? '?lang=ar' : ''}`)
    const entity = page.locator(`details[data-id="${id}"]`)
    await entity.locator('summary').click()
    return entity
  }

  const saved = async (form: Locator, lang: Lang = 'en') => {
    await form.getByRole('button', { name: STRINGS[lang].save, exact: true }).click()
    await page.locator('.saved-message', { hasText: STRINGS[lang].saved }).waitFor()
  }

  /** The week at the top of the window, nothing focused: docs/images/admin-hours-editor-<lang>.png. */
  const shoot = async (form: Locator, lang: Lang) => {
    await form.locator('fieldset.hours').evaluate((el) => el.scrollIntoView({ block: 'start' }))
    await page.locator(':focus').evaluateAll((els) => els.forEach((el) => (el as { blur?: () => void }).blur?.()))
    await shootPage(page, `admin-hours-editor-${lang}.png`)
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    await lobby.start()
    await addConsoleStaff(lobby)
    const context = await launchBrowser()
    contexts.push(context)
    page = await context.newPage()
    await page.setViewportSize(LANDSCAPE)
    page.on('pageerror', (error) => pageErrors.push(String(error)))
    await signIn(page, lobby, 'root')
  }, 60_000)

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await lobby.kill()
  }, 30_000)

  test('a location: Europe/London found by typing "London", Monday 08:00–12:00 and 13:00–17:00, a closed date; the API holds exactly those', async () => {
    const network = await guardNetwork(contexts[0]!)
    const t = STRINGS.en
    const annex = await open('loc_annex')
    const zone = annex.getByLabel(t.timezone)
    // The IANA list is offered as suggestions; a city typed and left fills in its zone.
    expect(await zone.getAttribute('list')).not.toBeNull()
    expect(await page.locator(`datalist#${await zone.getAttribute('list')} option[value="Europe/London"]`).count()).toBe(1)
    await zone.fill('London')
    await zone.press('Tab')
    expect(await zone.inputValue()).toBe('Europe/London')

    await annex.getByLabel(t.alwaysOpen).uncheck()
    const monday = annex.getByRole('group', { name: t.days.mon })
    expect(await monday.getByText(t.closed).isVisible()).toBe(true)
    await monday.getByRole('button', { name: 'Add hours, Monday' }).click()
    // The new interval's first box has the focus: the keyboard goes on from there.
    expect(await page.locator(':focus').getAttribute('aria-label')).toBe('Monday, from')
    await monday.getByLabel('Monday, from').nth(0).fill('08:00')
    await monday.getByLabel('Monday, until').nth(0).fill('12:00')
    await monday.getByRole('button', { name: 'Add hours, Monday' }).click()
    await monday.getByLabel('Monday, from').nth(1).fill('13:00')
    await monday.getByLabel('Monday, until').nth(1).fill('17:00')
    // A third interval added by mistake is removed again.
    await monday.getByRole('button', { name: 'Add hours, Monday' }).click()
    await monday.getByRole('button', { name: 'Remove Monday …–…' }).click()
    expect(await monday.getByLabel('Monday, from').count()).toBe(2)
    expect(await monday.getByText(t.closed).isVisible()).toBe(false)

    await annex.getByRole('button', { name: t.addClosedDate }).click()
    await annex.getByLabel('Closed date 1', { exact: true }).fill('2026-12-25')
    await shoot(annex, 'en')
    await saved(annex)

    const location = await get<{ timezone: string; openingHours?: Record<string, string[][]>; closedDates?: string[] }>('/locations/loc_annex')
    expect(location.timezone).toBe('Europe/London')
    expect(location.openingHours).toEqual({ mon: [['08:00', '12:00'], ['13:00', '17:00']], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] })
    expect(location.closedDates).toEqual(['2026-12-25'])

    // Opened again, the editor shows what was saved.
    const again = await open('loc_annex')
    expect(await again.getByLabel(t.timezone).inputValue()).toBe('Europe/London')
    expect(await again.getByLabel('Monday, until').nth(1).inputValue()).toBe('17:00')
    expect(await again.getByLabel('Closed date 1', { exact: true }).inputValue()).toBe('2026-12-25')
    expect(network.outside).toEqual([])
  }, 90_000)

  test('a service: the wait target typed in minutes is saved in seconds, its appointments untouched; another service takes appointments with 20-minute slots', async () => {
    const t = STRINGS.en
    type Service = { waitTargetSeconds?: number; defaultServiceSeconds?: number; appointments?: Record<string, unknown> }
    const before = await get<Service>('/services/svc_loans')
    expect(before.appointments?.enabled).toBe(true)
    const loans = await open('svc_loans')
    // 600 seconds shows as 10 minutes.
    expect(await loans.getByLabel(t.defaultServiceMinutes).inputValue()).toBe('10')
    await loans.getByLabel(t.waitTargetMinutes).fill('20')
    await saved(loans)
    const after = await get<Service>('/services/svc_loans')
    expect(after.waitTargetSeconds).toBe(1200)
    expect(after.defaultServiceSeconds).toBe(600)
    expect(after.appointments).toEqual(before.appointments!)

    // A decimal is whole seconds: 7.5 minutes is 450.
    const again = await open('svc_loans')
    await again.getByLabel(t.defaultServiceMinutes).fill('7.5')
    await saved(again)
    expect((await get<Service>('/services/svc_loans')).defaultServiceSeconds).toBe(450)

    const accounts = await open('svc_accounts')
    expect((await get<Service>('/services/svc_accounts')).appointments).toBeUndefined()
    // The settings show once appointments are on.
    expect(await accounts.getByLabel(t.slotMinutes).isVisible()).toBe(false)
    await accounts.getByLabel(t.appointmentsEnabled).check()
    await accounts.getByLabel(t.slotMinutes).fill('20')
    await saved(accounts)
    // The API answers with the defaults of what was left empty (contract §21).
    expect((await get<Service>('/services/svc_accounts')).appointments).toEqual({ enabled: true, slotMinutes: 20, bookAheadDays: 14, checkIn: { earlyMinutes: 15, lateMinutes: 10 }, retainDays: 30 })
  }, 90_000)

  test('in Arabic (?lang=ar, right to left) the hours editor renders and saves', async () => {
    const t = STRINGS.ar
    const hall = await open('loc_annex', 'ar')
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
    const tuesday = hall.getByRole('group', { name: t.days.tue })
    await tuesday.getByRole('button', { name: `إضافة ساعات، ${t.days.tue}` }).click()
    const from = tuesday.getByLabel(`${t.days.tue}، من`)
    const until = tuesday.getByLabel(`${t.days.tue}، حتى`)
    expect(await from.getAttribute('dir')).toBe('ltr')
    await from.fill('16:00')
    // Until midnight: 00:00 in the box, "24:00" in the file.
    await until.fill('00:00')
    // Nothing of the week is cut: each day's times lie inside its row, and the row inside the form.
    const form = await hall.locator('form').boundingBox()
    for (const box of await hall.locator('.hours-day input[type=time]').all()) {
      const b = (await box.boundingBox())!
      expect(b.x).toBeGreaterThanOrEqual(form!.x)
      expect(b.x + b.width).toBeLessThanOrEqual(form!.x + form!.width + 0.5)
      expect(await box.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true)
    }
    await shoot(hall, 'ar')
    await saved(hall, 'ar')
    const location = await get<{ openingHours?: Record<string, string[][]> }>('/locations/loc_annex')
    expect(location.openingHours?.mon).toEqual([['08:00', '12:00'], ['13:00', '17:00']])
    expect(location.openingHours?.tue).toEqual([['16:00', '24:00']])
    const again = await open('loc_annex', 'ar')
    expect(await again.getByLabel(`${t.days.tue}، حتى`).inputValue()).toBe('00:00')
  }, 90_000)

  test('the unit: a language checked adds its name box and is offered as the default; break reasons are a list', async () => {
    const t = STRINGS.en
    await page.goto(`${lobby.url}/admin`)
    const unit = page.locator('form.entity-unit')
    await unit.waitFor()
    const languages = unit.getByRole('group', { name: t.languages })
    expect(await languages.getByLabel('English (en)').isChecked()).toBe(true)
    expect(await languages.getByLabel('Arabic (ar)').isChecked()).toBe(true)
    expect(await unit.getByLabel('Name (French)').isVisible()).toBe(false)
    await languages.getByLabel('French (fr)').check()
    await unit.getByLabel('Name (French)').fill('Agence principale')
    await unit.getByLabel(t.addLanguage).fill('ur')
    await unit.getByRole('button', { name: t.addLanguageButton }).click()
    expect(await languages.getByLabel('Urdu (ur)').isChecked()).toBe(true)
    await unit.getByLabel('Name (Urdu)').fill('مرکزی شاخ')
    await unit.getByLabel(t.defaultLanguage).selectOption('fr')

    const reasons = unit.getByRole('group', { name: t.breakReasons })
    const count = await reasons.getByRole('textbox').count()
    expect(count).toBeGreaterThan(0)
    await reasons.getByRole('button', { name: t.addBreakReason }).click()
    await reasons.getByLabel(`Break reason ${count + 1}`, { exact: true }).fill('Training')
    await reasons.getByRole('button', { name: 'Remove Break', exact: true }).click()
    await saved(unit)

    const stored = await get<{ languages: string[]; defaultLanguage: string; names: Record<string, string>; breakReasons: string[] }>('')
    // The default language first, as the server keeps them.
    expect(stored.languages).toEqual(['fr', 'en', 'ar', 'ur'])
    expect(stored.defaultLanguage).toBe('fr')
    expect(stored.names).toEqual({ en: 'Main branch', ar: 'الفرع الرئيسي', fr: 'Agence principale', ur: 'مرکزی شاخ' })
    expect(stored.breakReasons).toEqual(['Lunch', 'Admin work', 'Other', 'Training'])
  }, 90_000)

  test('no page had a script error', () => {
    expect(pageErrors).toEqual([])
  })
})
