import { localDate } from '../platform/time'

/**
 * Contract §3: `ticketNumber` = service prefix + the day's number zero-padded to 3 digits
 * (`A007`; after `A999` comes `A1000`).
 */
export function formatTicketNumber(prefix: string, seq: number): string {
  return prefix + String(seq).padStart(3, '0')
}

/**
 * Contract §3: numbers count per location and prefix per local business day, the calendar
 * date in the location's time zone (`YYYY-MM-DD`). A new day starts at local midnight.
 */
export function businessDayAt(now: number, timezone: string): string {
  return localDate(now, timezone)
}
