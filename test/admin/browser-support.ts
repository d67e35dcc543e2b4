import type { Locator, Page } from 'playwright-core'
import { fill, type Strings } from '../../src/client/admin/strings'
import { ensureBinary } from '../support/binary'
import type { Lobby } from '../screens/support'

/* What the console's browser tests share: people made by `lobby users add`, and signing in. */

export const PASSWORD = 'quiet lantern 42 orchard'

export function addUser(lobby: Lobby, ...args: string[]): { setupPath: string } {
  const run = Bun.spawnSync([ensureBinary(), 'users', 'add', '--db', lobby.db, ...args], { stdout: 'pipe', stderr: 'pipe' })
  if (run.exitCode !== 0) throw new Error(`users add: ${run.stderr.toString()}`)
  return JSON.parse(run.stdout.toString())
}

export async function setPassword(lobby: Lobby, setupPath: string): Promise<void> {
  const code = new URL(setupPath, lobby.url).searchParams.get('code')
  const response = await fetch(`${lobby.url}/api/auth/v1/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, password: PASSWORD }) })
  if (response.status !== 200) throw new Error(`setup: ${response.status} ${await response.text()}`)
}

/** The two people every console browser test signs in as: `root` (admin) and `omar` (manager of qu_main), passwords set. */
export async function addConsoleStaff(lobby: Lobby): Promise<void> {
  await setPassword(lobby, addUser(lobby, '--username', 'root', '--role', 'admin', '--name', 'Amira Haddad').setupPath)
  await setPassword(lobby, addUser(lobby, '--username', 'omar', '--role', 'manager', '--name', 'Omar Nasser', '--queue-units', 'qu_main').setupPath)
}

export async function signIn(page: Page, lobby: Lobby, username: string): Promise<void> {
  await page.goto(`${lobby.url}/login`)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
}

/**
 * Adds intervals to one weekday of a form's hours editor, as a person does: "Add hours", then
 * the two time boxes (HH:MM; `''` leaves a box empty). `day` is `mon` … `sun`.
 */
export async function addHours(form: Locator, t: Strings, day: keyof Strings['days'], intervals: [string, string][]): Promise<Locator> {
  const name = t.days[day]
  const group = form.getByRole('group', { name, exact: true })
  for (const [from, to] of intervals) {
    const at = await group.getByLabel(fill(t.hoursFrom, { day: name }), { exact: true }).count()
    await group.getByRole('button', { name: fill(t.addHoursTo, { day: name }), exact: true }).click()
    if (from !== '') await group.getByLabel(fill(t.hoursFrom, { day: name }), { exact: true }).nth(at).fill(from)
    if (to !== '') await group.getByLabel(fill(t.hoursTo, { day: name }), { exact: true }).nth(at).fill(to)
  }
  return group
}
