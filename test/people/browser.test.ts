import { afterAll, describe, expect, test } from 'bun:test'
import { guardNetwork, HAVE_CHROMIUM, launchBrowser } from '../screens/support'
import { cli, GOOD_PASSWORD, peopleContext } from './helpers'

/*
 * The pages in a real browser (Debian's chromium): a clerk sets a password and PIN with the
 * setup link, a wrong password is said in words, the right one goes to the role's home; the
 * cookie is HttpOnly (the page's script cannot read it). Nothing leaves 127.0.0.1.
 */
// page.evaluate runs in the page: its global, declared for this file (the project's types are Bun's, without the DOM).
declare const document: { cookie: string }

const ctx = peopleContext()
ctx.app.listen({ port: 0, hostname: '127.0.0.1' })
const base = `http://127.0.0.1:${ctx.app.server!.port}`
afterAll(() => ctx.app.stop(true))

describe.skipIf(!HAVE_CHROMIUM)('sign-in pages in Chromium (contract §16)', () => {
  test('set a password with the link, sign in, errors in words, English and Arabic', async () => {
    const context = await launchBrowser()
    try {
      const network = await guardNetwork(context)
      const page = await context.newPage()
      const link = cli(ctx).addUser({ username: 'omar.k', role: 'clerk', queueUnits: ['qu_main'] }, ctx.clock.now())

      await page.goto(base + link.setupPath)
      await page.getByLabel('New password (at least 10 characters)').fill('short')
      await page.getByLabel('New password again').fill('short')
      await page.getByLabel('Desk PIN (6 digits)').fill('482913')
      // The browser's own checks (minlength) stop a short password before the server sees it.
      await page.getByRole('button', { name: 'Save' }).click()
      expect(await page.locator('#status').textContent()).toBe('')
      // Contract §27: the page says which rule refused the password.
      for (const [refused, said] of [
        ['password123', 'This password is among the most common ones. Choose another.'],
        ['qwertyuiop', 'The password is a run of letters, digits or keys in a row (like abcdefghij or 1234567890). Choose another.'],
        ['omar.k at the desk', 'The password must not contain your username. Choose another.'],
      ]) {
        await page.getByLabel('New password (at least 10 characters)').fill(refused!)
        await page.getByLabel('New password again').fill(refused!)
        await page.getByRole('button', { name: 'Save' }).click()
        await page.getByText(said!).waitFor()
      }
      await page.getByLabel('New password (at least 10 characters)').fill(GOOD_PASSWORD)
      await page.getByLabel('New password again').fill(GOOD_PASSWORD)
      await page.getByRole('button', { name: 'Save' }).click()
      await page.getByText('Your password is set. You can sign in now.').waitFor()

      await page.goto(`${base}/login?lang=ar`)
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
      await page.getByLabel('اسم المستخدم').fill('omar.k')
      await page.getByLabel('كلمة المرور').fill('not the password at all')
      await page.getByRole('button', { name: 'دخول' }).click()
      await page.getByText('اسم المستخدم أو كلمة المرور غير صحيحة.').waitFor()

      await page.goto(`${base}/login`)
      await page.getByLabel('Username').fill('omar.k')
      await page.getByLabel('Password').fill(GOOD_PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${base}/desk`)
      const cookies = await context.cookies()
      expect(cookies.find((c) => c.name === 'lobby_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' })
      expect(await page.evaluate(() => document.cookie)).not.toContain('lobby_session')
      expect(network.outside).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)
})
