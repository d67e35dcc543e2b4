import { describe, expect, test } from 'bun:test'
import { jsonOf, request } from '../support/app'
import { queueContext, mainUnit, SERVICES, STATE } from './helpers'
import { callNext, issued } from '../counters/helpers'
import type { ProvisioningFile } from '../../src/provisioning/model'

/** The main branch speaks English (default) and Arabic; Accounts and Counter 1 are named in both, Loans in English only. */
function bilingual(doc: ProvisioningFile) {
  const unit = mainUnit(doc) as any
  unit.languages = ['en', 'ar']
  unit.services[0].name = { en: 'Accounts', ar: 'الحسابات' }
  unit.counters[0].name = { en: 'Counter 1', ar: 'الشباك 1' }
}

const read = (ctx: ReturnType<typeof queueContext>, path: string, acceptLanguage?: string) =>
  request(ctx.app, 'GET', path, { headers: { authorization: `Bearer ${ctx.key('all')}`, ...(acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage }) } })

const namesOf = async (response: Response) => Object.fromEntries(((await jsonOf(response)).data.services as { id: string; locationId: string; name: string }[])
  .filter((s) => s.locationId === 'loc_hall').map((s) => [s.id, s.name]))

describe('the public API in the language asked for (contract §18)', () => {
  test('no Accept-Language: the default language, no Content-Language', async () => {
    const ctx = queueContext(bilingual)
    const response = await read(ctx, SERVICES)
    expect(response.headers.get('content-language')).toBeNull()
    expect(response.headers.get('vary')).toBe('Accept-Language, Accept-Encoding')
    expect(await namesOf(response)).toEqual({ svc_accounts: 'Accounts', svc_loans: 'Loans' })
  })

  test('a language the unit has: names in it (a name without that language falls back), with Content-Language', async () => {
    const ctx = queueContext(bilingual)
    const response = await read(ctx, SERVICES, 'ar-SA, en;q=0.5')
    expect(response.headers.get('content-language')).toBe('ar')
    expect(await namesOf(response)).toEqual({ svc_accounts: 'الحسابات', svc_loans: 'Loans' })
  })

  test('a language the unit lacks: the default, no Content-Language; the shapes never change', async () => {
    const ctx = queueContext(bilingual)
    const response = await read(ctx, SERVICES, 'fr')
    expect(response.headers.get('content-language')).toBeNull()
    expect(await namesOf(response)).toEqual({ svc_accounts: 'Accounts', svc_loans: 'Loans' })
    // A unit without Arabic among its languages answers in its default even when the name has Arabic.
    const english = queueContext((doc) => { bilingual(doc); (mainUnit(doc) as any).languages = ['en'] })
    expect(await namesOf(await read(english, SERVICES, 'ar'))).toEqual({ svc_accounts: 'Accounts', svc_loans: 'Loans' })
  })

  test('the live state: service name and the now-serving counter name in the asked language', async () => {
    const ctx = queueContext(bilingual)
    await issued(ctx)
    expect((await callNext(ctx, 'cnt_1')).status).toBe(200)
    const arabic = await jsonOf(await read(ctx, STATE, 'ar'))
    const accounts = arabic.data.services.find((s: { id: string; locationId: string }) => s.id === 'svc_accounts' && s.locationId === 'loc_hall')
    expect(accounts).toMatchObject({ name: 'الحسابات', nowServing: { number: 'A001', counterName: 'الشباك 1' } })
    const english = await jsonOf(await read(ctx, STATE))
    expect(english.data.services.find((s: { id: string; locationId: string }) => s.id === 'svc_accounts' && s.locationId === 'loc_hall').nowServing.counterName).toBe('Counter 1')
  })
})
