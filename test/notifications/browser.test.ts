import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { ROOT } from '../support/binary'
import { shoot } from '../support/shots'
import { addUser, setPassword, signIn } from '../admin/browser-support'
import { CHROMIUM, guardNetwork, HAVE_CHROMIUM, launchSharedBrowser, Lobby, localDate } from '../screens/support'
import { browserSubscription, smsGateway, smtpServer } from './servers'

/**
 * Contract §25's pages in headless Chromium against dist/lobby, with one browser for the file
 * (a context per person): the console's Notifications section saves settings (secrets shown
 * only as set) and shows a test send's outcome; the phone page's "Notify me" with a number (in
 * English) and an address (in Arabic), masked, delivered by the real SMS gateway and SMTP
 * server of ./servers.ts when the ticket is called, then removed; the join page and the booking
 * form with their consent box, in English and Arabic.
 *
 * Web push: headless Chromium has no push service (`pushManager.subscribe` is refused,
 * "Registration failed - permission denied", even with the permission granted), so the real
 * browser is tested on the fallback (the page says so and the number or address remains), and
 * the subscribe path runs the page's own code with `subscribe` alone replaced by a subscription
 * of a test key pair, sent to the real API. Delivery to a push service is
 * test/notifications/delivery.test.ts's.
 */

const PHONE = { width: 360, height: 740 }
const TEST_MS = 90_000
const GATEWAY_TOKEN = 'gateway-token-1234'
const INBOUND_SECRET = 'inbound-secret-0123456789'

declare const document: any
declare const navigator: any
declare const axe: any

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** axe-core's serious and critical violations of the page as it is now (as test/screens/a11y.test.ts counts them), one line each. */
async function axeProblems(page: Page, label: string): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the pages' CSP does not govern (no bypassCSP context needed).
  if (!(await page.evaluate(() => typeof (globalThis as any).axe !== 'undefined'))) await page.evaluate(AXE)
  const violations = (await page.evaluate(async () => {
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')) }))
  })) as { id: string; impact: string | null; help: string; targets: string[] }[]
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${label}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`)
}

if (!HAVE_CHROMIUM) console.warn(`SKIPPED notification browser tests: no Chromium at ${CHROMIUM}`)

/** Waits for `found` to hold (a delivery reaching a test server), checking every 100 ms, failing after `ms`. */
async function until<T>(what: string, found: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const value = found()
    if (value !== undefined) return value
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(100)
  }
}

describe.skipIf(!HAVE_CHROMIUM)('notifications on the pages (contract §25) in Chromium against dist/lobby', () => {
  const lobby = new Lobby()
  let gateway: ReturnType<typeof smsGateway>
  let smtp: Awaited<ReturnType<typeof smtpServer>>
  let browser: Awaited<ReturnType<typeof launchSharedBrowser>>
  let pushBrowser: Awaited<ReturnType<typeof launchSharedBrowser>>
  const contexts: BrowserContext[] = []
  const outside: string[] = []
  const pageErrors: string[] = []
  const a11y: string[] = []

  /** A person's own browser: the headless shell, or the full Chromium for a page that subscribes to push (`push`). */
  async function person(init?: string, options: { push?: boolean } = {}): Promise<BrowserContext> {
    const context = await (options.push ? pushBrowser : browser).newContext()
    contexts.push(context)
    const seen = await guardNetwork(context)
    context.on('close', () => outside.push(...seen.outside))
    if (init !== undefined) await context.addInitScript(init)
    context.on('page', (page) => page.on('pageerror', (error) => pageErrors.push(String(error))))
    return context
  }
  async function phonePage(context: BrowserContext, path: string): Promise<Page> {
    const page = await context.newPage()
    await page.setViewportSize(PHONE)
    await page.goto(`${lobby.url}${path}`)
    return page
  }
  const operator = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${lobby.url}/api/operator/v1/${path}`, {
      method,
      headers: { authorization: `Bearer ${lobby.secrets.operator}`, ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return (await response.json().catch(() => null)) as any
  }
  /** A walk-in at the main hall's Accounts, with nobody else waiting or served: the next call is its. */
  async function walkIn(): Promise<{ id: string; trackingUrl: string }> {
    const overview = (await operator('GET', 'queue')) as { data: { services: { tickets: { id: string }[] }[]; counters: { ticket: { id: string } | null }[] } }
    for (const counter of overview.data.counters) if (counter.ticket !== null) await lobby.finish(counter.ticket.id)
    for (const line of overview.data.services) for (const ticket of line.tickets) await lobby.operate(`tickets/${ticket.id}/cancel`)
    return (await operator('POST', 'tickets', { locationId: 'loc_hall', serviceId: 'svc_accounts' })).data
  }
  const contactsOf = async (trackingUrl: string) => ((await (await fetch(`${lobby.url}/api/phone/v1/tickets/${trackingUrl.slice(3)}/notify`)).json()) as any).data.contacts as { channel: string; shown: string }[]
  const smsTo = (number: string, text: string) => () => gateway.requests.map((r) => JSON.parse(r.body) as { to: string; text: string }).find((b) => b.to === number && b.text.includes(text))
  const mailTo = (address: string) => () => smtp.mails.find((m) => m.to.includes(address))

  beforeAll(async () => {
    gateway = smsGateway()
    smtp = await smtpServer()
    // The demo branch, with notifications through this file's gateway and SMTP server, and no per-address join limit (one address here).
    const demo = readFileSync(join(ROOT, 'src/provisioning/demo.yaml'), 'utf8')
    const notifications = [
      '    notifications:',
      '      country: GB',
      `      sms: { url: "${gateway.url}/messages", headers: { content-type: application/json, authorization: "Bearer ${GATEWAY_TOKEN}" }, body: '{"to":"{to}","text":"{text}","reference":"{messageId}"}' }`,
      `      email: { host: 127.0.0.1, port: ${smtp.port}, security: none, from: lobby@branch.example }`,
      '      webPush: { subject: "mailto:it@branch.example", allowPrivateEndpoints: true }',
    ].join('\n')
    const file = join(lobby.dir, 'notify.yaml')
    const edited = demo.replace('    name: Demo workspace\n', `    name: Demo workspace\n${notifications}\n`).replace('remoteJoin: { enabled: true }', 'remoteJoin: { enabled: true, perAddressPer10Min: 0 }')
    expect(edited).toContain('perAddressPer10Min: 0')
    writeFileSync(file, edited)
    await lobby.start(file)
    await setPassword(lobby, addUser(lobby, '--username', 'root', '--role', 'admin', '--name', 'Amira Haddad').setupPath)
    browser = await launchSharedBrowser()
    pushBrowser = await launchSharedBrowser({ full: true })
    for (const counter of ['cnt_1', 'cnt_2']) await operator('POST', `counters/${counter}/open`)
  }, 60_000)

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {})
    await browser?.close()
    await pushBrowser?.close()
    await lobby.kill()
    gateway?.stop()
    await smtp?.stop()
  })

  test('the console: settings saved with secrets shown only as set, a template refused in words, a test SMS and a test e-mail sent; in Arabic too', async () => {
    const context = await person()
    const page = await context.newPage()
    await signIn(page, lobby, 'root')
    await page.goto(`${lobby.url}/admin#notifications`)
    await page.locator('#admin-nav a[href="#notifications"][aria-current="page"]').waitFor()
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor()
    // The provisioned gateway's headers: their names, never their values.
    await page.getByText('Set: content-type, authorization.', { exact: false }).waitFor()
    expect(await page.content()).not.toContain(GATEWAY_TOKEN)
    expect(await page.locator('#notify-count').innerText()).toBe('0 of 1,000 SMS sent this month.')
    await page.getByLabel('Inbound secret for replies (secret)').fill(INBOUND_SECRET)
    await page.getByLabel('SMS a month (cap)').fill('500')
    // A template naming a variable its message does not know: refused, said beside the field.
    await page.getByText('Texts in English (en)').click()
    const help = page.getByLabel('Reply help, in English (en)')
    await help.fill('{number}: reply 1 to leave, 2 for more time. {counter}')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    const helpError = page.locator(`#${await help.getAttribute('id')}-error`)
    await helpError.waitFor()
    expect(await helpError.innerText()).toContain('is not a word this message can fill in')
    expect(await help.getAttribute('aria-invalid')).toBe('true')
    await help.fill('{number}: reply 1 to leave the queue, 2 for more time.')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.locator('#admin-status', { hasText: 'Saved.' }).waitFor()
    await page.locator('#notify-count', { hasText: '0 of 500 SMS' }).waitFor()
    // The secret is set and not shown again; the field is empty.
    expect(await page.getByLabel('Inbound secret for replies (secret)').inputValue()).toBe('')
    await page.getByText('Set. Never shown again; leave empty to keep it.').first().waitFor()
    expect(await page.content()).not.toContain(INBOUND_SECRET)
    const stored = await (await fetch(`${lobby.url}/api/admin/v1/workspaces/ws_demo/notifications`, { headers: { cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') } })).json() as any
    expect(stored.data.settings.limits).toEqual({ smsPerMonth: 500 })
    expect(stored.data.secretsSet).toEqual({ smsHeaders: ['content-type', 'authorization'], inboundSecret: true, smtpPassword: false })

    // A test SMS through the real gateway: its outcome in words, the gateway got it, the list shows it.
    await page.getByLabel('Send to (number or address)').fill('07400 123456')
    await page.getByRole('button', { name: 'Send a test', exact: true }).click()
    await page.locator('#notify-test-result', { hasText: 'Sent: the gateway or server took the message.' }).waitFor()
    await until('the test SMS', smsTo('+447400123456', 'test message'))
    expect(gateway.requests.at(-1)!.headers.get('authorization')).toBe(`Bearer ${GATEWAY_TOKEN}`)
    await page.locator('table.admin-table tr', { hasText: 'Test' }).filter({ hasText: 'Sent' }).first().waitFor()
    await page.locator('#notify-count', { hasText: '1 of 500 SMS' }).waitFor()
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.evaluate(() => { for (const fold of document.querySelectorAll('details')) fold.open = true })
    a11y.push(...(await axeProblems(page, 'console notifications en')))
    await page.evaluate(() => { for (const fold of document.querySelectorAll('details')) fold.open = false })
    await shoot(page, 'notifications-console-en.png', { fullPage: true })

    // Arabic: the same section in words, a number that is not one refused beside the field, a test e-mail.
    await page.goto(`${lobby.url}/admin?lang=ar#notifications`)
    await page.getByRole('heading', { name: 'الإعدادات', exact: true }).waitFor()
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
    const to = page.getByLabel('أرسل إلى (رقم أو عنوان)')
    await to.fill('12')
    await page.getByRole('button', { name: 'أرسل اختبارًا', exact: true }).click()
    await page.getByText('هذا ليس رقم هاتف. اكتبه مع + ورمز الدولة، أو بالصيغة المحلية للدولة.').waitFor()
    expect(await to.getAttribute('aria-invalid')).toBe('true')
    await page.evaluate(() => { for (const fold of document.querySelectorAll('details')) fold.open = true })
    a11y.push(...(await axeProblems(page, 'console notifications ar, an error shown')))
    await page.getByLabel('القناة', { exact: true }).selectOption('email')
    await to.fill('root@example.com')
    await page.getByRole('button', { name: 'أرسل اختبارًا', exact: true }).click()
    await page.locator('#notify-test-result', { hasText: 'أُرسلت' }).waitFor()
    const mail = await until('the test e-mail', mailTo('root@example.com'))
    expect(mail.raw).toContain('this is a test message')
    await shoot(page, 'notifications-console-ar.png', { fullPage: true })
  }, TEST_MS)

  test('the phone page in English: push refused by this browser, said so; a number refused in words, then taken from the keyboard, masked; the call comes by SMS; Stop notifications, on the called page, removes it', async () => {
    const context = await person(undefined, { push: true })
    await context.grantPermissions(['notifications'], { origin: lobby.url })
    const ticket = await walkIn()
    const page = await phonePage(context, `${ticket.trackingUrl}?lang=en`)
    await page.getByRole('heading', { name: 'Notify me', exact: true }).waitFor()
    // Web push first, where the browser may: headless Chromium has no push service.
    await page.getByRole('button', { name: 'Notify me in this browser' }).click()
    await page.getByText('This browser cannot receive notifications from this page. You can use a number or an e-mail address instead.').waitFor()
    expect(await page.getByRole('button', { name: 'Notify me in this browser' }).count()).toBe(0)
    // The service worker Lobby serves (same origin, scope /t/) registered on the way.
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/t/'))?.active?.scriptURL ?? (await navigator.serviceWorker.getRegistration('/t/'))?.installing?.scriptURL ?? null)).toBe(`${lobby.url}/t/sw.js`)

    const field = page.getByLabel('Mobile number or e-mail address')
    await field.fill('12')
    await page.getByRole('button', { name: 'Send me messages' }).click()
    await page.locator('#notify-to-error', { hasText: 'This is not a mobile number. Type it as you would dial it, or with + and the country code.' }).waitFor()
    expect(await field.getAttribute('aria-invalid')).toBe('true')
    expect(await field.getAttribute('aria-describedby')).toContain('notify-to-error')
    a11y.push(...(await axeProblems(page, 'phone notify en, an error shown')))
    // From the keyboard: the field has the focus back; type and press Enter.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('notify-to')
    await page.keyboard.press('Control+A')
    await page.keyboard.type('07400 123457')
    await page.keyboard.press('Enter')
    await page.locator('.phone-contacts li', { hasText: '+44 •••• ••57' }).waitFor()
    await page.getByText('Done: you will get text messages about this ticket.').waitFor()
    expect(await page.content()).not.toContain('123457')
    expect(await contactsOf(ticket.trackingUrl)).toEqual([{ channel: 'sms', shown: '+44 •••• ••57' }])
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await shoot(page, 'notify-phone-en-360x740.png', { fullPage: true })

    await lobby.callNext('cnt_1')
    await until('the call by SMS', smsTo('+447400123457', 'please go to'))
    // Called, the page shows the call, and the contact can still be removed there.
    await page.locator('.phone-call', { hasText: 'Please go to' }).waitFor()
    await page.getByRole('button', { name: 'Stop notifications' }).click()
    await page.getByText('Done: you will get no more messages about this ticket.').waitFor()
    expect(await contactsOf(ticket.trackingUrl)).toEqual([])
  }, TEST_MS)

  test('the phone page in Arabic: an address refused in words, then taken, masked; the call comes by e-mail; "Stop notifications" removes it', async () => {
    const context = await person()
    const ticket = await walkIn()
    const page = await phonePage(context, `${ticket.trackingUrl}?lang=ar`)
    await page.getByRole('heading', { name: 'أعلمني', exact: true }).waitFor()
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
    const field = page.getByLabel('رقم الجوال أو البريد الإلكتروني')
    await field.fill('amira@')
    await page.getByRole('button', { name: 'أرسلوا لي الرسائل' }).click()
    await page.locator('#notify-to-error', { hasText: 'هذا ليس بريدًا إلكترونيًا. يبدو مثل name@example.com.' }).waitFor()
    await field.fill('amira@example.com')
    await page.getByRole('button', { name: 'أرسلوا لي الرسائل' }).click()
    await page.locator('.phone-contacts li', { hasText: 'a••••@e••••.com' }).waitFor()
    expect(await page.locator('#notify-to-error').innerText()).toBe('')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    a11y.push(...(await axeProblems(page, 'phone notify ar, an address listed')))
    await shoot(page, 'notify-phone-ar-360x740.png', { fullPage: true })

    // "Stop notifications", reached from the keyboard, removes it: nothing is sent when the ticket is called.
    await page.getByRole('button', { name: 'إيقاف الإشعارات' }).focus()
    await page.keyboard.press('Enter')
    await page.getByText('تم: لن تصلك رسائل أخرى عن هذه التذكرة.').waitFor()
    expect(await page.locator('.phone-contacts').count()).toBe(0)
    expect(await contactsOf(ticket.trackingUrl)).toEqual([])
    // Given again, then called: the e-mail arrives.
    await field.fill('amira@example.com')
    await page.keyboard.press('Enter')
    await page.locator('.phone-contacts li', { hasText: 'a••••@e••••.com' }).waitFor()
    await lobby.callNext('cnt_1')
    const mail = await until('the call by e-mail', mailTo('amira@example.com'))
    expect(mail.raw).toContain('Counter')
  }, TEST_MS)

  test('the subscribe path: the page registers /t/sw.js, subscribes with the branch\'s VAPID key and sends the subscription; "this browser" is listed', async () => {
    const subscription = browserSubscription('https://127.0.0.1:9/push/subscription-1').subscription
    // Only `subscribe` is replaced (headless Chromium has no push service); it records the key it was given.
    const context = await person(`
      PushManager.prototype.subscribe = function (options) {
        window.__applicationServerKey = Array.from(new Uint8Array(options.applicationServerKey));
        const json = ${JSON.stringify(subscription)};
        return Promise.resolve({ endpoint: json.endpoint, toJSON: () => json, unsubscribe: () => Promise.resolve(true) });
      };
      PushManager.prototype.getSubscription = function () { return Promise.resolve(null) };
    `, { push: true })
    await context.grantPermissions(['notifications'], { origin: lobby.url })
    const ticket = await walkIn()
    const page = await phonePage(context, `${ticket.trackingUrl}?lang=en`)
    await page.getByRole('button', { name: 'Notify me in this browser' }).click()
    await page.getByText('Done: this browser will show a notification.').waitFor()
    await page.locator('.phone-contacts li', { hasText: 'this browser' }).waitFor()
    expect(await contactsOf(ticket.trackingUrl)).toEqual([{ channel: 'webPush', shown: 'this browser' }])
    const key = ((await (await fetch(`${lobby.url}/api/phone/v1/push-key?code=${ticket.trackingUrl.slice(3)}`)).json()) as any).data.publicKey as string
    expect(Buffer.from(await page.evaluate(() => (globalThis as any).__applicationServerKey as number[])).toString('base64url')).toBe(key)
    await page.getByRole('button', { name: 'Stop notifications' }).click()
    await page.getByText('Done: you will get no more messages about this ticket.').waitFor()
    expect(await contactsOf(ticket.trackingUrl)).toEqual([])
  }, TEST_MS)

  test('the join page: a number without the consent box is refused beside the box; ticked, the ticket has it (English); an address in Arabic', async () => {
    const context = await person()
    const page = await phonePage(context, '/join/loc_hall?lang=en')
    await page.getByLabel('Mobile number').fill('07400 123458')
    await page.getByRole('button', { name: 'Take a ticket for Accounts' }).click()
    await page.locator('#consent-error', { hasText: 'Tick this box to get messages, or leave the number and the address empty.' }).waitFor()
    expect(await page.locator('#consent').getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByLabel('Mobile number').inputValue()).toBe('07400 123458')
    a11y.push(...(await axeProblems(page, 'join en, consent refused')))
    await page.locator('#consent').check()
    await shoot(page, 'notify-join-en-360x740.png', { fullPage: true })
    await page.getByRole('button', { name: 'Take a ticket for Accounts' }).click()
    await page.waitForURL(/\/t\/[a-z0-9]+/)
    await page.locator('.phone-contacts li', { hasText: '+44 •••• ••58' }).waitFor()

    const arabic = await person()
    const ar = await phonePage(arabic, '/join/loc_hall?lang=ar')
    expect(await ar.locator('html').getAttribute('dir')).toBe('rtl')
    await ar.getByLabel('البريد الإلكتروني').fill('sara@example.org')
    await ar.getByRole('checkbox', { name: 'أوافق على تلقي رسائل عن هذه التذكرة على هذا الرقم أو العنوان. تُحذف بعد يوم من انتهاء التذكرة.' }).check()
    expect(await ar.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    a11y.push(...(await axeProblems(ar, 'join ar, with an address')))
    await shoot(ar, 'notify-join-ar-360x740.png', { fullPage: true })
    await ar.getByRole('button', { name: 'خذ تذكرة لخدمة الحسابات' }).click()
    await ar.waitForURL(/\/t\/[a-z0-9]+/)
    await ar.locator('.phone-contacts li', { hasText: 's••••@e••••.org' }).waitFor()
  }, TEST_MS)

  test('the booking form: a phone without the consent box refused beside it; ticked, booked and confirmed by SMS (English); an address in Arabic gets the confirmation with its .ics', async () => {
    // The slots of the day 24 hours ahead (in the hall's zone): today's first slot may start
    // between the page's drawing and Book, and the form then refuses it as past (seen under load).
    const tomorrow = localDate(Date.now() + 86_400_000, 'Europe/Berlin')
    const context = await person()
    const page = await phonePage(context, `/book/loc_hall?lang=en&date=${tomorrow}`)
    await page.locator('.slot').first().click()
    await page.locator('#name').fill('Amal Haddad')
    await page.locator('#phone').fill('07400 123459')
    await page.getByRole('button', { name: 'Book', exact: true }).click()
    await page.locator('#consent-error', { hasText: 'Tick this box to get messages, or leave the phone and the e-mail empty.' }).waitFor()
    expect(await page.locator('#phone').inputValue()).toBe('07400 123459')
    a11y.push(...(await axeProblems(page, 'book en, consent refused')))
    await page.locator('.slot').first().click()
    await page.getByRole('checkbox', { name: 'I agree to get messages about this appointment at this phone or e-mail (confirmation, reminders, changes). They are deleted 7 days after it.' }).check()
    await page.getByRole('button', { name: 'Book', exact: true }).click()
    await page.waitForURL(/\/b\/[2-9A-Z]{8}/)
    await until('the confirmation by SMS', smsTo('+447400123459', 'is booked'))

    const arabic = await person()
    const ar = await phonePage(arabic, `/book/loc_hall?lang=ar&date=${tomorrow}`)
    await ar.locator('.slot').first().click()
    await ar.locator('#name').fill('هدى')
    await ar.locator('#email').fill('huda@example.com')
    await ar.locator('#consent').check()
    a11y.push(...(await axeProblems(ar, 'book ar, consent ticked')))
    await ar.getByRole('button', { name: 'احجز', exact: true }).click()
    await ar.waitForURL(/\/b\/[2-9A-Z]{8}/)
    const mail = await until('the confirmation e-mail', mailTo('huda@example.com'))
    expect(mail.raw).toContain('text/calendar')
  }, TEST_MS)

  test('no serious or critical axe violation in the states above, no page error, no request off 127.0.0.1', async () => {
    for (const context of contexts.splice(0)) await context.close()
    expect(a11y).toEqual([])
    expect(pageErrors).toEqual([])
    expect(outside).toEqual([])
  })
})
