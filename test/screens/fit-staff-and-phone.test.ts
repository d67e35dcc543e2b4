import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { zoneAtMidday } from '../support/midday'
import { ensureBinary } from '../support/binary'
import { scratchShots, SHOTS } from '../support/shots'
import { addUser, PASSWORD, setPassword, signIn } from '../admin/browser-support'
import { findCuts } from './fit-check'
import { findCanvasOverlaps, recordCanvasText } from './canvas-text'
import { LONG, LONG_AR, longNamesProvisioning } from './long-names'
import { CHROMIUM, HAVE_CHROMIUM, launchBrowser, Lobby, turnedSizes, waitForShown, waitInPage } from './support'

/**
 * The layout round of Part three's pages (the rule: layout bugs hide in locales): the live floor
 * /manage, the console /admin (Branch, Devices, Staff, Keys), the customer's phone pages
 * (/join, the ticket's /t/{code} waiting with its actions, asked to confirm leaving, called, and
 * rating after the visit; /book and the booking /b/{code}), the start page / and /login, each in
 * en-US (12-hour), en-GB and Arabic (right to left) at the sizes it is used at, against
 * dist/lobby with 30-character names: the unit, location, services and counters of
 * test/screens/long-names.ts, a clerk's display name, a device, a key, a customer's name.
 * The check in the page is fit.test.ts's (test/screens/fit-check.ts), told these pages scroll:
 * the window's bottom edge cuts nothing, and a box that scrolls along an axis (a wide table in its
 * own scrolling box on a narrow screen, by design) cuts nothing along it; anything wider than the
 * window, any ellipsis, any text cut by a box that hides its overflow, fails with the element,
 * its text and the sizes. With SCREENSHOTS_DIR (docs/images), en-US and Arabic pictures of each
 * page: docs/images/long-<page>-<en-us|ar>-<size>.png.
 */

// The page's globals, for the functions that run in the page.
declare const document: any
declare function getComputedStyle(element: unknown): any
declare function requestAnimationFrame(callback: (time: number) => void): number

const LANGS = ['en-US', 'en-GB', 'ar'] as const
type Lang = (typeof LANGS)[number]
const FLOOR = { landscape: { width: 1920, height: 1080 }, tablet: { width: 1280, height: 800 }, portrait: { width: 800, height: 1280 } }
const CONSOLE = { tablet: { width: 1280, height: 800 }, landscape: { width: 1920, height: 1080 } }
const PHONES = { phone: { width: 360, height: 740 }, 'large-phone': { width: 412, height: 915 } }
/** The start page and sign-in: on a phone and on a desk's tablet. */
const START = { phone: { width: 360, height: 740 }, tablet: { width: 1280, height: 800 } }
type Sizes = Record<string, { width: number; height: number }>

/** A picture of every page that cuts something, to see what the list of problems means. */
const FAILED_SHOTS = scratchShots('fit-staff-and-phone-failures')
const DOC_SHOTS = process.env.SCREENSHOTS_DIR ? SHOTS : null

/** Exactly 30 characters each. */
const PEOPLE = {
  admin: { username: 'branch.administrator', name: 'Alexandra Montgomery-Whitfield' },
  clerk: { username: 'clerk.one', name: 'Maximilian Vandenberg-Ashworth', pin: '482913' },
  customer: 'Bartholomew Fitzgerald-Okonkwo',
  device: 'ground-floor-counter-01-desk-a',
}
const LOCATION = 'loc_hall'
const BOOKABLE = 'svc_1'

if (!HAVE_CHROMIUM) console.warn(`SKIPPED staff and phone pages fit test: no Chromium at ${CHROMIUM}`)

describe.skipIf(!HAVE_CHROMIUM)('Part three\'s pages fit: en-US, en-GB and Arabic, 30-character names, at their sizes', () => {
  const lobby = new Lobby()
  let browser: BrowserContext
  let page: Page
  const pageErrors: string[] = []
  /** The phone pages of tickets in each state: waiting (people ahead), called at a counter, served. */
  const tickets: Record<'waiting' | 'called' | 'served', string> = { waiting: '', called: '', served: '' }

  const operator = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${lobby.url}/api/operator/v1/${path}`, {
      method,
      headers: { authorization: `Bearer ${lobby.secrets.operator}`, ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: { id: string; ticketNumber: string; trackingUrl: string } }).data
  }
  const walkIn = (serviceId: string) => operator('POST', 'tickets', { locationId: LOCATION, serviceId })
  const cli = (...args: string[]) => {
    const run = Bun.spawnSync([ensureBinary(), ...args, '--db', lobby.db], { stdout: 'pipe', stderr: 'pipe' })
    if (run.exitCode !== 0) throw new Error(`${args.join(' ')}: ${run.stderr.toString()}`)
    return JSON.parse(run.stdout.toString())
  }

  /** The long-names branch, its main hall taking phone joins and its first service bookings, opening hours at the annex. */
  function provisioning(): string {
    const file = longNamesProvisioning(lobby.dir)
    const doc = JSON.parse(readFileSync(file, 'utf8'))
    const unit = doc.workspaces[0].queueUnits.find((u: { id: string }) => u.id === 'qu_main')
    const hall = unit.locations.find((l: { id: string }) => l.id === LOCATION)
    hall.remoteJoin = { enabled: true }
    // Today keeps free slots to book whenever the suite runs (test/support/midday.ts).
    hall.timezone = zoneAtMidday()
    unit.services.find((s: { id: string }) => s.id === BOOKABLE).appointments = { enabled: true, slotMinutes: 15, capacityPerSlot: 2, bookAheadDays: 14 }
    // The console's hours editor with two intervals a day, the second until midnight ("16:00-24:(" was cut, issue 48).
    unit.locations.find((l: { id: string }) => l.id === 'loc_annex').openingHours = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['08:00', '12:00'], ['16:00', '24:00']]]))
    // A key with a 30-character name, for the console's Keys section.
    unit.apiKeys.push({ name: 'reception-tablet-ground-floor1', scopes: ['state:read'] })
    writeFileSync(file, JSON.stringify(doc, null, 2))
    return file
  }

  /** A clerk with a 30-character name signed in at the first counter's desk, as the desk does it. */
  async function clerkAtDesk(): Promise<void> {
    const { setupPath } = addUser(lobby, '--username', PEOPLE.clerk.username, '--role', 'clerk', '--name', PEOPLE.clerk.name, '--queue-units', 'qu_main')
    const code = new URL(setupPath, lobby.url).searchParams.get('code')
    const setup = await fetch(`${lobby.url}/api/auth/v1/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, password: PASSWORD, pin: PEOPLE.clerk.pin }) })
    if (setup.status !== 200) throw new Error(`clerk setup: ${setup.status} ${await setup.text()}`)
    const pairing = cli('devices', 'pair', '--role', 'desk', '--counter', 'cnt_1', '--name', PEOPLE.device)
    const paired = await fetch(`${lobby.url}/api/devices/v1/pair`, { method: 'POST', headers: { 'content-type': 'application/json', origin: lobby.url }, body: JSON.stringify({ code: pairing.code }) })
    if (paired.status !== 200) throw new Error(`pair: ${paired.status} ${await paired.text()}`)
    const cookie = paired.headers.get('set-cookie')!.split(';')[0]!
    const signedIn = await fetch(`${lobby.url}/api/devices/v1/desk/clerk`, { method: 'POST', headers: { 'content-type': 'application/json', origin: lobby.url, cookie }, body: JSON.stringify({ username: PEOPLE.clerk.username, pin: PEOPLE.clerk.pin }) })
    if (signedIn.status !== 200) throw new Error(`clerk sign-in: ${signedIn.status} ${await signedIn.text()}`)
  }

  beforeAll(async () => {
    await lobby.start(provisioning())
    await setPassword(lobby, addUser(lobby, '--username', PEOPLE.admin.username, '--role', 'admin', '--name', PEOPLE.admin.name).setupPath)
    await clerkAtDesk()
    for (const counter of ['cnt_1', 'cnt_2', 'cnt_3', 'cnt_4']) await operator('POST', `counters/${counter}/open`)
    // Served: called at the fourth counter and finished, so its phone page asks for a rating.
    const served = await walkIn('svc_4')
    await lobby.callNext('cnt_4')
    await lobby.finish(served.id)
    tickets.served = served.trackingUrl
    // Called at the second counter (a 30-character counter name on the phone).
    const called = await walkIn('svc_2')
    await lobby.callNext('cnt_2')
    tickets.called = called.trackingUrl
    // Waiting behind two others, with its actions (leave, more time).
    await walkIn('svc_3')
    await walkIn('svc_3')
    tickets.waiting = (await walkIn('svc_3')).trackingUrl
    for (let i = 0; i < 3; i++) await walkIn('svc_1')
    browser = await launchBrowser()
    await browser.addInitScript(recordCanvasText)
    page = await browser.newPage()
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`))
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await lobby.kill()
  }, 30_000)

  const withLang = (path: string, lang: Lang) => `${lobby.url}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`

  /**
   * `open` shows the page in a language (the viewport already set); every size and language is
   * checked on the one page. Each language is opened once, at a size that turns with the language
   * (every size is opened fresh in one language at least), and the window is then resized to the
   * other sizes, as a tablet turned or a window dragged: these pages lay out by their stylesheet
   * alone, and what the check reads is laid out anew. A fresh load costs four times a resize in
   * Chromium. `reopen` opens the page anew at every size (a page that draws for its size in script, such as the reports' charts).
   * Pictures for the docs: en-US and Arabic at `shots` sizes.
   */
  async function checkAll(slug: string, sizes: Sizes, open: (lang: Lang) => Promise<void>, shots: string[] = Object.keys(sizes), options: { reopen?: boolean } = {}): Promise<string[]> {
    const failures: string[] = []
    const entries = Object.entries(sizes)
    for (const [i, lang] of LANGS.entries()) {
      for (const [k, [sizeName, size]] of turnedSizes(entries, i).entries()) {
        await page.setViewportSize(size)
        if (k === 0 || options.reopen === true) await open(lang)
        else await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
        const cuts = await page.evaluate(findCuts, { rootId: null, clampedProse: [], scrolls: true })
        for (const cut of cuts) failures.push(`${slug} ${lang} ${sizeName} ${size.width}×${size.height}: ${cut}`)
        if (cuts.length > 0) {
          mkdirSync(FAILED_SHOTS, { recursive: true })
          // Diagnostics only: a very long page (the console with every fold open) may not be pictured in time, and the list above says what is cut.
          await page.screenshot({ path: join(FAILED_SHOTS, `${slug}-${lang}-${sizeName}.png`), fullPage: true, animations: 'disabled', timeout: 10_000 }).catch(() => {})
        }
        if (DOC_SHOTS !== null && lang !== 'en-GB' && shots.includes(sizeName)) {
          // A phone's page whole, as a customer scrolls through it; a staff screen as it opens.
          await page.screenshot({ path: join(DOC_SHOTS, `long-${slug}-${lang === 'ar' ? 'ar' : 'en-us'}-${sizeName}.png`), fullPage: size.width < 800, animations: 'disabled' })
        }
      }
    }
    return failures
  }

  test('the start page and sign-in, signed out, on a phone and a tablet', async () => {
    const failures = [
      ...(await checkAll('start-page', START, async (lang) => {
        await page.goto(withLang('/', lang))
        await waitForShown(page, '.start-links a')
      }, ['phone'])),
      ...(await checkAll('login', START, async (lang) => {
        await page.goto(withLang('/login', lang))
        await waitForShown(page, 'form button[type=submit]')
      }, ['phone'])),
    ]
    expect(failures).toEqual([])
  }, 60_000)

  test('the join page (/join) on phones; a tap lands on its phone page', async () => {
    const failures = await checkAll('join', PHONES, async (lang) => {
      await page.goto(withLang(`/join/${LOCATION}`, lang))
      await waitForShown(page, '.service')
    }, ['phone'])
    expect(failures).toEqual([])
    // The tap that takes a ticket lands on the ticket's phone page (checked below with the others).
    await page.goto(withLang(`/join/${LOCATION}`, 'en-US'))
    await page.locator('.service[data-service-id="svc_6"] button').click()
    await page.waitForURL(/\/t\/[a-z2-7]{24}$/)
    await page.locator('.phone-ahead').waitFor()
  }, 60_000)

  test('the phone page (/t/{code}) on phones: waiting with its actions, leaving asked first, called, rating after the visit', async () => {
    const failures = [
      ...(await checkAll('phone-waiting', PHONES, async (lang) => {
        await page.goto(withLang(tickets.waiting, lang))
        await waitForShown(page, '.phone-ahead')
        await waitForShown(page, '#phone button')
      }, ['phone'])),
      ...(await checkAll('phone-leave', PHONES, async (lang) => {
        await page.goto(withLang(tickets.waiting, lang))
        await page.locator('.phone-ahead').waitFor()
        await page.getByRole('button', { name: lang === 'ar' ? 'مغادرة الدور' : 'Leave the queue' }).click()
        await page.locator('#phone [role=group]').waitFor()
      }, ['phone'])),
      ...(await checkAll('phone-called', PHONES, async (lang) => {
        await page.goto(withLang(tickets.called, lang))
        await waitInPage(page, (name: string) => document.body.innerText.includes(name), (lang === 'ar' ? LONG_AR : LONG).counter(2), { what: 'the counter\'s name' })
      }, ['phone'])),
      ...(await checkAll('phone-rate', PHONES, async (lang) => {
        await page.goto(withLang(tickets.served, lang))
        await waitForShown(page, 'input[type=radio]')
      }, ['phone'])),
    ]
    expect(failures).toEqual([])
  }, 90_000)

  let bookingCode = ''
  test('booking (/book) and the booking\'s page (/b/{code}) on phones, a 30-character customer name', async () => {
    const failures = await checkAll('book', PHONES, async (lang) => {
      await page.goto(withLang(`/book/${LOCATION}`, lang))
      await page.locator('.slot').first().click()
      await page.locator('#name').fill(PEOPLE.customer)
    }, ['phone'])
    // Booked in English: the booking's own page, in every language.
    await page.goto(withLang(`/book/${LOCATION}`, 'en-GB'))
    await page.locator('.slot').first().click()
    await page.locator('#name').fill(PEOPLE.customer)
    await page.getByRole('button', { name: 'Book', exact: true }).click()
    await page.waitForURL(/\/b\/[2-9A-Z]{8}/)
    bookingCode = new URL(page.url()).pathname.slice(3)
    failures.push(...(await checkAll('booking', PHONES, async (lang) => {
      await page.goto(withLang(`/b/${bookingCode}`, lang))
      await waitForShown(page, '.code')
    }, ['phone'])))
    expect(failures).toEqual([])
  }, 90_000)

  test('the live floor (/manage) at 1920×1080, a 10" tablet 1280×800 and 800×1280 portrait', async () => {
    await signIn(page, lobby, PEOPLE.admin.username)
    const failures = await checkAll('manage', FLOOR, async (lang) => {
      await page.goto(withLang('/manage?unit=qu_main', lang))
      await waitForShown(page, '#manage-connection.is-live')
      await waitInPage(page, (name: string) => [...document.querySelectorAll('tr.counter[data-counter="cnt_1"] .clerk')].some((el) => el.textContent!.includes(name)), PEOPLE.clerk.name, { what: 'the clerk at cnt_1' })
    })
    expect(failures).toEqual([])
  }, 90_000)

  test('the console (/admin): every section (Branch, Devices, Staff, Keys, Voice, Notifications, Audit) with every fold open, at 1280×800 and 1920×1080', async () => {
    await signIn(page, lobby, PEOPLE.admin.username)
    const failures: string[] = []
    for (const section of ['branch', 'devices', 'staff', 'keys', 'voice', 'notifications', 'audit']) {
      failures.push(...(await checkAll(`admin-${section}`, CONSOLE, async (lang) => {
        await page.goto(`${withLang('/admin', lang)}#${section}`)
        await waitForShown(page, `#admin-nav a[href="#${section}"][aria-current="page"]`)
        await waitForShown(page, '#admin-main .section-body')
        // Every editor, row editor and "before and after" open: what is folded is checked too.
        await page.evaluate(() => { for (const fold of document.querySelectorAll('details')) fold.open = true })
      }, ['tablet'])))
    }
    expect(failures).toEqual([])
  }, 120_000)

  test('the reports (/reports) at 1280×800 and 1920×1080: no table scrolls sideways, no chart label runs into another, a comment reads in its own direction; the floor\'s share has no stray marks', async () => {
    // Two more counters serve two customers each, who rate their visit; one comment is Arabic
    // that starts with Latin letters (read first-strong, it would be laid out left to right).
    const comments = ['<b>ممتاز</b> شكرا جزيلا على الخدمة', 'Quick and friendly, thank you', 'Kept waiting, but the clerk was kind', 'خدمة سريعة']
    for (const [i, counter] of (['cnt_5', 'cnt_6'] as const).entries()) {
      await operator('POST', `counters/${counter}/open`)
      for (let k = 0; k < 2; k++) {
        const ticket = await walkIn(i === 0 ? 'svc_5' : 'svc_6')
        // Served in turn: anyone ahead (the join test's ticket) is served first.
        for (let called = await lobby.callNext(counter); ; called = await lobby.callNext(counter)) {
          await lobby.finish(called!.id)
          if (called!.id === ticket.id) break
        }
        const rated = await fetch(`${lobby.url}/api/phone/v1/tickets/${ticket.trackingUrl.slice(3)}/feedback`, {
          method: 'POST', headers: { origin: lobby.url, 'content-type': 'application/json' }, body: JSON.stringify({ rating: 4, comment: comments[i * 2 + k] }),
        })
        if (rated.status !== 200) throw new Error(`feedback: ${rated.status} ${await rated.text()}`)
      }
    }
    await signIn(page, lobby, PEOPLE.admin.username)
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
    const seen: string[] = []
    const failures = await checkAll('reports', CONSOLE, async (lang) => {
      await page.goto(withLang(`/reports?from=${day(-1)}&to=${day(1)}`, lang))
      await waitForShown(page, '#table-feedback-comments td')
      await waitInPage(page, () => document.querySelectorAll('.chart canvas').length === 4, undefined, { what: 'four charts' })
      const at = `reports ${lang} ${page.viewportSize()!.width}×${page.viewportSize()!.height}`
      // At 1280 px and wider every table fits its box: none scrolls sideways.
      const wide = await page.evaluate(() => [...document.querySelectorAll('.table-wrap')]
        .filter((wrap: any) => wrap.scrollWidth > wrap.clientWidth + 1)
        .map((wrap: any) => `${wrap.querySelector('table').id}: ${wrap.scrollWidth}px wide in ${wrap.clientWidth}px`))
      for (const w of wide) seen.push(`${at}: ${w}`)
      for (const o of await page.evaluate(findCanvasOverlaps, '.chart canvas')) seen.push(`${at}: ${o}`)
      // The Arabic comment reads right to left: its first word ("ممتاز") is its rightmost.
      const order = await page.evaluate(() => {
        const cell = [...document.querySelectorAll('#table-feedback-comments td')].find((td: any) => td.textContent.includes('ممتاز'))
        const node = cell.firstChild
        const place = (word: string) => {
          const range = document.createRange()
          const start = node.textContent.indexOf(word)
          range.setStart(node, start)
          range.setEnd(node, start + word.length)
          return range.getBoundingClientRect().right
        }
        return { first: place('ممتاز'), later: place('شكرا'), dir: getComputedStyle(cell).direction }
      })
      if (!(order.first > order.later) || order.dir !== 'rtl') seen.push(`${at}: the Arabic comment is laid out left to right (${JSON.stringify(order)})`)
    }, ['tablet'], { reopen: true })
    failures.push(...seen)
    // The floor's share of calls within target: digits, a percent sign and "of", no invisible direction marks.
    await page.setViewportSize(FLOOR.tablet)
    for (const lang of ['en-GB', 'ar'] as const) {
      await page.goto(withLang('/manage?unit=qu_main', lang))
      await page.locator('#manage-connection.is-live').waitFor()
      const share = await page.locator('tr.service[data-service="svc_5"] td.share').innerText()
      expect(share).toMatch(lang === 'ar' ? /^[0-9٠-٩]+[%٪] من [0-9٠-٩]+$/ : /^[0-9]+% of [0-9]+$/)
    }
    expect(failures).toEqual([])
  }, 180_000)

  test('no page had a script error', () => {
    expect(pageErrors).toEqual([])
  })
})
