/*
 * Contract §21's calendar file, RFC 5545: one VCALENDAR with one VEVENT. Times are written in
 * UTC form (`DTSTART:20261126T090000Z`, RFC 5545 §3.3.5 form #2), which needs no VTIMEZONE: the
 * calendar shows the same instant in the phone's zone, which for a customer of the branch is
 * the branch's. Lines end in CRLF and are folded at 75 octets (a fold never splits a UTF-8
 * character); text values escape backslash, semicolon, comma and newlines (§3.3.11).
 */

export interface CalendarEvent {
  uid: string
  stamp: number
  start: number
  end: number
  summary: string
  location: string
  description: string
  url?: string
}

/** `20261126T090000Z`. */
export function icsUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
}

/** A TEXT value escaped (RFC 5545 §3.3.11). */
export function icsText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r\n|\r|\n/g, '\\n')
}

const encoder = new TextEncoder()

/** One content line folded at 75 octets: CRLF and a space before each continuation (§3.1). */
export function foldLine(line: string): string {
  const out: string[] = []
  let current = ''
  let octets = 0
  for (const ch of line) {
    const size = encoder.encode(ch).byteLength
    // The first line holds 75 octets; a continuation's leading space counts, so 74 more.
    const room = out.length === 0 ? 75 : 74
    if (octets + size > room) {
      out.push(current)
      current = ''
      octets = 0
    }
    current += ch
    octets += size
  }
  out.push(current)
  return out.join('\r\n ')
}

export function calendarFile(event: CalendarEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Lobby//Appointments//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${icsUtc(event.stamp)}`,
    `DTSTART:${icsUtc(event.start)}`,
    `DTEND:${icsUtc(event.end)}`,
    `SUMMARY:${icsText(event.summary)}`,
    `LOCATION:${icsText(event.location)}`,
    `DESCRIPTION:${icsText(event.description)}`,
    ...(event.url === undefined ? [] : [`URL:${event.url}`]),
    'END:VEVENT',
    'END:VCALENDAR',
  ]
  return lines.map(foldLine).join('\r\n') + '\r\n'
}
