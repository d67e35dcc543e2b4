import { describe, expect, test } from 'bun:test'
import { jsonOf, request } from '../support/app'
import { joinContext, joinGet, joinPost } from '../join/helpers'
import { appointmentContext } from '../appointments/helpers'
import type { QueueTestContext } from '../queue/helpers'
import type { NotificationSettings } from '../../src/notifications/model'

/*
 * Contract §25 on the join page and the booking form: an optional number or address, a consent
 * box that must be ticked when either is given (422 and words beside the field otherwise), the
 * number read in the branch's country and stored as E.164 with the new ticket, in its write.
 */

const SETTINGS: NotificationSettings = {
  country: 'GB',
  sms: { url: 'http://127.0.0.1:9/messages', body: 'to={to}&text={text}' },
  email: { host: '127.0.0.1', port: 2525, security: 'none', from: 'lobby@branch.example' },
}
const contacts = (ctx: QueueTestContext) => ctx.db.$client.query<{ channel: string; address: string; ticket_id: string }, []>('SELECT channel, address, ticket_id FROM notification_contacts ORDER BY channel').all()
const tickets = (ctx: QueueTestContext) => ctx.db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM tickets').get()!.n

describe('the join page (contract §25)', () => {
  test('offers a number, an address and the consent box when the branch sends them; none when it does not', async () => {
    const ctx = joinContext((doc) => { doc.workspaces[0]!.notifications = SETTINGS })
    const html = await (await joinGet(ctx)).text()
    expect(html).toContain('<input id="phone" name="phone" type="tel"')
    expect(html).toContain('<input id="email" name="email" type="email"')
    expect(html).toContain('<input type="checkbox" id="consent" name="consent" value="on">')
    expect(html).toContain('name="serviceId" value="svc_accounts"')
    const plain = await (await joinGet(joinContext())).text()
    expect(plain).not.toContain('name="phone"')
    expect(plain).not.toContain('name="consent"')
  })

  test('a number without the consent box: 422, the page again with the words beside the box, no ticket', async () => {
    const ctx = joinContext((doc) => { doc.workspaces[0]!.notifications = SETTINGS })
    const res = await joinPost(ctx, { serviceId: 'svc_accounts', phone: '07400 123456', key: 'k1' })
    expect(res.status).toBe(422)
    const html = await res.text()
    expect(html).toContain('aria-invalid="true" aria-describedby="consent-error"')
    expect(html).toContain('<p class="field-error" id="consent-error">Tick this box to get messages, or leave the number and the address empty.</p>')
    // What was typed stays.
    expect(html).toContain('value="07400 123456"')
    expect(tickets(ctx)).toBe(0)
    expect(contacts(ctx)).toEqual([])
  })

  test('a number that is not one, in Arabic: the words beside the field, never a pattern', async () => {
    const ctx = joinContext((doc) => { doc.workspaces[0]!.notifications = SETTINGS })
    const res = await joinPost(ctx, { serviceId: 'svc_accounts', language: 'ar', phone: '12', email: 'not-an-address', consent: 'on', key: 'k2' })
    expect(res.status).toBe(422)
    const html = await res.text()
    expect(html).toContain('dir="rtl"')
    expect(html).toContain('<p class="field-error" id="phone-error">هذا ليس رقم جوال. اكتبه كما تتصل به، أو مع + ورمز الدولة.</p>')
    expect(html).toContain('<p class="field-error" id="email-error">هذا ليس بريدًا إلكترونيًا. يبدو مثل name@example.com.</p>')
    expect(html).not.toContain('consent-error')
    expect(tickets(ctx)).toBe(0)
  })

  test('a local number with consent: the ticket, and its number as E.164 stored with it; the phone page lists it masked', async () => {
    const ctx = joinContext((doc) => { doc.workspaces[0]!.notifications = SETTINGS })
    const res = await joinPost(ctx, { serviceId: 'svc_accounts', phone: '07400 123456', email: '', consent: 'on', key: 'k3' })
    expect(res.status).toBe(303)
    const code = res.headers.get('location')!.slice('/t/'.length)
    const stored = contacts(ctx)
    expect(stored.map((c) => [c.channel, c.address])).toEqual([['sms', '+447400123456']])
    const listed = await jsonOf(await request(ctx.app, 'GET', `/api/phone/v1/tickets/${code}/notify`))
    expect(listed.data).toEqual({ contacts: [{ channel: 'sms', shown: '+44 •••• ••56' }], channels: ['sms', 'email'] })
    // The same page's key again (a double tap): one ticket, one contact.
    const again = await joinPost(ctx, { serviceId: 'svc_accounts', phone: '07400 123456', consent: 'on', key: 'k3' })
    expect(again.status).toBe(303)
    expect(again.headers.get('location')).toBe(`/t/${code}`)
    expect(contacts(ctx)).toHaveLength(1)
  })

  test('JSON: `consent: true` with an address; without it 422 on /consent; a channel the branch does not send 422 on /phone', async () => {
    const ctx = joinContext((doc) => { doc.workspaces[0]!.notifications = { country: 'GB', email: SETTINGS.email! } })
    const refused = await joinPost(ctx, { serviceId: 'svc_accounts', email: 'amira@example.com' } as never, { json: true, peer: '192.0.2.20' })
    expect(refused.status).toBe(422)
    expect((await jsonOf(refused)).error.details).toEqual([{ path: '/consent', message: 'tick the consent box to get messages (or leave phone and email empty)' }])
    const noSms = await joinPost(ctx, { serviceId: 'svc_accounts', phone: '07400 123456', consent: true } as never, { json: true, peer: '192.0.2.21' })
    expect(noSms.status).toBe(422)
    expect((await jsonOf(noSms)).error.details).toEqual([{ path: '/phone', message: 'this branch does not send SMS' }])
    expect(tickets(ctx)).toBe(0)
    const ok = await joinPost(ctx, { serviceId: 'svc_accounts', email: 'Amira@Example.COM', consent: true } as never, { json: true, peer: '192.0.2.22' })
    expect(ok.status).toBe(201)
    const body = await jsonOf(ok)
    expect(contacts(ctx).map((c) => [c.channel, c.address, c.ticket_id])).toEqual([['email', 'Amira@example.com', body.data.ticket.id]])
  })
})

describe('the booking form (contract §25)', () => {
  const SLOT = '2026-11-26T08:00:00.000Z'
  const post = (ctx: QueueTestContext, form: Record<string, string>) =>
    request(ctx.app, 'POST', '/book/loc_hall', { raw: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' } })
  const appointments = (ctx: QueueTestContext) => ctx.db.$client.query<{ phone: string | null; email: string | null }, []>('SELECT phone, email FROM appointments').all()

  test('the consent box is there; a phone without it is refused beside the box (English and Arabic), nothing booked', async () => {
    const ctx = appointmentContext()
    const form = { serviceId: 'svc_accounts', date: '2026-11-26', startAt: SLOT, name: 'Amal Haddad', phone: '07400 123456', email: '' }
    const page = await (await request(ctx.app, 'GET', '/book/loc_hall?service=svc_accounts&date=2026-11-26')).text()
    expect(page).toContain('<input type="checkbox" id="consent" name="consent" value="on">')
    const res = await post(ctx, form)
    expect(res.status).toBe(422)
    const html = await res.text()
    expect(html).toContain('aria-invalid="true" aria-describedby="consent-error"')
    expect(html).toContain('<p class="field-error" id="consent-error">Tick this box to get messages, or leave the phone and the e-mail empty.</p>')
    expect(appointments(ctx)).toEqual([])
    const ar = await request(ctx.app, 'POST', '/book/loc_hall?lang=ar', { raw: new URLSearchParams({ ...form, phone: '', email: 'amal@example.com' }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' } })
    expect(ar.status).toBe(422)
    expect(await ar.text()).toContain('ضع علامة في هذا المربع لتلقي الرسائل، أو اترك الهاتف والبريد فارغين.')
    // Ticked: booked with its phone (the appointment's own field, which its messages use).
    const done = await post(ctx, { ...form, consent: 'on' })
    expect(done.status).toBe(303)
    expect(appointments(ctx)).toEqual([{ phone: '07400 123456', email: null }])
  })
})
