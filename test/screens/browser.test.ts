import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { liveMs } from '../support/live'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { announcementsData, eventsData, PRAYER_SOURCE, prayerMonth, prayerPeriods, scheduleData, transportData } from './data'
import { CHROMIUM, guardNetwork, HAVE_CHROMIUM, LANDSCAPE, launchBrowser, Lobby, PORTRAIT } from './support'

// The functions handed to page.evaluate / waitForFunction run in the page: these are the page's
// globals, declared for this file only (the project's types are Bun's, without the DOM).
interface PageElement {
  textContent: string | null
  classList: { contains(name: string): boolean }
}
declare const document: {
  querySelector(selector: string): PageElement | null
  querySelectorAll(selector: string): ArrayLike<PageElement> & Iterable<PageElement>
  getElementById(id: string): PageElement | null
  documentElement: { lang: string; dir: string; dataset: Record<string, string | undefined> }
}
declare function getComputedStyle(element: unknown): { opacity: string; backgroundColor: string; filter: string }

/**
 * The built-in screens in headless Chromium against dist/lobby, provisioned from the demo file
 * by the CLI. Screenshots only with SCREENSHOTS_DIR (test/support/shots.ts; the docs'
 * images are made with SCREENSHOTS_DIR=docs/images).
 */
import { SHOTS, shoot, TAKING_SHOTS } from '../support/shots'
/** "Shows on screen within one second" of the change's HTTP response. */
/** Contracts §8, §17, §22: a change shows within this on a quiet machine (test/support/live.ts stretches it on a busy one). */
const LIVE_BASE_MS = 1000
/** A browser test's own limit: a page load, a few waits, a screenshot. */
const TEST_MS = 30_000

if (!HAVE_CHROMIUM) {
  console.warn(`SKIPPED screens browser tests: no Chromium at ${CHROMIUM} (install it: apt-get install -y chromium, or set CHROMIUM_PATH)`)
}

describe.skipIf(!HAVE_CHROMIUM)('screens in Chromium against dist/lobby', () => {
  const lobby = new Lobby()
  let browser: BrowserContext
  let network: { all: string[]; outside: string[] }
  const pageErrors: string[] = []

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    await lobby.start()
    for (const period of prayerPeriods()) await lobby.pushMonth(PRAYER_SOURCE, prayerMonth(period))
    await lobby.pushWidget('wdg_schedule_lobby', 'TODAYS_SCHEDULE', scheduleData())
    await lobby.pushWidget('wdg_announcements', 'ANNOUNCEMENTS', announcementsData())
    await lobby.pushWidget('wdg_events', 'EVENTS', eventsData())
    await lobby.pushWidget('wdg_departures', 'TRANSPORT_BOARD', transportData())
    browser = await launchBrowser()
    network = await guardNetwork(browser)
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await lobby.kill()
  })

  async function open(path: string, query: Record<string, string> = {}, viewport = LANDSCAPE): Promise<Page> {
    const page = await browser.newPage()
    page.on('pageerror', (error) => pageErrors.push(`${path}: ${error.message}`))
    await page.setViewportSize(viewport)
    await page.goto(lobby.screen(path, query))
    return page
  }

  /** Waits for `selector` to contain `text` (default: to exist). */
  async function shows(page: Page, selector: string, text = '', timeout = 10_000): Promise<void> {
    await page.waitForFunction(
      ([sel, want]) => [...document.querySelectorAll(sel!)].some((el) => (el.textContent ?? '').includes(want!)),
      [selector, text] as const,
      { timeout },
    )
  }

  const textOf = (page: Page, selector: string) => page.locator(selector).first().innerText()
  /** Turns the screen and waits until the board has laid itself out (and fitted) for the new size. */
  async function turn(page: Page, viewport: { width: number; height: number }): Promise<void> {
    await page.setViewportSize(viewport)
    await page.waitForFunction((size) => document.documentElement.dataset.drawnFor === size, `${viewport.width}x${viewport.height}`, { timeout: 5_000 })
  }
  // Finite animations (a banner sliding in) are finished first, so a picture shows the settled screen.
  const shot = (page: Page, name: string) => shoot(page, `${name}.png`, { animations: 'disabled' })

  describe('queue board', () => {
    test('shows the demo services, a new ticket in the waiting count and a call within a second', async () => {
      const page = await open('/screens/queue/qu_main', { location: 'loc_hall', chime: '1' })
      await shows(page, '.svc-name', 'Accounts')
      await shows(page, '.svc-name', 'Loans')
      expect(await textOf(page, '#screen-title')).toBe('Main branch')
      expect(await textOf(page, '#screen-subtitle')).toBe('Main hall')
      expect(await page.locator('.svc').count()).toBe(2)

      const card = '.svc[data-service="svc_accounts"][data-location="loc_hall"]'
      const before = Number(await textOf(page, `${card} .svc-waiting`))
      await lobby.issueTicket('loc_hall', 'svc_accounts')
      await shows(page, `${card} .svc-waiting`, String(before + 1), liveMs(LIVE_BASE_MS))

      const called = await lobby.callNext('cnt_2')
      expect(called).not.toBeNull()
      await shows(page, '.call-banner .banner-number', called!.ticketNumber, liveMs(LIVE_BASE_MS))
      await shows(page, '.call-banner .banner-counter', 'Counter 2', liveMs(LIVE_BASE_MS))
      await shows(page, `${card}.is-new .svc-number`, called!.ticketNumber, liveMs(LIVE_BASE_MS))
      await shows(page, '.recent-call.is-new .recent-number', called!.ticketNumber, liveMs(LIVE_BASE_MS))
      await shows(page, `${card} .svc-counter`, 'Counter 2', liveMs(LIVE_BASE_MS))
      expect(await page.evaluate(() => document.documentElement.dataset.chimes)).toBe('1')
      await page.setViewportSize(LANDSCAPE)
      await shot(page, 'queue-call')
      await lobby.finish(called!.id)
      await page.close()
    }, TEST_MS)

    test('the whole unit, landscape and portrait', async () => {
      for (let i = 0; i < 4; i++) await lobby.issueTicket('loc_hall', 'svc_accounts')
      for (let i = 0; i < 3; i++) await lobby.issueTicket('loc_hall', 'svc_loans')
      const page = await open('/screens/queue/qu_main')
      await shows(page, '.svc-location', 'Annex')
      const first = await lobby.callNext('cnt_1')
      await shows(page, '.recent-number', first!.ticketNumber, liveMs(LIVE_BASE_MS))
      await lobby.finish(first!.id)
      for (const counter of ['cnt_2', 'cnt_1']) {
        const called = await lobby.callNext(counter)
        await shows(page, '.recent-number', called!.ticketNumber, liveMs(LIVE_BASE_MS))
      }
      expect(await page.locator('.svc').count()).toBe(3)
      // Let the banner and the marks of the last call run out before the pictures (~15 s: only
      // when pictures are taken).
      if (TAKING_SHOTS) {
        await page.waitForSelector('.call-banner', { state: 'hidden', timeout: 30_000 })
        await page.waitForFunction(() => document.querySelectorAll('.is-new').length === 0, null, { timeout: 30_000 })
      }
      await shot(page, 'queue-landscape')
      await turn(page, PORTRAIT)
      await shot(page, 'queue-portrait')
      await page.close()
    }, 60_000)

    test('draws its data once while it connects: the live snapshot that repeats the read draws nothing again', async () => {
      const page = await browser.newPage()
      page.on('pageerror', (error) => pageErrors.push(`draws: ${error.message}`))
      // Every board drawn (a new .queue-layout in the page), counted from the document's start.
      await page.addInitScript(`window.drawn = 0; new MutationObserver((records) => {
        for (const record of records) for (const node of record.addedNodes) if (node.classList?.contains('queue-layout')) window.drawn++
      }).observe(document, { childList: true, subtree: true })`)
      await page.goto(lobby.screen('/screens/queue/qu_main', { location: 'loc_hall' }))
      await shows(page, '.svc-name', 'Accounts')
      await page.locator('#screen.is-live').waitFor()
      // The socket's snapshot comes before any update on it: a ticket's update, drawn, is the second drawing.
      const card = '.svc[data-service="svc_loans"][data-location="loc_hall"]'
      const before = Number(await textOf(page, `${card} .svc-waiting`))
      await lobby.issueTicket('loc_hall', 'svc_loans')
      await shows(page, `${card} .svc-waiting`, String(before + 1), liveMs(LIVE_BASE_MS))
      expect(await page.evaluate(() => (globalThis as unknown as { drawn: number }).drawn)).toBe(2)
      await page.close()
    }, TEST_MS)

    test('an unknown location says so', async () => {
      const page = await open('/screens/queue/qu_main', { location: 'loc_nowhere' })
      await shows(page, '.notice-heading', 'Unknown location')
      await shows(page, '.notice-detail', 'loc_nowhere')
      await page.close()
    }, TEST_MS)
  })

  describe('widget screens', () => {
    test("today's schedule marks the current item, dims finished ones, strikes cancelled ones", async () => {
      const page = await open('/screens/widgets/wdg_schedule_lobby')
      await shows(page, '.sched-item.is-current .sched-title', 'Pension advice drop-in')
      await shows(page, '.sched-item.is-current .badge', 'Now')
      await shows(page, '.sched-item.is-past .sched-title', 'Branch opens')
      await shows(page, '.sched-item.status-CANCELLED .badge', 'Cancelled')
      await shows(page, '.sched-item.status-DELAYED .badge', 'Delayed')
      await shot(page, 'widget-schedule')
      await page.goto(lobby.screen('/screens/widgets/wdg_schedule_lobby', { theme: 'light' }))
      await shows(page, '.sched-item.is-current .sched-title', 'Pension advice drop-in')
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light')
      await shot(page, 'widget-schedule-light')
      await page.close()
    }, TEST_MS)

    test('announcements rotate by displaySeconds and skip those outside their window', async () => {
      // The page's clock is Playwright's, moved on by the test instead of waiting 20 s.
      const page = await browser.newPage()
      page.on('pageerror', (error) => pageErrors.push(`announcements: ${error.message}`))
      await page.clock.install()
      await page.goto(lobby.screen('/screens/widgets/wdg_announcements'))
      await shows(page, '.ann-title', 'New opening hours')
      await shows(page, '.ann-count', '1 / 3')
      await shot(page, 'widget-announcements')
      // The first is shown for its 12 s, then the second for its 8 s. (The page's clock also runs
      // on by itself between the steps: 2 s of slack either side.)
      await page.clock.fastForward(10_000)
      expect(await textOf(page, '.ann-title')).toBe('New opening hours')
      await page.clock.fastForward(4_000)
      await shows(page, '.ann-title', 'Contactless limit raised')
      await page.clock.fastForward(6_000)
      expect(await textOf(page, '.ann-title')).toBe('Contactless limit raised')
      await page.clock.fastForward(4_000)
      await shows(page, '.ann.priority-URGENT .ann-title', 'Card terminal maintenance tonight')
      expect(await page.content()).not.toContain('This one has ended')
      await page.close()
    }, 45_000)

    test('events: upcoming only, with dates, all-day and status', async () => {
      const page = await open('/screens/widgets/wdg_events')
      await shows(page, '.event-title', 'Coffee morning for new customers')
      await shows(page, '.event-time', 'All day')
      await shows(page, '.event.status-MOVED_ONLINE .badge', 'Online')
      await shows(page, '.event.status-POSTPONED .badge', 'Postponed')
      expect(await page.content()).not.toContain('Already over')
      await shot(page, 'widget-events')
      await page.close()
    }, TEST_MS)

    test('departures and arrivals: delays, cancellations, line colours, no departed trips', async () => {
      const page = await open('/screens/widgets/wdg_departures')
      await shows(page, '.board-heading', 'Departures')
      await shows(page, '.board-heading', 'Arrivals')
      await shows(page, '.trip[data-id="d2"] .status-text', '+7 min')
      await shows(page, '.trip[data-id="d3"].status-CANCELLED .status-text', 'Cancelled')
      await shows(page, '.trip[data-id="d2"] .t-remarks', 'Signal failure')
      expect(await page.locator('.trip[data-id="d1"] .line-badge').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(125, 102, 173)')
      expect(await page.content()).not.toContain('Long gone')
      await shot(page, 'widget-transport')
      await turn(page, PORTRAIT)
      await shot(page, 'widget-transport-portrait')
      await page.close()
    }, TEST_MS)

    test('a widget push shows within a second', async () => {
      const board = await open('/screens/widgets/wdg_departures')
      const news = await open('/screens/widgets/wdg_announcements')
      await shows(board, '.trip[data-id="d1"] .status-text', 'On time')
      await shows(news, '.ann-title', 'New opening hours')
      await lobby.pushWidget('wdg_departures', 'TRANSPORT_BOARD', transportData(Date.now(), 'DELAYED'))
      await shows(board, '.trip[data-id="d1"] .status-text', '+7 min', liveMs(LIVE_BASE_MS))
      await lobby.pushWidget('wdg_announcements', 'ANNOUNCEMENTS', announcementsData(Date.now(), 'Opening hours from 1 December'))
      await shows(news, '.ann-title', 'Opening hours from 1 December', liveMs(LIVE_BASE_MS))
      await board.close()
      await news.close()
    }, TEST_MS)
  })

  describe('prayer board', () => {
    test("today's times, iqamah, next prayer with a countdown, dates; a month push within a second", async () => {
      const page = await open(`/screens/prayer/${PRAYER_SOURCE}`)
      await shows(page, '#screen-title', 'Central Mosque')
      await shows(page, '.prayer-row[data-prayer="fajr"] .p-adhan', '05:40')
      await shows(page, '.prayer-row[data-prayer="isha"] .p-iqamah', '18:15')
      await shows(page, '.next-countdown', 'in ')
      await shows(page, '.date-hijri', 'AH')
      const countdown = await textOf(page, '.next-countdown')
      await page.waitForFunction((was) => document.querySelector('.next-countdown')?.textContent !== was, countdown, { timeout: 3000 })
      expect(await page.locator('.prayer-row.is-next').count()).toBeLessThanOrEqual(1)
      await shot(page, 'prayer-landscape')
      await turn(page, PORTRAIT)
      await shot(page, 'prayer-portrait')

      for (const period of prayerPeriods()) await lobby.pushMonth(PRAYER_SOURCE, prayerMonth(period, '06:10'))
      await shows(page, '.prayer-row[data-prayer="fajr"] .p-iqamah', '06:10', liveMs(LIVE_BASE_MS))
      await page.close()
    }, TEST_MS)

    test("a TV whose clock is three hours off still shows the branch's time", async () => {
      const page = await browser.newPage()
      page.on('pageerror', (error) => pageErrors.push(`clock: ${error.message}`))
      await page.clock.setSystemTime(Date.now() - 3 * 3_600_000)
      await page.goto(lobby.screen(`/screens/prayer/${PRAYER_SOURCE}`))
      const london = (ms: number) => new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' }).format(ms)
      const now = Date.now()
      await page.waitForFunction(
        (accepted) => accepted.includes(document.getElementById('screen-clock')?.textContent ?? ''),
        [london(now), london(now + 60_000)],
        { timeout: 5000 },
      )
      await page.close()
    }, TEST_MS)

    test('Arabic: Arabic names, right to left', async () => {
      const page = await open(`/screens/prayer/${PRAYER_SOURCE}`, { lang: 'ar' })
      await shows(page, '.prayer-row[data-prayer="fajr"] .p-name', 'الفجر')
      await shows(page, '.prayer-row[data-prayer="maghrib"] .p-name', 'المغرب')
      await shows(page, '.next-label', 'الصلاة القادمة')
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl'])
      await shot(page, 'prayer-arabic-landscape')
      await turn(page, PORTRAIT)
      await shot(page, 'prayer-arabic-portrait')
      await page.close()
    }, TEST_MS)
  })

  describe('problems shown on the page', () => {
    test('a wrong token: a clear message on every kind of screen', async () => {
      for (const path of ['/screens/queue/qu_main', '/screens/widgets/wdg_events', `/screens/prayer/${PRAYER_SOURCE}`]) {
        const page = await open(path, { token: 'lbd_not-a-real-token' })
        await shows(page, '#screen-message .message-heading', "This screen's token is not valid")
        expect(await page.locator('#screen-message').isVisible()).toBe(true)
        if (path.includes('widgets')) await shot(page, 'token-invalid')
        await page.close()
      }
    }, TEST_MS)

    test('no token, and an unknown ID, each say so', async () => {
      const page = await browser.newPage()
      await page.goto(`${lobby.url}/screens/widgets/wdg_events`)
      await shows(page, '#screen-message .message-heading', "This screen's URL has no token")
      await page.goto(lobby.screen('/screens/widgets/wdg_nope'))
      await shows(page, '#screen-message .message-heading', 'Unknown widget')
      await shows(page, '#screen-message .message-detail', 'wdg_nope')
      await page.goto(lobby.screen('/screens/queue/qu_nope'))
      await shows(page, '#screen-message .message-heading', 'Unknown queue unit')
      await page.goto(lobby.screen('/screens/prayer/psrc_nobody-0000-nowhere-xx'))
      await shows(page, '#screen-message .message-heading', 'Unknown prayer source')
      await page.close()
    }, TEST_MS)
  })

  test('after the server restarts, the screens come back by themselves and catch up', async () => {
    const board = await open('/screens/widgets/wdg_departures')
    const queue = await open('/screens/queue/qu_main', { location: 'loc_hall' })
    await shows(board, '.trip[data-id="d1"]')
    await shows(queue, '.svc-name', 'Accounts')
    expect(await board.locator('#screen-status').isVisible()).toBe(false)

    await lobby.kill()
    await shows(board, '#screen-status', 'Offline since', 5_000)
    await shows(queue, '#screen-status', 'Offline since', 5_000)
    expect(await board.evaluate(() => document.getElementById('screen')!.classList.contains('is-offline'))).toBe(true)
    // Greyed (after its transition), not posing as live; not faded, so its text keeps its contrast (test/screens/a11y.test.ts).
    await board.waitForFunction(() => getComputedStyle(document.getElementById('screen-content')!).filter.includes('grayscale'), null, { timeout: 2000 })
    expect(await board.evaluate(() => Number(getComputedStyle(document.getElementById('screen-content')!).opacity))).toBe(1)
    await shot(board, 'offline')

    await lobby.serve()
    // A change made while the screens reconnect arrives with the catch-up snapshot.
    await lobby.pushWidget('wdg_departures', 'TRANSPORT_BOARD', transportData(Date.now(), 'ON_TIME'))
    await lobby.issueTicket('loc_hall', 'svc_loans')
    for (const page of [board, queue]) {
      await page.waitForSelector('#screen-status', { state: 'hidden', timeout: 25_000 })
      expect(await page.evaluate(() => document.getElementById('screen')!.classList.contains('is-live'))).toBe(true)
    }
    await shows(board, '.trip[data-id="d1"] .status-text', 'On time', liveMs(LIVE_BASE_MS))

    // Live again: the next change arrives within a second.
    await lobby.pushWidget('wdg_departures', 'TRANSPORT_BOARD', transportData(Date.now(), 'DELAYED'))
    await shows(board, '.trip[data-id="d1"] .status-text', '+7 min', liveMs(LIVE_BASE_MS))
    const card = '.svc[data-service="svc_loans"][data-location="loc_hall"]'
    const waiting = Number(await textOf(queue, `${card} .svc-waiting`))
    await lobby.issueTicket('loc_hall', 'svc_loans')
    await shows(queue, `${card} .svc-waiting`, String(waiting + 1), liveMs(LIVE_BASE_MS))
    await board.close()
    await queue.close()
  }, 60_000)

  test('no request left 127.0.0.1, and no page had a script error', () => {
    expect(network.all.length).toBeGreaterThan(20)
    expect(network.all.some((url) => url.startsWith('ws://127.0.0.1'))).toBe(true)
    expect(network.outside).toEqual([])
    expect(pageErrors).toEqual([])
  })
})
