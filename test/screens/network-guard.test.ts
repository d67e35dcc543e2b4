import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext } from 'playwright-core'
import { CHROMIUM, guardNetwork, HAVE_CHROMIUM, launchBrowser, waitForShown, waitInPage } from './support'

if (!HAVE_CHROMIUM) console.warn(`SKIPPED network guard test: no Chromium at ${CHROMIUM}`)

/** The guard and the waits every browser test relies on (test/screens/support.ts) do what they must. */
describe.skipIf(!HAVE_CHROMIUM)('the test browsers stay off the network', () => {
  let context: BrowserContext
  beforeAll(async () => {
    context = await launchBrowser()
  }, 60_000)
  afterAll(async () => {
    await context?.close()
  })

  test('a request to another host fails in the browser and is listed as outside; 127.0.0.1 is not', async () => {
    const seen = await guardNetwork(context)
    const page = await context.newPage()
    await page.setContent('<p>blank</p>')
    const outcome = await page.evaluate(async () => {
      try {
        await fetch('http://cdn.example.com/lib.js', { mode: 'no-cors' })
        return 'fetched'
      } catch {
        return 'failed'
      }
    })
    expect(outcome).toBe('failed')
    expect(seen.outside).toEqual(['http://cdn.example.com/lib.js'])
    await page.evaluate(() => fetch('http://127.0.0.1:9/nothing').catch(() => null))
    expect(seen.outside).toEqual(['http://cdn.example.com/lib.js'])
    expect(seen.all).toContain('http://127.0.0.1:9/nothing')
  }, 30_000)

  test("a page's very first request is recorded: the guard watches a new page before the test gets it", async () => {
    const guarded = await launchBrowser()
    try {
      const seen = await guardNetwork(guarded)
      const page = await guarded.newPage()
      await page.setContent('<img src="http://cdn.example.com/first.png" alt="">')
      expect(seen.outside).toEqual(['http://cdn.example.com/first.png'])
    } finally {
      await guarded.close()
    }
  }, 30_000)

  test('waitForShown: an element shown later is waited for; one that stays hidden fails the step, naming it', async () => {
    const page = await context.newPage()
    await page.setContent('<p id="hidden" style="visibility: hidden">hidden</p><p id="empty"></p>')
    await page.evaluate(() => setTimeout(() => {
      const late = (globalThis as any).document.createElement('p')
      late.id = 'late'
      late.textContent = 'late'
      ;(globalThis as any).document.body.append(late)
    }, 100))
    expect(await waitForShown(page, '#late', { timeout: 5_000 })).toBe(true)
    const started = Date.now()
    await expect(waitForShown(page, '#hidden', { timeout: 300 })).rejects.toThrow('an element #hidden shown not within 300 ms')
    await expect(waitForShown(page, '#empty', { timeout: 300 })).rejects.toThrow('#empty')
    expect(Date.now() - started).toBeLessThan(5_000)
    await page.close()
  }, 30_000)

  test('waitInPage: a navigation while it polls is waited out and the new document polled', async () => {
    const page = await context.newPage()
    await page.setContent('<p>first</p>')
    const next = 'data:text/html,<p id="second">second</p>'
    setTimeout(() => void page.goto(next).catch(() => undefined), 100)
    const found = await waitInPage(page, (id: string) => (globalThis as any).document.getElementById(id)?.textContent ?? null, 'second', { timeout: 10_000 })
    expect(found).toBe('second')
    await page.close()
  }, 30_000)
})
