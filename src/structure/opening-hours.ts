import type { ErrorDetail } from '../platform/errors'
import { ruled } from '../platform/detail-rules'
import { addDays, isRealDate, localDate, minutesOf, utcMidnight, zonedInstant } from '../platform/time'

/*
 * Opening hours (contract §18): weekly intervals in a location's time zone, closed dates, and
 * the last ticket some minutes before closing; a service may narrow its location's hours with
 * weekly intervals of its own. Pure functions of the hours, an instant and a time zone: the
 * clock is the caller's, so tests walk across midnight and daylight-saving changes without
 * waiting.
 */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type Weekday = (typeof WEEKDAYS)[number]

/** `["08:30", "12:00"]`: from the first wall-clock time to the second; an end before the start runs past midnight, `24:00` ends at midnight. */
export type HoursInterval = [string, string]

/** A week of intervals; a weekday left out is closed all day. */
export type WeeklyHours = Partial<Record<Weekday, HoursInterval[]>>

export interface LocationHours {
  /** Null: always open (Part two). */
  weekly: WeeklyHours | null
  /** Local dates (`YYYY-MM-DD`) no interval starts on (with no weekly hours: the days it is closed). */
  closedDates: readonly string[]
  /** No ticket in the last N minutes before an interval ends. */
  lastTicketMinutesBeforeClose: number
}

export const ALWAYS_OPEN: LocationHours = { weekly: null, closedDates: [], lastTicketMinutesBeforeClose: 0 }

/** Whether a service takes tickets at an instant, and when it next does (epoch ms). */
export interface OpenState {
  open: boolean
  /** Closed: the next instant it takes tickets, or null when it never does in the next year. */
  opensAt: number | null
  /** Open: when it stops taking tickets, or null when it never does (always open). */
  closesAt: number | null
}

/** How far ahead the next opening is looked for: past it, a service counts as closed for good. */
export const OPENING_SEARCH_DAYS = 400

/** The longest last-ticket margin: half a day (the provisioning schema's bound). */
export const MAX_LAST_TICKET_MINUTES = 720

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** The weekday of a local calendar date (from the date itself, never a zone). */
function weekdayOf(date: string): Weekday {
  return WEEKDAYS[(new Date(utcMidnight(date)).getUTCDay() + 6) % 7]!
}

/** An interval as minutes from the start of its own day: [start, end), end > start (past 1440 when it runs past midnight). */
function spanOf([from, to]: HoursInterval): [number, number] {
  const start = minutesOf(from)
  const end = to === '24:00' ? 1440 : minutesOf(to)
  return [start, end <= start ? end + 1440 : end]
}

// ---- validation (provisioning, the console) ------------------------------------------------

/**
 * What is wrong with a weekly hours object, each with the JSON Pointer of the field under
 * `pointer`: not an object, an unknown weekday, an interval that is not two `HH:mm` times
 * (`24:00` allowed as an end), an empty interval, or two intervals of the week that overlap
 * (one running past midnight counts on the next day too).
 */
export function weeklyHoursErrors(value: unknown, pointer: string): ErrorDetail[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [ruled(pointer, 'must be an object of weekdays (mon … sun) to lists of ["HH:mm", "HH:mm"] intervals', 'hoursForm')]
  }
  const errors: ErrorDetail[] = []
  // Every valid interval on a week of minutes (Monday 00:00 = 0), to find overlaps.
  const week: { from: number; to: number; path: string; day: string; interval: [string, string] }[] = []
  for (const [day, intervals] of Object.entries(value)) {
    const dayPath = `${pointer}/${day}`
    const index = (WEEKDAYS as readonly string[]).indexOf(day)
    if (index < 0) {
      errors.push(ruled(dayPath, `unknown weekday "${day}": use mon, tue, wed, thu, fri, sat, sun`, 'weekday', { day }))
      continue
    }
    if (!Array.isArray(intervals)) {
      errors.push(ruled(dayPath, 'must be a list of ["HH:mm", "HH:mm"] intervals ([] for closed)', 'hoursList'))
      continue
    }
    if (intervals.length > 12) errors.push(ruled(dayPath, 'at most 12 intervals a day', 'maxItems', { max: 12 }))
    intervals.slice(0, 12).forEach((interval: unknown, i: number) => {
      const path = `${dayPath}/${i}`
      if (!Array.isArray(interval) || interval.length !== 2 || typeof interval[0] !== 'string' || typeof interval[1] !== 'string') {
        errors.push(ruled(path, 'must be two times, ["HH:mm", "HH:mm"]', 'interval'))
        return
      }
      const [from, to] = interval as [string, string]
      if (!TIME.test(from)) errors.push(ruled(`${path}/0`, `"${from}" is not a time of day HH:mm (00:00 to 23:59)`, 'time', { value: from, latest: '23:59' }))
      if (!TIME.test(to) && to !== '24:00') errors.push(ruled(`${path}/1`, `"${to}" is not a time of day HH:mm (00:00 to 24:00)`, 'time', { value: to, latest: '24:00' }))
      if (!TIME.test(from) || (!TIME.test(to) && to !== '24:00')) return
      if (minutesOf(from) === (to === '24:00' ? 1440 : minutesOf(to)) || (from === '00:00' && to === '00:00')) {
        errors.push(ruled(path, 'an interval must not start and end at the same time', 'emptyInterval', { from, to }))
        return
      }
      const [start, end] = spanOf([from, to])
      week.push({ from: index * 1440 + start, to: index * 1440 + end, path, day, interval: [from, to] })
    })
  }
  // The week wraps: Sunday's interval past midnight runs into Monday.
  const laps = week.flatMap((w) => [w, { ...w, from: w.from + 7 * 1440, to: w.to + 7 * 1440 }]).sort((a, b) => a.from - b.from)
  const reported = new Set<string>()
  for (let i = 1; i < laps.length; i += 1) {
    const earlier = laps[i - 1]!
    const later = laps[i]!
    if (later.from < earlier.to && later.path !== earlier.path && !reported.has(later.path)) {
      reported.add(later.path)
      errors.push(ruled(later.path, `overlaps ${earlier.path}`, 'overlap', {
        day: later.day, from: later.interval[0], to: later.interval[1],
        otherDay: earlier.day, otherFrom: earlier.interval[0], otherTo: earlier.interval[1],
      }))
    }
  }
  return errors
}

/** What is wrong with a location's closed dates: not a list, not a real `YYYY-MM-DD`, or named twice. */
export function closedDatesErrors(value: unknown, pointer: string): ErrorDetail[] {
  if (!Array.isArray(value)) return [ruled(pointer, 'must be a list of dates YYYY-MM-DD', 'datesForm')]
  if (value.length > 1000) return [ruled(pointer, 'at most 1000 closed dates', 'maxItems', { max: 1000 })]
  const errors: ErrorDetail[] = []
  const seen = new Set<string>()
  value.forEach((date: unknown, i: number) => {
    const m = typeof date === 'string' ? DATE.exec(date) : null
    if (m === null || !isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
      errors.push(ruled(`${pointer}/${i}`, `${JSON.stringify(date)} is not a real date YYYY-MM-DD`, 'date', { value: typeof date === 'string' ? date : JSON.stringify(date) ?? '' }))
    } else if (seen.has(date as string)) {
      errors.push(ruled(`${pointer}/${i}`, `${date} is named twice`, 'dateTwice', { value: date as string }))
    } else {
      seen.add(date as string)
    }
  })
  return errors
}

// ---- the schedule ---------------------------------------------------------------------------

type Window = [number, number]

/**
 * The open windows (epoch ms, start order) of a week's hours from the intervals starting on
 * local date `from` on, for `days` days, skipping closed dates. Wall times become instants in
 * `timeZone` day by day, so a daylight-saving change shortens or lengthens that day's windows
 * as the clock on the wall does; a time the change skips reads as the same time after it.
 */
function* windowsOf(weekly: WeeklyHours, closedDates: ReadonlySet<string>, from: string, days: number, timeZone: string): Generator<Window> {
  for (let k = 0; k < days; k += 1) {
    const date = addDays(from, k)
    if (closedDates.has(date)) continue
    const spans = (weekly[weekdayOf(date)] ?? []).map(spanOf).sort((a, b) => a[0] - b[0])
    for (const [start, end] of spans) {
      const startAt = zonedInstant(date, clock(start), timeZone)
      const endAt = zonedInstant(addDays(date, Math.floor(end / 1440)), clock(end % 1440), timeZone)
      if (endAt > startAt) yield [startAt, endAt]
    }
  }
}

function clock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
}

function* forever(): Generator<Window> {
  yield [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]
}

/** Windows that touch (22:00–24:00 and the next day's 00:00–02:00, or whole days) as one: open time with no gap does not close. */
function* merged(windows: Generator<Window>): Generator<Window> {
  let current: Window | null = null
  for (const window of windows) {
    if (current !== null && window[0] <= current[1]) {
      current = [current[0], Math.max(current[1], window[1])]
      continue
    }
    if (current !== null) yield current
    current = window
  }
  if (current !== null) yield current
}

const ALL_DAY: WeeklyHours = Object.fromEntries(WEEKDAYS.map((day) => [day, [['00:00', '24:00']]]))

/** The windows in both streams (each sorted and non-overlapping), in order. */
function* intersect(a: Generator<Window>, b: Generator<Window>): Generator<Window> {
  let x = a.next()
  let y = b.next()
  while (!x.done && !y.done) {
    const start = Math.max(x.value[0], y.value[0])
    const end = Math.min(x.value[1], y.value[1])
    if (start < end) yield [start, end]
    if (x.value[1] <= y.value[1]) x = a.next()
    else y = b.next()
  }
}

/**
 * Whether a service takes tickets at `now`, and when it next does: inside one of its
 * location's windows, narrowed by the service's own weekly hours when it has them, and not in
 * the last `lastTicketMinutesBeforeClose` of a window. Absent hours on both: always open.
 */
export function openStateAt(location: LocationHours, serviceHours: WeeklyHours | null, now: number, timeZone: string): OpenState {
  if (location.weekly === null && location.closedDates.length === 0 && serviceHours === null) return { open: true, opensAt: null, closesAt: null }
  // From yesterday: an interval that started then may still run past midnight.
  const from = addDays(localDate(now, timeZone), -1)
  const closed = new Set(location.closedDates)
  // Closed dates without weekly hours: open all day, every day but those.
  const weekly = location.weekly ?? (closed.size > 0 ? ALL_DAY : null)
  const locationWindows = weekly === null ? forever() : windowsOf(weekly, closed, from, OPENING_SEARCH_DAYS, timeZone)
  const serviceWindows = serviceHours === null ? forever() : windowsOf(serviceHours, closed, from, OPENING_SEARCH_DAYS, timeZone)
  const margin = location.lastTicketMinutesBeforeClose * 60_000
  for (const [start, end] of merged(intersect(locationWindows, serviceWindows))) {
    const lastTicket = end - margin
    if (lastTicket <= start || lastTicket <= now) continue
    if (start <= now) return { open: true, opensAt: null, closesAt: Number.isFinite(lastTicket) ? lastTicket : null }
    return { open: false, opensAt: start, closesAt: null }
  }
  return { open: false, opensAt: null, closesAt: null }
}

// ---- the stored columns --------------------------------------------------------------------

/** A location's stored hours (contract §18) as the schedule reads them. */
export function locationHoursOf(row: { openingHours: string | null; closedDates: string; lastTicketMinutesBeforeClose: number }): LocationHours {
  return {
    weekly: row.openingHours === null ? null : (JSON.parse(row.openingHours) as WeeklyHours),
    closedDates: JSON.parse(row.closedDates) as string[],
    lastTicketMinutesBeforeClose: row.lastTicketMinutesBeforeClose,
  }
}

/** A service's own narrowing hours, or null (its location's). */
export function serviceHoursOf(row: { openingHours: string | null }): WeeklyHours | null {
  return row.openingHours === null ? null : (JSON.parse(row.openingHours) as WeeklyHours)
}

/**
 * Contract §21: the service's open windows (epoch ms, start order) that fall on local date
 * `date` in `timeZone`: its location's windows narrowed by the service's own hours, cut at the
 * day's local midnights (found with the zone's rules, so a daylight-saving day is 23 or 25
 * hours long). The last-ticket margin does not apply: it is about walk-ins near closing, and a
 * booked slot is placed inside the hours by itself. Absent hours: the whole day.
 */
export function openWindowsOn(location: LocationHours, serviceHours: WeeklyHours | null, date: string, timeZone: string): Array<[number, number]> {
  const dayStart = zonedInstant(date, '00:00', timeZone)
  const dayEnd = zonedInstant(addDays(date, 1), '00:00', timeZone)
  const closed = new Set(location.closedDates)
  const weekly = location.weekly ?? (closed.size > 0 ? ALL_DAY : null)
  const from = addDays(date, -1)
  const locationWindows = weekly === null ? forever() : windowsOf(weekly, closed, from, 3, timeZone)
  const serviceWindows = serviceHours === null ? forever() : windowsOf(serviceHours, closed, from, 3, timeZone)
  const out: Array<[number, number]> = []
  for (const [start, end] of merged(intersect(locationWindows, serviceWindows))) {
    const a = Math.max(start, dayStart)
    const b = Math.min(end, dayEnd)
    if (a < b) out.push([a, b])
    if (start >= dayEnd) break
  }
  return out
}
