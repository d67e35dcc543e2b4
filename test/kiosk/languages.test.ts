import { describe, expect, test } from 'bun:test'
import { request } from '../support/app'
import { act, callNext, ok } from '../counters/helpers'
import { mainUnit } from '../queue/helpers'
import { asDevice, jsonOf } from '../devices/helpers'
import type { ProvisioningFile } from '../../src/provisioning/model'
import { KIOSK, kioskContext, ticketCount } from './helpers'

/*
 * Contract §18 at the kiosk, its print page and the phone page: the unit's languages, names in
 * each, the language a ticket was taken in, and opening hours.
 */

/** The main unit in English and Arabic, names in both; the hall open weekdays 08:30–16:30 (Berlin); Loans only Monday 10:00–12:00. */
function bilingual(doc: ProvisioningFile) {
  const unit = mainUnit(doc) as any
  unit.name = { en: 'Main branch', ar: 'الفرع الرئيسي' }
  unit.defaultLanguage = 'en'
  unit.languages = ['en', 'ar']
  unit.locations[0].name = { en: 'Main hall', ar: 'القاعة الرئيسية' }
  unit.locations[0].openingHours = { mon: [['08:30', '16:30']], tue: [['08:30', '16:30']], wed: [['08:30', '16:30']], thu: [['08:30', '16:30']], fri: [['08:30', '16:30']] }
  unit.services[0].name = { en: 'Accounts', ar: 'الحسابات' }
  unit.services[1].openingHours = { mon: [['10:00', '12:00']] }
  unit.counters[1].name = { en: 'Counter 2', ar: 'الشباك ٢' }
}

const MONDAY_0900 = '2026-11-30T08:00:00Z' // 09:00 in Berlin
const SATURDAY = '2026-11-28T10:00:00Z'

const view = async (ctx: Awaited<ReturnType<typeof kioskContext>>) => (await jsonOf(await asDevice(ctx, ctx.kiosk, 'GET', KIOSK))).data
const tap = (ctx: Awaited<ReturnType<typeof kioskContext>>, body: Record<string, unknown>, key: string = crypto.randomUUID()) =>
  asDevice(ctx, ctx.kiosk, 'POST', `${KIOSK}/tickets`, body, { 'idempotency-key': key })
const phone = async (ctx: Awaited<ReturnType<typeof kioskContext>>, trackingUrl: string) =>
  (await jsonOf(await request(ctx.app, 'GET', `/api/phone/v1/tickets/${trackingUrl.slice('/t/'.length)}`))).data

describe('the kiosk view in the unit\'s languages, with opening hours', () => {
  test('languages, names beside name, and each service open or closed with its next opening', async () => {
    const ctx = await kioskContext({ edit: bilingual })
    ctx.clock.set(MONDAY_0900)
    const data = await view(ctx)
    expect(data).toMatchObject({
      defaultLanguage: 'en', languages: ['en', 'ar'], open: true, opensAt: null, branchName: 'Main branch',
      queueUnit: { name: 'Main branch', names: { en: 'Main branch', ar: 'الفرع الرئيسي' } },
      location: { name: 'Main hall', names: { en: 'Main hall', ar: 'القاعة الرئيسية' } },
    })
    expect(data.services.map((s: any) => [s.id, s.name, s.names, s.open, s.opensAt])).toEqual([
      ['svc_accounts', 'Accounts', { en: 'Accounts', ar: 'الحسابات' }, true, null],
      // A closed service stays listed, with when it opens (10:00 Berlin).
      ['svc_loans', 'Loans', { en: 'Loans' }, false, '2026-11-30T09:00:00.000Z'],
    ])
  })

  test('a closed location: open false, and the earliest opening of its services', async () => {
    const ctx = await kioskContext({ edit: bilingual })
    ctx.clock.set(SATURDAY)
    const data = await view(ctx)
    expect(data.open).toBe(false)
    // Accounts opens Monday 08:30, Loans 10:00: the branch opens with the earlier.
    expect(data.opensAt).toBe('2026-11-30T07:30:00.000Z')
    expect(data.services.map((s: any) => [s.id, s.open, s.opensAt])).toEqual([
      ['svc_accounts', false, '2026-11-30T07:30:00.000Z'],
      ['svc_loans', false, '2026-11-30T09:00:00.000Z'],
    ])
    expect((await tap(ctx, { serviceId: 'svc_accounts' })).status).toBe(409)
  })

  test('a unit without hours or languages: always open, English only', async () => {
    const ctx = await kioskContext()
    const data = await view(ctx)
    expect(data).toMatchObject({ defaultLanguage: 'en', languages: ['en'], open: true, opensAt: null, location: { names: { en: 'Main hall' } } })
  })
})

describe('a kiosk ticket in its language', () => {
  test('the language is stored (canonicalised to the unit\'s tag) and the ticket view speaks it', async () => {
    const ctx = await kioskContext({ edit: bilingual })
    ctx.clock.set(MONDAY_0900)
    const response = await tap(ctx, { serviceId: 'svc_accounts', language: 'AR-eg' })
    expect(response.status).toBe(201)
    const ticket = (await jsonOf(response)).data
    expect(ticket).toMatchObject({ language: 'ar', serviceName: 'الحسابات', locationName: 'القاعة الرئيسية', branchName: 'الفرع الرئيسي' })
    expect((ctx.db.$client.query('SELECT language FROM tickets WHERE id = ?1').get(ticket.ticket.id) as { language: string }).language).toBe('ar')
    // Without a language: the unit's default, stored as null.
    const plain = (await jsonOf(await tap(ctx, { serviceId: 'svc_accounts' }))).data
    expect(plain).toMatchObject({ language: 'en', serviceName: 'Accounts' })
    expect((ctx.db.$client.query('SELECT language FROM tickets WHERE id = ?1').get(plain.ticket.id) as { language: string | null }).language).toBeNull()
  })

  test('a language the unit does not offer, or no tag at all, is 422 on /language; nothing written', async () => {
    const ctx = await kioskContext({ edit: bilingual })
    ctx.clock.set(MONDAY_0900)
    for (const language of ['fr', 'not a tag!', '']) {
      const response = await tap(ctx, { serviceId: 'svc_accounts', language })
      expect(response.status).toBe(422)
      const error = (await jsonOf(response)).error
      expect(error.code).toBe('VALIDATION_FAILED')
      expect(error.details.map((d: { path: string }) => d.path)).toEqual(['/language'])
    }
    expect(ticketCount(ctx)).toBe(0)
  })

  test('a retried tap with another language is a different payload (409); the same one replays', async () => {
    const ctx = await kioskContext({ edit: bilingual })
    ctx.clock.set(MONDAY_0900)
    expect((await tap(ctx, { serviceId: 'svc_accounts', language: 'ar' }, 'k1')).status).toBe(201)
    const again = await tap(ctx, { serviceId: 'svc_accounts', language: 'ar' }, 'k1')
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect((await tap(ctx, { serviceId: 'svc_accounts', language: 'en' }, 'k1')).status).toBe(409)
    expect(ticketCount(ctx)).toBe(1)
  })

  test('the print page and the phone page speak the ticket\'s language; the URL\'s lang does not change the print', async () => {
    const ctx = await kioskContext({ edit: bilingual })
    ctx.clock.set(MONDAY_0900)
    const ticket = (await jsonOf(await tap(ctx, { serviceId: 'svc_accounts', language: 'ar' }))).data
    for (const path of [ticket.printPath, `${ticket.printPath}?lang=en`]) {
      const html = await (await request(ctx.app, 'GET', path, { headers: { cookie: ctx.kiosk } })).text()
      expect(html).toContain('<html lang="ar" dir="rtl">')
      for (const text of ['الفرع الرئيسي', 'القاعة الرئيسية', '>الحسابات<', 'رقمك', `http://localhost${ticket.ticket.trackingUrl}<`]) expect(html).toContain(text)
    }
    const waiting = await phone(ctx, ticket.ticket.trackingUrl)
    expect(waiting).toMatchObject({
      state: 'WAITING', language: 'ar', defaultLanguage: 'en', languages: ['en', 'ar'],
      serviceName: 'الحسابات', serviceNames: { en: 'Accounts', ar: 'الحسابات' }, locationName: 'القاعة الرئيسية', branchName: 'الفرع الرئيسي',
    })
    await ok(callNext(ctx, 'cnt_2'))
    expect(await phone(ctx, ticket.ticket.trackingUrl)).toMatchObject({ state: 'CALLED', counterName: 'الشباك ٢', counterNames: { en: 'Counter 2', ar: 'الشباك ٢' } })
    await ok(act(ctx, ticket.ticket.id, 'start'))
    await ok(act(ctx, ticket.ticket.id, 'complete'))
    expect(await phone(ctx, ticket.ticket.trackingUrl)).toEqual({ state: 'ENDED', language: 'ar', outcome: 'COMPLETED', feedback: 'OPEN' })
    // An English ticket's phone page: English names.
    const english = (await jsonOf(await tap(ctx, { serviceId: 'svc_accounts' }))).data
    expect(await phone(ctx, english.ticket.trackingUrl)).toMatchObject({ language: 'en', serviceName: 'Accounts', branchName: 'Main branch' })
  })
})
