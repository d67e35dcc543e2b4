import { describe, expect, test } from 'bun:test'
import { testContext } from '../support/app'
import { exampleDocument } from '../support/fixtures'
import { applyProvisioning } from '../../src/provisioning/service'
import { refusal, unitOf, UNIT } from './helpers'



const row = (ctx: ReturnType<typeof testContext>, sql: string) => ctx.db.$client.query(sql).get()

describe('provisioning: names in every language (contract §18)', () => {
  test('a plain name stays one string; the unit defaults to English only', () => {
    const ctx = testContext()
    applyProvisioning(ctx.db, exampleDocument(), ctx.clock.now())
    expect(row(ctx, "SELECT name, names, default_language AS d, languages FROM queue_units WHERE id = 'qu_main'")).toEqual({ name: 'Main branch', names: null, d: 'en', languages: '["en"]' })
  })

  test('names per language: `name` holds the default language\'s, `names` the whole object with canonical tags; applying again changes nothing', () => {
    const ctx = testContext()
    const doc = exampleDocument()
    const unit = unitOf(doc)
    unit.defaultLanguage = 'ar'
    unit.languages = ['en-gb', 'ar']
    unit.name = { 'en-gb': 'Main branch', ar: 'الفرع الرئيسي' }
    unit.services[0].name = { en: 'Accounts & Cards', ar: 'الحسابات والبطاقات' }
    unit.counters[0].name = { fr: 'Guichet 1' }
    applyProvisioning(ctx.db, doc, ctx.clock.now())
    expect(row(ctx, "SELECT name, names, default_language AS d, languages FROM queue_units WHERE id = 'qu_main'"))
      .toEqual({ name: 'الفرع الرئيسي', names: '{"en-GB":"Main branch","ar":"الفرع الرئيسي"}', d: 'ar', languages: '["ar","en-GB"]' })
    expect(row(ctx, "SELECT name FROM services WHERE id = 'svc_accounts'")).toEqual({ name: 'الحسابات والبطاقات' })
    // Neither asked nor default language given: the first name.
    expect(row(ctx, "SELECT name FROM counters WHERE id = 'cnt_1'")).toEqual({ name: 'Guichet 1' })
    const again = applyProvisioning(ctx.db, doc, ctx.clock.now()).applied
    for (const kind of ['queueUnits', 'services', 'counters', 'locations']) expect(again[kind]).toMatchObject({ created: 0, updated: 0 })
  })

  test('bad language tags, empty names and a default language missing from `languages` are refused at their field, nothing applied', () => {
    expect(refusal((u) => { u.services[0].name = { en: 'Accounts', 'not a tag': 'x' } })).toEqual([
      { path: `${UNIT}/services/0/name/not a tag`, message: '"not a tag" is not a BCP 47 language tag (such as en, ar, fr-CA)' },
    ])
    expect(refusal((u) => { u.counters[1].name = { en: '  ' } })).toEqual([{ path: `${UNIT}/counters/1/name/en`, message: 'must be a non-empty string' }])
    expect(refusal((u) => { u.locations[0].name = { en: 'Hall', EN: 'Hall' } })).toEqual([{ path: `${UNIT}/locations/0/name/EN`, message: 'the same language as "en"' }])
    expect(refusal((u) => { u.defaultLanguage = 'ar'; u.languages = ['en'] })).toEqual([{ path: `${UNIT}/languages`, message: 'must include the default language "ar"' }])
    expect(refusal((u) => { u.defaultLanguage = 'x_y' })).toEqual([{ path: `${UNIT}/defaultLanguage`, message: '"x_y" is not a BCP 47 language tag (such as en, ar, fr-CA)' }])
    expect(refusal((u) => { u.languages = ['en', 'EN'] })).toEqual([{ path: `${UNIT}/languages`, message: 'names a language twice' }])
  })
})

describe('provisioning: opening hours (contract §18)', () => {
  test('hours, closed dates and the last-ticket margin are stored; a service narrows with its own; absent: always open', () => {
    const ctx = testContext()
    const doc = exampleDocument()
    const unit = unitOf(doc)
    unit.locations[0].openingHours = { tue: [['08:30', '16:30']], mon: [['08:30', '12:00'], ['13:00', '16:30']], sat: [] }
    unit.locations[0].closedDates = ['2026-12-26', '2026-12-25']
    unit.locations[0].lastTicketMinutesBeforeClose = 15
    unit.services[1].openingHours = { mon: [['09:00', '11:00']] }
    applyProvisioning(ctx.db, doc, ctx.clock.now())
    expect(row(ctx, "SELECT opening_hours AS h, closed_dates AS c, last_ticket_minutes_before_close AS m FROM locations WHERE id = 'loc_hall'")).toEqual({
      h: '{"mon":[["08:30","12:00"],["13:00","16:30"]],"tue":[["08:30","16:30"]],"sat":[]}', c: '["2026-12-25","2026-12-26"]', m: 15,
    })
    expect(row(ctx, "SELECT opening_hours AS h FROM services WHERE id = 'svc_loans'")).toEqual({ h: '{"mon":[["09:00","11:00"]]}' })
    expect(row(ctx, "SELECT opening_hours AS h, closed_dates AS c, last_ticket_minutes_before_close AS m FROM locations WHERE id = 'loc_annex'")).toEqual({ h: null, c: '[]', m: 0 })
    expect(applyProvisioning(ctx.db, doc, ctx.clock.now()).applied.locations).toEqual({ created: 0, updated: 0, unchanged: 2 })
  })

  test('bad intervals, overlaps, unknown weekdays and bad dates are refused with the JSON Pointer of the field, nothing applied', () => {
    const L = `${UNIT}/locations/0`
    expect(refusal((u) => { u.locations[0].openingHours = { monday: [['08:00', '12:00']] } })).toEqual([
      { path: `${L}/openingHours/monday`, message: 'unknown weekday "monday": use mon, tue, wed, thu, fri, sat, sun' },
    ])
    expect(refusal((u) => { u.locations[0].openingHours = { mon: [['08:00', '12:00'], ['11:30', '13:00']] } })).toEqual([
      { path: `${L}/openingHours/mon/1`, message: `overlaps ${L}/openingHours/mon/0` },
    ])
    expect(refusal((u) => { u.locations[0].openingHours = { mon: [['8:00', '12:00']] } })).toEqual([
      { path: `${L}/openingHours/mon/0/0`, message: '"8:00" is not a time of day HH:mm (00:00 to 23:59)' },
    ])
    expect(refusal((u) => { u.locations[0].closedDates = ['2026-02-30'] })).toEqual([{ path: `${L}/closedDates/0`, message: '"2026-02-30" is not a real date YYYY-MM-DD' }])
    expect(refusal((u) => { u.services[0].openingHours = { sun: [['10:00', '10:00']] } })).toEqual([
      { path: `${UNIT}/services/0/openingHours/sun/0`, message: 'an interval must not start and end at the same time' },
    ])
    const margin = refusal((u) => { u.locations[0].lastTicketMinutesBeforeClose = 721 })
    expect(margin.map((d) => d.path)).toEqual([`${L}/lastTicketMinutesBeforeClose`])
  })
})
