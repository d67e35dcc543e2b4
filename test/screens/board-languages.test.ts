import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SHOTS } from '../support/shots'
import type { BrowserContext, Page } from 'playwright-core'
import { CLOSED, LONG, LONG_AR, longNamesProvisioning } from './long-names'
import { CHROMIUM, HAVE_CHROMIUM, launchBrowser, Lobby } from './support'

/**
 * The queue board in the board's language (contract §18) in Chromium against dist/lobby: names
 * of the unit, locations, services and counters in Arabic on an Arabic board and in English on
 * an English one; a closed location says when it opens (and, with tickets still to call, how
 * many, in the language's plural forms); the spoken call says the counter's name in the board's
 * language. Headless Chromium has no voices: the page gets a stand-in `speechSynthesis` with
 * one local English and one local Arabic voice that records what it was asked to say.
 */

declare const window: any
declare const document: any
declare function getComputedStyle(element: unknown): any

/** Runs in the page before its own script. */
function installSpeechStub(): void {
  const said: { text: string; lang: string }[] = []
  window.__said = said
  const voices = [
    { name: 'Test English', lang: 'en-US', localService: true, default: true, voiceURI: 'test-en' },
    { name: 'Test Arabic', lang: 'ar-SA', localService: true, default: false, voiceURI: 'test-ar' },
  ]
  class FakeUtterance extends EventTarget {
    voice: unknown = null
    lang = ''
    constructor(readonly text: string) { super() }
  }
  const synth = Object.assign(new EventTarget(), {
    speaking: false,
    getVoices: () => voices,
    speak(utterance: FakeUtterance) {
      said.push({ text: utterance.text, lang: utterance.lang })
      setTimeout(() => utterance.dispatchEvent(new Event('end')), 50)
    },
    cancel() {},
  })
  Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true })
  window.SpeechSynthesisUtterance = FakeUtterance
  // The chime: tones that "ring" at once.
  window.AudioContext = class {
    currentTime = 0
    state = 'running'
    destination = {}
    resume() { return Promise.resolve() }
    createOscillator() { return { type: 'sine', frequency: { value: 0 }, connect: (n: unknown) => n, start() {}, stop() {} } }
    createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n: unknown) => n } }
  }
}

const BERLIN = 'Europe/Berlin'

if (!HAVE_CHROMIUM) console.warn(`SKIPPED board language tests: no Chromium at ${CHROMIUM}`)

describe.skipIf(!HAVE_CHROMIUM)('the queue board in its language, opening hours, the spoken counter (contract §18)', () => {
  const lobby = new Lobby()
  let browser: BrowserContext
  const pageErrors: string[] = []
  /** When the closed location opens: the day after tomorrow, 08:30 in Berlin. */
  let opensAt = 0

  beforeAll(async () => {
    const now = Date.now()
    // qu_two's sixth service keeps its own hours, on a weekday two days on: closed now, among open ones.
    const file = longNamesProvisioning(lobby.dir, now)
    const doc = JSON.parse(readFileSync(file, 'utf8'))
    const two = doc.workspaces[0].queueUnits.find((u: { id: string }) => u.id === 'qu_two')
    const later = new Intl.DateTimeFormat('en-US', { timeZone: BERLIN, weekday: 'short' }).format(now + 2 * 86_400_000).toLowerCase()
    two.services.find((s: { id: string }) => s.id === 'svc_two_6').openingHours = { [later]: [['08:30', '16:30']] }
    writeFileSync(file, JSON.stringify(doc, null, 2))
    await lobby.start(file)
    const state = await fetch(`${lobby.url}/api/display/v1/queue-units/qu_closed/state?token=${lobby.secrets.display}`).then((r) => r.json() as Promise<any>)
    opensAt = Date.parse(state.locations[0].opensAt)
    browser = await launchBrowser()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await lobby.kill()
  })

  async function open(path: string, query: Record<string, string>, ready: string): Promise<Page> {
    const page = await browser.newPage()
    page.on('pageerror', (error) => pageErrors.push(`${path} ${JSON.stringify(query)}: ${error.message}`))
    await page.addInitScript(installSpeechStub)
    await page.goto(lobby.screen(path, query))
    await page.waitForSelector(ready, { timeout: 10_000 })
    return page
  }

  const textOf = (page: Page, selector: string) => page.locator(selector).first().innerText()

  test('the closed location\'s hours come from the server: the day after tomorrow at 08:30 in Berlin', () => {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: BERLIN, year: 'numeric', month: '2-digit', day: '2-digit' })
    expect(day.format(opensAt)).toBe(day.format(Date.now() + 2 * 86_400_000))
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: BERLIN, hour: '2-digit', minute: '2-digit' }).format(opensAt)).toBe('08:30')
  })

  test('names in the board\'s language: Arabic on an Arabic board, English on an English one, each marked with its language', async () => {
    const called: { ar?: string; en?: string } = {}
    for (const lang of ['ar', 'en'] as const) {
      const page = await open('/screens/queue/qu_main', { lang, location: 'loc_hall' }, '.svc .svc-name')
      const names = lang === 'ar' ? LONG_AR : LONG
      await lobby.issueTicket('loc_hall', 'svc_1')
      const call = (await lobby.callNext('cnt_1'))!
      called[lang] = call.id
      await page.waitForFunction((number) => document.querySelector('[data-service="svc_1"] .svc-number')?.textContent === number, call.ticketNumber)
      expect(await textOf(page, '[data-service="svc_1"] .svc-name')).toBe(names.services[0]!)
      expect(await textOf(page, '[data-service="svc_1"] .svc-counter')).toBe(names.counter(1))
      expect(await page.locator('[data-service="svc_1"] .svc-counter').getAttribute('lang')).toBe(lang)
      expect(await textOf(page, '.recent-call .recent-counter')).toBe(names.counter(1))
      expect(await page.locator('#screen-title').innerText()).toContain(names.unit)
      expect(await page.locator('#screen-subtitle').innerText()).toBe(names.locations[0]!)
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(lang === 'ar' ? ['ar', 'rtl'] : ['en', 'ltr'])
      await lobby.finish(call.id)
      await page.close()
    }
  }, 60_000)

  test('a closed location with nothing to call says when it opens, in English and in Arabic, in the location\'s clock', async () => {
    for (const lang of ['en', 'ar'] as const) {
      const page = await open('/screens/queue/qu_closed', { lang }, '.closed-panel .closed-opens')
      const weekday = new Intl.DateTimeFormat(lang, { timeZone: BERLIN, weekday: 'long' }).format(opensAt)
      const time = new Intl.DateTimeFormat(lang, { timeZone: BERLIN, hour: 'numeric', minute: '2-digit' }).format(opensAt)
      expect(await textOf(page, '.closed-heading')).toBe(lang === 'ar' ? 'مغلق' : 'Closed')
      const opens = await textOf(page, '.closed-opens')
      expect(opens.startsWith(lang === 'ar' ? 'يفتح' : 'Opens')).toBe(true)
      expect(opens).toContain(weekday)
      expect(opens.replace(/\s/g, ' ')).toContain(time.replace(/\s/g, ' '))
      expect(await page.locator('.queue-layout').getAttribute('data-closed')).toBe('true')
      expect(await page.locator('#screen-title').innerText()).toBe(lang === 'ar' ? CLOSED.unit.ar : CLOSED.unit.en)
      expect(await page.locator('#screen-subtitle').innerText()).toBe(lang === 'ar' ? CLOSED.location.ar : CLOSED.location.en)
      await page.close()
    }
  }, 30_000)

  test('closed with tickets still to call (a walk-in after hours): the cards stay, a strip says closed, when it opens and how many wait, by plural rules', async () => {
    const operator = lobby.secret('queue', 'qu_closed', 'operator')
    const walkIn = async () => {
      const response = await fetch(`${lobby.url}/api/operator/v1/tickets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
        body: JSON.stringify({ locationId: 'loc_station', serviceId: 'svc_station_1' }),
      })
      expect(response.status).toBe(201)
    }
    await walkIn()
    const en = await open('/screens/queue/qu_closed', { lang: 'en' }, '.closed-strip')
    expect(await en.locator('.closed-strip').innerText()).toContain('1 ticket still waiting')
    expect(await en.locator('[data-service="svc_station_1"]').getAttribute('data-open')).toBe('false')
    expect(await textOf(en, '[data-service="svc_station_1"] .svc-closed')).toContain('Closed · opens')
    await walkIn()
    await en.waitForFunction(() => document.querySelector('.closed-strip')?.textContent.includes('2 tickets still waiting'))
    const ar = await open('/screens/queue/qu_closed', { lang: 'ar' }, '.closed-strip')
    // Arabic's dual: "two tickets", not "2 tickets".
    expect(await ar.locator('.closed-strip').innerText()).toContain('تذكرتان لا تزالان في الانتظار')
    await walkIn()
    // "3 tickets" takes the few form, with the count in the page's Arabic digits.
    await ar.waitForFunction(() => document.querySelector('.closed-strip')?.textContent.includes(`${new Intl.NumberFormat('ar').format(3)} تذاكر لا تزال في الانتظار`))
    await en.close()
    await ar.close()
  }, 30_000)

  test('a closed service\'s card is drawn at its neighbours\' scale; every stat\'s label and value are two words (issue 48)', async () => {
    const kiosk = lobby.secret('queue', 'qu_two', 'kiosk')
    const operator = lobby.secret('queue', 'qu_two', 'operator')
    // Five open services each serving someone, their counters' 30-character names making the cards shrink.
    for (let i = 1; i <= 5; i++) {
      await lobby.issueTicket(i <= 3 ? 'loc_left' : 'loc_right', `svc_two_${i}`, kiosk)
      await lobby.callNext(`cnt_two_${i}`, operator)
    }
    for (const lang of ['en', 'ar'] as const) {
      const page = await open('/screens/queue/qu_two', { lang }, '.svc .svc-counter')
      await page.waitForSelector('[data-service="svc_two_6"][data-open="false"] .svc-closed')
      const sizes: { service: string; name: number; stats: number }[] = await page.evaluate(() => [...document.querySelectorAll('.svc')].map((card: any) => ({
        service: card.dataset.service,
        name: parseFloat(getComputedStyle(card.querySelector('.svc-name')).fontSize),
        stats: parseFloat(getComputedStyle(card.querySelector('.svc-stats')).fontSize),
      })))
      expect(sizes.length).toBe(6)
      const first = sizes.find((s: { service: string }) => s.service === 'svc_two_1')!
      for (const card of sizes) expect({ service: card.service, name: card.name, stats: card.stats }).toEqual({ service: card.service, name: first.name, stats: first.stats })
      // What a screen reader reads and a copy gives: "Approx. wait 5 min", never "Approx. wait5 min".
      const label = lang === 'ar' ? 'الانتظار التقريبي' : 'Approx. wait'
      const stat = await page.locator('[data-service="svc_two_1"] .stat', { hasText: label }).evaluate((el: any) => el.textContent as string)
      expect(stat.startsWith(`${label} `)).toBe(true)
      const waiting = await page.locator('[data-service="svc_two_1"] .stat').first().evaluate((el: any) => el.textContent as string)
      expect(waiting).toMatch(/^\S.* \S+$/)
      // With SCREENSHOTS_DIR (docs/images): the board with its closed card, for docs/screens.md.
      if (process.env.SCREENSHOTS_DIR) await page.screenshot({ path: join(SHOTS, `board-closed-service-${lang}.png`), animations: 'disabled' })
      await page.close()
    }
  }, 60_000)

  test('the spoken call says the counter\'s name in the board\'s language', async () => {
    for (const lang of ['ar', 'en'] as const) {
      const page = await open('/screens/queue/qu_main', { lang, location: 'loc_hall', voice: '1' }, '.svc .svc-name')
      await page.waitForSelector('#screen[data-voice="speech"]')
      await lobby.issueTicket('loc_hall', 'svc_2')
      const call = (await lobby.callNext('cnt_2'))!
      await page.waitForFunction(() => window.__said.length >= 1, undefined, { timeout: 15_000 })
      const said = (await page.evaluate(() => window.__said)) as { text: string; lang: string }[]
      const spelt = [...call.ticketNumber].join(' ')
      expect(said[0]!.text).toBe(lang === 'ar' ? `التذكرة ${spelt}، يرجى التوجّه إلى ${LONG_AR.counter(2)}` : `Ticket ${spelt}, please go to ${LONG.counter(2)}`)
      expect(said[0]!.lang).toBe(lang === 'ar' ? 'ar-SA' : 'en-US')
      await lobby.finish(call.id)
      await page.close()
    }
  }, 60_000)

  test('no page had a script error', () => {
    expect(pageErrors).toEqual([])
  })
})
