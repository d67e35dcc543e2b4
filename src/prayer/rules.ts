import { pointer, type ErrorDetail } from '../platform/errors'
import {
  addDays,
  compareHijri,
  dateInPeriod,
  daysInMonth,
  isFriday,
  minutesOf,
  splitPeriod,
  umalquraDate,
  type HijriDate,
} from './calendar'
import { ADHAN_ORDER, PRAYERS, type Day, type Month } from './model'

/**
 * The rules of contract §5 that a schema cannot say, one function per rule. Each returns the
 * failing paths (JSON Pointers into the body) with a message naming the rule, never echoing
 * a submitted value. They run after the schema passed, so the shapes are known to be right.
 */

/** Years a period may name: wide enough for any real schedule, and inside Umm al-Qura's table. */
export const FIRST_YEAR = 1900
export const LAST_YEAR = 2100

/** How far a pushed Hijri date may sit from the Umm al-Qura date of the same day. */
export const HIJRI_TOLERANCE_DAYS = 3

/** Contract §5: "period a real month" — `YYYY-MM` (the schema) in years 1900–2100. */
export function periodIsRealMonth(period: string): ErrorDetail[] {
  const [year] = splitPeriod(period)
  if (year >= FIRST_YEAR && year <= LAST_YEAR) return []
  return [{ path: '/period', message: `must be a month in the years ${FIRST_YEAR} to ${LAST_YEAR}` }]
}

/** Contract §5: "`timezone` (must equal the source's)". */
export function timezoneMatchesSource(timezone: string, sourceTimezone: string): ErrorDetail[] {
  if (timezone === sourceTimezone) return []
  return [{ path: '/timezone', message: `must equal the source's time zone ${sourceTimezone}` }]
}

/**
 * Contract §5: "`days`: exactly one entry per day of the month, in order". Entry n must carry
 * date n of the period, so a missing, repeated, foreign or swapped day is named at its path.
 */
export function oneDayPerDateInOrder(period: string, days: Day[]): ErrorDetail[] {
  const errors: ErrorDetail[] = []
  const expected = daysInMonth(period)
  if (days.length !== expected) {
    errors.push({ path: '/days', message: `must have exactly ${expected} entries, one per day of ${period}` })
  }
  days.forEach((day, i) => {
    const date = dateInPeriod(period, i + 1)
    if (i < expected && day.date !== date) errors.push({ path: pointer('days', i, 'date'), message: `must be ${date}: days are one per date, in order` })
  })
  return errors
}

/** Contract §5: "fajr < sunrise < dhuhr < asr < maghrib < isha" (strictly, on the same local day). */
export function adhanTimesInOrder(day: Day, index: number): ErrorDetail[] {
  const errors: ErrorDetail[] = []
  for (let k = 1; k < ADHAN_ORDER.length; k++) {
    const before = ADHAN_ORDER[k - 1]!
    const name = ADHAN_ORDER[k]!
    if (minutesOf(day[name]) <= minutesOf(day[before])) {
      errors.push({ path: pointer('days', index, name), message: `must be after ${before}` })
    }
  }
  return errors
}

/** Contract §5: "each iqamah at or after its adhan (fajr iqamah before sunrise)". */
export function iqamahAtOrAfterAdhan(day: Day, index: number): ErrorDetail[] {
  const iqamah = day.iqamah
  if (iqamah === undefined) return []
  const errors: ErrorDetail[] = []
  for (const prayer of PRAYERS) {
    if (minutesOf(iqamah[prayer]) < minutesOf(day[prayer])) {
      errors.push({ path: pointer('days', index, 'iqamah', prayer), message: `must be at or after the ${prayer} adhan` })
    }
  }
  if (minutesOf(iqamah.fajr) >= minutesOf(day.sunrise)) {
    errors.push({ path: pointer('days', index, 'iqamah', 'fajr'), message: 'must be before sunrise' })
  }
  return errors
}

/**
 * Contract §5: "optional `jumuah` [1–3 of {`khutbah`?, `iqamah`}] on Fridays only" — Friday
 * computed from the entry's date. Decided here: a khutbah is at or before its iqamah, and
 * sessions are listed in time order with distinct iqamah times.
 */
export function jumuahOnFridaysOnly(day: Day, index: number): ErrorDetail[] {
  const sessions = day.jumuah
  if (sessions === undefined) return []
  if (!isFriday(day.date)) return [{ path: pointer('days', index, 'jumuah'), message: 'is allowed on Fridays only' }]
  const errors: ErrorDetail[] = []
  sessions.forEach((session, s) => {
    if (session.khutbah !== undefined && minutesOf(session.khutbah) > minutesOf(session.iqamah)) {
      errors.push({ path: pointer('days', index, 'jumuah', s, 'khutbah'), message: 'must be at or before its iqamah' })
    }
    const previous = sessions[s - 1]
    if (previous !== undefined && minutesOf(session.iqamah) <= minutesOf(previous.iqamah)) {
      errors.push({ path: pointer('days', index, 'jumuah', s, 'iqamah'), message: 'must be after the previous session' })
    }
  })
  return errors
}

/** The Hijri date that follows `h`: the next day, or day 1 of the next month after day 29 or 30. */
function hijriSuccessors(h: HijriDate): HijriDate[] {
  const next = [{ ...h, day: h.day + 1 }].filter((d) => d.day <= 30)
  if (h.day >= 29) next.push(h.month === 12 ? { year: h.year + 1, month: 1, day: 1 } : { year: h.year, month: h.month + 1, day: 1 })
  return next
}

/**
 * Contract §5: "optional `hijri` {year, month, day}" — a sane Hijri date. Decided here:
 * (1) it lies within 3 days of the Umm al-Qura date of the same Gregorian day, which leaves
 * room for local moon sighting and `hijriAdjustmentDays` (−2..2) but not for a wrong month
 * or year; (2) where two consecutive entries both carry one, the second is the day after the
 * first (a month ends after day 29 or 30).
 */
export function hijriDatesSane(period: string, days: Day[]): ErrorDetail[] {
  const errors: ErrorDetail[] = []
  // The last entry whose Hijri date was accepted, as the reference for the next day; a
  // refused one is not, so one wrong date is reported once, not again at the day after.
  let previous: HijriDate | undefined
  days.forEach((day, i) => {
    const hijri = day.hijri
    const reference = previous
    previous = undefined
    // A misplaced date is already reported; its Hijri date has nothing sure to compare with.
    if (hijri === undefined || !hasItsDate(period, day, i)) return
    const path = pointer('days', i, 'hijri')
    const earliest = umalquraDate(addDays(day.date, -HIJRI_TOLERANCE_DAYS))
    const latest = umalquraDate(addDays(day.date, HIJRI_TOLERANCE_DAYS))
    if (compareHijri(hijri, earliest) < 0 || compareHijri(hijri, latest) > 0) {
      errors.push({ path, message: `must be within ${HIJRI_TOLERANCE_DAYS} days of the Umm al-Qura date of this day` })
      return
    }
    if (reference !== undefined && !hijriSuccessors(reference).some((next) => compareHijri(next, hijri) === 0)) {
      errors.push({ path, message: "must be the day after the previous entry's hijri date" })
      return
    }
    previous = hijri
  })
  return errors
}

/** Entry `index` carries the date it must (day index + 1 of the period). */
function hasItsDate(period: string, day: Day, index: number): boolean {
  return day.date === dateInPeriod(period, index + 1)
}

/** Every rule of contract §5 over a month that passed the schema; an empty list means valid. */
export function monthRuleErrors(month: Month, sourceTimezone: string): ErrorDetail[] {
  const errors = [...periodIsRealMonth(month.period), ...timezoneMatchesSource(month.timezone, sourceTimezone)]
  if (errors.some((e) => e.path === '/period')) return errors
  errors.push(...oneDayPerDateInOrder(month.period, month.days))
  month.days.forEach((day, i) => {
    errors.push(...adhanTimesInOrder(day, i), ...iqamahAtOrAfterAdhan(day, i))
    // Weekday rules need a real date; a misplaced one is already reported above.
    if (hasItsDate(month.period, day, i)) errors.push(...jumuahOnFridaysOnly(day, i))
  })
  errors.push(...hijriDatesSane(month.period, month.days))
  return errors
}
