import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { CHROMIUM, decodeQr, guardNetwork, HAVE_CHROMIUM, launchBrowser, Lobby } from '../screens/support'
import { SHOTS, shoot } from '../support/shots'

/**
 * Joining from a phone (contract §20) in headless Chromium against dist/lobby, on a 360×740
 * phone: the demo's main hall join page, a tap that lands on the ticket's phone page showing
 * its number, the page then linking to that ticket instead of offering another, the ticket
 * called, served and rated on the same phone, the Arabic
 * page, and the A4 poster whose QR code decodes to the join page. Screenshots: join-en.png,
 * join-ar.png, join-ticket.png, join-poster.png with SCREENSHOTS_DIR set (docs/images for the docs).
 */
const PHONE = { width: 360, height: 740 }
const TEST_MS = 40_000

// The page's globals inside `evaluate` callbacks (the test's own tsconfig has no DOM library).
declare const document: any

if (!HAVE_CHROMIUM) console.warn(`SKIPPED join browser tests: no Chromium at ${CHROMIUM}`)

describe.skipIf(!HAVE_CHROMIUM)('joining from a phone in Chromium against dist/lobby', () => {
  const lobby = new Lobby()
  let phone: BrowserContext
  let other: BrowserContext
  const pageErrors: string[] = []
  let seen: { all: string[]; outside: string[] }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    await lobby.start()
    phone = await launchBrowser()
    other = await launchBrowser()
    seen = await guardNetwork(phone)
    await guardNetwork(other)
  }, 60_000)

  afterAll(async () => {
    await phone?.close()
    await other?.close()
    await lobby.kill()
  })

  test('open /join/loc_hall at 360×740, tap a service, land on the phone page showing the number; back on the join page it links to that ticket', async () => {
    await lobby.issueTicket('loc_hall', 'svc_accounts')
    const page = await phone.newPage()
    page.on('pageerror', (error) => pageErrors.push(String(error)))
    await page.setViewportSize(PHONE)
    await page.goto(`${lobby.url}/join/loc_hall`)
    await page.getByRole('heading', { name: 'Take a ticket', level: 1 }).waitFor()
    const accounts = page.locator('.service[data-service-id="svc_accounts"]')
    await expect(accounts.locator('.waiting').textContent()).resolves.toBe('1 waiting')
    // Nothing wider than the phone: no sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await shoot(page, 'join-en.png', { fullPage: true })

    await page.getByRole('button', { name: 'Take a ticket for Loans' }).click()
    await page.waitForURL(/\/t\/[a-z2-7]{24}$/)
    // The phone page (contract §10) shows the new ticket's number.
    await page.getByText(/^L\d{3}$/).first().waitFor({ timeout: 5000 })
    await shoot(page, 'join-ticket.png', { fullPage: true })
    const ticketUrl = page.url()

    // One ticket per browser: the join page now links to it instead of offering another.
    await page.goto(`${lobby.url}/join/loc_hall`)
    await page.getByText('You already have a ticket here').waitFor()
    expect(await page.locator('form').count()).toBe(0)
    await page.getByRole('link', { name: 'Open your ticket' }).click()
    await page.waitForURL(ticketUrl)

    // The rest of the journey on the same phone: called, served, rated (contract §20).
    for (const counter of ['cnt_1', 'cnt_2']) await lobby.operate(`counters/${counter}/open`)
    await lobby.callNext('cnt_2') // the Accounts ticket taken before ours
    const mine = await lobby.callNext('cnt_1')
    expect(mine?.ticketNumber).toMatch(/^L\d{3}$/)
    await page.getByText('Please go to Counter 1').waitFor({ timeout: 1500 })
    await lobby.finish(mine!.id)
    await page.getByRole('heading', { name: 'Thank you for your visit' }).waitFor({ timeout: 1500 })
    await page.getByRole('radio', { name: /^5 / }).check()
    await page.getByRole('button', { name: 'Send' }).click()
    await page.getByRole('heading', { name: 'Thank you for your feedback' }).waitFor({ timeout: 1500 })
    await shoot(page, 'join-rated.png', { fullPage: true })
    expect(seen.outside).toEqual([])
    expect(pageErrors).toEqual([])
  }, TEST_MS)

  test('the Arabic page: right to left, Arabic names and words, by the language switch', async () => {
    const page = await other.newPage()
    await page.setViewportSize(PHONE)
    await page.goto(`${lobby.url}/join/loc_hall`)
    await page.getByRole('link', { name: 'العربية' }).click()
    await page.waitForURL(/lang=ar/)
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
    await page.getByRole('heading', { name: 'خذ تذكرة', level: 1 }).waitFor()
    await page.getByText('القاعة الرئيسية').waitFor()
    await page.getByRole('button', { name: 'خذ تذكرة لخدمة الحسابات' }).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await shoot(page, 'join-ar.png', { fullPage: true })
  }, TEST_MS)

  test('the poster prints on one A4 page and its QR code decodes to the join page', async () => {
    const page = await other.newPage()
    await page.setViewportSize({ width: 900, height: 1200 })
    await page.goto(`${lobby.url}/join/loc_hall/poster`)
    await page.getByRole('heading', { name: 'Join the queue from your phone' }).waitFor()
    const png = await page.screenshot({ path: join(SHOTS, 'join-poster.png'), fullPage: true })
    // Decoded on a blank page: the poster's CSP allows no data: image.
    const blank = await other.newPage()
    expect(await decodeQr(blank, png)).toBe(`${lobby.url}/join/loc_hall`)
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true })
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length
    expect(pages).toBe(1)
    // A4 portrait: 595 × 842 points.
    const box = /\/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]/.exec(pdf.toString('latin1'))
    expect([Math.round(Number(box?.[1])), Math.round(Number(box?.[2]))]).toEqual([595, 842])
  }, TEST_MS)
})
