import { describe, expect, test } from 'bun:test'
import {
  adhanTimesInOrder,
  hijriDatesSane,
  iqamahAtOrAfterAdhan,
  jumuahOnFridaysOnly,
  monthRuleErrors,
  oneDayPerDateInOrder,
  periodIsRealMonth,
  timezoneMatchesSource,
} from '../../src/prayer/rules'
import { validMonth } from '../../src/prayer/service'
import { ApiError } from '../../src/platform/errors'
import { PrayerCodes } from '../../src/prayer/errors'
import { broken, dayIndexWhere, makeMonth } from './support'

const paths = (errors: { path: string }[]) => errors.map((e) => e.path)

/** The 422 details `validMonth` throws for `value`, or [] when it is valid. */
function refusal(value: unknown, timezone = 'Europe/London'): string[] {
  try {
    validMonth(value, { timezone })
    return []
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    expect(error.status).toBe(422)
    expect(error.code).toBe(PrayerCodes.SCHEMA_VALIDATION_FAILED)
    return paths(error.details ?? [])
  }
}

describe('a valid month passes schema and rules', () => {
  test.each([
    ['2026-02', 28],
    ['2028-02', 29],
    ['2026-11', 30],
    ['2026-12', 31],
  ])('%s (%i days)', (period, days) => {
    const month = makeMonth(period)
    expect(month.days).toHaveLength(days)
    expect(refusal(month)).toEqual([])
  })

  test('with no optional field at all', () => {
    expect(refusal(makeMonth('2026-11', { iqamah: false, jumuah: false, hijri: false, calculation: false }))).toEqual([])
  })

  test('2100-02 is not a leap month, 2000-02 is', () => {
    expect(refusal(makeMonth('2100-02'))).toEqual([])
    expect(makeMonth('2100-02').days).toHaveLength(28)
    expect(makeMonth('2000-02').days).toHaveLength(29)
  })
})

describe('schema', () => {
  test('every object is closed: an unknown field is named at its path', () => {
    const month = broken(makeMonth('2026-11'))
    month.extra = 1
    month.days[3].note = 'x'
    month.days[4].iqamah.jumuah = '13:00'
    month.calculation.school = 'x'
    expect(refusal(month)).toEqual(expect.arrayContaining(['/extra', '/days/3/note', '/days/4/iqamah/jumuah', '/calculation/school']))
  })

  test.each(['5:30', '24:00', '05:60', '0530', '05:30:00', ' 05:30'])('time %p is not 24-hour HH:mm', (time) => {
    const month = broken(makeMonth('2026-11'))
    month.days[0].fajr = time
    expect(refusal(month)).toEqual(['/days/0/fajr'])
  })

  test.each(['2026-13', '2026-00', '2026-1', '26-11', '2026/11'])('period %p is not YYYY-MM', (period) => {
    const month = broken(makeMonth('2026-11'))
    month.period = period
    expect(refusal(month)).toContain('/period')
  })

  test('required fields, bounds and enums', () => {
    const month = broken(makeMonth('2026-11'))
    delete month.days[0].isha
    month.days[1].hijri.month = 13
    month.days[2].hijri.day = 0
    month.calculation.asrSchool = 'SHAFII'
    month.calculation.hijriAdjustmentDays = 3
    month.calculation.fajrAngle = '18'
    expect(refusal(month)).toEqual(
      expect.arrayContaining(['/days/0/isha', '/days/1/hijri/month', '/days/2/hijri/day', '/calculation/asrSchool', '/calculation/hijriAdjustmentDays', '/calculation/fajrAngle']),
    )
  })

  test('jumuah holds one to three sessions', () => {
    const friday = dayIndexWhere('2026-11', true)
    const month = broken(makeMonth('2026-11'))
    month.days[friday].jumuah = []
    expect(refusal(month)).toEqual([`/days/${friday}/jumuah`])
    month.days[friday].jumuah = ['12:00', '13:00', '14:00', '15:00'].map((iqamah) => ({ iqamah }))
    expect(refusal(month)).toEqual([`/days/${friday}/jumuah`])
  })

  test('not an object at all', () => {
    expect(refusal([])).toEqual(['/'])
    expect(refusal(null)).toEqual(['/'])
  })
})

describe('rules of contract §5', () => {
  test('periodIsRealMonth: years 1900 to 2100', () => {
    expect(periodIsRealMonth('1900-01')).toEqual([])
    expect(periodIsRealMonth('2100-12')).toEqual([])
    expect(paths(periodIsRealMonth('1899-12'))).toEqual(['/period'])
    expect(paths(periodIsRealMonth('2101-01'))).toEqual(['/period'])
  })

  test('timezoneMatchesSource: equal names only', () => {
    expect(timezoneMatchesSource('Europe/London', 'Europe/London')).toEqual([])
    expect(timezoneMatchesSource('Europe/Berlin', 'Europe/London')).toEqual([{ path: '/timezone', message: "must equal the source's time zone Europe/London" }])
    expect(paths(timezoneMatchesSource('europe/london', 'Europe/London'))).toEqual(['/timezone'])
  })

  test('oneDayPerDateInOrder: one day short', () => {
    const month = makeMonth('2026-11')
    const errors = oneDayPerDateInOrder('2026-11', month.days.slice(0, 29))
    expect(errors).toEqual([{ path: '/days', message: 'must have exactly 30 entries, one per day of 2026-11' }])
  })

  test('oneDayPerDateInOrder: one day too many', () => {
    const days = makeMonth('2026-11').days
    const extra = { ...days[29]!, date: '2026-12-01' }
    expect(paths(oneDayPerDateInOrder('2026-11', [...days, extra]))).toEqual(['/days'])
  })

  test('oneDayPerDateInOrder: days out of order are named at both places', () => {
    const days = makeMonth('2026-11').days
    const swapped = [...days]
    swapped[3] = days[4]!
    swapped[4] = days[3]!
    expect(oneDayPerDateInOrder('2026-11', swapped)).toEqual([
      { path: '/days/3/date', message: 'must be 2026-11-04: days are one per date, in order' },
      { path: '/days/4/date', message: 'must be 2026-11-05: days are one per date, in order' },
    ])
  })

  test('oneDayPerDateInOrder: a repeated day and a date of another month', () => {
    const days = makeMonth('2026-11').days
    const repeated = days.map((d, i) => (i === 10 ? { ...d, date: '2026-11-10' } : i === 11 ? { ...d, date: '2026-10-12' } : d))
    expect(paths(oneDayPerDateInOrder('2026-11', repeated))).toEqual(['/days/10/date', '/days/11/date'])
  })

  test('oneDayPerDateInOrder: 29 February only in leap years', () => {
    const leap = makeMonth('2028-02').days
    expect(paths(oneDayPerDateInOrder('2026-02', leap))).toContain('/days')
  })

  test('adhanTimesInOrder: isha before maghrib', () => {
    const day = { ...makeMonth('2026-11').days[4]!, maghrib: '16:40', isha: '16:35' }
    expect(adhanTimesInOrder(day, 4)).toEqual([{ path: '/days/4/isha', message: 'must be after maghrib' }])
  })

  test('adhanTimesInOrder: equal times are not in order, and each broken pair is named', () => {
    const day = { ...makeMonth('2026-11').days[0]!, sunrise: '05:30', fajr: '05:30', asr: '11:00' }
    expect(paths(adhanTimesInOrder(day, 0))).toEqual(['/days/0/sunrise', '/days/0/asr'])
  })

  test('iqamahAtOrAfterAdhan: before its adhan', () => {
    const base = makeMonth('2026-11').days[2]!
    expect(base.asr).toBe('14:32')
    const day = { ...base, iqamah: { ...base.iqamah!, asr: '14:31' } }
    expect(iqamahAtOrAfterAdhan(day, 2)).toEqual([{ path: '/days/2/iqamah/asr', message: 'must be at or after the asr adhan' }])
  })

  test('iqamahAtOrAfterAdhan: at the adhan is allowed', () => {
    const base = makeMonth('2026-11').days[2]!
    const day = { ...base, iqamah: { fajr: base.fajr, dhuhr: base.dhuhr, asr: base.asr, maghrib: base.maghrib, isha: base.isha } }
    expect(iqamahAtOrAfterAdhan(day, 2)).toEqual([])
  })

  test('iqamahAtOrAfterAdhan: fajr iqamah at or after sunrise', () => {
    const base = makeMonth('2026-11').days[0]!
    const day = { ...base, iqamah: { ...base.iqamah!, fajr: base.sunrise } }
    expect(iqamahAtOrAfterAdhan(day, 0)).toEqual([{ path: '/days/0/iqamah/fajr', message: 'must be before sunrise' }])
  })

  test('jumuahOnFridaysOnly: on a Thursday', () => {
    // 2026-11-05 is a Thursday, 2026-11-06 a Friday.
    const days = makeMonth('2026-11').days
    expect(jumuahOnFridaysOnly({ ...days[4]!, jumuah: [{ iqamah: '13:00' }] }, 4)).toEqual([{ path: '/days/4/jumuah', message: 'is allowed on Fridays only' }])
    expect(jumuahOnFridaysOnly({ ...days[5]!, jumuah: [{ iqamah: '13:00' }] }, 5)).toEqual([])
  })

  test('jumuahOnFridaysOnly: khutbah after its iqamah, sessions out of order', () => {
    const friday = makeMonth('2026-11').days[5]!
    const day = { ...friday, jumuah: [{ khutbah: '13:10', iqamah: '13:00' }, { iqamah: '13:00' }, { iqamah: '12:00' }] }
    expect(paths(jumuahOnFridaysOnly(day, 5))).toEqual(['/days/5/jumuah/0/khutbah', '/days/5/jumuah/1/iqamah', '/days/5/jumuah/2/iqamah'])
  })

  test('hijriDatesSane: Umm al-Qura dates, and up to 3 days off, pass', () => {
    const days = makeMonth('2025-03').days
    // 1 Ramadan 1446 was 1 March 2025 by Umm al-Qura.
    expect(days[0]!.hijri).toEqual({ year: 1446, month: 9, day: 1 })
    expect(hijriDatesSane('2025-03', days)).toEqual([])
    const twoLater = makeMonth('2025-03').days.map((d, i) => ({ ...d, hijri: i === 0 ? { year: 1446, month: 8, day: 28 } : undefined }))
    expect(hijriDatesSane('2025-03', twoLater)).toEqual([])
  })

  test('hijriDatesSane: a month or year off is refused', () => {
    const days = makeMonth('2025-03').days
    const wrongMonth = days.map((d, i) => (i === 10 ? { ...d, hijri: { ...d.hijri!, month: 10 } } : d))
    expect(paths(hijriDatesSane('2025-03', wrongMonth))).toEqual(['/days/10/hijri'])
    const wrongYear = days.map((d, i) => (i === 0 ? { ...d, hijri: { ...d.hijri!, year: 1445 } } : d))
    expect(hijriDatesSane('2025-03', wrongYear)[0]).toEqual({ path: '/days/0/hijri', message: 'must be within 3 days of the Umm al-Qura date of this day' })
  })

  test('hijriDatesSane: consecutive days must be consecutive hijri dates', () => {
    const days = makeMonth('2025-03').days
    // Day 5 repeats day 4's hijri date (within the 3-day window, but not the next day).
    const repeated = days.map((d, i) => (i === 4 ? { ...d, hijri: days[3]!.hijri } : d))
    expect(hijriDatesSane('2025-03', repeated)).toEqual([{ path: '/days/4/hijri', message: "must be the day after the previous entry's hijri date" }])
  })

  test('hijriDatesSane: a month may end after day 29 or 30, and the year after month 12', () => {
    const days = makeMonth('2025-03').days.slice(0, 3)
    const after30 = [
      { ...days[0]!, hijri: { year: 1446, month: 8, day: 30 } },
      { ...days[1]!, hijri: { year: 1446, month: 9, day: 1 } },
    ]
    expect(hijriDatesSane('2025-03', after30)).toEqual([])
    const after28 = [
      { ...days[0]!, hijri: { year: 1446, month: 8, day: 28 } },
      { ...days[1]!, hijri: { year: 1446, month: 9, day: 1 } },
    ]
    expect(paths(hijriDatesSane('2025-03', after28))).toEqual(['/days/1/hijri'])
    // 1 Muharram 1447 was 26 June 2025 by Umm al-Qura.
    const june = makeMonth('2025-06').days
    expect(june[24]!.hijri).toEqual({ year: 1446, month: 12, day: 29 })
    expect(june[25]!.hijri).toEqual({ year: 1447, month: 1, day: 1 })
    expect(hijriDatesSane('2025-06', june)).toEqual([])
  })

  test('monthRuleErrors lists every failing path of every rule at once', () => {
    const month = broken(makeMonth('2026-11'))
    const thursday = 4
    month.timezone = 'Europe/Paris'
    month.days[1].isha = '16:00'
    month.days[2].iqamah.dhuhr = '11:00'
    month.days[thursday].jumuah = [{ iqamah: '13:00' }]
    month.days.pop()
    expect(monthRuleErrors(month, 'Europe/London').map((e) => e.path)).toEqual([
      '/timezone',
      '/days',
      '/days/1/isha',
      '/days/2/iqamah/dhuhr',
      `/days/${thursday}/jumuah`,
    ])
  })

  test('monthRuleErrors: a period out of range stops before the day rules', () => {
    const month = broken(makeMonth('2026-11'))
    month.period = '1850-11'
    expect(paths(monthRuleErrors(month, 'Europe/London'))).toEqual(['/period'])
  })
})
