import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import type { BrowserContext, Page } from 'playwright-core'
import { ensureBinary } from '../support/binary'
import { CHROMIUM, guardNetwork, HAVE_CHROMIUM, launchBrowser, Lobby, localDate } from '../screens/support'
import { seedTicketHistory } from '../../bench/seed'
import { rebuildReportRollups } from '../../src/tickets'
import { DAILY_CSV_HEADER } from '../../src/reports/csv'
import { GOOD_PASSWORD } from '../people/helpers'

/**
 * The /reports page (contract §12) in headless Chromium against dist/lobby: a reports device
 * pairs by typing its code, the page shows a week of history (seeded while the server is
 * stopped, roll-ups rebuilt as the migration does) and today's live tickets, its charts, its
 * tables, a CSV download with the header of `lobby report`, the keyboard, Arabic, print.
 * Screenshots only with SCREENSHOTS_DIR (test/support/shots.ts; docs/images for the docs).
 */
import { SHOTS, shoot } from '../support/shots'
const TEST_MS = 60_000

if (!HAVE_CHROMIUM) console.warn(`SKIPPED reports browser tests: no Chromium at ${CHROMIUM}`)

function devices(lobby: Lobby, ...args: string[]): any {
  return cli(lobby, 'devices', ...args)
}

function cli(lobby: Lobby, command: string, ...args: string[]): any {
  const run = Bun.spawnSync([ensureBinary(), command, ...args, '--db', lobby.db], { stdout: 'pipe', stderr: 'pipe' })
  if (run.exitCode !== 0) throw new Error(`${command} ${args.join(' ')}: ${run.stderr.toString()}`)
  return JSON.parse(run.stdout.toString())
}

/** The hall's business day at `ms` (its zone, Europe/Berlin): from 23:00 UTC in winter it is already tomorrow there. */
const isoDay = (ms: number) => localDate(ms, 'Europe/Berlin')

describe.skipIf(!HAVE_CHROMIUM)('the /reports page in Chromium against dist/lobby', () => {
  const lobby = new Lobby()
  let browser: BrowserContext
  let page: Page
  let seen: { all: string[]; outside: string[] }
  const pageErrors: string[] = []
  // Eight business days back: the seeded week whatever the hour (its days are counted from now in each location's zone).
  const from = isoDay(Date.now() - 8 * 86_400_000)
  const to = isoDay(Date.now())
  /** Yesterday, the clerk's day at a desk (a business day of the hall). */
  const staffDay = isoDay(Date.now() - 86_400_000)

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    await lobby.start()
    // A week of history, written while no server runs, and the roll-ups built from it.
    await lobby.kill()
    seedTicketHistory(lobby.db, { tickets: 2_100, days: 7, fullHistory: true })
    const db = new Database(lobby.db)
    // A clerk (contract §16): counter 1's completions and no-shows were hers (her desk's
    // attribution), and yesterday she was signed in an hour and took a half-hour lunch.
    db.run("INSERT INTO users (id, username, display_name, role, queue_units, state, created_at) VALUES ('usr_lina', 'lina.k', 'Lina K.', 'clerk', '[\"qu_main\"]', 'active', 0)")
    db.run("UPDATE ticket_events SET actor = 'clerk:lina.k' WHERE type IN ('completed', 'no_show') AND counter_id = 'cnt_1'")
    const noon = Date.now() - 86_400_000
    db.query(`INSERT INTO staff_intervals (user_id, username, queue_unit_id, location_id, counter_id, kind, reason, business_day, started_at, ended_at)
      VALUES ('usr_lina', 'lina.k', 'qu_main', 'loc_hall', 'cnt_1', ?1, ?2, ?3, ?4, ?5)`).run('signed_in', null, staffDay, noon - 3_600_000, noon)
    db.query(`INSERT INTO staff_intervals (user_id, username, queue_unit_id, location_id, counter_id, kind, reason, business_day, started_at, ended_at)
      VALUES ('usr_lina', 'lina.k', 'qu_main', 'loc_hall', 'cnt_1', ?1, ?2, ?3, ?4, ?5)`).run('break', 'Lunch', staffDay, noon, noon + 1_800_000)
    db.transaction(() => rebuildReportRollups(db)).immediate()
    db.close()
    await lobby.serve()
    // Today, live: three tickets, two served, one waiting.
    const first = await lobby.issueTicket('loc_hall', 'svc_accounts')
    await lobby.issueTicket('loc_hall', 'svc_loans')
    await lobby.issueTicket('loc_hall', 'svc_accounts')
    void first
    for (const counter of ['cnt_1', 'cnt_2']) {
      const called = await lobby.callNext(counter)
      if (called !== null) await lobby.finish(called.id)
    }
    browser = await launchBrowser()
    seen = await guardNetwork(browser)
    page = await browser.newPage()
    page.on('pageerror', (error) => pageErrors.push(String(error)))
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await lobby.kill()
  })

  test('a browser neither signed in nor paired is told so in words, with the ways in: sign in, or pair', async () => {
    await page.goto(`${lobby.url}/reports`)
    await page.getByRole('heading', { name: 'Sign in or pair this device to see reports' }).waitFor()
    expect(await page.getByRole('link', { name: 'Pair this device' }).getAttribute('href')).toBe('/pair')
    expect(await page.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login')
  }, TEST_MS)

  test('a reports device pairs, and the page shows the range: totals, four charts, the daily, counter and staff tables', async () => {
    const { code } = devices(lobby, 'pair', '--role', 'reports', '--queue-unit', 'qu_main', '--name', 'manager-pc')
    await page.goto(`${lobby.url}/pair`)
    await page.getByLabel('Pairing code').fill(code)
    await page.getByRole('button', { name: 'Pair', exact: true }).click()
    await page.waitForURL(/\/reports/)
    await page.goto(`${lobby.url}/reports?lang=en&from=${from}&to=${to}`)
    await page.getByRole('status').filter({ hasText: /^Showing / }).waitFor()

    // What the API says, and what the page shows.
    const cookie = (await browser.cookies()).find((c) => c.name === 'lobby_device')!
    const api = await (await fetch(`${lobby.url}/api/operator/v1/reports/daily?from=${from}&to=${to}`, { headers: { cookie: `lobby_device=${cookie.value}` } })).json() as { data: { issued: number; served: number }[] }
    const issued = api.data.reduce((n, r) => n + r.issued, 0)
    expect(issued).toBeGreaterThan(2_000)
    const tile = (label: string) => page.locator('.tile', { has: page.locator('.tile-label', { hasText: new RegExp(`^${label}$`) }) }).locator('.tile-value')
    expect((await tile('Issued').textContent())!.replace(/\D/g, '')).toBe(String(issued))
    expect((await tile('Served').textContent())!.replace(/\D/g, '')).toBe(String(api.data.reduce((n, r) => n + r.served, 0)))
    expect(await page.locator('#table-daily tbody tr').count()).toBe(api.data.length)
    expect(await page.locator('#table-counters tbody tr').count()).toBeGreaterThan(0)
    // Four charts, each a uPlot canvas with a text label for screen readers.
    for (const [id, title] of [['chart-hours', 'Tickets issued and served by hour'], ['chart-waits', 'Wait distribution per service'], ['chart-target', 'Share within target, per day'], ['chart-counters', 'Per counter: served and average service time']]) {
      const figure = page.getByRole('figure', { name: title })
      await figure.waitFor()
      expect(await page.locator(`#${id} canvas`).count()).toBe(1)
      expect(await page.locator(`#${id}`).getAttribute('aria-label')).toBeTruthy()
    }
    // Table headers are real headers (columns and rows).
    expect(await page.getByRole('columnheader', { name: 'Wait p90' }).count()).toBe(1)
    // The staff table (contract §16): the clerk's days, her served count and her lunch, as the API says.
    const staff = await (await fetch(`${lobby.url}/api/operator/v1/reports/staff?from=${from}&to=${to}`, { headers: { cookie: `lobby_device=${cookie.value}` } })).json() as { data: { date: string; served: number; signedInSeconds: number; breakSeconds: Record<string, number> }[] }
    expect(staff.data.length).toBeGreaterThan(0)
    const staffTable = page.getByRole('table', { name: /^Daily figures per clerk/ })
    expect(await staffTable.locator('tbody tr').count()).toBe(staff.data.length)
    // The branch's own words (names, reasons) are isolated (FSI … PDI) so they read right in Arabic.
    const plain = (texts: string[]) => texts.map((t) => t.replace(/[\u2066-\u2069]/g, ''))
    expect(plain(await staffTable.getByRole('columnheader').allTextContents())).toContain('Break: Lunch')
    const day = staff.data.find((r) => r.date === staffDay)!
    expect(day).toMatchObject({ signedInSeconds: 3600, breakSeconds: { Lunch: 1800 } })
    const row = staffTable.locator('tbody tr', { has: page.getByRole('rowheader', { name: staffDay, exact: true }) })
    expect(plain(await row.getByRole('rowheader').allTextContents())).toEqual([staffDay, 'Lina K.'])
    expect(await row.locator('td').allTextContents()).toEqual(expect.arrayContaining([String(day.served), '1:00:00', '30:00']))
    // Names in the page's language (contract §18): the demo branch's English names.
    const daily = page.locator('#table-daily tbody tr')
    expect(new Set(plain(await daily.locator('th:nth-child(2)').allTextContents()))).toEqual(new Set(['Main hall', 'Annex']))
    expect(new Set(plain(await daily.locator('th:nth-child(3)').allTextContents()))).toEqual(new Set(['Accounts', 'Loans']))
    expect(plain(await page.locator('#table-counters tbody tr th:nth-child(2)').allTextContents())).toContain('Counter 1')
    expect(await page.locator('#reports-location option').allTextContents()).toContain('Main hall')
    await shoot(page, 'reports-en-1920x1080.png')
    await shoot(page, 'reports-en-full.png', { fullPage: true })
    await shoot(page.locator('#table-staff'), 'reports-staff-en.png')
    expect(seen.outside).toEqual([])
    expect(pageErrors).toEqual([])
  }, TEST_MS)

  test('a signed-in manager, on a browser never paired, opens /reports and sees the figures; Sign out on /manage and on /admin lands on /login', async () => {
    // Contract §24: an account made as `lobby users add` makes it, its password set with its link.
    const link = cli(lobby, 'users', 'add', '--username', 'mona', '--role', 'manager', '--queue-units', 'qu_main', '--name', 'Mona M.')
    const code = new URL(link.setupPath, lobby.url).searchParams.get('code')
    expect((await fetch(`${lobby.url}/api/auth/v1/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, password: GOOD_PASSWORD }) })).status).toBe(200)
    const context = await launchBrowser()
    try {
      const network = await guardNetwork(context)
      const person = await context.newPage()
      const errors: string[] = []
      person.on('pageerror', (error) => errors.push(String(error)))
      const signIn = async () => {
        await person.goto(`${lobby.url}/login`)
        await person.getByLabel('Username').fill('mona')
        await person.getByLabel('Password').fill(GOOD_PASSWORD)
        await person.getByRole('button', { name: 'Sign in' }).click()
        await person.waitForURL((url) => url.pathname !== '/login')
      }
      await signIn()
      await person.goto(`${lobby.url}/reports?lang=en&from=${from}&to=${to}`)
      await person.getByRole('status').filter({ hasText: /^Showing / }).waitFor()
      expect(await person.getByRole('heading', { name: /not paired|Sign in or pair/ }).count()).toBe(0)
      // The figures are the unit's, as the API gives them to her session.
      const session = (await context.cookies()).find((c) => c.name === 'lobby_session')!
      expect((await context.cookies()).some((c) => c.name === 'lobby_device')).toBe(false)
      const api = await (await fetch(`${lobby.url}/api/operator/v1/reports/daily?from=${from}&to=${to}`, { headers: { cookie: `lobby_session=${session.value}` } })).json() as { data: { issued: number }[] }
      const issued = api.data.reduce((n, r) => n + r.issued, 0)
      expect(issued).toBeGreaterThan(2_000)
      const tile = person.locator('.tile', { has: person.locator('.tile-label', { hasText: /^Issued$/ }) }).locator('.tile-value')
      expect((await tile.textContent())!.replace(/\D/g, '')).toBe(String(issued))
      expect(await person.locator('#table-daily tbody tr').count()).toBe(api.data.length)
      expect(await person.locator('#chart-hours canvas').count()).toBe(1)
      // One unit: no unit menu to choose from.
      expect(await person.locator('#reports-unit').isVisible()).toBe(false)

      // Sign out on /manage, from the keyboard: the session ends and the browser is at /login.
      await person.goto(`${lobby.url}/manage`)
      const manageSignOut = person.getByRole('button', { name: 'Sign out' })
      await manageSignOut.focus()
      await person.keyboard.press('Enter')
      await person.waitForURL(`${lobby.url}/login`)
      await person.goto(`${lobby.url}/reports`)
      await person.getByRole('heading', { name: 'Sign in or pair this device to see reports' }).waitFor()
      // And on /admin.
      await signIn()
      await person.goto(`${lobby.url}/admin`)
      await person.getByRole('banner').getByRole('button', { name: 'Sign out' }).click()
      await person.waitForURL(`${lobby.url}/login`)
      await person.goto(`${lobby.url}/admin`)
      await person.waitForURL(`${lobby.url}/login`)
      expect(network.outside).toEqual([])
      expect(errors).toEqual([])
    } finally {
      await context.close()
    }
  }, TEST_MS)

  test('the keyboard alone changes the range; a bad range is said in words', async () => {
    await page.goto(`${lobby.url}/reports?lang=en&from=${from}&to=${to}`)
    await page.getByRole('status').filter({ hasText: /^Showing / }).waitFor()
    const fromField = page.getByLabel('From', { exact: true })
    await fromField.focus()
    // A start after the end: the server's 422 is shown, not a blank page.
    await fromField.fill(isoDay(Date.now() + 2 * 86_400_000))
    await page.keyboard.press('Enter')
    await page.getByRole('status').filter({ hasText: /^Check the dates/ }).waitFor()
    await fromField.fill(to)
    await page.getByLabel('Location', { exact: true }).focus()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string | null } | null } }).document.activeElement?.textContent)).toBe('Show')
    await page.keyboard.press('Enter')
    await page.waitForURL(new RegExp(`from=${to}`))
    await page.getByRole('status').filter({ hasText: /^Showing / }).waitFor()
    // Only today's rows now.
    expect(new Set(await page.locator('#table-daily tbody tr th:first-child').allTextContents())).toEqual(new Set([to]))
  }, TEST_MS)

  test('the daily CSV download is the rows of `lobby report`, header and all', async () => {
    await page.goto(`${lobby.url}/reports?lang=en&from=${from}&to=${to}`)
    await page.getByRole('status').filter({ hasText: /^Showing / }).waitFor()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download daily CSV' }).click()])
    const text = readFileSync((await download.path())!, 'utf8')
    const lines = text.trimEnd().split('\r\n')
    expect(lines[0]).toBe(DAILY_CSV_HEADER.join(','))
    expect(lines.length - 1).toBe(await page.locator('#table-daily tbody tr').count())
  }, TEST_MS)

  test('Arabic, right to left; and the print layout hides the controls', async () => {
    await page.goto(`${lobby.url}/reports?lang=ar&from=${from}&to=${to}`)
    await page.getByRole('heading', { name: 'التقارير' }).waitFor()
    await page.getByRole('status').filter({ hasText: /^من / }).waitFor()
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
    expect(await page.getByRole('button', { name: 'تنزيل CSV اليومي' }).count()).toBe(1)
    // The demo branch's Arabic names (contract §18), each in the page's language: no cell says it is in another.
    const plain = (texts: string[]) => texts.map((t) => t.replace(/[\u2066-\u2069]/g, ''))
    const daily = page.locator('#table-daily tbody tr')
    expect(new Set(plain(await daily.locator('th:nth-child(2)').allTextContents()))).toEqual(new Set(['القاعة الرئيسية', 'الملحق']))
    expect(new Set(plain(await daily.locator('th:nth-child(3)').allTextContents()))).toEqual(new Set(['الحسابات', 'القروض']))
    expect(plain(await page.locator('#table-counters tbody tr th:nth-child(2)').allTextContents())).toContain('الشباك ١')
    expect(await page.locator('#reports-location option').allTextContents()).toContain('القاعة الرئيسية')
    expect(await page.locator('#reports-results [lang]').count()).toBe(0)
    // A standard break reason in the page's language (issue 48: it was headed "استراحة: Lunch").
    expect(plain(await page.locator('#table-staff').getByRole('columnheader').allTextContents())).toContain('استراحة: غداء')
    await shoot(page, 'reports-ar-1920x1080.png')
    await shoot(page.locator('#table-staff'), 'reports-staff-ar.png')
    await page.emulateMedia({ media: 'print' })
    expect(await page.getByRole('button', { name: 'طباعة' }).isVisible()).toBe(false)
    await shoot(page, 'reports-ar-print.png', { fullPage: true })
    await page.emulateMedia({ media: 'screen' })
    expect(seen.outside).toEqual([])
    expect(pageErrors).toEqual([])
  }, TEST_MS)
})
