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

/** The calendar date (`YYYY-MM-DD`) at instant `ms` in time zone `tz`. */
export function localDate(ms: number, tz: string): string {
  let fmt = dateFormatters.get(tz)
  if (fmt === undefined) {
    // en-CA formats as YYYY-MM-DD.
    fmt = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' })
    dateFormatters.set(tz, fmt)
  }
  return fmt.format(ms)
}
