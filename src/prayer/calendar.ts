/**
 * Calendar and clock arithmetic for prayer months, on plain strings (`YYYY-MM`, `YYYY-MM-DD`,
 * `HH:mm`) and Intl for time zones and the Umm al-Qura calendar: no time-zone or calendar
 * tables of our own.
 */

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

function utcMidnight(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)))
}

/** `YYYY-MM-DD` plus `n` days. */
export function addDays(date: string, n: number): string {
  return new Date(utcMidnight(date) + n * 86_400_000).toISOString().slice(0, 10)
}

/** True when the calendar date is a Friday; from the date itself, never from a clock or zone. */
export function isFriday(date: string): boolean {
  return new Date(utcMidnight(date)).getUTCDay() === 5
}

/** `HH:mm` → minutes since local midnight. */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))
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

const wallClocks = new Map<string, Intl.DateTimeFormat>()

function wallClock(timeZone: string): Intl.DateTimeFormat {
  let fmt = wallClocks.get(timeZone)
  if (fmt === undefined) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    if (wallClocks.size < 1000) wallClocks.set(timeZone, fmt)
  }
  return fmt
}

export interface LocalDateTime {
  /** `YYYY-MM-DD` in the zone. */
  date: string
  /** `HH:mm` in the zone. */
  time: string
}

function wallParts(ms: number, timeZone: string) {
  const parts = wallClock(timeZone).formatToParts(ms)
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour'), minute: part('minute'), second: part('second') }
}

/** The calendar date and wall-clock time at instant `ms` in `timeZone`. */
export function localDateTime(ms: number, timeZone: string): LocalDateTime {
  const p = wallParts(ms, timeZone)
  const pad = (n: number) => String(n).padStart(2, '0')
  return { date: `${p.year}-${pad(p.month)}-${pad(p.day)}`, time: `${pad(p.hour)}:${pad(p.minute)}` }
}

/** Offset of `timeZone` from UTC at instant `ms`, in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  const p = wallParts(ms, timeZone)
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second)
  return wall - Math.floor(ms / 1000) * 1000
}

/**
 * The instant at which the wall clock in `timeZone` shows `time` on `date`. A time skipped by
 * a daylight-saving change maps to the same clock reading after the change (an hour later).
 */
export function zonedInstant(date: string, time: string, timeZone: string): number {
  const wall = utcMidnight(date) + minutesOf(time) * 60_000
  const first = wall - offsetAt(wall, timeZone)
  const second = offsetAt(first, timeZone)
  return second === offsetAt(wall, timeZone) ? first : wall - second
}
