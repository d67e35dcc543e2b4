import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { liveMs } from '../support/live'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { ensureBinary } from '../support/binary'
import { SHOTS, shoot } from '../support/shots'
import { guardNetwork, HAVE_CHROMIUM, CHROMIUM, launchBrowser, localDate, Lobby } from '../screens/support'

/**
 * Contract §20 on the phone page in headless Chromium against dist/lobby, at 360×740: a ticket
 * waits, is told its turn is near (vibration, a Notification after "Notify me"), is called,
 * completed and rated from the keyboard; another asks for more time and leaves the queue after
 * the confirmation; a missed turn says so in Arabic; the rating's comment, HTML and all, is text
 * on the reports page. Screenshots only with SCREENSHOTS_DIR (docs/images for the docs).
 */

/** Contracts §8, §17, §22: a change shows within this on a quiet machine (test/support/live.ts stretches it on a busy one). */
const LIVE_BASE_MS = 1500
const TEST_MS = 60_000
const PHONE = { width: 360, height: 740 }
const COMMENT = '<b>Kind</b> & quick <img src=x onerror="window.__xss=1">'

declare const document: any
declare const window: any

if (!HAVE_CHROMIUM) console.warn(`SKIPPED phone browser tests: no Chromium at ${CHROMIUM}`)

/** Records vibrations and notifications; the Notification permission starts undecided and "Notify me" grants it. */
const PHONE_STUBS = `
  navigator.vibrate = function (pattern) { window.__vibrations = (window.__vibrations || []).concat([pattern]); return true };
  window.__notes = [];
  window.Notification = class { constructor(title, options) { window.__notes.push([title, options && options.body]) } };
  window.Notification.permission = 'default';
  window.Notification.requestPermission = function () { window.Notification.permission = 'granted'; return Promise.resolve('granted') };
`

describe.skipIf(!HAVE_CHROMIUM)('the customer\'s journey on the phone page (contract §20) in Chromium against dist/lobby', () => {
  const lobby = new Lobby()
  let phones: BrowserContext
  const pageErrors: string[] = []

  const operator = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${lobby.url}/api/operator/v1/${path}`, {
      method,
      headers: { authorization: `Bearer ${lobby.secrets.operator}`, ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: response.status, body: (await response.json().catch(() => null)) as any }
  }
  /** A walk-in at the main hall's Accounts: its answer carries the phone page. */
  const walkIn = async () => (await operator('POST', 'tickets', { locationId: 'loc_hall', serviceId: 'svc_accounts' })).body.data as { id: string; ticketNumber: string; trackingUrl: string }
  /** Frees the counters and empties the line, so each test starts from nobody waiting. */
  async function clearLine(): Promise<void> {
    const overview = (await operator('GET', 'queue')).body as { data: { services: { tickets: { id: string }[] }[]; counters: { ticket: { id: string } | null }[] } }
    for (const counter of overview.data.counters) if (counter.ticket !== null) await lobby.finish(counter.ticket.id)
    for (const line of overview.data.services) for (const ticket of line.tickets) await lobby.operate(`tickets/${ticket.id}/cancel`)
  }
  async function phonePage(trackingUrl: string, lang: 'en' | 'ar'): Promise<Page> {
    const page = await phones.newPage()
    page.on('pageerror', (error) => pageErrors.push(String(error)))
    await page.setViewportSize(PHONE)
    await page.goto(`${lobby.url}${trackingUrl}?lang=${lang}`)
    return page
  }
  const fitsWidth = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    await lobby.start()
    phones = await launchBrowser()
    await guardNetwork(phones)
    await phones.addInitScript(PHONE_STUBS)
    for (const counter of ['cnt_1', 'cnt_2']) await operator('POST', `counters/${counter}/open`)
  }, 60_000)

  afterAll(async () => {
    await phones?.close()
    await lobby.kill()
  })

  test('wait with 4 ahead → "Notify me" → the turn is near once at 3 ahead → called → completed → rated from the keyboard', async () => {
    await clearLine()
    const ahead = [await walkIn(), await walkIn(), await walkIn(), await walkIn()]
    const mine = await walkIn()
    const phone = await phonePage(mine.trackingUrl, 'en')
    await phone.locator('.phone-ahead', { hasText: '4' }).waitFor()
    await phone.getByRole('button', { name: 'Notify me' }).click()
    await phone.getByText('You will be notified when your turn is near.').waitFor()
    await fitsWidth(phone)
    await shoot(phone, 'phone-waiting-actions-en.png', { fullPage: true })
    // One ticket ahead is served: 3 ahead, the unit's approachingAhead (default 3): notified once.
    await operator('POST', `tickets/${ahead[0]!.id}/call`, { counterId: 'cnt_1' })
    await lobby.finish(ahead[0]!.id)
    await phone.locator('.phone-ahead', { hasText: '3' }).waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    await phone.waitForFunction(() => window.__notes.length === 1, undefined, { timeout: liveMs(LIVE_BASE_MS) })
    expect(await phone.evaluate(() => window.__notes[0])).toEqual(['Your turn is near', `${mine.ticketNumber}: 3 ahead of you. Please come close to the counters.`])
    expect(await phone.evaluate(() => window.__vibrations.length)).toBe(1)
    // Fewer still: no second notice.
    await operator('POST', `tickets/${ahead[1]!.id}/call`, { counterId: 'cnt_1' })
    await lobby.finish(ahead[1]!.id)
    await phone.locator('.phone-ahead', { hasText: '2' }).waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    expect(await phone.evaluate(() => [window.__notes.length, window.__vibrations.length])).toEqual([1, 1])
    for (const t of ahead.slice(2)) {
      await operator('POST', `tickets/${t.id}/call`, { counterId: 'cnt_1' })
      await lobby.finish(t.id)
    }
    await operator('POST', `tickets/${mine.id}/call`, { counterId: 'cnt_2' })
    await phone.getByText('Please go to Counter 2').waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    await lobby.finish(mine.id)
    await phone.getByRole('heading', { name: 'Thank you for your visit' }).waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    // The rating from the keyboard: the five choices are one radio group (arrows move, the first Tab lands on it).
    const first = phone.getByRole('radio', { name: '1 – Poor' })
    await first.focus()
    await phone.keyboard.press('Space')
    for (let i = 0; i < 3; i++) await phone.keyboard.press('ArrowRight')
    expect(await phone.getByRole('radio', { name: '4 – Very good' }).isChecked()).toBe(true)
    await phone.keyboard.press('Tab')
    await phone.keyboard.type(COMMENT)
    expect(await phone.getByText(`${[...COMMENT].length} of 500 characters`).count()).toBe(1)
    await fitsWidth(phone)
    await shoot(phone, 'phone-rate-en.png', { fullPage: true })
    await phone.keyboard.press('Tab')
    expect(await phone.evaluate(() => document.activeElement.textContent)).toBe('Send')
    await phone.keyboard.press('Enter')
    await phone.getByRole('heading', { name: 'Thank you for your feedback' }).waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    // Once only: the page opened again says thank you, with no form.
    await phone.reload()
    await phone.getByRole('heading', { name: 'Thank you for your feedback' }).waitFor()
    expect(await phone.locator('form').count()).toBe(0)
    await phone.close()
  }, TEST_MS)

  test('"I need more time" lets the next 3 go first; "Leave the queue" asks first (Escape keeps the place), then cancels as the customer', async () => {
    await clearLine()
    const mine = await walkIn()
    for (let i = 0; i < 4; i++) await walkIn()
    const phone = await phonePage(mine.trackingUrl, 'en')
    // Nobody ahead and the walk-in's counter free: "You're next" alone (contract §28), no count beside it.
    await phone.locator('.phone-next', { hasText: "You're next" }).waitFor()
    expect(await phone.locator('.phone-ahead').count()).toBe(0)
    await phone.getByRole('button', { name: 'I need more time' }).click()
    await phone.locator('.phone-ahead', { hasText: '3' }).waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    await phone.getByText('Done: the next people go ahead of you.').waitFor()
    await phone.getByText('You can ask once more.').waitFor()
    // The confirmation: focus on "No, keep my place"; Escape closes it and the ticket still waits.
    await phone.getByRole('button', { name: 'Leave the queue' }).click()
    const confirm = phone.getByRole('group', { name: 'Leave the queue?' })
    await confirm.waitFor()
    expect(await phone.evaluate(() => document.activeElement.textContent)).toBe('No, keep my place')
    await fitsWidth(phone)
    await shoot(phone, 'phone-leave-en.png', { fullPage: true })
    await phone.keyboard.press('Escape')
    await confirm.waitFor({ state: 'detached' })
    expect(await phone.evaluate(() => document.activeElement.textContent)).toBe('Leave the queue')
    expect((await operator('GET', `tickets/${mine.id}/events`)).body.data.events.at(-1).type).toBe('more_time')
    await phone.keyboard.press('Enter')
    await phone.getByRole('button', { name: 'Yes, leave the queue' }).click()
    await phone.getByRole('heading', { name: 'You have left the queue' }).waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    const last = (await operator('GET', `tickets/${mine.id}/events`)).body.data.events.at(-1)
    expect([last.type, last.toStatus, last.actor]).toEqual(['cancelled', 'CANCELLED', { type: 'customer', id: mine.id }])
    await phone.close()
  }, TEST_MS)

  test('a missed turn, in Arabic: "فاتك دورك" and speak to a member of staff; English says the same', async () => {
    await clearLine()
    const mine = await walkIn()
    await operator('POST', `tickets/${mine.id}/call`, { counterId: 'cnt_1' })
    await operator('POST', `tickets/${mine.id}/no-show`)
    const phone = await phonePage(mine.trackingUrl, 'ar')
    await phone.getByRole('heading', { name: 'فاتك دورك' }).waitFor()
    await phone.getByText('يرجى التحدث إلى أحد الموظفين.').waitFor()
    expect(await phone.evaluate(() => document.documentElement.dir)).toBe('rtl')
    await fitsWidth(phone)
    await shoot(phone, 'phone-missed-ar.png', { fullPage: true })
    await phone.goto(`${lobby.url}${mine.trackingUrl}?lang=en`)
    await phone.getByRole('heading', { name: 'You missed your turn' }).waitFor()
    await phone.getByText('Please speak to a member of staff.').waitFor()
    await phone.close()
  }, TEST_MS)

  test('the rating in Arabic, right to left, by tapping', async () => {
    await clearLine()
    const mine = await walkIn()
    await operator('POST', `tickets/${mine.id}/call`, { counterId: 'cnt_1' })
    await lobby.finish(mine.id)
    const phone = await phonePage(mine.trackingUrl, 'ar')
    await phone.getByRole('heading', { name: 'كيف كانت زيارتك؟' }).waitFor()
    // Sending without a choice is said in words.
    await phone.getByRole('button', { name: 'إرسال' }).click()
    await phone.getByText('يرجى اختيار تقييم من 1 إلى 5.').waitFor()
    await phone.locator('.phone-star').nth(4).click()
    expect(await phone.getByRole('radio', { name: /ممتاز/ }).isChecked()).toBe(true)
    expect(await phone.getByText('يرجى اختيار تقييم من 1 إلى 5.').count()).toBe(0)
    await phone.getByLabel('تعليق (اختياري)').fill('خدمة ممتازة وسريعة، شكرًا')
    await fitsWidth(phone)
    await shoot(phone, 'phone-rate-ar.png', { fullPage: true })
    await phone.getByRole('button', { name: 'إرسال' }).click()
    await phone.getByRole('heading', { name: 'شكرًا لملاحظاتك' }).waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    await phone.close()
  }, TEST_MS)

  test('a transfer explains itself: the open phone page says "You have been transferred to Loans", in English and Arabic', async () => {
    await clearLine()
    const mine = await walkIn()
    const phone = await phonePage(mine.trackingUrl, 'en')
    // Nobody ahead and the walk-in's counter free: "You're next" alone (contract §28), no count beside it.
    await phone.locator('.phone-next', { hasText: "You're next" }).waitFor()
    expect(await phone.locator('.phone-ahead').count()).toBe(0)
    await operator('POST', `tickets/${mine.id}/call`, { counterId: 'cnt_1' })
    await phone.getByText('Please go to Counter 1').waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    expect((await operator('POST', `tickets/${mine.id}/transfer`, { serviceId: 'svc_loans', note: 'Wants a savings account' })).status).toBe(200)
    await phone.getByText('You have been transferred to Loans').waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    // The desk's note is for staff: the customer's page never shows it.
    expect(await phone.getByText('Wants a savings account').count()).toBe(0)
    await fitsWidth(phone)
    await shoot(phone, 'phone-transferred-en.png', { fullPage: true })
    await phone.goto(`${lobby.url}${mine.trackingUrl}?lang=ar`)
    await phone.locator('.phone-transferred').waitFor()
    expect(await phone.locator('.phone-transferred').textContent()).toStartWith('تم تحويلك إلى')
    await shoot(phone, 'phone-transferred-ar.png', { fullPage: true })
    await phone.close()
  }, TEST_MS)

  test('the reports page lists the comment as text: the HTML in it is shown, never run', async () => {
    const run = Bun.spawnSync([ensureBinary(), 'devices', 'pair', '--role', 'reports', '--queue-unit', 'qu_main', '--name', 'feedback-pc', '--db', lobby.db], { stdout: 'pipe', stderr: 'pipe' })
    const { code } = JSON.parse(run.stdout.toString()) as { code: string }
    const page = await phones.newPage()
    page.on('pageerror', (error) => pageErrors.push(String(error)))
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`${lobby.url}/pair?code=${code}`)
    await page.getByRole('button', { name: 'Pair', exact: true }).click()
    await page.waitForURL(/\/reports/)
    const today = localDate(Date.now(), 'Europe/Berlin')
    await page.goto(`${lobby.url}/reports?lang=en&from=${today}&to=${today}`)
    const comments = page.locator('#table-feedback-comments')
    await comments.getByText(COMMENT, { exact: false }).waitFor()
    expect(await comments.locator('b, img').count()).toBe(0)
    expect(await page.evaluate(() => window.__xss)).toBeUndefined()
    expect(await page.locator('#table-feedback-services tbody tr').count()).toBe(1)
    expect(await page.locator('#table-feedback-services tbody td').allTextContents()).toEqual(['2', '4.5'])
    await page.locator('#table-feedback-services').scrollIntoViewIfNeeded()
    await page.evaluate(() => document.querySelector('#table-feedback-services').closest('section').scrollIntoView())
    await shoot(page, 'reports-feedback-en.png', { fullPage: false })
    await page.goto(`${lobby.url}/reports?lang=ar&from=${today}&to=${today}`)
    await page.getByText('تعليقات العملاء').first().waitFor()
    await page.evaluate(() => document.querySelector('#table-feedback-services').closest('section').scrollIntoView())
    await shoot(page, 'reports-feedback-ar.png', { fullPage: false })
    await page.close()
  }, TEST_MS)

  test('no page error on the way', () => {
    expect(pageErrors).toEqual([])
  })
})
