/**
 * Calendar and clock arithmetic for prayer months, on plain strings (`YYYY-MM`, `YYYY-MM-DD`,
 * `HH:mm`) and Intl for time zones and the Umm al-Qura calendar: no time-zone or calendar
 * tables of our own. The wall-clock arithmetic every feature shares lives in platform/time.ts.
 */
import { addDays, localDateTime, minutesOf, utcMidnight, zonedInstant, type LocalDateTime } from '../platform/time'

export { addDays, localDateTime, minutesOf, zonedInstant, type LocalDateTime }

/** `YYYY-MM` → [year, month 1–12]. */
export function splitPeriod(period: string): [number, number] {
  return [Number(period.slice(0, 4)), Number(period.slice(5, 7))]
}

/** Days in the month `YYYY-MM` (Gregorian, leap years included). */
export function daysInMonth(period: string): number {
  const [year, month] = splitPeriod(period)
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/** `YYYY-MM` + day number → `YYYY-MM-DD`. */
export function dateInPeriod(period: string, day: number): string {
  return `${period}-${String(day).padStart(2, '0')}`
}

/** The period (`YYYY-MM`) a date (`YYYY-MM-DD`) belongs to. */
export function periodOf(date: string): string {
  return date.slice(0, 7)
}

/** True when the calendar date is a Friday; from the date itself, never from a clock or zone. */
export function isFriday(date: string): boolean {
  return new Date(utcMidnight(date)).getUTCDay() === 5
}

export interface HijriDate {
  year: number
  month: number
  day: number
}

let umalqura: Intl.DateTimeFormat | undefined

/** Built on first use: loading ICU's Islamic calendar takes ~25 ms, too much for every start. */
function umalquraFormat(): Intl.DateTimeFormat {
  umalqura ??= new Intl.DateTimeFormat('en-u-ca-islamic-umalqura', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  })
  return umalqura
}

/** The Umm al-Qura (Saudi official) Hijri date of a Gregorian date. */
export function umalquraDate(date: string): HijriDate {
  const parts = umalquraFormat().formatToParts(utcMidnight(date) + 12 * 3_600_000)
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  return { year: part('year'), month: part('month'), day: part('day') }
}

/** Orders Hijri dates as (year, month, day) tuples. */
export function compareHijri(a: HijriDate, b: HijriDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day
}

