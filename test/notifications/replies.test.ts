import { afterEach, describe, expect, test } from 'bun:test'
import { jsonOf, request } from '../support/app'
import { callNext, issued, ticketRow } from '../counters/helpers'
import { queueContext, type QueueTestContext } from '../queue/helpers'
import { appointmentContext, booked } from '../appointments/helpers'
import { NotificationWorker } from '../../src/notifications'
import type { NotificationSettings } from '../../src/notifications/model'
import { smsGateway } from './servers'

/*
 * Contract §25: the gateway's signed replies (leave, more time, help), appointment reminders,
 * the customer's removal, deletion on time, the per-number and monthly limits, and the counter
 * on /metrics.
 */

const SECRET = 'inbound-secret-0123456789'
const ORIGIN = { origin: 'http://localhost' }
const stops: (() => unknown)[] = []
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
})

function settings(url: string, extra: Partial<NotificationSettings> = {}): NotificationSettings {
  return {
    country: 'GB',
    sms: { url: `${url}/sms`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'To={to}&Body={text}&Ref={messageId}', inboundSecret: SECRET },
    email: { host: '127.0.0.1', port: 9, security: 'none', from: 'lobby@branch.example' },
    ...extra,
  }
}

const METRICS_TOKEN = 'metrics-token-0123456789abcdef'

function context(gatewayUrl: string, extra: Partial<NotificationSettings> = {}) {
  return queueContext((doc) => {
    doc.workspaces[0]!.notifications = settings(gatewayUrl, extra)
  }, { metricsToken: METRICS_TOKEN })
}

const codeOf = (ctx: QueueTestContext, id: string) => ticketRow(ctx, id).tracking_code as string
const notify = (ctx: QueueTestContext, id: string, to: string) => request(ctx.app, 'POST', `/api/phone/v1/tickets/${codeOf(ctx, id)}/notify`, { headers: ORIGIN, body: { channel: 'sms', to } })
const messages = (ctx: QueueTestContext) => ctx.db.$client.query<Record<string, any>, []>('SELECT * FROM notification_messages ORDER BY rowid').all()

function reply(ctx: QueueTestContext, body: unknown, secret: string | null = SECRET) {
  const raw = JSON.stringify(body)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (secret !== null) headers['x-lobby-signature'] = `sha256=${new Bun.CryptoHasher('sha256', secret).update(raw).digest('hex')}`
  return request(ctx.app, 'POST', '/api/notifications/v1/sms/inbound', { headers, raw })
}

describe('SMS replies', () => {
  test('"1" leaves the queue, "later" asks for more time, anything else gets one help message; unsigned or wrong is 401', async () => {
    const gateway = smsGateway()
    stops.push(gateway.stop)
    const ctx = context(gateway.url)
    const [a, b] = [await issued(ctx), await issued(ctx)]
    expect((await notify(ctx, a.id, '07400 200001')).status).toBe(201)
    expect((await notify(ctx, b.id, '07400 200002')).status).toBe(201)
    expect((await reply(ctx, { from: '+447400200001', text: ' 1 ' }, null)).status).toBe(401)
    expect((await reply(ctx, { from: '+447400200001', text: '1' }, 'another-secret-0000000')).status).toBe(401)
    expect(ticketRow(ctx, a.id).status).toBe('WAITING')
    expect((await jsonOf(await reply(ctx, { from: '+447400200001', text: '1' }))).data).toEqual({ outcome: 'left' })
    expect(ticketRow(ctx, a.id).status).toBe('CANCELLED')
    expect((await jsonOf(await reply(ctx, { from: '+44 7400 200002', text: 'Later' }))).data).toEqual({ outcome: 'more_time' })
    expect(ticketRow(ctx, b.id).more_time_count).toBe(1)
    expect((await jsonOf(await reply(ctx, { from: '+447400200002', text: 'what?' }))).data).toEqual({ outcome: 'help' })
    expect((await jsonOf(await reply(ctx, { from: '+447400200002', text: 'hello?' }))).data).toEqual({ outcome: 'help' })
    expect((await jsonOf(await reply(ctx, { from: '+447400209999', text: '1' }))).data).toEqual({ outcome: 'unknown' })
    // One help message per ticket, sent like any other.
    expect(messages(ctx).map((m) => [m.kind, m.status])).toEqual([['help', 'PENDING']])
    await new NotificationWorker({ db: ctx.db, clock: ctx.clock, log: () => {}, observe: () => {} }).tick()
    const sent = new URLSearchParams(gateway.requests[0]!.body)
    expect([sent.get('To'), sent.get('Body'), sent.get('Ref')]).toEqual(['+447400200002', `${b.ticketNumber}: reply 1 to leave the queue, 2 for more time.`, messages(ctx)[0]!.id])
  })
})

describe('limits', () => {
  test('10 SMS per number a day across tickets; the monthly cap stops sending and marks the month', async () => {
    const gateway = smsGateway()
    stops.push(gateway.stop)
    const ctx = context(gateway.url, { limits: { smsPerMonth: 12 } })
    for (let i = 0; i < 13; i++) {
      const t = await issued(ctx)
      expect((await notify(ctx, t.id, i < 11 ? '07400 300001' : `07400 ${400000 + i}`)).status).toBe(201)
      expect((await callNext(ctx, 'cnt_1')).status).toBe(200)
      expect((await request(ctx.app, 'POST', `/api/operator/v1/tickets/${t.id}/no-show`, { headers: { authorization: `Bearer ${ctx.key('operator')}` } })).status).toBe(200)
    }
    // Each ticket: called and no_show, both for its number. The first number reaches 10 in its fifth ticket.
    const rows = messages(ctx)
    const skipped = rows.filter((m) => m.status === 'SKIPPED').map((m) => m.last_error as string)
    expect(skipped.filter((r) => r === 'limit: 10 SMS per number a day')).toHaveLength(12)
    expect(rows.filter((m) => m.status === 'PENDING')).toHaveLength(12)
    expect(skipped.filter((r) => r === 'limit: monthly cap of 12 SMS reached')).toHaveLength(2)
    expect(ctx.db.$client.query('SELECT cap_reached_month AS m FROM notification_settings').get()).toEqual({ m: '2026-11' })
    expect(ctx.logs.some((l) => l.msg === 'monthly SMS cap reached: SMS stop until next month')).toBe(true)
  })
})

describe('the daily close', () => {
  test('its CALLED→NO_SHOW at midnight sends no "missed your turn"', async () => {
    const gateway = smsGateway()
    stops.push(gateway.stop)
    const ctx = context(gateway.url)
    const t = await issued(ctx)
    await notify(ctx, t.id, '07400 800001')
    await callNext(ctx, 'cnt_1')
    const { NotificationService } = await import('../../src/notifications/service')
    const outbox = new NotificationService(ctx.deps).outbox
    const event = { queueUnitId: 'qu_main', type: 'ticket.no_show' as const, ticketId: t.id, data: { id: t.id }, now: ctx.clock.now() }
    ctx.deps.writes.now(() => outbox.onEvent({ ...event, actor: { type: 'system', id: 'daily-close' } }))
    expect(messages(ctx).map((m) => m.kind)).toEqual(['called'])
    ctx.deps.writes.now(() => outbox.onEvent({ ...event, actor: { type: 'key', id: 'cred_operator' } }))
    expect(messages(ctx).map((m) => m.kind)).toEqual(['called', 'no_show'])
  })
})

describe('the customer removes their contact; deletion on time', () => {
  test('DELETE removes every contact and drops what was not sent; contacts go 24 hours after the ticket ends', async () => {
    const gateway = smsGateway()
    stops.push(gateway.stop)
    const ctx = context(gateway.url)
    const t = await issued(ctx)
    await notify(ctx, t.id, '07400 400001')
    await callNext(ctx, 'cnt_1')
    const listed = await jsonOf(await request(ctx.app, 'GET', `/api/phone/v1/tickets/${codeOf(ctx, t.id)}/notify`))
    expect(listed.data.contacts).toEqual([{ channel: 'sms', shown: '+44 •••• ••01' }])
    const removed = await request(ctx.app, 'DELETE', `/api/phone/v1/tickets/${codeOf(ctx, t.id)}/notify`, { headers: ORIGIN })
    expect((await jsonOf(removed)).data).toEqual({ contacts: [], channels: ['sms', 'email'] })
    expect(messages(ctx).map((m) => [m.status, m.last_error])).toEqual([['SKIPPED', 'contact removed by the customer']])

    const u = await issued(ctx)
    await notify(ctx, u.id, '07400 400002')
    await request(ctx.app, 'POST', `/api/operator/v1/tickets/${u.id}/cancel`, { headers: { authorization: `Bearer ${ctx.key('operator')}` } })
    const services = await import('../../src/notifications/service')
    const service = new services.NotificationService(ctx.deps)
    ctx.clock.advance(23 * 3_600_000)
    expect(ctx.deps.writes.now(() => service.deleteExpired(ctx.clock.now()))).toBe(0)
    ctx.clock.advance(2 * 3_600_000)
    expect(ctx.deps.writes.now(() => service.deleteExpired(ctx.clock.now()))).toBe(1)
    expect(ctx.db.$client.query('SELECT count(*) AS n FROM notification_contacts').get()).toEqual({ n: 0 })
  })
})

describe('appointment reminders', () => {
  test('24 hours and 1 hour before, once each; a booking made after a reminder\'s moment skips it; phone and e-mail erased 7 days after', async () => {
    const gateway = smsGateway()
    stops.push(gateway.stop)
    const ctx = appointmentContext((doc) => {
      doc.workspaces[0]!.notifications = settings(gateway.url)
    })
    // Wednesday 2026-11-25 09:30Z; the appointment Thursday 10:00 Berlin (09:00Z): 23.5 hours ahead.
    const appointment = await booked(ctx, { startAt: '2026-11-26T10:00:00+01:00', phone: '07400 500001' })
    const { NotificationService } = await import('../../src/notifications/service')
    const service = new NotificationService(ctx.deps)
    const remind = () => ctx.deps.writes.now(() => service.remind(ctx.clock.now()))
    remind()
    expect(messages(ctx).map((m) => m.kind)).toEqual(['confirmed'])
    ctx.clock.set('2026-11-26T08:00:00.000Z')
    remind()
    remind()
    expect(messages(ctx).map((m) => m.kind)).toEqual(['confirmed', 'reminder'])
    expect(messages(ctx)[1]!.text).toContain(`Booking code ${appointment.code}`)
    expect(messages(ctx)[1]!.text).toContain('10:00')
    ctx.clock.set('2026-12-03T09:16:00.000Z')
    ctx.deps.writes.now(() => service.deleteExpired(ctx.clock.now()))
    expect(ctx.db.$client.query('SELECT phone, email, name FROM appointments').get()).toEqual({ phone: null, email: null, name: 'Amal Haddad' })
  })
})

describe('/metrics', () => {
  test('lobby_notifications_total counts by channel, kind and result', async () => {
    const gateway = smsGateway({ refuse: 1 })
    stops.push(gateway.stop)
    const ctx = context(gateway.url)
    const t = await issued(ctx)
    await notify(ctx, t.id, '07400 600001')
    await callNext(ctx, 'cnt_1')
    const worker = new NotificationWorker({ db: ctx.db, clock: ctx.clock, log: () => {}, observe: (c, k, r) => ctx.deps.metrics.notification(c, k, r), random: () => 0 })
    await worker.tick()
    ctx.clock.advance(60_000)
    await worker.tick()
    const text = await (await request(ctx.app, 'GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
    expect(text).toContain('lobby_notifications_total{channel="sms",kind="called",result="retry"} 1')
    expect(text).toContain('lobby_notifications_total{channel="sms",kind="called",result="sent"} 1')
  })
})
