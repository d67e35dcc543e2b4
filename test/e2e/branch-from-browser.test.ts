import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { CHROMIUM, guardNetwork, HAVE_CHROMIUM, launchSharedBrowser, Lobby, localDate } from '../screens/support'
import { addHours, PASSWORD, signIn } from '../admin/browser-support'
import { ensureBinary } from '../support/binary'
import { scratchShots, shoot } from '../support/shots'
import { fill, STRINGS } from '../../src/client/admin/strings'

/*
 * Issue 44's "Done when", as one person does it in Chromium against dist/lobby (contract §24;
 * README "Run a branch from the browser"). From a database path that does not exist: `serve`
 * prints a first-admin setup link on stdout (plain text among the JSON log lines); the admin
 * sets a password with it, signs in, and in /admin alone sets up the branch (workspace and
 * unit in English and Arabic, a location in Europe/London with weekly hours and a closed date,
 * two services named in both languages — one taking 20-minute appointments — counters, break
 * reasons), pairs a kiosk and a desk with the codes the Devices section shows, the kiosk issues
 * a ticket, the admin changes the appointment service's wait target (its appointments stay as
 * they were, by the admin API and by `lobby provision --export`), adds a manager whose setup
 * link the Staff section shows, and the manager reads the ticket on /reports.
 *
 * Build first (`bun run build`) or let ensureBinary do it; run this file alone:
 * `bun test --timeout 240000 test/e2e/branch-from-browser.test.ts`. With SCREENSHOTS_DIR set,
 * the empty start page `/` in English and Arabic goes to first-start-en.png / -ar.png there.
 */

if (!HAVE_CHROMIUM) console.warn(`SKIPPED branch-from-browser e2e test: no Chromium at ${CHROMIUM}`)

/** A browser step on this loaded machine: generous, but bounded, so a lost answer fails its step. */
const ACTION_MS = 20_000
const STEP_MS = 90_000
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const
const t = STRINGS.en

/** The weekday (`mon`…) of the instant `ms` in London. */
function londonDay(ms: number): (typeof DAYS)[number] {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/London', weekday: 'short' }).format(ms).toLowerCase()
  return DAYS.find((d) => name.startsWith(d))!
}

describe.skipIf(!HAVE_CHROMIUM)('a branch run from the browser alone, from an empty database (issue 44)', () => {
  const lobby = new Lobby()
  let shared: Awaited<ReturnType<typeof launchSharedBrowser>> | null = null
  const pageErrors: string[] = []
  const outside: string[] = []
  const pages: Record<string, Page> = {}
  /** Each context's record of requests that left 127.0.0.1, gathered at the end. */
  const afterChecks: (() => void)[] = []

  afterAll(async () => {
    await shared?.close()
    await lobby.kill()
  }, 30_000)

  /** A person's or device's own context (cookies) in the one browser, kept off the network. */
  async function person(name: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
    const context: BrowserContext = await shared!.newContext()
    context.setDefaultTimeout(ACTION_MS)
    context.setDefaultNavigationTimeout(ACTION_MS)
    const seen = await guardNetwork(context)
    const page = await context.newPage()
    await page.setViewportSize(viewport)
    page.on('pageerror', (error) => pageErrors.push(`${name}: ${String(error)}`))
    page.on('dialog', (dialog) => void dialog.accept())
    pages[name] = page
    // Checked at the end: nothing left 127.0.0.1.
    const report = () => outside.push(...seen.outside.splice(0))
    page.on('close', report)
    afterChecks.push(report)
    return page
  }

  /** One named step, bounded: a failure says which step, with a screenshot of each page in the temp shots. */
  async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
    const started = Date.now()
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      const bounded = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`step "${name}" took more than ${STEP_MS / 1000} s`)), STEP_MS)
      })
      const value = await Promise.race([run(), bounded])
      console.log(`  ✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
      return value
    } catch (error) {
      const dir = scratchShots('branch-from-browser')
      for (const [who, page] of Object.entries(pages)) await page.screenshot({ path: join(dir, `failed-${who}.png`), timeout: 5_000 }).catch(() => {})
      const tail = lobby.server?.lines.slice(-15).join('\n') ?? ''
      throw new Error(`step "${name}" failed: ${error instanceof Error ? error.message : String(error)}\n(screenshots in ${dir}; server's last lines:\n${tail})`)
    } finally {
      clearTimeout(timer)
    }
  }

  test('serve on nothing → setup link → Set up your branch → devices → a ticket → a wait target → a manager reads /reports', async () => {
    const began = Date.now()
    ensureBinary()
    mkdirSync(lobby.dir, { recursive: true })
    expect(existsSync(lobby.db)).toBe(false)

    const setupUrl = await step('serve on a database that does not exist prints a setup link on stdout', async () => {
      await lobby.serve('0')
      const server = lobby.server!
      const link = new RegExp(`^\\s+(http://127\\.0\\.0\\.1:${lobby.port}/login/setup\\?code=[a-z2-7]+)$`)
      // The block is written after the "listening" line: wait for it (bounded by the step).
      while (!server.lines.some((line) => link.test(line))) {
        if (server.proc.exitCode !== null) throw new Error(`serve ended: ${server.lines.join('\n')}`)
        await Bun.sleep(50)
      }
      // A plain text block for the person at the terminal; every other line is a JSON log record.
      const text = server.lines.filter((line) => !line.startsWith('{'))
      expect(text.some((line) => line.includes('Lobby has no administrator yet') && line.includes('username "admin"'))).toBe(true)
      for (const line of server.lines.filter((l) => l.startsWith('{'))) expect(() => JSON.parse(line)).not.toThrow()
      expect(server.lines.some((line) => line.startsWith('{') && JSON.parse(line).msg === 'first administrator: setup link printed on stdout')).toBe(true)
      // The log never carries the link.
      expect(server.lines.filter((l) => l.startsWith('{')).join('\n')).not.toContain('/login/setup?code=')
      expect(existsSync(lobby.db)).toBe(true)
      return link.exec(server.lines.find((line) => link.test(line))!)![1]!
    })

    shared = await launchSharedBrowser()
    const admin = await person('admin')

    await step('the start page says there is no administrator yet, in English and Arabic', async () => {
      for (const lang of ['en', 'ar'] as const) {
        await admin.goto(`${lobby.url}/${lang === 'ar' ? '?lang=ar' : ''}`)
        const says = admin.locator('.first-start')
        await says.waitFor()
        expect(await says.textContent()).toContain(lang === 'en' ? 'This Lobby has no administrator yet' : 'لا يوجد مسؤول لهذا النظام بعد')
        if (process.env.SCREENSHOTS_DIR) {
          const { SHOTS } = await import('../support/shots')
          mkdirSync(SHOTS, { recursive: true })
          await shoot(admin, `first-start-${lang}.png`)
        }
      }
    })

    await step('the admin opens the link, sets a password and signs in at /login', async () => {
      await admin.goto(setupUrl)
      await admin.getByText('admin', { exact: true }).waitFor()
      await admin.getByLabel('New password (at least 10 characters)').fill(PASSWORD)
      await admin.getByLabel('New password again').fill(PASSWORD)
      await admin.getByRole('button', { name: 'Save' }).click()
      await admin.getByText('Your password is set. You can sign in now.').waitFor()
      await admin.getByRole('link', { name: 'Go to sign-in' }).click()
      await admin.waitForURL(`${lobby.url}/login`)
      await signIn(admin, lobby, 'admin')
      expect(new URL(admin.url()).pathname).toBe('/admin')
    })

    await step('Set up your branch: the organisation and a branch speaking English and Arabic', async () => {
      await admin.getByRole('heading', { name: t.setUpBranch }).waitFor()
      await admin.getByLabel(t.workspaceName).fill('Gulf Savings Bank')
      await admin.getByLabel(t.unitName).fill('Main branch')
      expect(await admin.getByLabel('English (en)').isChecked()).toBe(true)
      await admin.getByLabel('Arabic (ar)').check()
      await admin.getByRole('button', { name: t.createBranch }).click()
      await admin.getByRole('heading', { name: t.unitSettings }).waitFor()
      await admin.locator('section[aria-labelledby="h-location"]').waitFor()
    })

    /** "Saved.", or the refusal the form says in words (fails the step at once, with them). */
    const saved = async () => {
      const done = admin.locator('.saved-message', { hasText: t.saved })
      const refused = admin.locator('.field-error:not([hidden]), .form-message:not([hidden])').first()
      await done.or(refused).waitFor()
      if (!(await done.isVisible())) throw new Error(`the form refused: ${await refused.textContent()}`)
    }

    await step('the unit: its Arabic name and break reasons', async () => {
      const unit = admin.locator('form.entity-unit')
      await unit.getByLabel('Name (Arabic)').fill('الفرع الرئيسي')
      const reasons = unit.getByRole('group', { name: t.breakReasons })
      // The standard reasons are offered as a start; two of the branch's own are added.
      const before = await reasons.getByRole('textbox').count()
      for (const [i, reason] of ['Prayer', 'Training'].entries()) {
        await reasons.getByRole('button', { name: t.addBreakReason }).click()
        await reasons.getByLabel(fill(t.breakReason, { n: String(before + i + 1) }), { exact: true }).fill(reason)
      }
      await unit.getByRole('button', { name: t.save, exact: true }).click()
      await saved()
    })

    // Open whenever the test runs: Mon–Fri 09:00–17:00, but today and tomorrow in London all day
    // (the kiosk must offer its services now, and a run may cross midnight).
    const now = Date.now()
    const allDay = new Set([londonDay(now), londonDay(now + 86_400_000)])
    const closedDate = `${Number(localDate(now, 'Europe/London').slice(0, 4)) + 1}-12-25`
    const week: Partial<Record<(typeof DAYS)[number], [string, string]>> = {}
    for (const day of ['mon', 'tue', 'wed', 'thu', 'fri'] as const) week[day] = ['09:00', '17:00']
    for (const day of allDay) week[day] = ['00:00', '00:00']

    await step('a location: Europe/London by typing "London", weekly hours, a closed date', async () => {
      const add = admin.locator('section[aria-labelledby="h-location"] details.entity-add')
      await add.locator('summary').click()
      await add.getByLabel('Name (English)').fill('Main hall')
      await add.getByLabel('Name (Arabic)').fill('القاعة الرئيسية')
      const zone = add.getByLabel(t.timezone)
      await zone.fill('London')
      await zone.press('Tab')
      expect(await zone.inputValue()).toBe('Europe/London')
      await add.getByLabel(t.alwaysOpen).uncheck()
      for (const [day, interval] of Object.entries(week)) await addHours(add, t, day as keyof typeof t.days, [interval])
      await add.getByRole('button', { name: t.addClosedDate }).click()
      await add.getByLabel('Closed date 1', { exact: true }).fill(closedDate)
      await add.getByRole('button', { name: t.add, exact: true }).click()
      await admin.locator('section[aria-labelledby="h-location"] summary', { hasText: 'Main hall' }).waitFor()
    })

    await step('two services named in English and Arabic, one taking 20-minute appointments', async () => {
      const services = [
        { en: 'Accounts', ar: 'الحسابات', prefix: 'A', appointments: false },
        { en: 'Loans', ar: 'القروض', prefix: 'L', appointments: true },
      ]
      for (const service of services) {
        const add = admin.locator('section[aria-labelledby="h-service"] details.entity-add')
        await add.locator('summary').click()
        await add.getByLabel('Name (English)').fill(service.en)
        await add.getByLabel('Name (Arabic)').fill(service.ar)
        await add.getByLabel(t.prefix).fill(service.prefix)
        expect(await add.getByRole('group', { name: t.serviceLocations }).getByLabel('Main hall').isChecked()).toBe(true)
        await add.getByLabel(t.defaultServiceMinutes).fill('5')
        await add.getByLabel(t.waitTargetMinutes).fill('15')
        if (service.appointments) {
          await add.getByLabel(t.appointmentsEnabled).check()
          await add.getByLabel(t.slotMinutes).fill('20')
        }
        await add.getByRole('button', { name: t.add, exact: true }).click()
        await admin.locator('section[aria-labelledby="h-service"] summary', { hasText: service.en }).waitFor()
      }
    })

    await step('counters serving them', async () => {
      for (const counter of [{ en: 'Counter 1', ar: 'الشباك ١', serves: ['Accounts (A)', 'Loans (L)'] }, { en: 'Counter 2', ar: 'الشباك ٢', serves: ['Accounts (A)'] }]) {
        const add = admin.locator('section[aria-labelledby="h-counter"] details.entity-add')
        await add.locator('summary').click()
        await add.getByLabel('Name (English)').fill(counter.en)
        await add.getByLabel('Name (Arabic)').fill(counter.ar)
        for (const service of counter.serves) await add.getByLabel(service).check()
        await add.getByRole('button', { name: t.add, exact: true }).click()
        await admin.locator('section[aria-labelledby="h-counter"] summary', { hasText: counter.en }).waitFor()
      }
    })

    type Named = { id: string; name: string; names: Record<string, string> }
    type Service = Named & { prefix: string; waitTargetSeconds?: number; defaultServiceSeconds?: number; appointments?: Record<string, unknown> }
    const made = await step('what the console made is what the admin API holds', async () => {
      const got = await admin.evaluate(async () => {
        const units = ((await (await fetch('/api/admin/v1/queue-units')).json()) as { data: { id: string }[] }).data
        const unit = units[0]!.id
        const read = async (path: string): Promise<any> => (await (await fetch(`/api/admin/v1/queue-units/${unit}${path}`)).json())
        return { units, unit: await read(''), locations: (await read('/locations')).data, services: (await read('/services')).data, counters: (await read('/counters')).data }
      }) as { units: Named[]; unit: Named & { languages: string[]; breakReasons?: string[] }; locations: (Named & { timezone: string; openingHours?: Record<string, string[][]>; closedDates?: string[] })[]; services: Service[]; counters: (Named & { services: string[] })[] }
      expect(got.units.length).toBe(1)
      expect(got.unit.names).toEqual({ en: 'Main branch', ar: 'الفرع الرئيسي' })
      expect([...got.unit.languages].sort()).toEqual(['ar', 'en'])
      // The standard reasons the form offers first, then the two added.
      expect(got.unit.breakReasons?.slice(-2)).toEqual(['Prayer', 'Training'])
      const [hall] = got.locations
      expect(got.locations.length).toBe(1)
      expect(hall!.timezone).toBe('Europe/London')
      expect(hall!.names).toEqual({ en: 'Main hall', ar: 'القاعة الرئيسية' })
      expect(hall!.closedDates).toEqual([closedDate])
      for (const day of ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const) {
        const interval = week[day]
        expect(hall!.openingHours?.[day]).toEqual(interval === undefined ? [] : [[interval[0], interval[1] === '00:00' ? '24:00' : interval[1]]])
      }
      const accounts = got.services.find((s) => s.prefix === 'A')!
      const loans = got.services.find((s) => s.prefix === 'L')!
      expect(accounts.names).toEqual({ en: 'Accounts', ar: 'الحسابات' })
      expect(loans.names).toEqual({ en: 'Loans', ar: 'القروض' })
      expect(accounts.appointments).toBeUndefined()
      expect(loans.appointments).toMatchObject({ enabled: true, slotMinutes: 20 })
      expect(loans.waitTargetSeconds).toBe(900)
      const counter1 = got.counters.find((c) => c.name === 'Counter 1')!
      expect([...counter1.services].sort()).toEqual([accounts.id, loans.id].sort())
      return { unitId: got.unit.id, hall: hall!, accounts, loans, counter1 }
    })

    /** Devices: a pairing code for `role`, read off the page (six digits). */
    const pairingCode = async (role: 'kiosk' | 'desk', name: string): Promise<string> => {
      if (!admin.url().endsWith('#devices')) await admin.getByRole('link', { name: t.sectionDevices }).click()
      const pair = admin.locator('section[aria-labelledby="h-pair"]')
      await pair.getByLabel(t.deviceRole).selectOption(role)
      if (role === 'kiosk') await pair.getByLabel(t.location, { exact: true }).selectOption(made.hall.id)
      else await pair.getByLabel(t.counter, { exact: true }).selectOption(made.counter1.id)
      await pair.getByLabel(t.deviceName).fill(name)
      // The code already shown, if any: the new one replaces it.
      const shown = admin.locator('.pairing-sheet .pairing-code')
      const before = (await shown.count()) === 0 ? null : await shown.textContent()
      await pair.getByRole('button', { name: t.makeCode }).click()
      const code = admin.locator('.pairing-sheet .pairing-code [aria-hidden="true"]')
      await admin.waitForFunction((old) => {
        const now = (globalThis as any).document.querySelector('.pairing-sheet .pairing-code')?.textContent ?? null
        return now !== null && now !== old
      }, before, { timeout: ACTION_MS })
      const digits = (await code.textContent())!.replace(/\s/g, '')
      expect(digits).toMatch(/^\d{6}$/)
      return digits
    }

    /** A device's own browser context: /pair, the code typed, Pair. */
    const pairAt = async (device: Page, code: string, lands: RegExp) => {
      await device.goto(`${lobby.url}/pair`)
      await device.getByLabel('Pairing code').fill(code)
      await device.getByRole('button', { name: 'Pair', exact: true }).click()
      await device.waitForURL(lands)
    }

    const kiosk = await person('kiosk', { width: 1080, height: 1920 })
    const desk = await person('desk', { width: 1280, height: 800 })
    // Kiosks print and vibrate: headless Chromium has no printer (as test/kiosk/browser.test.ts).
    await kiosk.context().addInitScript('window.print = function () {}; navigator.vibrate = function () { return true };')

    await step('Devices: a kiosk paired at /pair with the code the page shows', async () => {
      const code = await pairingCode('kiosk', 'hall-kiosk')
      await pairAt(kiosk, code, /\/kiosk/)
    })

    await step('Devices: a desk paired at /pair with the code the page shows', async () => {
      const code = await pairingCode('desk', 'counter-1-pc')
      await pairAt(desk, code, /\/desk/)
      await desk.locator('.desk-title', { hasText: 'Counter 1' }).waitFor()
      // The list, drawn again, has both devices, active.
      await admin.reload()
      for (const name of ['hall-kiosk', 'counter-1-pc']) await admin.locator('.admin-table tr', { hasText: name }).filter({ hasText: 'active' }).waitFor()
    })

    const ticket = await step('the kiosk issues a ticket: a tap on Accounts, its number shows', async () => {
      const button = kiosk.locator(`.kiosk-service[data-service-id="${made.accounts.id}"]:not([disabled])`)
      await button.waitFor()
      expect(await button.textContent()).toContain('Accounts')
      await button.click()
      const number = kiosk.locator('.kiosk-ticket-number')
      await number.waitFor()
      const text = (await number.textContent())!
      expect(text).toMatch(/^A\d{3}$/)
      return text
    })

    await step('the desk sees the ticket waiting', async () => {
      await desk.getByText(ticket).first().waitFor()
    })

    await step('/admin: the appointment service\'s wait target, in minutes, saved', async () => {
      await admin.goto(`${lobby.url}/admin`)
      const loans = admin.locator(`details[data-id="${made.loans.id}"]`)
      await loans.locator('summary').click()
      expect(await loans.getByLabel(t.waitTargetMinutes).inputValue()).toBe('15')
      await loans.getByLabel(t.waitTargetMinutes).fill('25')
      await loans.getByRole('button', { name: t.save, exact: true }).click()
      await saved()
    })

    await step('the admin API (the admin\'s session cookie) and `provision --export`: waitTargetSeconds is new, appointments unchanged', async () => {
      const session = (await admin.context().cookies()).find((c) => c.name === 'lobby_session')
      expect(session).toBeDefined()
      const response = await fetch(`${lobby.url}/api/admin/v1/queue-units/${made.unitId}/services/${made.loans.id}`, { headers: { cookie: `lobby_session=${session!.value}` }, signal: AbortSignal.timeout(ACTION_MS) })
      expect(response.status).toBe(200)
      const loans = (await response.json()) as Service
      expect(loans.waitTargetSeconds).toBe(1500)
      expect(loans.defaultServiceSeconds).toBe(300)
      expect(loans.appointments).toEqual(made.loans.appointments!)
      expect(loans.names).toEqual({ en: 'Loans', ar: 'القروض' })

      // The CLI reads the database beside the running server.
      const exported = Bun.spawnSync([ensureBinary(), 'provision', '--export', '--db', lobby.db, '--format', 'json'], { stdout: 'pipe', stderr: 'pipe', timeout: ACTION_MS })
      if (exported.exitCode !== 0) throw new Error(`provision --export: ${exported.stderr.toString()}`)
      const file = JSON.parse(exported.stdout.toString()) as { workspaces: { queueUnits?: { id: string; services?: Service[] }[] }[] }
      const service = file.workspaces.flatMap((w) => w.queueUnits ?? []).find((u) => u.id === made.unitId)?.services?.find((s) => s.id === made.loans.id)
      expect(service?.waitTargetSeconds).toBe(1500)
      expect(service?.appointments).toEqual(made.loans.appointments!)
    })

    const setupLink = await step('Staff: a manager of the unit is added; the page shows the setup link', async () => {
      await admin.getByRole('link', { name: t.sectionStaff }).click()
      const add = admin.locator('section[aria-labelledby="h-add-user"]')
      await add.getByLabel(t.username).fill('mona')
      await add.getByLabel(t.displayName).fill('Mona Nasser')
      await add.getByLabel(t.userRole).selectOption('manager')
      await add.getByLabel(t.userUnits).fill(made.unitId)
      await add.getByRole('button', { name: t.add, exact: true }).click()
      const box = admin.locator('.secret-box')
      await box.waitFor()
      expect(await box.textContent()).toContain(t.shownOnce)
      const link = (await box.locator('.secret-value').textContent())!.trim()
      expect(link).toMatch(new RegExp(`^${lobby.url}/login/setup\\?code=`))
      await admin.locator('.admin-table tr', { hasText: 'mona' }).waitFor()
      return link
    })

    const manager = await person('manager')
    await step('the manager sets a password with the link and signs in', async () => {
      await manager.goto(setupLink)
      await manager.getByText('mona', { exact: true }).waitFor()
      await manager.getByLabel('New password (at least 10 characters)').fill(PASSWORD)
      await manager.getByLabel('New password again').fill(PASSWORD)
      await manager.getByRole('button', { name: 'Save' }).click()
      await manager.getByText('Your password is set. You can sign in now.').waitFor()
      await signIn(manager, lobby, 'mona')
    })

    await step('the manager opens /reports from the start page and sees the ticket: Issued 1', async () => {
      await manager.goto(`${lobby.url}/`)
      await manager.getByRole('link', { name: 'Reports', exact: true }).click()
      await manager.waitForURL(/\/reports/)
      await manager.getByRole('status').filter({ hasText: /^Showing / }).waitFor()
      const tile = (label: string) => manager.locator('.tile', { has: manager.locator('.tile-label', { hasText: new RegExp(`^${label}$`) }) }).locator('.tile-value')
      await tile('Issued').waitFor()
      expect((await tile('Issued').textContent())!.trim()).toBe('1')
    })

    for (const check of afterChecks) check()
    expect(outside).toEqual([])
    expect(pageErrors).toEqual([])
    console.log(`  whole journey: ${((Date.now() - began) / 1000).toFixed(1)} s`)
  }, 240_000)
})
