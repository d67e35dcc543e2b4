import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { ensureBinary } from '../support/binary'
import { CHROMIUM, guardNetwork, HAVE_CHROMIUM, launchBrowser, Lobby } from '../screens/support'

/**
 * Contract §28 in Chromium against dist/lobby (issue 48): the words of a wait on the kiosk, its
 * ticket and print page, the phone page, the join list and the board, in English and Arabic.
 * C001: no counter open and nobody ahead — "about N min" and "No counter is open right now",
 * never "You're next". R001: the counter Loans shares with Accounts is busy and older Accounts
 * tickets wait — nobody ahead in the Loans line, and still not "You're next".
 */
const TEST_MS = 60_000
const PHONE = { width: 360, height: 740 }
const NEXT = ["You're next", 'أنت التالي']

/** window.print() counted, not opened; no vibration or sound needed here. */
const PRINT_STUB = `window.print = function () {}; navigator.vibrate = function () { return true };`

if (!HAVE_CHROMIUM) console.warn(`SKIPPED wait words browser tests: no Chromium at ${CHROMIUM}`)

function cli(lobby: Lobby, ...args: string[]): any {
  const run = Bun.spawnSync([ensureBinary(), ...args, '--db', lobby.db], { stdout: 'pipe', stderr: 'pipe' })
  if (run.exitCode !== 0) throw new Error(`${args.join(' ')}: ${run.stderr.toString()}`)
  return JSON.parse(run.stdout.toString())
}

describe.skipIf(!HAVE_CHROMIUM)('the words of a wait on every customer page (contract §28, issue 48)', () => {
  const lobby = new Lobby()
  let browser: BrowserContext
  let kiosk: Page
  const pageErrors: string[] = []

  beforeAll(async () => {
    await lobby.start()
    browser = await launchBrowser()
    await guardNetwork(browser)
    await browser.addInitScript(PRINT_STUB)
    kiosk = await browser.newPage()
    kiosk.on('pageerror', (error) => pageErrors.push(String(error)))
    const { code } = cli(lobby, 'devices', 'pair', '--role', 'kiosk', '--queue-unit', 'qu_main', '--location', 'loc_hall', '--name', 'kiosk-words')
    await kiosk.goto(`${lobby.url}/pair?code=${code}`)
    await kiosk.getByRole('button', { name: 'Pair', exact: true }).click()
    await kiosk.waitForURL(/\/kiosk/)
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await lobby.kill()
  })

  /** The text of an element, its digits read as Latin ones (each page writes numbers by its language's one rule, contract §28). */
  async function text(page: Page, selector: string): Promise<string> {
    await page.locator(selector).first().waitFor()
    return (await page.locator(selector).first().textContent())!.trim().replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660))
  }

  async function never(page: Page, selector: string): Promise<void> {
    const all = await page.locator(selector).innerText()
    for (const words of NEXT) expect({ selector, says: all.includes(words) }).toEqual({ selector, says: false })
  }

  /** A ticket taken at the kiosk in `lang`: the kiosk's ticket screen, then its print page and phone page in that language. */
  async function takeAtKiosk(serviceId: string, lang: 'en' | 'ar') {
    await kiosk.goto(`${lobby.url}/kiosk?lang=${lang}`)
    const button = kiosk.locator(`.kiosk-service[data-service-id="${serviceId}"]:not([disabled])`)
    await button.waitFor()
    await button.click()
    await kiosk.locator('.kiosk-ticket-number').waitFor()
    const id = (await kiosk.locator('.kiosk-ticket').getAttribute('data-ticket-id'))!
    const screen = { ahead: await text(kiosk, '.kiosk-ticket-ahead'), wait: await text(kiosk, '.kiosk-ticket-wait'), noCounter: await kiosk.locator('.kiosk-ticket-no-counter').count() }
    await never(kiosk, '.kiosk-ticket')
    const qr = (await kiosk.locator('.kiosk-qr img').getAttribute('src'))!
    const print = await browser.newPage()
    await print.goto(`${lobby.url}/kiosk/tickets/${id}/print`)
    const printed = { ahead: await text(print, '.ahead'), wait: await text(print, '.wait'), noCounter: await print.locator('.no-counter').count() }
    await never(print, 'main')
    await print.close()
    const phone = await browser.newPage()
    phone.on('pageerror', (error) => pageErrors.push(String(error)))
    await phone.setViewportSize(PHONE)
    await phone.goto(`${lobby.url}${qr.replace(/\/qr\.svg$/, '')}?lang=${lang}`)
    const onPhone = { ahead: await text(phone, '.phone-ahead'), wait: await text(phone, '.phone-wait'), noCounter: await phone.locator('.phone-no-counter').count() }
    await never(phone, 'main')
    await phone.close()
    return { id, screen, printed, onPhone }
  }

  /** What the join list, the board and the kiosk's start screen say of a new ticket of `serviceId` at loc_hall in `lang`. */
  async function lists(serviceId: string, lang: 'en' | 'ar') {
    const join = await browser.newPage()
    await join.setViewportSize(PHONE)
    await join.goto(`${lobby.url}/join/loc_hall?lang=${lang}`)
    const item = `.service[data-service-id="${serviceId}"]`
    const joined = { waiting: await text(join, `${item} .waiting`), wait: await text(join, `${item} .wait`), noCounter: await join.locator(`${item} .no-counter`).count() }
    await never(join, item)
    await join.close()
    const board = await browser.newPage()
    await board.goto(lobby.screen('/screens/queue/qu_main', { location: 'loc_hall', lang }))
    const card = `.svc[data-service="${serviceId}"][data-location="loc_hall"]`
    const boarded = { waiting: await text(board, `${card} .svc-waiting`), wait: await text(board, `${card} .svc-wait`) }
    await never(board, card)
    await board.close()
    await kiosk.goto(`${lobby.url}/kiosk?lang=${lang}`)
    const button = `.kiosk-service[data-service-id="${serviceId}"]`
    const start = { waiting: await text(kiosk, `${button} .kiosk-service-waiting`), wait: await text(kiosk, `${button} .kiosk-service-wait`), noCounter: await kiosk.locator(`${button} .kiosk-service-no-counter`).count() }
    await never(kiosk, button)
    return { joined, boarded, start }
  }

  test('C001: no counter open, nobody ahead — "about 5 min" and "No counter is open right now" everywhere, in English and Arabic, never "You\'re next"', async () => {
    // The join page is written by the server, whose ICU says "5 mins" where Chromium's says "5 min": the same minutes.
    const english = await lists('svc_accounts', 'en')
    expect(english.joined.wait).toMatch(/^about 5 mins?$/)
    expect({ ...english, joined: { ...english.joined, wait: 'about 5 min' } }).toEqual({
      joined: { waiting: 'Nobody waiting', wait: 'about 5 min', noCounter: 1 },
      boarded: { waiting: '0', wait: 'No counter is open right now' },
      start: { waiting: 'Nobody waiting', wait: 'about 5 min', noCounter: 1 },
    })
    const ar = await lists('svc_accounts', 'ar')
    expect(ar.boarded).toEqual({ waiting: '0', wait: 'لا يوجد شباك مفتوح الآن' })
    expect([ar.joined.noCounter, ar.start.noCounter]).toEqual([1, 1])
    expect(ar.joined.wait).toMatch(/\b5\b/)
    expect(ar.start.wait).toMatch(/\b5\b/)

    const en = await takeAtKiosk('svc_accounts', 'en')
    expect(en.screen).toEqual({ ahead: '0', wait: '5 min', noCounter: 1 })
    expect(en.printed).toEqual({ ahead: '0', wait: '≈ 5 min', noCounter: 1 })
    expect(en.onPhone).toEqual({ ahead: '0', wait: '5 min', noCounter: 1 })
    await lobby.operate(`tickets/${en.id}/cancel`)
    const arabic = await takeAtKiosk('svc_accounts', 'ar')
    expect([arabic.screen.ahead, arabic.printed.ahead, arabic.onPhone.ahead]).toEqual(['0', '0', '0'])
    expect([arabic.screen.noCounter, arabic.printed.noCounter, arabic.onPhone.noCounter]).toEqual([1, 1, 1])
    for (const wait of [arabic.screen.wait, arabic.printed.wait, arabic.onPhone.wait]) expect(wait).toMatch(/\b5\b/)
    await lobby.operate(`tickets/${arabic.id}/cancel`)
    expect(pageErrors).toEqual([])
  }, TEST_MS)

  test('R001: Counter 1, shared by Accounts and Loans, serves Accounts and two more Accounts tickets wait — Loans has nobody ahead and says minutes, not "You\'re next", in English and Arabic', async () => {
    await lobby.operate('counters/cnt_1/open')
    for (let i = 0; i < 3; i++) await lobby.issueTicket('loc_hall', 'svc_accounts')
    await lobby.callNext('cnt_1')
    const en = await lists('svc_loans', 'en')
    // Loans: 600 s each; Counter 1 holds its Accounts ticket (about 5 min more), then the two waiting ones: about 20 min.
    expect(en.joined).toMatchObject({ waiting: 'Nobody waiting', noCounter: 0 })
    const minutes = /^about (\d+) mins?$/.exec(en.joined.wait)![1]!
    expect(en.start).toEqual({ ...en.joined, wait: `about ${minutes} min` })
    expect(en.boarded).toEqual({ waiting: '0', wait: `${minutes} min` })
    const ar = await lists('svc_loans', 'ar')
    expect(ar.boarded.waiting).toBe('0')
    expect(ar.joined.noCounter).toBe(0)

    const taken = await takeAtKiosk('svc_loans', 'en')
    expect(taken.screen).toMatchObject({ ahead: '0', noCounter: 0 })
    expect(taken.screen.wait).toMatch(/^\d+ min$/)
    expect(taken.onPhone).toEqual(taken.screen)
    expect(taken.printed).toEqual({ ahead: '0', wait: `≈ ${taken.screen.wait}`, noCounter: 0 })
    await lobby.operate(`tickets/${taken.id}/cancel`)
    const arabic = await takeAtKiosk('svc_loans', 'ar')
    expect([arabic.screen.ahead, arabic.printed.ahead, arabic.onPhone.ahead]).toEqual(['0', '0', '0'])
    expect(pageErrors).toEqual([])
  }, TEST_MS)
})
