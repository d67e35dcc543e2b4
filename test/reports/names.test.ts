import { describe, expect, test } from 'bun:test'
import { mainUnit } from '../queue/helpers'
import { pairedCookie, asDevice } from '../devices/helpers'
import { REPORTS, report, reportContext } from './helpers'

const today = () => new Date().toISOString().slice(0, 10)

/** Contract §18: the report summary names locations, services and counters in every language; the rows stay IDs. */
describe('reports: names in every language', () => {
  const bilingual = () => reportContext((doc) => {
    const unit = mainUnit(doc)
    unit.defaultLanguage = 'ar'
    unit.languages = ['ar', 'en']
    unit.locations!.find((l) => l.id === 'loc_hall')!.name = { ar: 'القاعة الرئيسية', en: 'Main hall' }
    unit.services!.find((s) => s.id === 'svc_accounts')!.name = { ar: 'الحسابات', en: 'Accounts' }
    unit.counters!.find((c) => c.id === 'cnt_1')!.name = { ar: 'الشباك ١', en: 'Counter 1' }
  })

  test('the summary: the unit\'s default language, names beside every name; a plain name under the default language', async () => {
    const ctx = bilingual()
    const day = today()
    const summary: any = await report(ctx, `/summary?from=${day}&to=${day}`)
    expect(summary.defaultLanguage).toBe('ar')
    expect(summary.locations.find((l: { id: string }) => l.id === 'loc_hall')).toMatchObject({ name: 'القاعة الرئيسية', names: { ar: 'القاعة الرئيسية', en: 'Main hall' } })
    expect(summary.services.find((s: { id: string }) => s.id === 'svc_accounts')).toMatchObject({ name: 'الحسابات', names: { ar: 'الحسابات', en: 'Accounts' }, waitTargetSeconds: 600 })
    expect(summary.counters.find((c: { id: string }) => c.id === 'cnt_1')).toMatchObject({ name: 'الشباك ١', names: { ar: 'الشباك ١', en: 'Counter 1' } })
    const loans = summary.services.find((s: { id: string }) => s.id === 'svc_loans')
    expect(loans.names).toEqual({ ar: loans.name })

    // The same for a paired reports device.
    const cookie = await pairedCookie(ctx, { role: 'reports', queueUnitId: 'qu_main', name: 'manager-pc' })
    const body: any = await (await asDevice(ctx, cookie, 'GET', `${REPORTS}/summary?from=${day}&to=${day}`)).json()
    expect(body.data.defaultLanguage).toBe('ar')
    expect(body.data.counters.find((c: { id: string }) => c.id === 'cnt_1').names).toEqual({ ar: 'الشباك ١', en: 'Counter 1' })
  })

  test('a unit without languages: names under en', async () => {
    const ctx = reportContext()
    const day = today()
    const summary: any = await report(ctx, `/summary?from=${day}&to=${day}`)
    expect(summary.defaultLanguage).toBe('en')
    for (const kind of ['locations', 'services', 'counters']) {
      for (const entry of summary[kind]) expect(entry.names).toEqual({ en: entry.name })
    }
  })
})
