/**
 * Dates, times and durations through Intl in the screen's locale and the data's time zone.
 * Formatters are cached: a board re-renders every few seconds.
 */

import { minutesAsSaid } from './wait-verdict'
import { withPageDigits } from './digits'

const cache = new Map<string, Intl.DateTimeFormat>()

function formatter(lang: string, timeZone: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${lang}|${timeZone ?? ''}|${JSON.stringify(options)}`
  let f = cache.get(key)
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat(withPageDigits(lang), { ...options, ...(timeZone ? { timeZone } : {}) })
    } catch {
      // An unknown zone in the data must not blank the screen: fall back to the device's.
      f = new Intl.DateTimeFormat(withPageDigits(lang), options)
    }
    cache.set(key, f)
  }
  return f
}

/**
 * The locale a page written in `lang` (`en`, `ar`: the words it has) formats dates, times and
 * numbers in: `chosen` when the page's URL named one of that language (`?lang=en-US`, the
 * server puts it in `data-locale`), else the browser's first preferred locale of that language,
 * so an English page shows `27 Nov 2026, 14:30` to an en-GB browser and `Nov 27, 2026, 2:30 PM`
 * to an en-US one; `lang` itself when neither names one more exactly than the language (a bare
 * `en` says nothing of how dates are written).
 */
export function formatLocale(lang: string, chosen?: string, preferred: readonly string[] = navigator.languages ?? [navigator.language]): string {
  const base = lang.split('-')[0]!.toLowerCase()
  for (const tag of [...(chosen ? [chosen] : []), ...preferred]) {
    if (tag.split('-')[0]!.toLowerCase() !== base) continue
    try {
      const [canonical] = Intl.getCanonicalLocales(tag)
      if (canonical !== undefined && canonical.includes('-')) return canonical
    } catch {
      // A malformed tag in the browser's list is skipped, not a blank page.
    }
  }
  return lang
}

/** `14:05` / `2:05 PM`: hours and minutes of an instant in a zone. */
export function formatTime(lang: string, timeZone: string | undefined, instant: number | string): string {
  return formatter(lang, timeZone, { hour: '2-digit', minute: '2-digit' }).format(new Date(instant))
}

/** The instant of a local `HH:mm` wall time on a fixed UTC day: formatted in UTC, it reads as written. */
function wallInstant(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number]
  return Date.UTC(2000, 0, 1, h, m)
}

/** A time split for display: the digits, and the locale's AM/PM marker (empty in 24-hour locales). */
export interface TimeParts {
  main: string
  period: string
}

function split(f: Intl.DateTimeFormat, instant: number): TimeParts {
  const parts = f.formatToParts(instant)
  const period = parts.filter((p) => p.type === 'dayPeriod').map((p) => p.value).join('')
  const main = parts.filter((p) => p.type !== 'dayPeriod').map((p) => p.value).join('').trim()
  return { main, period }
}

export function timeParts(lang: string, timeZone: string | undefined, instant: number | string): TimeParts {
  return split(formatter(lang, timeZone, { hour: '2-digit', minute: '2-digit' }), new Date(instant).getTime())
}

/** A local `HH:mm` wall time (prayer times) in the locale's style, without any zone arithmetic. */
export function wallTimeParts(lang: string, hhmm: string): TimeParts {
  return split(formatter(lang, 'UTC', { hour: '2-digit', minute: '2-digit' }), wallInstant(hhmm))
}

/** A local `HH:mm` wall time as one string in the locale's style (`14:05`, `2:05 PM`). */
export function formatWallTime(lang: string, hhmm: string): string {
  return formatter(lang, 'UTC', { hour: '2-digit', minute: '2-digit' }).format(wallInstant(hhmm))
}

/** `Wednesday 25 November 2026` for a calendar date `YYYY-MM-DD`. */
export function formatLongDate(lang: string, date: string): string {
  return formatter(lang, 'UTC', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(Date.parse(`${date}T12:00:00Z`))
}

/** `Wed 25 Nov` of an instant in a zone. */
export function formatShortDate(lang: string, timeZone: string | undefined, instant: number | string): string {
  return formatter(lang, timeZone, { weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(instant))
}

/** The calendar date `YYYY-MM-DD` of an instant in a zone. */
export function localDate(timeZone: string | undefined, instant: number): string {
  const parts = formatter('en-CA', timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(instant)
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00'
  return `${get('year')}-${get('month')}-${get('day')}`
}

/** Parts of a calendar date for a date block: weekday and day of month. */
export function dateBlock(lang: string, timeZone: string | undefined, instant: number | string): { weekday: string; day: string; month: string } {
  const f = formatter(lang, timeZone, { weekday: 'short', day: 'numeric', month: 'short' })
  const parts = f.formatToParts(new Date(instant))
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return { weekday: get('weekday'), day: get('day'), month: get('month') }
}

const numberCache = new Map<string, Intl.NumberFormat>()
function numberFormat(lang: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${lang}|${JSON.stringify(options)}`
  let f = numberCache.get(key)
  if (f === undefined) {
    f = new Intl.NumberFormat(withPageDigits(lang), options)
    numberCache.set(key, f)
  }
  return f
}

export function formatNumber(lang: string, n: number): string {
  return numberFormat(lang, {}).format(n)
}

/**
 * A share (0–1) as a percentage (`87%`) in every language, without the invisible direction marks
 * Intl puts around Arabic's percent sign ("0‎%‎ من 4", issue 48): a number and its sign
 * keep their order by themselves in right-to-left text, and the marks came out in copies and
 * screen readers.
 */
export function formatPercent(lang: string, share: number): string {
  return numberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(share).replace(/[\u200e\u200f\u061c]/g, '')
}

/**
 * Minutes as people say them (contract §19): whole minutes rounded up (at least 1) up to 10,
 * then to the nearest 5 (`15 min`, not `13 min`; `minutesAsSaid`), and half hours from 2 hours.
 * The page's label says it is approximate ("Approximate wait", "about {time}").
 */
export function formatMinutes(lang: string, seconds: number): string {
  return formatSaidMinutes(lang, minutesAsSaid(seconds))
}

/** A wait verdict's minutes (src/screens/shared/wait-verdict.ts, already as people say them) in the locale's words; half hours from 2 hours. */
export function formatSaidMinutes(lang: string, minutes: number): string {
  if (minutes >= 120) {
    const hours = Math.round(minutes / 30) / 2
    return numberFormat(lang, { style: 'unit', unit: 'hour', unitDisplay: 'short', maximumFractionDigits: 1 }).format(hours)
  }
  return numberFormat(lang, { style: 'unit', unit: 'minute', unitDisplay: 'short' }).format(minutes)
}

/** A countdown `1:23:45` / `23:45` in the locale's digits. */
export function formatCountdown(lang: string, ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  const two = numberFormat(lang, { minimumIntegerDigits: 2, useGrouping: false })
  const one = numberFormat(lang, { useGrouping: false })
  return h > 0 ? `${one.format(h)}:${two.format(m)}:${two.format(s)}` : `${one.format(m)}:${two.format(s)}`
}

const hijriMonthNames = new Map<string, string[]>()

/**
 * The names of the twelve hijri months in `lang`, taken from Intl's Umm al-Qura calendar:
 * walking a year of days, each month's number and its long name are read off the same day.
 */
function hijriMonths(lang: string): string[] {
  let names = hijriMonthNames.get(lang)
  if (names !== undefined) return names
  names = []
  const number = formatter('en', 'UTC', { month: 'numeric', calendar: 'islamic-umalqura', numberingSystem: 'latn' })
  const name = formatter(lang, 'UTC', { month: 'long', calendar: 'islamic-umalqura' })
  const start = Date.UTC(2026, 0, 1)
  for (let day = 0; day < 400 && names.filter(Boolean).length < 12; day++) {
    const instant = start + day * 86_400_000
    const month = Number(number.format(instant))
    if (month >= 1 && month <= 12 && names[month - 1] === undefined) names[month - 1] = name.format(instant)
  }
  hijriMonthNames.set(lang, names)
  return names
}

/**
 * The hijri date of a prayer day: as the month gives it (`hijri`), else Intl's Umm al-Qura
 * date of the Gregorian date.
 */
export function formatHijri(lang: string, era: string, date: string, hijri?: { year: number; month: number; day: number }): string {
  if (hijri !== undefined) {
    const monthName = hijriMonths(lang)[hijri.month - 1] ?? formatNumber(lang, hijri.month)
    const n = numberFormat(lang, { useGrouping: false })
    return `${n.format(hijri.day)} ${monthName} ${n.format(hijri.year)} ${era}`
  }
  try {
    return formatter(lang, 'UTC', { day: 'numeric', month: 'long', year: 'numeric', calendar: 'islamic-umalqura' }).format(Date.parse(`${date}T12:00:00Z`))
  } catch {
    return ''
  }
}

/** A colour `#RRGGBB` that reads on `background` (black or white). */
export function readableOn(background: string): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(background)
  if (m === null) return '#ffffff'
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((x) => {
    const c = parseInt(x, 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
  return luminance > 0.4 ? '#000000' : '#ffffff'
}

/**
 * When a closed service or branch opens (contract §18), in the page's language and the
 * location's clock: the time alone today, the weekday and time within a week ("Monday 08:30"),
 * else the date and time.
 */
export function formatOpening(lang: string, timeZone: string | undefined, opensAt: string, now: number): string {
  const at = Date.parse(opensAt)
  const time = formatTime(lang, timeZone, at)
  if (localDate(timeZone, at) === localDate(timeZone, now)) return time
  if (at - now < 6 * 86_400_000) return `${formatter(lang, timeZone, { weekday: 'long' }).format(new Date(at))} ${time}`
  return `${formatter(lang, timeZone, { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(at))} ${time}`
}

/** Fills `{name}` placeholders. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
}
