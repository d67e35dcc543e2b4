import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { guardNetwork, HAVE_CHROMIUM, IMAGES, launchBrowser } from '../screens/support'
import { CHEAP, GOOD_PASSWORD, withPassword } from '../people/helpers'
import { counterContext, callNext, issued, ok } from '../counters/helpers'
import { mainUnit } from '../queue/helpers'
import { appointmentContext, asKey, booked, APPOINTMENTS } from '../appointments/helpers'
import { shoot } from '../support/shots'

/*
 * /manage in a real browser (Debian's chromium) against the app listening on 127.0.0.1: a call,
 * a break with its reason and a clerk's sign-in each show within a second; a line passes its
 * target while the page is open and is marked in words; a clerk sees a 403 page. Screenshots at
 * 1920×1080, 1280×800 and 800×1280 in English and Arabic under docs/images/. Today's
 * appointments: a booking, a check-in and a cancellation each show within a second.
 */

const ctx = counterContext((doc) => {
  mainUnit(doc).services!.find((s) => s.id === 'svc_accounts')!.waitTargetSeconds = 605
  mainUnit(doc).services!.find((s) => s.id === 'svc_accounts')!.name = { en: 'Accounts', ar: 'الحسابات' }
}, { passwordCost: CHEAP })
ctx.clock.set('2026-11-25T09:00:00Z')
ctx.app.listen({ port: 0, hostname: '127.0.0.1' })
const base = `http://127.0.0.1:${ctx.app.server!.port}`
afterAll(() => ctx.app.stop(true))

function clerkSignsIn(counterId: string) {
  ctx.deps.writes.now(() => {
    const clerk = ctx.db.$client.query<{ id: string }, []>("SELECT id FROM users WHERE username = 'samir.k'").get()!
    ctx.deps.staff.signIn({ userId: clerk.id, username: 'samir.k', displayName: 'Samir Khoury' }, { id: counterId, queueUnitId: 'qu_main', locationId: 'loc_hall', timezone: 'Europe/Berlin' }, 'dev_1', ctx.clock.now())
    ctx.deps.tickets.touch('qu_main')
  })
}

describe.skipIf(!HAVE_CHROMIUM)('/manage in Chromium (contract §22)', () => {
  test('live within a second: a call, a clerk\'s sign-in, a break with its reason; a line passes its target and is marked; English, Arabic, tablet', async () => {
    await withPassword(ctx, { username: 'mona', role: 'manager', displayName: 'Mona M.', queueUnits: ['qu_main'] })
    await withPassword(ctx, { username: 'samir.k', role: 'clerk', displayName: 'Samir Khoury', queueUnits: ['qu_main'] })
    const first = await issued(ctx)
    ctx.clock.set('2026-11-25T09:03:00Z')
    await issued(ctx)
    await issued(ctx, { locationId: 'loc_hall', serviceId: 'svc_loans' })
    // 600 s after the first ticket: 5 s before its line's 605 s target.
    ctx.clock.set('2026-11-25T09:10:00Z')

    const context = await launchBrowser()
    try {
      const network = await guardNetwork(context)
      const page = await context.newPage()
      await page.setViewportSize({ width: 1920, height: 1080 })
      await page.goto(`${base}/manage`)
      await page.waitForURL(`${base}/login`)
      await page.getByLabel('Username').fill('mona')
      await page.getByLabel('Password').fill(GOOD_PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${base}/manage`)
      await page.locator('#manage-connection.is-live').waitFor()
      const accounts = page.locator('tr.service[data-location="loc_hall"][data-service="svc_accounts"]')
      await accounts.locator('.ticket-number', { hasText: first.ticketNumber }).waitFor()
      expect(await accounts.locator('.waiting').textContent()).toBe('2')

      // The line passes its target while the page is open: marked in words, not by colour alone.
      await accounts.locator('.over-target', { hasText: 'Over target' }).waitFor({ timeout: 8_000 })
      expect(await accounts.getAttribute('class')).toContain('is-over')

      const cnt1 = page.locator('tr.counter[data-counter="cnt_1"]')
      const cnt2 = page.locator('tr.counter[data-counter="cnt_2"]')
      // A clerk signs in at cnt_2.
      clerkSignsIn('cnt_2')
      await cnt2.locator('.clerk', { hasText: 'Samir Khoury' }).waitFor({ timeout: 1_000 })
      await shoot(page, 'manage-en.png')
      // A call at cnt_1.
      await ok(callNext(ctx, 'cnt_1'))
      await cnt1.locator('.ticket', { hasText: first.ticketNumber }).waitFor({ timeout: 1_000 })
      expect(await cnt1.locator('.badge').textContent()).toBe('Open')

      // The manager closes cnt_2 for lunch from the page: asked for the reason, keyboard only.
      await page.getByRole('button', { name: 'Open Counter 2' }).click()
      await cnt2.locator('.badge', { hasText: 'Open' }).waitFor({ timeout: 1_000 })
      await page.getByRole('button', { name: 'Close Counter 2' }).focus()
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('dialog', { name: 'Close Counter 2' })
      await dialog.getByLabel('Lunch').check()
      await dialog.getByRole('button', { name: 'Close counter' }).click()
      await cnt2.locator('.badge', { hasText: 'On break: Lunch' }).waitFor({ timeout: 1_000 })
      expect(await cnt2.locator('.clerk').textContent()).toBe('No clerk signed in')

      await page.setViewportSize({ width: 1280, height: 800 })
      await shoot(page, 'manage-tablet-en.png')
      // Later: the line's next ticket (09:03) has waited past the target too.
      ctx.clock.set('2026-11-25T09:14:00Z')
      await page.goto(`${base}/manage?lang=ar`)
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
      await page.locator('#manage-connection.is-live').waitFor()
      await accounts.locator('.over-target', { hasText: 'تجاوز الهدف' }).waitFor({ timeout: 2_000 })
      await shoot(page, 'manage-tablet-ar.png')
      await page.setViewportSize({ width: 800, height: 1280 })
      await shoot(page, 'manage-portrait-ar.png')
      await page.setViewportSize({ width: 1920, height: 1080 })
      await shoot(page, 'manage-ar.png')
      // Nothing is wider than the window at any size.
      for (const size of [{ width: 1920, height: 1080 }, { width: 1280, height: 800 }, { width: 800, height: 1280 }]) {
        await page.setViewportSize(size)
        expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width)
      }
      expect(network.outside).toEqual([])
    } finally {
      await context.close()
    }
  }, 90_000)

  test('a clerk\'s session sees a 403 page in words, and the floor\'s websocket refuses it', async () => {
    const context = await launchBrowser()
    try {
      const page = await context.newPage()
      await page.goto(`${base}/login`)
      await page.getByLabel('Username').fill('samir.k')
      await page.getByLabel('Password').fill(GOOD_PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${base}/desk`)
      const response = await page.goto(`${base}/manage`)
      expect(response!.status()).toBe(403)
      await page.getByText('The live floor is for managers and administrators. Your account cannot see it.').waitFor()
      const refused = await page.evaluate((url: string) => new Promise<string>((resolve) => {
        const ws = new (globalThis as any).WebSocket(url)
        ws.onopen = () => resolve('open')
        ws.onerror = () => resolve('refused')
      }), `${base.replace('http', 'ws')}/api/manage/v1/live`)
      expect(refused).toBe('refused')
    } finally {
      await context.close()
    }
  }, 60_000)

  test('no serious or critical axe-core violation, English and Arabic, with the close dialog open too', async () => {
    const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
    const context = await launchBrowser({ bypassCSP: true })
    try {
      const page = await context.newPage()
      await page.goto(`${base}/login`)
      await page.getByLabel('Username').fill('mona')
      await page.getByLabel('Password').fill(GOOD_PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${base}/manage`)
      const problems: string[] = []
      const check = async (label: string) => {
        await page.addScriptTag({ content: AXE })
        const found = (await page.evaluate(async () => {
          const result = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] })
          return result.violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'page-has-heading-one')
            .map((v: any) => `${v.id} at ${v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')).join(', ')}`)
        })) as string[]
        problems.push(...found.map((f) => `${label}: ${f}`))
      }
      for (const lang of ['en', 'ar']) {
        await page.goto(`${base}/manage${lang === 'ar' ? '?lang=ar' : ''}`)
        await page.locator('#manage-connection.is-live').waitFor()
        await page.locator('tr.counter').first().waitFor()
        await check(lang)
      }
      await page.goto(`${base}/manage`)
      await page.locator('#manage-connection.is-live').waitFor()
      await page.getByRole('button', { name: 'Open Counter 2' }).click()
      await page.getByRole('button', { name: 'Close Counter 2' }).click()
      await page.getByRole('dialog').waitFor()
      await check('dialog')
      await page.keyboard.press('Escape')
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 90_000)

  test('today\'s appointments: a booking, a check-in and a cancellation through the operator API show within a second; English and Arabic; axe-clean', async () => {
    // The appointment fixture (Accounts at the main hall, Europe/Berlin); 10:20 in Berlin.
    const appts = appointmentContext((doc) => {
      mainUnit(doc).services!.find((s) => s.id === 'svc_accounts')!.name = { en: 'Accounts', ar: 'الحسابات' }
    }, { passwordCost: CHEAP })
    appts.clock.set('2026-11-25T09:20:00Z')
    appts.app.listen({ port: 0, hostname: '127.0.0.1' })
    const url = `http://127.0.0.1:${appts.app.server!.port}`
    await withPassword(appts, { username: 'mona', role: 'manager', displayName: 'Mona M.', queueUnits: ['qu_main'] })
    const kept = await booked(appts, { startAt: '2026-11-25T10:30:00+01:00', name: 'Amal Haddad' })
    await booked(appts, { startAt: '2026-11-25T11:15:00+01:00', name: 'Karim Aziz' })
    await booked(appts, { startAt: '2026-11-25T13:45:00+01:00', name: 'ليلى صعب' })
    const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
    const context = await launchBrowser({ bypassCSP: true })
    try {
      const network = await guardNetwork(context)
      const page = await context.newPage()
      await page.setViewportSize({ width: 1920, height: 1080 })
      await page.goto(`${url}/login`)
      await page.getByLabel('Username').fill('mona')
      await page.getByLabel('Password').fill(GOOD_PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${url}/manage`)
      await page.locator('#manage-connection.is-live').waitFor()
      const table = page.getByRole('table', { name: /Appointments today/ })
      const rows = table.locator('tbody tr')
      const toCome = page.locator('section.location', { has: table }).locator('.to-come')
      await rows.first().waitFor()
      expect(await rows.allTextContents()).toEqual(['10:30AccountsAmal HaddadBooked', '11:15AccountsKarim AzizBooked', '13:45Accountsليلى صعبBooked'])
      expect(await toCome.textContent()).toBe('(3 still to come)')

      // A booking through the operator API appears, in time order, within a second.
      const late = await booked(appts, { startAt: '2026-11-25T15:30:00+01:00', name: 'Nadia Fares' })
      await table.locator(`tr[data-appointment="${late.id}"]`, { hasText: 'Nadia Fares' }).waitFor({ timeout: 1_000 })
      expect(await rows.count()).toBe(4)
      await toCome.filter({ hasText: '(4 still to come)' }).waitFor({ timeout: 1_000 })
      // A check-in and a cancellation show within a second each.
      expect((await asKey(appts, 'POST', `${APPOINTMENTS}/${kept.id}/check-in`)).status).toBe(201)
      await table.locator(`tr[data-appointment="${kept.id}"] .badge`, { hasText: 'Checked in' }).waitFor({ timeout: 1_000 })
      expect((await asKey(appts, 'POST', `${APPOINTMENTS}/${late.id}/cancel`)).status).toBe(200)
      await table.locator(`tr[data-appointment="${late.id}"]`).waitFor({ state: 'detached', timeout: 1_000 })
      await toCome.filter({ hasText: '(2 still to come)' }).waitFor({ timeout: 1_000 })
      // The contact of one was erased: the page says so.
      appts.db.$client.run("UPDATE appointments SET name = NULL WHERE name = 'Karim Aziz'")
      appts.deps.writes.now(() => appts.deps.tickets.touch('qu_main'))
      await table.locator('tr', { hasText: 'erased' }).waitFor({ timeout: 1_000 })
      await shoot(page, 'manage-appointments-en.png')

      const problems: string[] = []
      const check = async (label: string) => {
        await page.addScriptTag({ content: AXE })
        const found = (await page.evaluate(async () => {
          const result = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] })
          return result.violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical').map((v: any) => `${v.id} at ${v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')).join(', ')}`)
        })) as string[]
        problems.push(...found.map((f) => `${label}: ${f}`))
      }
      await check('en')

      // The browser's English is en-GB (24-hour, above); the URL's en-US writes 12-hour times.
      await page.goto(`${url}/manage?lang=en-US`)
      await page.locator('#manage-connection.is-live').waitFor()
      await rows.first().waitFor()
      expect((await rows.first().locator('time').textContent())!.replace(/[\u202f\u00a0]/g, ' ')).toBe('10:30 AM')

      await page.goto(`${url}/manage?lang=ar`)
      await page.locator('#manage-connection.is-live').waitFor()
      const arabic = page.getByRole('table', { name: /مواعيد اليوم/ })
      await arabic.locator('tbody tr').first().waitFor()
      // Arabic writes the wall clock as the other Arabic screens do (Intl's 12-hour, ص before noon).
      expect(await arabic.locator('tbody tr').first().textContent()).toBe('10:30 صالحساباتAmal Haddadتم تسجيل الحضور')
      await arabic.locator('tr', { hasText: 'محذوف' }).waitFor()
      await shoot(page, 'manage-appointments-ar.png')
      await check('ar')
      for (const size of [{ width: 1920, height: 1080 }, { width: 1280, height: 800 }]) {
        await page.setViewportSize(size)
        expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width)
      }
      expect(problems).toEqual([])
      expect(network.outside).toEqual([])
    } finally {
      await context.close()
      appts.app.stop(true)
    }
  }, 90_000)
})
