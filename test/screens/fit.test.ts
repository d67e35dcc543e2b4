import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { scratchShots, SHOTS } from '../support/shots'
import { PRAYER_SOURCE, prayerMonth, prayerPeriods } from './data'
import { findCuts } from './fit-check'
import { longNamesProvisioning, longWidgets, MAIN_LINES, TWO_LINES } from './long-names'
import { CHROMIUM, HAVE_CHROMIUM, LANDSCAPE, launchBrowser, Lobby, PORTRAIT, turnedSizes, waitForShown, waitInPage } from './support'

/**
 * Issue 20: no time, number or name is ever cut. Every screen, in en-US (12-hour), en-GB
 * (24-hour) and Arabic (right to left), at 1920×1080, 1280×720 and 1080×1920, with
 * 30-character names, 12 services over three locations and a two-location unit, is checked in
 * the page: any element whose content is wider than its box (an ellipsis, or text spilling out),
 * and any line of text that a clipping box or the screen edge cuts through, fails the test with
 * the element, its text and the sizes.
 */

// The page's globals, for the functions that run in the page.
declare const document: any
declare function getComputedStyle(element: unknown): any

const LANGS = ['en-US', 'en-GB', 'ar'] as const
/** A picture of every screen that cuts something, to see what the list of problems means. */
const FAILED_SHOTS = scratchShots('fit-failures')
/** With SCREENSHOTS_DIR (docs/images for the docs), en-US and Arabic pictures of every screen, landscape and portrait. */
const DOC_SHOTS = process.env.SCREENSHOTS_DIR ? SHOTS : null
const SIZES = { '1920x1080': LANDSCAPE, '1280x720': { width: 1280, height: 720 }, '1080x1920': PORTRAIT } as const

/** Prose the page deliberately clamps to a few lines (an event's description): never a number, time or name. */
const CLAMPED_PROSE = ['event-description']

interface Screen {
  name: string
  /** The name of its pictures in the docs. */
  slug: string
  path: string
  query?: Record<string, string>
  /** Present once the screen has drawn its data. */
  ready: string
}

const SCREENS: Screen[] = [
  { name: 'queue, 12 services in three locations', slug: 'queue-12', path: '/screens/queue/qu_main', ready: '.svc .svc-counter' },
  { name: 'queue, one location', slug: 'queue-one-location', path: '/screens/queue/qu_main', query: { location: 'loc_hall' }, ready: '.svc .svc-counter' },
  { name: 'queue, two locations', slug: 'queue-two-locations', path: '/screens/queue/qu_two', ready: '.svc .svc-counter' },
  { name: 'queue, a closed location (when it opens)', slug: 'queue-closed', path: '/screens/queue/qu_closed', ready: '.closed-panel .closed-opens' },
  { name: 'prayer', slug: 'prayer', path: `/screens/prayer/${PRAYER_SOURCE}`, ready: '.prayer-row .p-time' },
  { name: "today's schedule", slug: 'schedule', path: '/screens/widgets/wdg_schedule_lobby', ready: '.sched-item' },
  { name: 'announcements', slug: 'announcements', path: '/screens/widgets/wdg_announcements', ready: '.ann-title' },
  { name: 'events', slug: 'events', path: '/screens/widgets/wdg_events', ready: '.event-title' },
  { name: 'departures and arrivals', slug: 'transport', path: '/screens/widgets/wdg_departures', ready: '.trip' },
]

if (!HAVE_CHROMIUM) console.warn(`SKIPPED screens fit test: no Chromium at ${CHROMIUM}`)

describe.skipIf(!HAVE_CHROMIUM)('every screen fits: en-US, en-GB and Arabic at 1920×1080, 1280×720, 1080×1920', () => {
  const lobby = new Lobby()
  let browser: BrowserContext
  const pageErrors: string[] = []
  /** The ticket each counter is serving, by counter ID. */
  const serving = new Map<string, string>()

  beforeAll(async () => {
    await lobby.start(longNamesProvisioning(lobby.dir))
    for (const period of prayerPeriods()) await lobby.pushMonth(PRAYER_SOURCE, prayerMonth(period))
    const widgets = longWidgets()
    await lobby.pushWidget('wdg_schedule_lobby', 'TODAYS_SCHEDULE', widgets.schedule)
    await lobby.pushWidget('wdg_announcements', 'ANNOUNCEMENTS', widgets.announcements)
    await lobby.pushWidget('wdg_events', 'EVENTS', widgets.events)
    await lobby.pushWidget('wdg_departures', 'TRANSPORT_BOARD', widgets.transport)
    // Every service has a called ticket (a long counter name now serving) and people waiting.
    for (const [unit, lines] of [['qu_main', MAIN_LINES], ['qu_two', TWO_LINES]] as const) {
      const kiosk = lobby.secret('queue', unit, 'kiosk')
      const operator = lobby.secret('queue', unit, 'operator')
      for (const line of lines) {
        for (let i = 0; i < 3; i++) await lobby.issueTicket(line.location, line.service, kiosk)
        const called = await lobby.callNext(line.counter, operator)
        if (called) serving.set(line.counter, called.id)
      }
    }
    browser = await launchBrowser()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await lobby.kill()
  })

  async function shotOf(page: Page, name: string): Promise<void> {
    mkdirSync(FAILED_SHOTS, { recursive: true })
    await page.screenshot({ path: join(FAILED_SHOTS, `${name}.png`), animations: 'disabled' })
  }

  async function cutsOn(page: Page): Promise<string[]> {
    return page.evaluate(findCuts, { rootId: 'screen', clampedProse: CLAMPED_PROSE, scrolls: false })
  }

  for (const screen of SCREENS) {
    test(screen.name, async () => {
      const failures: string[] = []
      // One tab for the screen. Each language is loaded once, at a size that turns with the
      // language, so every size is loaded fresh in one language; the screen is then turned to the
      // other sizes, as a TV rotated: the board draws and fits itself anew for its new size
      // (src/client/board.ts, `data-drawn-for`), the same drawing a load ends with. A load costs
      // Chromium about twice a turn.
      const page = await browser.newPage()
      page.on('pageerror', (error) => pageErrors.push(`${screen.path}: ${error.message}`))
      const sizes = Object.entries(SIZES)
      for (const [i, lang] of LANGS.entries()) {
        for (const [k, [sizeName, size]] of turnedSizes(sizes, i).entries()) {
          await page.setViewportSize(size)
          if (k === 0) {
            await page.goto(lobby.screen(screen.path, { lang, ...screen.query }))
            await waitForShown(page, screen.ready, { timeout: 10_000 })
          }
          await waitInPage(page, (drawn) => document.documentElement.dataset.drawnFor === drawn, `${size.width}x${size.height}`, { timeout: 10_000, what: `${screen.slug} drawn for ${sizeName}` })
          const cuts = await cutsOn(page)
          for (const cut of cuts) failures.push(`${lang} ${sizeName}: ${cut}`)
          if (cuts.length > 0) await shotOf(page, `${screen.slug}-${lang}-${sizeName}`)
          if (DOC_SHOTS !== null && lang !== 'en-GB' && sizeName !== '1280x720') {
            const orientation = size.width > size.height ? 'landscape' : 'portrait'
            await page.screenshot({ path: join(DOC_SHOTS, `long-${screen.slug}-${lang === 'ar' ? 'ar' : 'en-us'}-${orientation}.png`), animations: 'disabled' })
          }
        }
      }
      await page.close()
      expect(failures).toEqual([])
    }, 120_000)
  }

  test('the call banner fits: a 30-character counter name in every language and size', async () => {
    const failures: string[] = []
    const kiosk = lobby.secret('queue', 'qu_main', 'kiosk')
    const operator = lobby.secret('queue', 'qu_main', 'operator')
    // One tab, each size a fresh load in it: a banner shown stays its while, and a call made
    // on a page still showing the last one would wait behind it.
    const page = await browser.newPage()
    for (const lang of LANGS) {
      for (const [sizeName, size] of Object.entries(SIZES)) {
        await page.setViewportSize(size)
        await page.goto(lobby.screen('/screens/queue/qu_main', { lang }))
        await waitForShown(page, '.svc .svc-counter', { timeout: 10_000 })
        await lobby.issueTicket('loc_hall', 'svc_1', kiosk)
        const previous = serving.get('cnt_1')
        if (previous !== undefined) {
          await lobby.operate(`tickets/${previous}/start`, operator)
          await lobby.operate(`tickets/${previous}/complete`, operator)
        }
        await lobby.operate('counters/cnt_1/open', operator)
        const called = await lobby.operate('counters/cnt_1/call-next', operator)
        if (called === null) throw new Error('this build has no operator API')
        serving.set('cnt_1', called.id)
        // The banner with this call's number (a loaded machine may take a few seconds).
        await waitInPage(page, (number) => document.querySelector('.call-banner:not([hidden]) .banner-number')?.textContent === number, called.ticketNumber, { timeout: 15_000, what: `the banner with ${called.ticketNumber}` })
        const cuts = await cutsOn(page)
        for (const cut of cuts) failures.push(`${lang} ${sizeName}: ${cut}`)
        // Fitting must not overdo it: a six-sign number keeps at least half the banner's 11rem.
        const [numberPx, remPx] = await page.evaluate(() => [
          parseFloat(getComputedStyle(document.querySelector('.banner-number')).fontSize),
          parseFloat(getComputedStyle(document.documentElement).fontSize),
        ])
        if (numberPx < 5.5 * remPx) failures.push(`${lang} ${sizeName}: the banner's number is ${numberPx}px, under half its size`)
        if (cuts.length > 0) await shotOf(page, `banner-${lang}-${sizeName}`)
      }
    }
    await page.close()
    expect(failures).toEqual([])
  }, 180_000)

  test('no page had a script error', () => {
    expect(pageErrors).toEqual([])
  })
})
