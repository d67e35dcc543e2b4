import { describe, expect, test } from 'bun:test'
import { mainUnit } from '../queue/helpers'
import { issued, ok, op } from '../counters/helpers'
import { clerkContext, deskOf, deskView } from './helpers'

/** Contract §18: the desk view carries `names` beside every `name`, and the unit's default language. */
describe('desk view: names in every language', () => {
  test('unit, counter, location, services, transfer targets and serviceNamesByLanguage', async () => {
    const ctx = await clerkContext((doc) => {
      const unit = mainUnit(doc)
      unit.name = { en: 'Main branch', ar: 'الفرع الرئيسي' }
      unit.languages = ['en', 'ar']
      unit.locations!.find((l) => l.id === 'loc_hall')!.name = { en: 'Main hall', ar: 'القاعة الرئيسية' }
      unit.services!.find((s) => s.id === 'svc_accounts')!.name = { en: 'Accounts', ar: 'الحسابات' }
      unit.services!.find((s) => s.id === 'svc_loans')!.name = { en: 'Loans and mortgages for small businesses', ar: 'القروض والرهون العقارية للشركات الصغيرة' }
      unit.counters!.find((c) => c.id === 'cnt_1')!.name = { en: 'Counter 1', ar: 'الشباك ١' }
    })
    await issued(ctx)
    await ok(op(ctx, 'POST', '/counters/cnt_1/open'))
    await ok(op(ctx, 'POST', '/counters/cnt_1/call-next'))
    const view = await deskView(ctx, await deskOf(ctx))
    expect(view.defaultLanguage).toBe('en')
    expect(view.queueUnit).toMatchObject({ name: 'Main branch', names: { en: 'Main branch', ar: 'الفرع الرئيسي' } })
    expect(view.counter).toMatchObject({
      name: 'Counter 1', names: { en: 'Counter 1', ar: 'الشباك ١' },
      locationName: 'Main hall', locationNames: { en: 'Main hall', ar: 'القاعة الرئيسية' },
    })
    expect(view.services.map((s: { id: string; names: unknown }) => [s.id, s.names])).toEqual([
      ['svc_accounts', { en: 'Accounts', ar: 'الحسابات' }],
      ['svc_loans', { en: 'Loans and mortgages for small businesses', ar: 'القروض والرهون العقارية للشركات الصغيرة' }],
    ])
    // The ticket held is an Accounts one: Loans is a target, with its names.
    expect(view.transferTargets).toContainEqual({ id: 'svc_loans', name: 'Loans and mortgages for small businesses', names: { en: 'Loans and mortgages for small businesses', ar: 'القروض والرهون العقارية للشركات الصغيرة' } })
    expect(view.serviceNamesByLanguage.svc_accounts).toEqual({ en: 'Accounts', ar: 'الحسابات' })
    // serviceNames keeps its shape: the default language's name.
    expect(view.serviceNames.svc_accounts).toBe('Accounts')
    expect(Object.keys(view.serviceNamesByLanguage).sort()).toEqual(Object.keys(view.serviceNames).sort())
  })

  test('plain names: one entry each, under the default language', async () => {
    const ctx = await clerkContext((doc) => {
      mainUnit(doc).defaultLanguage = 'ar'
    })
    const view = await deskView(ctx, await deskOf(ctx))
    expect(view.defaultLanguage).toBe('ar')
    expect(view.counter.names).toEqual({ ar: view.counter.name })
    expect(view.counter.locationNames).toEqual({ ar: view.counter.locationName })
    expect(view.queueUnit.names).toEqual({ ar: view.queueUnit.name })
    for (const s of view.services) expect(s.names).toEqual({ ar: s.name })
  })
})
