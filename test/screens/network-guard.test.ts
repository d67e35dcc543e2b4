import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext } from 'playwright-core'
import { CHROMIUM, guardNetwork, HAVE_CHROMIUM, launchBrowser } from './support'

if (!HAVE_CHROMIUM) console.warn(`SKIPPED network guard test: no Chromium at ${CHROMIUM}`)

/** The guard every browser test relies on (test/screens/support.ts) catches what it must. */
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
})
