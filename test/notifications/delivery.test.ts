import { afterEach, describe, expect, test } from 'bun:test'
import { jsonOf, request } from '../support/app'
import { callNext, issued, ticketRow } from '../counters/helpers'
import { mainUnit, queueContext, type QueueTestContext } from '../queue/helpers'
import { appointmentContext, booked } from '../appointments/helpers'
import { NotificationWorker, NOTIFICATION_RETRY_WINDOW_MS } from '../../src/notifications'
import type { ProvisioningFile } from '../../src/provisioning/model'
import type { NotificationSettings } from '../../src/notifications/model'
import { browserSubscription, pushService, smsGateway, smtpServer, trustingFetch } from './servers'

/*
 * Contract §25 delivery against real servers on 127.0.0.1: the SMS gateway (refusing the first
 * attempt), the SMTP server (the confirmation with its text/calendar part) and a push service
 * stand-in (VAPID checked, payload decrypted). The worker runs on the test's manual clock.
 */

const ORIGIN = { origin: 'http://localhost' }
const stops: (() => unknown)[] = []
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
})

function withNotifications(doc: ProvisioningFile, settings: NotificationSettings) {
  doc.workspaces[0]!.notifications = settings
}

function smsSettings(url: string): NotificationSettings['sms'] {
  return {
    url: `${url}/messages`,
    headers: { 'content-type': 'application/json', authorization: 'Bearer gateway-token-1234' },
    body: '{"to":"{to}","text":"{text}","reference":"{messageId}"}',
    inboundSecret: 'inbound-secret-0123456789',
  }
}

const codeOf = (ctx: QueueTestContext, id: string) => ticketRow(ctx, id).tracking_code as string
const notify = (ctx: QueueTestContext, code: string, body: unknown) => request(ctx.app, 'POST', `/api/phone/v1/tickets/${code}/notify`, { headers: ORIGIN, body })
const messages = (ctx: QueueTestContext) => ctx.db.$client.query<Record<string, any>, []>('SELECT * FROM notification_messages ORDER BY rowid').all()

function worker(ctx: QueueTestContext, fetcher?: typeof fetch) {
  return new NotificationWorker({ db: ctx.db, clock: ctx.clock, log: () => {}, observe: () => {}, random: () => 0.5, ...(fetcher === undefined ? {} : { fetch: fetcher }) })
}

describe('SMS through an HTTP gateway', () => {
  test('the gateway refuses the first attempt: one delivery after the retry, with the same messageId', async () => {
    const gateway = smsGateway({ refuse: 1 })
    stops.push(gateway.stop)
    const ctx = queueContext((doc) => withNotifications(doc, { country: 'GB', sms: smsSettings(gateway.url) }))
    const ticket = await issued(ctx)
    const res = await notify(ctx, codeOf(ctx, ticket.id), { channel: 'sms', to: '07400 123456' })
    expect(res.status).toBe(201)
    expect((await jsonOf(res)).data).toEqual({ contacts: [{ channel: 'sms', shown: '+44 •••• ••56' }], channels: ['sms'] })
    expect((await callNext(ctx, 'cnt_1')).status).toBe(200)
    // Written with the call, not sent yet: nothing on the request path.
    expect(messages(ctx).map((m) => [m.kind, m.channel, m.status])).toEqual([['called', 'sms', 'PENDING']])
    expect(gateway.requests).toHaveLength(0)

    const w = worker(ctx)
    expect(await w.tick()).toBe(1)
    expect(gateway.requests.map((r) => r.accepted)).toEqual([false])
    expect(messages(ctx)[0]).toMatchObject({ status: 'PENDING', attempts: 1, last_error: 'gateway answered HTTP 503' })
    // Not due before its backoff.
    expect(await w.tick()).toBe(0)
    ctx.clock.advance(60_000)
    expect(await w.tick()).toBe(1)
    expect(await w.tick()).toBe(0)
    expect(gateway.requests.map((r) => r.accepted)).toEqual([false, true])
    const [first, second] = gateway.requests.map((r) => JSON.parse(r.body))
    expect(second).toEqual({ to: '+447400123456', text: `${ticket.ticketNumber}: please go to Counter 1.`, reference: messages(ctx)[0]!.id })
    expect(first.reference).toBe(second.reference)
    expect(gateway.requests[1]!.headers.get('authorization')).toBe('Bearer gateway-token-1234')
    expect(messages(ctx)[0]).toMatchObject({ status: 'SENT', attempts: 2 })
  })

  test('a gateway that never takes it: retried for an hour, then FAILED', async () => {
    const gateway = smsGateway({ refuse: 1_000 })
    stops.push(gateway.stop)
    const ctx = queueContext((doc) => withNotifications(doc, { country: 'GB', sms: smsSettings(gateway.url) }))
    const ticket = await issued(ctx)
    expect((await notify(ctx, codeOf(ctx, ticket.id), { channel: 'sms', to: '+44 7400 123457' })).status).toBe(201)
    await callNext(ctx, 'cnt_1')
    const w = worker(ctx)
    for (let i = 0; i < 40 && messages(ctx)[0]!.status === 'PENDING'; i++) {
      await w.tick()
      ctx.clock.advance(10 * 60_000)
    }
    const row = messages(ctx)[0]!
    expect(row.status).toBe('FAILED')
    expect(row.next_attempt_at - row.created_at).toBeGreaterThan(NOTIFICATION_RETRY_WINDOW_MS)
    expect(gateway.requests.length).toBeGreaterThan(3)
    expect(new Set(gateway.requests.map((r) => JSON.parse(r.body).reference)).size).toBe(1)
  })

  test('at most 3 SMS per ticket: the fourth is written SKIPPED with the reason', async () => {
    const gateway = smsGateway()
    stops.push(gateway.stop)
    const ctx = queueContext((doc) => {
      withNotifications(doc, { country: 'GB', sms: smsSettings(gateway.url) })
      mainUnit(doc).approachingAhead = 1
    })
    const ticket = await issued(ctx)
    expect((await notify(ctx, codeOf(ctx, ticket.id), { channel: 'sms', to: '07400 123458' })).status).toBe(201)
    // Called, requeued and called again three more times: four calls, four events.
    for (let i = 0; i < 4; i++) {
      ctx.clock.advance(1_000)
      expect((await callNext(ctx, 'cnt_1')).status).toBe(200)
      if (i < 3) expect((await request(ctx.app, 'POST', `/api/operator/v1/tickets/${ticket.id}/requeue`, { headers: { authorization: `Bearer ${ctx.key('operator')}` }, body: { position: 'FIRST' } })).status).toBe(200)
    }
    expect(messages(ctx).map((m) => m.status)).toEqual(['PENDING', 'PENDING', 'PENDING', 'SKIPPED'])
    expect(messages(ctx)[3]!.last_error).toBe('limit: 3 SMS per ticket')
  })
})

describe('e-mail through SMTP', () => {
  test('an appointment\'s confirmation reaches the SMTP server with its text/calendar part', async () => {
    const smtp = await smtpServer()
    stops.push(smtp.stop)
    const ctx = appointmentContext((doc) => withNotifications(doc, { email: { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'Lobby <lobby@branch.example>' } }))
    const appointment = await booked(ctx, { startAt: '2026-11-26T10:00:00+01:00', email: 'amal@example.com' })
    expect(messages(ctx).map((m) => [m.kind, m.channel, m.status, m.appointment_id])).toEqual([['confirmed', 'email', 'PENDING', appointment.id]])
    expect(await worker(ctx).tick()).toBe(1)
    expect(smtp.mails).toHaveLength(1)
    const mail = smtp.mails[0]!
    expect(mail.to).toEqual(['amal@example.com'])
    expect(mail.raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=PUBLISH/i)
    expect(mail.raw).toContain(`Message-ID: <${messages(ctx)[0]!.id}@lobby.invalid>`)
    // The calendar part (quoted-printable or base64) holds the event at the slot's start.
    const calendar = decodedParts(mail.raw).find((p) => p.includes('BEGIN:VCALENDAR'))!
    expect(calendar).toContain('DTSTART:20261126T090000Z')
    expect(calendar).toContain('METHOD:PUBLISH')
    expect(decodedParts(mail.raw).some((p) => p.includes(`Booking code ${appointment.code}`))).toBe(true)
    expect(messages(ctx)[0]!.status).toBe('SENT')
  })

  test('a move is told as "moved", a cancellation as "cancelled"', async () => {
    const smtp = await smtpServer()
    stops.push(smtp.stop)
    const ctx = appointmentContext((doc) => withNotifications(doc, { email: { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'lobby@branch.example' } }))
    const appointment = await booked(ctx, { startAt: '2026-11-26T10:00:00+01:00', email: 'amal@example.com' })
    const page = (path: string, form: Record<string, string>) =>
      request(ctx.app, 'POST', `/b/${appointment.code}/${path}`, { raw: new URLSearchParams(form).toString(), headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' } })
    expect((await page('move', { startAt: '2026-11-26T09:15:00.000Z' })).status).toBe(303)
    expect((await page('cancel', {})).status).toBe(303)
    expect(messages(ctx).map((m) => m.kind)).toEqual(['confirmed', 'moved', 'cancelled'])
    await worker(ctx).tick()
    expect(smtp.mails).toHaveLength(3)
  })
})

describe('web push', () => {
  test('the push service checks the VAPID JWT and decrypts the payload with the subscription\'s key', async () => {
    const push = await pushService()
    stops.push(push.stop)
    const ctx = queueContext((doc) => withNotifications(doc, { webPush: { subject: 'mailto:branch@example.com', allowPrivateEndpoints: true } }))
    const key = (await jsonOf(await request(ctx.app, 'GET', '/api/phone/v1/push-key'))).data.publicKey as string
    expect(Buffer.from(key, 'base64url')).toHaveLength(65)
    const browser = browserSubscription(push.endpoint('/push/abc'))
    const ticket = await issued(ctx)
    expect((await notify(ctx, codeOf(ctx, ticket.id), { channel: 'webPush', subscription: browser.subscription })).status).toBe(201)
    await callNext(ctx, 'cnt_1')
    await worker(ctx, trustingFetch(push.cert)).tick()
    expect(push.received).toHaveLength(1)
    const got = push.received[0]!
    expect(got.encoding).toBe('aes128gcm')
    expect(got.vapidKey).toBe(key)
    expect(got.jwt.sub).toBe('mailto:branch@example.com')
    const payload = JSON.parse(browser.decrypt(got.body))
    expect(payload).toMatchObject({ body: `${ticket.ticketNumber}: please go to Counter 1.`, messageId: messages(ctx)[0]!.id })
  })

  test('a subscription the push service answers 410 for is deleted', async () => {
    const push = await pushService()
    stops.push(push.stop)
    const ctx = queueContext((doc) => withNotifications(doc, { webPush: { subject: 'mailto:branch@example.com', allowPrivateEndpoints: true } }))
    const browser = browserSubscription(push.endpoint('/push/gone'))
    push.gone('/push/gone')
    const ticket = await issued(ctx)
    await notify(ctx, codeOf(ctx, ticket.id), { channel: 'webPush', subscription: browser.subscription })
    await callNext(ctx, 'cnt_1')
    await worker(ctx, trustingFetch(push.cert)).tick()
    expect(ctx.db.$client.query('SELECT count(*) AS n FROM notification_contacts').get()).toEqual({ n: 0 })
    expect(messages(ctx)[0]).toMatchObject({ status: 'FAILED' })
  })

  test('a push endpoint inside the network is refused unless allowed', async () => {
    const ctx = queueContext((doc) => withNotifications(doc, { webPush: { subject: 'mailto:branch@example.com' } }))
    const ticket = await issued(ctx)
    const res = await notify(ctx, codeOf(ctx, ticket.id), { channel: 'webPush', subscription: browserSubscription('https://127.0.0.1:9/push').subscription })
    expect(res.status).toBe(422)
    expect((await jsonOf(res)).error.details[0]).toMatchObject({ path: '/subscription/endpoint', message: 'the push endpoint points inside a private network' })
    const plain = await notify(ctx, codeOf(ctx, ticket.id), { channel: 'webPush', subscription: browserSubscription('http://push.example.com/x').subscription })
    expect((await jsonOf(plain)).error.details[0].message).toBe('a push endpoint must be https:')
  })
})

/** The MIME parts of a raw message, each decoded from quoted-printable or base64. */
function decodedParts(raw: string): string[] {
  return raw.split(/\r\n--[^\r\n]+\r\n/).map((part) => {
    const [head = '', ...rest] = part.split('\r\n\r\n')
    const body = rest.join('\r\n\r\n')
    if (/content-transfer-encoding: base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    if (/content-transfer-encoding: quoted-printable/i.test(head)) return body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    return body
  })
}
