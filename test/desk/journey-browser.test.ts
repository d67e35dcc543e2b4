import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { liveMs } from '../support/live'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { ensureBinary } from '../support/binary'
import { CHROMIUM, guardNetwork, HAVE_CHROMIUM, launchBrowser, Lobby } from '../screens/support'
import { SHOTS, shoot } from '../support/shots'

/**
 * The desk's part of the customer's journey (contract §20) in headless Chromium against
 * dist/lobby: a transfer seen on the receiving desk with its note, a no-show brought back, a
 * walk-in's number with its QR code and Print. Screenshots as test/desk/browser.test.ts.
 */
/** Contracts §8, §17, §22: a change shows within this on a quiet machine (test/support/live.ts stretches it on a busy one). */
const LIVE_BASE_MS = 1000
const TEST_MS = 30_000

if (!HAVE_CHROMIUM) console.warn(`SKIPPED desk journey browser tests: no Chromium at ${CHROMIUM}`)

function devices(lobby: Lobby, ...args: string[]): any {
  const run = Bun.spawnSync([ensureBinary(), 'devices', ...args, '--db', lobby.db], { stdout: 'pipe', stderr: 'pipe' })
  if (run.exitCode !== 0) throw new Error(`devices ${args.join(' ')}: ${run.stderr.toString()}`)
  return JSON.parse(run.stdout.toString())
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true })

describe.skipIf(!HAVE_CHROMIUM)('the desk and the customer\'s journey (contract §20) in Chromium', () => {
  const lobby = new Lobby()
  let first: BrowserContext
  let second: BrowserContext
  let desk1: Page
  let desk2: Page
  const pageErrors: string[] = []

  async function pair(page: Page, counter: string, name: string, lang: string): Promise<void> {
    const { code } = devices(lobby, 'pair', '--role', 'desk', '--counter', counter, '--name', name)
    await page.goto(`${lobby.url}/pair?lang=${lang}&code=${code}`)
    await page.getByRole('button', { name: lang === 'ar' ? 'إقران' : 'Pair', exact: true }).click()
    await page.waitForURL(/\/desk/)
    await page.locator('.desk-title').filter({ hasText: /Counter|الشباك/ }).waitFor()
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    await lobby.start()
    first = await launchBrowser()
    second = await launchBrowser()
    await guardNetwork(first)
    await guardNetwork(second)
    desk1 = await first.newPage()
    desk2 = await second.newPage()
    for (const page of [desk1, desk2]) {
      await page.setViewportSize({ width: 1920, height: 1080 })
      page.on('pageerror', (error) => pageErrors.push(String(error)))
    }
    await pair(desk1, 'cnt_1', 'counter-1-pc', 'en')
    await pair(desk2, 'cnt_2', 'counter-2-pc', 'ar')
    // Both desks' counters open, as the clerks do first (contract §27: call-next at a closed counter is 409).
    await lobby.operate('counters/cnt_1/open')
    await lobby.operate('counters/cnt_2/open')
  }, 60_000)

  afterAll(async () => {
    await first?.close()
    await second?.close()
    await lobby.kill()
  }, 30_000)

  test('a transfer with a note: the receiving desk shows where it came from and the note, as text', async () => {
    const { ticketNumber } = await lobby.issueTicket('loc_hall', 'svc_accounts')
    // Counter 2 (Arabic) calls it and transfers it to Loans with a note holding markup.
    await desk2.locator('.desk-tickets .desk-ticket-number', { hasText: ticketNumber }).waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    await button(desk2, 'نداء التالي').click()
    await desk2.locator('.desk-number', { hasText: ticketNumber }).waitFor()
    await desk2.locator('#desk-transfer-to').selectOption('svc_loans')
    const note = 'Wants a <b>savings</b> account'
    await desk2.getByLabel('ملاحظة للشباك التالي (اختيارية)').fill(note)
    await shoot(desk2, 'desk-transfer-dialog-ar.png', { fullPage: true })
    await button(desk2, 'تحويل').click()
    await desk2.locator('.desk-none').waitFor()
    // Counter 1 (English, serves Loans) calls it: "Transferred from Accounts, Counter 2" and the note.
    await desk1.locator('.desk-tickets .desk-ticket-number', { hasText: ticketNumber }).waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    await button(desk1, 'Call next').click()
    await desk1.locator('.desk-number', { hasText: ticketNumber }).waitFor()
    expect(await desk1.locator('.desk-transferred').textContent()).toBe('Transferred from Accounts, Counter 2')
    expect(await desk1.locator('.desk-transfer-note').textContent()).toBe(`Note: ${note}`)
    expect(await desk1.locator('.desk-transfer-note b').count()).toBe(0)
    await shoot(desk1, 'desk-transfer-note-en.png', { fullPage: true })
    // The same desk in Arabic names both in Arabic.
    await desk1.goto(`${lobby.url}/desk?lang=ar`)
    await desk1.locator('.desk-transferred').waitFor()
    expect(await desk1.locator('.desk-transferred').textContent()).toBe('محوّلة من الحسابات، الشباك ٢')
    await shoot(desk1, 'desk-transfer-note-ar.png', { fullPage: true })
    await desk1.goto(`${lobby.url}/desk?lang=en`)
    await button(desk1, 'Start serving').click()
    await button(desk1, 'Complete').click()
    await desk1.locator('.desk-none').waitFor()
  }, TEST_MS)

  test('a no-show is brought back from the desk\'s missed turns, first in line', async () => {
    const older = await lobby.issueTicket('loc_hall', 'svc_accounts')
    const missed = await lobby.issueTicket('loc_hall', 'svc_accounts')
    await desk2.locator('.desk-tickets .desk-ticket-number', { hasText: missed.ticketNumber }).waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    // Call the second one directly and mark it a no-show.
    await desk2.locator('.desk-tickets li', { hasText: missed.ticketNumber }).getByRole('button', { name: 'نداء', exact: true }).click()
    await desk2.locator('.desk-number', { hasText: missed.ticketNumber }).waitFor()
    await button(desk2, 'لم يحضر').click()
    const row = desk2.locator('.desk-missed-list li', { hasText: missed.ticketNumber })
    await row.waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    // The other desk has no missed turn: they are the counter's own.
    expect(await desk1.locator('.desk-missed-list li', { hasText: missed.ticketNumber }).count()).toBe(0)
    expect(await row.locator('select').inputValue()).toBe('FIRST')
    await shoot(desk2, 'desk-bring-back-ar.png', { fullPage: true })
    await row.getByRole('button', { name: 'استعادة الدور', exact: true }).click()
    await desk2.locator('.desk-outcome', { hasText: missed.ticketNumber }).waitFor()
    await desk2.locator('.desk-missed-list li', { hasText: missed.ticketNumber }).waitFor({ state: 'detached' })
    // First in line: before the ticket that waited all along, on every desk.
    await desk1.locator('.desk-line').first().locator('.desk-ticket-number').first().filter({ hasText: missed.ticketNumber }).waitFor({ timeout: liveMs(LIVE_BASE_MS) })
    const numbers = await desk2.locator('.desk-line').first().locator('.desk-ticket-number').allTextContents()
    expect(numbers.indexOf(missed.ticketNumber)).toBeLessThan(numbers.indexOf(older.ticketNumber))
    await desk1.goto(`${lobby.url}/desk?lang=en`)
    // Clear: serve both at Counter 2 through the API.
    await lobby.operate('counters/cnt_2/open')
    for (let i = 0; i < 2; i++) {
      const t = await lobby.operate('counters/cnt_2/call-next')
      await lobby.operate(`tickets/${t!.id}/start`)
      await lobby.operate(`tickets/${t!.id}/complete`)
    }
  }, TEST_MS)

  test('a walk-in: its number, the QR code of its phone page and Print, which opens its print page', async () => {
    await desk1.locator('#desk-walkin-service').selectOption('svc_accounts')
    await button(desk1, 'New walk-in ticket').click()
    const takeaway = desk1.getByRole('region', { name: 'Walk-in ticket', exact: true })
    await takeaway.waitFor()
    const number = (await takeaway.locator('.desk-number bdi').textContent())!
    expect(number).toMatch(/^A\d{3}$/)
    const qr = takeaway.getByRole('img', { name: 'Scan to follow this ticket on a phone' })
    await expect(qr.evaluate((img) => (img as unknown as { decode(): Promise<void>; naturalWidth: number }).decode().then(() => (img as unknown as { naturalWidth: number }).naturalWidth))).resolves.toBeGreaterThan(0)
    expect(await qr.getAttribute('src')).toMatch(/^\/t\/[A-Za-z0-9_-]+\/qr\.svg$/)
    await shoot(desk1, 'desk-walk-in-qr-en.png', { fullPage: true })
    const [print] = await Promise.all([desk1.waitForEvent('popup'), takeaway.getByRole('button', { name: `Print ticket ${number}` }).click()])
    // A popup opened with noopener starts as about:blank: wait for its own URL, not just a load.
    await print.waitForURL(/\/kiosk\/tickets\/tkt_[^/]+\/print$/)
    await print.waitForLoadState()
    expect(await print.locator('body').textContent()).toContain(number)
    await print.close()
    await takeaway.getByRole('button', { name: 'Done' }).click()
    await takeaway.waitFor({ state: 'hidden' })
    // Arabic: the same takeaway in Arabic.
    await desk2.locator('#desk-walkin-service').selectOption('svc_accounts')
    await button(desk2, 'تذكرة حضور جديدة').click()
    await desk2.getByRole('region', { name: 'تذكرة الحضور المباشر', exact: true }).waitFor()
    await shoot(desk2, 'desk-walk-in-qr-ar.png', { fullPage: true })
    expect(pageErrors).toEqual([])
  }, TEST_MS)
})
