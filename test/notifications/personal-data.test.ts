import { afterEach, describe, expect, test } from 'bun:test'
import { request } from '../support/app'
import { callNext, issued, ticketRow } from '../counters/helpers'
import { appointmentContext, booked } from '../appointments/helpers'
import { NotificationWorker } from '../../src/notifications'
import { exportProvisioning } from '../../src/provisioning/export'
import { TicketChangeFeed } from '../../src/tickets'
import { browserSubscription, pushService, smsGateway, smtpServer, trustingFetch } from './servers'

/*
 * Contract §25 "Personal data": after a run that opts in by SMS, e-mail and push, books with a
 * phone and an e-mail, calls, misses, replies and sends through real servers, no number or
 * address appears in the server's log, a webhook body, the export, the audit log, the rows
 * replication would carry to head office, or the outbox's own rows.
 */

const stops: (() => unknown)[] = []
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
})

const ORIGIN = { origin: 'http://localhost' }
const SECRET = 'inbound-secret-0123456789'

describe('no number or address in clear where §25 forbids it', () => {
  test('log, webhooks, export, audit log, replication feed and the outbox', async () => {
    const gateway = smsGateway({ refuse: 1 })
    const smtp = await smtpServer()
    const push = await pushService()
    stops.push(gateway.stop, smtp.stop, push.stop)
    const ctx = appointmentContext((doc) => {
      doc.workspaces[0]!.notifications = {
        country: 'GB',
        sms: { url: `${gateway.url}/sms`, headers: { 'content-type': 'application/json' }, body: '{"to":"{to}","text":"{text}"}', inboundSecret: SECRET },
        email: { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'lobby@branch.example' },
        webPush: { subject: 'mailto:branch@example.com', allowPrivateEndpoints: true },
      }
      const unit = doc.workspaces[0]!.queueUnits![0]!
      unit.locations![0]!.remoteJoin = { enabled: true }
      unit.webhooks = [{ id: 'whk_all', url: 'http://127.0.0.1:9/hooks', events: ['ticket.created', 'ticket.called', 'ticket.no_show', 'ticket.cancelled', 'ticket.approaching', 'appointment.booked', 'appointment.cancelled'] }]
    })
    const browser = browserSubscription(push.endpoint('/push/personal-endpoint-xyz'))
    const personal = ['07400 700001', '+447400700001', '7400700001', 'walkin.customer@example.com', 'booking.customer@example.com', '07400 700002', '+447400700002', '7400700002', 'personal-endpoint-xyz', browser.subscription.keys.p256dh,
      '07400 700003', '+447400700003', '7400700003', 'join.customer@example.com', '07400 700004', '+447400700004', '7400700004', 'form.customer@example.com']

    const first = await issued(ctx)
    const second = await issued(ctx)
    const code = (id: string) => ticketRow(ctx, id).tracking_code as string
    for (const body of [{ channel: 'sms', to: '07400 700001' }, { channel: 'email', to: 'walkin.customer@example.com' }, { channel: 'webPush', subscription: browser.subscription }]) {
      expect((await request(ctx.app, 'POST', `/api/phone/v1/tickets/${code(first.id)}/notify`, { headers: ORIGIN, body })).status).toBe(201)
    }
    expect((await request(ctx.app, 'POST', `/api/phone/v1/tickets/${code(second.id)}/notify`, { headers: ORIGIN, body: { channel: 'sms', to: '+44 7400 700002' } })).status).toBe(201)
    await booked(ctx, { startAt: '2026-11-26T10:00:00+01:00', phone: '07400 700002', email: 'booking.customer@example.com' })
    // The join page (JSON) and the booking form with their consent box (the pages' side of §25).
    const joined = await request(ctx.app, 'POST', '/join/loc_hall', { headers: ORIGIN, body: { serviceId: 'svc_accounts', phone: '07400 700003', email: 'join.customer@example.com', consent: true } })
    expect(joined.status).toBe(201)
    expect(ctx.db.$client.query('SELECT channel, address FROM notification_contacts WHERE ticket_id = ?1 ORDER BY channel').all((await joined.json() as any).data.ticket.id)).toEqual([{ channel: 'email', address: 'join.customer@example.com' }, { channel: 'sms', address: '+447400700003' }])
    const form = new URLSearchParams({ serviceId: 'svc_accounts', date: '2026-11-26', startAt: '2026-11-26T08:15:00.000Z', name: 'Form Customer', phone: '07400 700004', email: 'form.customer@example.com', consent: 'on' })
    expect((await request(ctx.app, 'POST', '/book/loc_hall', { headers: { ...ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }, raw: form.toString() })).status).toBe(303)
    expect((await callNext(ctx, 'cnt_1')).status).toBe(200)
    expect((await request(ctx.app, 'POST', `/api/operator/v1/tickets/${first.id}/no-show`, { headers: { authorization: `Bearer ${ctx.key('operator')}` } })).status).toBe(200)
    const raw = JSON.stringify({ from: '+447400700002', text: '1' })
    const signature = `sha256=${new Bun.CryptoHasher('sha256', SECRET).update(raw).digest('hex')}`
    expect((await request(ctx.app, 'POST', '/api/notifications/v1/sms/inbound', { headers: { 'content-type': 'application/json', 'x-lobby-signature': signature }, raw })).status).toBe(200)
    expect(ticketRow(ctx, second.id).status).toBe('CANCELLED')
    const worker = new NotificationWorker({ db: ctx.db, clock: ctx.clock, log: ctx.deps.log, observe: () => {}, fetch: trustingFetch(push.cert) })
    await worker.tick()
    ctx.clock.advance(5 * 60_000)
    await worker.tick()
    // What was meant to leave did leave.
    expect(gateway.requests.filter((r) => r.accepted).length).toBeGreaterThanOrEqual(3)
    expect(smtp.mails.length).toBeGreaterThanOrEqual(3)
    expect(push.received.length).toBe(2)

    const places: Record<string, string> = {
      log: JSON.stringify(ctx.logs),
      webhooks: JSON.stringify(ctx.db.$client.query('SELECT * FROM webhook_deliveries').all()),
      export: JSON.stringify(exportProvisioning(ctx.db)),
      audit: JSON.stringify(ctx.db.$client.query('SELECT * FROM audit_log').all()),
      replication: JSON.stringify(new TicketChangeFeed(ctx.db).after(0, 10_000)),
      outbox: JSON.stringify(ctx.db.$client.query('SELECT * FROM notification_messages').all()),
    }
    expect(places.webhooks).toContain('appointment.booked')
    expect(places.log!.length).toBeGreaterThan(100)
    for (const [place, text] of Object.entries(places)) {
      for (const value of personal) expect({ place, value, found: text.includes(value) }).toEqual({ place, value, found: false })
    }
  })
})
