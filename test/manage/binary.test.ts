import { afterAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureBinary } from '../support/binary'
import { exampleDocument } from '../support/fixtures'
import { guardNetwork, HAVE_CHROMIUM, IMAGES, launchBrowser, Lobby } from '../screens/support'
import { GOOD_PASSWORD } from '../people/helpers'
import { shoot } from '../support/shots'

/*
 * The live floor end to end against dist/lobby (`bun run build` first; run this file alone):
 * the real timers (the wait-target watch, the views' publish), the real websocket, a real
 * webhook receiver and /metrics. A line with a 3-second target passes it while the page is
 * open: marked in words, the webhook arrives once, the metric shows the wait; a clerk's PIN
 * sign-in at a paired desk, a call and a break with its reason each show within a second.
 */

const received: { event: string | null; body: string }[] = []
const hooks = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    received.push({ event: req.headers.get('lobby-event'), body: await req.text() })
    return new Response(null, { status: 204 })
  },
})
const lobby = new Lobby()
afterAll(async () => {
  await lobby.kill()
  hooks.stop(true)
})

function cli(...args: string[]): any {
  const run = Bun.spawnSync([ensureBinary(), ...args, '--db', lobby.db], { stdout: 'pipe', stderr: 'pipe' })
  if (run.exitCode !== 0) throw new Error(`${args.join(' ')}: ${run.stderr.toString()}`)
  return JSON.parse(run.stdout.toString())
}

async function setUp(username: string, role: string, extra: string[] = [], pin?: string): Promise<void> {
  const link = cli('users', 'add', '--username', username, '--role', role, '--queue-units', 'qu_main', ...extra)
  const code = new URL(link.setupPath, lobby.url).searchParams.get('code')
  const res = await fetch(`${lobby.url}/api/auth/v1/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, password: GOOD_PASSWORD, ...(pin ? { pin } : {}) }) })
  expect(res.status).toBe(200)
}

const waitUntil = async (what: string, check: () => boolean, ms: number) => {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`)
    await Bun.sleep(50)
  }
}

describe.skipIf(!HAVE_CHROMIUM)('/manage against dist/lobby (contract §22)', () => {
  test('target passed: marked, one webhook, the metric; a clerk signs in, a call, a break: each within a second', async () => {
    const doc = exampleDocument()
    const unit = doc.workspaces[0]!.queueUnits![0]!
    unit.services!.find((s) => s.id === 'svc_accounts')!.waitTargetSeconds = 3
    unit.webhooks = [{ id: 'whk_floor', url: `http://127.0.0.1:${hooks.port}/hooks`, events: ['queue.wait_target_exceeded'] }]
    const file = join(lobby.dir, 'floor.json')
    writeFileSync(file, JSON.stringify(doc))
    await lobby.start(file)
    await setUp('mona', 'manager', ['--name', 'Mona M.'])
    await setUp('samir.k', 'clerk', ['--name', 'Samir Khoury'], '482913')

    const context = await launchBrowser()
    try {
      const network = await guardNetwork(context)
      const page = await context.newPage()
      await page.setViewportSize({ width: 1920, height: 1080 })
      await page.goto(`${lobby.url}/login`)
      await page.getByLabel('Username').fill('mona')
      await page.getByLabel('Password').fill(GOOD_PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${lobby.url}/manage`)
      await page.locator('#manage-connection.is-live').waitFor()

      const ticket = await lobby.issueTicket('loc_hall', 'svc_accounts')
      const accounts = page.locator('tr.service[data-location="loc_hall"][data-service="svc_accounts"]')
      await accounts.locator('.ticket-number', { hasText: ticket.ticketNumber }).waitFor({ timeout: 1_000 })
      // 3 s target: passed while the page is open, marked in words.
      await accounts.locator('.over-target', { hasText: 'Over target' }).waitFor({ timeout: 6_000 })

      // The webhook arrives, once for this crossing.
      await waitUntil('the wait_target_exceeded webhook', () => received.length > 0, 10_000)
      await Bun.sleep(2_500)
      expect(received.map((r) => r.event)).toEqual(['queue.wait_target_exceeded'])
      const body = JSON.parse(received[0]!.body)
      expect(body).toMatchObject({ type: 'queue.wait_target_exceeded', actor: { type: 'system', id: 'wait-target-watch' }, data: { queueUnitId: 'qu_main', locationId: 'loc_hall', serviceId: 'svc_accounts', ticketNumber: ticket.ticketNumber, waitTargetSeconds: 3 } })
      expect(body.data.longestWaitSeconds).toBeGreaterThanOrEqual(3)
      const metrics = await (await fetch(`${lobby.url}/metrics`)).text()
      const wait = /lobby_longest_wait_seconds\{queue_unit="qu_main",location="loc_hall",service="svc_accounts"\} (\d+)/.exec(metrics)
      expect(Number(wait?.[1])).toBeGreaterThanOrEqual(5)

      // A clerk signs in at a paired desk of Counter 2 with the PIN.
      const pairing = cli('devices', 'pair', '--role', 'desk', '--counter', 'cnt_2')
      const paired = await fetch(`${lobby.url}/api/devices/v1/pair`, { method: 'POST', headers: { 'content-type': 'application/json', origin: lobby.url }, body: JSON.stringify({ code: pairing.code }) })
      expect(paired.status).toBe(200)
      const desk = { cookie: paired.headers.get('set-cookie')!.split(';')[0]!, origin: lobby.url, 'content-type': 'application/json' }
      const signIn = await fetch(`${lobby.url}/api/devices/v1/desk/clerk`, { method: 'POST', headers: desk, body: JSON.stringify({ username: 'samir.k', pin: '482913' }) })
      expect(signIn.status).toBe(200)
      const cnt2 = page.locator('tr.counter[data-counter="cnt_2"]')
      await cnt2.locator('.clerk', { hasText: 'Samir Khoury' }).waitFor({ timeout: 1_000 })

      // A call at Counter 1.
      const called = await lobby.callNext('cnt_1')
      const cnt1 = page.locator('tr.counter[data-counter="cnt_1"]')
      await cnt1.locator('.ticket', { hasText: called!.ticketNumber }).waitFor({ timeout: 1_000 })
      await shoot(page, 'manage-binary-en.png')

      // The desk (its cookie on the operator API) closes Counter 2 for lunch: the break and its reason.
      const close = await fetch(`${lobby.url}/api/operator/v1/counters/cnt_2/close`, { method: 'POST', headers: desk, body: JSON.stringify({ reason: 'Lunch' }) })
      expect(close.status).toBe(200)
      await cnt2.locator('.badge', { hasText: 'On break: Lunch' }).waitFor({ timeout: 1_000 })
      expect(network.outside).toEqual([])
    } finally {
      await context.close()
    }
  }, 180_000)
})
