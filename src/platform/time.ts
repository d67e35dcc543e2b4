/**
 * Time-zone helpers on Intl: no time-zone database of our own.
 */
const zoneCache = new Map<string, boolean>()

/** A real IANA zone name such as `Europe/Berlin` or `UTC`; offsets like `+02:00` are not. */
export function isIanaTimeZone(name: string): boolean {
  let ok = zoneCache.get(name)
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name })
      ok = /^[A-Za-z][A-Za-z0-9_+\-]*(\/[A-Za-z0-9_+\-]+)*$/.test(name)
    } catch {
      ok = false
    }
    if (zoneCache.size < 1000) zoneCache.set(name, ok)
  }
  return ok
}

const dateFormatters = new Map<string, Intl.DateTimeFormat>()

function formatLocalDate(ms: number, tz: string): string {
  let fmt = dateFormatters.get(tz)
  if (fmt === undefined) {
    // en-CA formats as YYYY-MM-DD.
    fmt = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' })
    dateFormatters.set(tz, fmt)
  }
  return fmt.format(ms)
}

/** Quarter hours: every offset and daylight-saving change of the current time-zone rules falls on one. */
const BUCKET_MS = 15 * 60_000
const MAX_BUCKETS_PER_ZONE = 4096
const datesByBucket = new Map<string, Map<number, string>>()

/**
 * The calendar date (`YYYY-MM-DD`) at instant `ms` in time zone `tz`. Formatting with Intl costs
 * microseconds and a widget push or ticket issue asks for many instants of the same day: the
 * date of each UTC quarter hour is remembered per zone once both ends of it agree (the date
 * cannot change inside it then); a quarter hour over which it changes is formatted per call.
 */
export function localDate(ms: number, tz: string): string {
  const bucket = Math.floor(ms / BUCKET_MS)
  let dates = datesByBucket.get(tz)
  const known = dates?.get(bucket)
  if (known !== undefined) return known
  const date = formatLocalDate(ms, tz)
  if (formatLocalDate(bucket * BUCKET_MS, tz) === date && formatLocalDate(bucket * BUCKET_MS + BUCKET_MS - 1, tz) === date) {
    if (dates === undefined) {
      if (datesByBucket.size >= 1000) datesByBucket.clear()
      datesByBucket.set(tz, (dates = new Map()))
    }
    if (dates.size >= MAX_BUCKETS_PER_ZONE) dates.clear()
    dates.set(bucket, date)
  }
  return date
}

const OFFSET_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/

/**
 * Which spelling of a date-time with offset is accepted:
 * - `rfc3339`: RFC 3339 `date-time` — seconds required, `t` and `z` may be lowercase;
 * - `iso8601`: ISO 8601 extended format — seconds optional (`09:30Z`), `T` and `Z` uppercase.
 */
export type DateTimeProfile = 'rfc3339' | 'iso8601'

/**
 * A date-time with an explicit offset (`2026-11-25T09:30:00Z`, `…00.123Z`, `…00+01:00`) as
 * epoch milliseconds, or null when it is not one or names no real instant (month 13,
 * 31 April, 24:00, a leap second). Digits past milliseconds are dropped.
 */
export function parseOffsetDateTime(value: string, profile: DateTimeProfile): number | null {
  const m = OFFSET_DATE_TIME.exec(value)
  if (m === null) return null
  if (profile === 'rfc3339' && m[6] === undefined) return null
  if (profile === 'iso8601' && (value[10] === 't' || m[8] === 'z')) return null
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number]
  const second = m[6] === undefined ? 0 : Number(m[6])
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'))
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null
  let offsetMinutes = 0
  if (m[8] === undefined) {
    const offsetHours = Number(m[10])
    const offsetMins = Number(m[11])
    if (offsetHours > 23 || offsetMins > 59) return null
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins)
  }
  // setUTCFullYear, not Date.UTC: years 0–99 must not be read as 1900–1999.
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute, second, ms)
  return date.getTime() - offsetMinutes * 60_000
}

/** A real Gregorian calendar date. */
export function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  return day <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!
}

// ---- wall-clock arithmetic on `YYYY-MM-DD` and `HH:mm` strings (prayer months, opening hours) ----

/** Midnight UTC of a calendar date `YYYY-MM-DD`, in epoch milliseconds. */
export function utcMidnight(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)))
}

/** `YYYY-MM-DD` plus `n` days. */
export function addDays(date: string, n: number): string {
  return new Date(utcMidnight(date) + n * 86_400_000).toISOString().slice(0, 10)
}

/** `HH:mm` → minutes since local midnight. */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))
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
 * a daylight-saving change maps to the same clock reading after the change (01:30 on the
 * night London skips 01:00–02:00 is 02:30 BST; midnight on the night Santiago skips 00:00–01:00
 * is 01:00); a time shown twice (the clocks go back) is its first showing.
 */
export function zonedInstant(date: string, time: string, timeZone: string): number {
  const wall = utcMidnight(date) + minutesOf(time) * 60_000
  // The zone's offsets a day either side: no zone changes its offset twice within two days.
  const before = offsetAt(wall - 86_400_000, timeZone)
  const after = offsetAt(wall + 86_400_000, timeZone)
  const shows = (instant: number, offset: number) => offsetAt(instant, timeZone) === offset
  const early = wall - before
  const late = wall - after
  const earlyShows = shows(early, before)
  const lateShows = shows(late, after)
  if (earlyShows && lateShows) return Math.min(early, late)
  if (earlyShows) return early
  if (lateShows) return late
  // Skipped: read with the offset before the change, the instant shows the time shifted forward by the change.
  return early
}
