import { describe, expect, test } from 'bun:test'
import { mainUnit } from '../queue/helpers'
import { counterContext, issued, ok, callNext, op } from './helpers'

/** Contract §18: the operator API adds `names` (every language) beside `name` (the default language's). */
describe('names in every language (operator API)', () => {
  const bilingual = () => counterContext((doc) => {
    const unit = mainUnit(doc)
    unit.defaultLanguage = 'ar'
    unit.languages = ['ar', 'en']
    unit.services!.find((s) => s.id === 'svc_accounts')!.name = { en: 'Accounts', ar: 'الحسابات' }
    unit.counters!.find((c) => c.id === 'cnt_2')!.name = { ar: 'الشباك ٢', en: 'Counter 2' }
  })

  test('the overview: the unit\'s languages, each line\'s and counter\'s names, and the counter now serving\'s', async () => {
    const ctx = bilingual()
    await issued(ctx)
    await ok(callNext(ctx, 'cnt_2'))
    const data = await ok(op(ctx, 'GET', '/queue'))
    expect(data.defaultLanguage).toBe('ar')
    expect(data.languages).toEqual(['ar', 'en'])
    const accounts = data.services.find((s: { id: string; locationId: string }) => s.id === 'svc_accounts' && s.locationId === 'loc_hall')
    // `name` is in the default language; `names` has every language given.
    expect(accounts).toMatchObject({ name: 'الحسابات', names: { en: 'Accounts', ar: 'الحسابات' } })
    expect(accounts.nowServing).toMatchObject({ counterName: 'الشباك ٢', counterNames: { ar: 'الشباك ٢', en: 'Counter 2' } })
    // A name provisioned as one string is one entry under the default language: one shape for a page.
    const loans = data.services.find((s: { id: string }) => s.id === 'svc_loans')
    expect(loans.names).toEqual({ ar: loans.name })
    expect(data.counters.map((c: { id: string; names: unknown }) => [c.id, c.names])).toEqual([
      ['cnt_1', { ar: 'Counter 1' }],
      ['cnt_2', { ar: 'الشباك ٢', en: 'Counter 2' }],
    ])
  })

  test('open, close: the counter with its names', async () => {
    const ctx = bilingual()
    expect(await ok(op(ctx, 'POST', '/counters/cnt_2/open'))).toMatchObject({ name: 'الشباك ٢', names: { ar: 'الشباك ٢', en: 'Counter 2' }, open: true })
    expect(await ok(op(ctx, 'POST', '/counters/cnt_1/close'))).toMatchObject({ name: 'Counter 1', names: { ar: 'Counter 1' }, open: false })
  })

  test('a unit provisioned without languages: names under en', async () => {
    const ctx = counterContext()
    const data = await ok(op(ctx, 'GET', '/queue'))
    expect(data.defaultLanguage).toBe('en')
    expect(data.languages).toEqual(['en'])
    expect(data.counters[0].names).toEqual({ en: 'Counter 1' })
  })
})
