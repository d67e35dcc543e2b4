import { at, localDate } from './support'

/** Sample widget payloads and prayer months around "now", as a branch's systems would push them. */

const BERLIN = 'Europe/Berlin'

export function scheduleData(now = Date.now()) {
  return {
    schemaVersion: 2,
    title: "Today's schedule",
    locale: 'en-GB',
    timezone: BERLIN,
    date: localDate(now, BERLIN),
    items: [
      { id: 'opening', title: 'Branch opens', startAt: at(-150, BERLIN, now), endAt: at(-135, BERLIN, now), location: 'Main hall', status: 'COMPLETED' },
      { id: 'pension', title: 'Pension advice drop-in', startAt: at(-30, BERLIN, now), endAt: at(45, BERLIN, now), location: 'Room 2', host: 'A. Rahman' },
      { id: 'mortgage', title: 'First-time buyers: mortgage basics', startAt: at(60, BERLIN, now), endAt: at(120, BERLIN, now), location: 'Room 1', host: 'J. Novak', status: 'DELAYED' },
      { id: 'workshop', title: 'Online banking workshop', startAt: at(150, BERLIN, now), endAt: at(210, BERLIN, now), location: 'Annex' },
      { id: 'fraud', title: 'Protect yourself from scams', startAt: at(240, BERLIN, now), endAt: at(270, BERLIN, now), location: 'Main hall', status: 'CANCELLED' },
      { id: 'youth', title: 'Student accounts Q&A', startAt: at(300, BERLIN, now), endAt: at(330, BERLIN, now), location: 'Room 2' },
    ],
  }
}

export function announcementsData(now = Date.now(), firstTitle = 'New opening hours') {
  return {
    schemaVersion: 2,
    title: 'Announcements',
    locale: 'en-GB',
    timezone: BERLIN,
    items: [
      { id: 'hours', title: firstTitle, body: 'From 1 December the branch opens at 8:30 on weekdays and closes at 18:00. Saturday hours stay the same.', priority: 'HIGH', category: 'Branch', displaySeconds: 12 },
      { id: 'cards', title: 'Contactless limit raised', body: 'You can now pay up to 100 € without a PIN.', displaySeconds: 8 },
      { id: 'outage', title: 'Card terminal maintenance tonight', body: 'Between 01:00 and 03:00 card payments may fail. Cash machines are not affected.', priority: 'URGENT', startsAt: at(-60, BERLIN, now), endsAt: at(600, BERLIN, now) },
      { id: 'expired', title: 'This one has ended', body: 'It must not be shown.', endsAt: at(-10, BERLIN, now) },
    ],
  }
}

export function eventsData(now = Date.now()) {
  return {
    schemaVersion: 2,
    title: 'Events this week',
    subtitle: 'Community room, ground floor',
    locale: 'en-GB',
    timezone: BERLIN,
    items: [
      { id: 'coffee', title: 'Coffee morning for new customers', startAt: at(60 * 9, BERLIN, now), endAt: at(60 * 10, BERLIN, now), location: 'Community room', organizer: 'Branch team', description: 'Meet the team, ask anything about your accounts. Coffee and pastries provided.' },
      { id: 'tax', title: 'Tax return clinic', startAt: at(60 * 28, BERLIN, now), endAt: at(60 * 31, BERLIN, now), location: 'Room 2', organizer: 'Local tax advisers', status: 'MOVED_ONLINE' },
      { id: 'fair', title: 'Home buyers fair', startAt: at(60 * 50, BERLIN, now), allDay: true, location: 'Main hall', description: 'Lenders, surveyors and solicitors under one roof.' },
      { id: 'choir', title: 'Winter choir concert', startAt: at(60 * 76, BERLIN, now), endAt: at(60 * 78, BERLIN, now), location: 'Atrium', status: 'POSTPONED' },
      { id: 'kids', title: 'Money skills for kids', startAt: at(60 * 100, BERLIN, now), endAt: at(60 * 101, BERLIN, now), location: 'Community room', organizer: 'Youth club' },
      { id: 'past', title: 'Already over', startAt: at(-300, BERLIN, now), endAt: at(-240, BERLIN, now) },
    ],
  }
}

export function transportData(now = Date.now(), firstStatus: 'ON_TIME' | 'DELAYED' = 'ON_TIME') {
  const trip = (id: string, direction: string, line: object, minutes: number, status: string, extra: object = {}) => ({
    id, direction, line, scheduledAt: at(minutes, BERLIN, now), status, ...extra,
  })
  const s1 = { shortName: 'S1', color: '#7D66AD', textColor: '#FFFFFF' }
  const u2 = { shortName: 'U2', color: '#DA421E' }
  const bus = { shortName: '142', color: '#A5027D' }
  const tram = { shortName: 'M10', color: '#FFD800' }
  return {
    schemaVersion: 2,
    title: 'Departures & arrivals',
    locale: 'en-GB',
    stop: { id: 'stop-1', name: 'Central Station' },
    timezone: BERLIN,
    items: [
      trip('d1', 'DEPARTURE', s1, 2, firstStatus, { destination: 'Airport BER', platform: '3', ...(firstStatus === 'DELAYED' ? { estimatedAt: at(9, BERLIN, now) } : {}) }),
      trip('d2', 'DEPARTURE', u2, 4, 'DELAYED', { destination: 'Pankow', platform: '1', estimatedAt: at(11, BERLIN, now), remarks: 'Signal failure near Alexanderplatz' }),
      trip('d3', 'DEPARTURE', bus, 6, 'CANCELLED', { destination: 'Ostbahnhof', platform: 'B' }),
      trip('d4', 'DEPARTURE', tram, 7, 'BOARDING', { destination: 'Warschauer Straße', platform: 'C' }),
      trip('d5', 'DEPARTURE', s1, 12, 'ON_TIME', { destination: 'Oranienburg', platform: '4' }),
      trip('d6', 'DEPARTURE', u2, 15, 'EARLY', { destination: 'Ruhleben', platform: '2', estimatedAt: at(14, BERLIN, now) }),
      trip('gone', 'DEPARTURE', bus, -20, 'DEPARTED', { destination: 'Long gone', platform: 'B' }),
      trip('a1', 'ARRIVAL', s1, 3, 'ON_TIME', { origin: 'Potsdam', platform: '3' }),
      trip('a2', 'ARRIVAL', tram, 8, 'DELAYED', { origin: 'Hauptbahnhof', platform: 'C', estimatedAt: at(13, BERLIN, now) }),
      trip('a3', 'ARRIVAL', bus, 10, 'SKIPPED', { origin: 'Märkisches Viertel', platform: 'B' }),
      trip('a4', 'ARRIVAL', u2, 14, 'ON_TIME', { origin: 'Pankow', platform: '1' }),
    ],
  }
}

export const PRAYER_SOURCE = 'psrc_centralmosque-0001-london'
const LONDON = 'Europe/London'

/** The hijri date Intl's Umm al-Qura calendar gives a Gregorian date. */
function hijriOf(date: string): { year: number; month: number; day: number } {
  const parts = new Intl.DateTimeFormat('en-u-ca-islamic-umalqura-nu-latn', { timeZone: 'UTC', year: 'numeric', month: 'numeric', day: 'numeric' })
    .formatToParts(Date.parse(`${date}T12:00:00Z`))
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  return { year: get('year'), month: get('month'), day: get('day') }
}

/** A whole month for the demo source: every day the same times, Fridays with jumuah. */
export function prayerMonth(period: string, iqamahFajr = '06:00') {
  const [year, month] = period.split('-').map(Number) as [number, number]
  const days = Array.from({ length: new Date(Date.UTC(year, month, 0)).getUTCDate() }, (_, i) => {
    const date = `${period}-${String(i + 1).padStart(2, '0')}`
    const friday = new Date(`${date}T12:00:00Z`).getUTCDay() === 5
    return {
      date,
      fajr: '05:40', sunrise: '07:20', dhuhr: '12:05', asr: '14:10', maghrib: '16:15', isha: '17:50',
      iqamah: { fajr: iqamahFajr, dhuhr: '12:30', asr: '14:30', maghrib: '16:20', isha: '18:15' },
      ...(friday ? { jumuah: [{ khutbah: '12:45', iqamah: '13:15' }] } : {}),
      hijri: hijriOf(date),
    }
  })
  return { period, timezone: LONDON, days }
}

/** The periods a screen may need today: this month in London, and the next one near its end. */
export function prayerPeriods(now = Date.now()): string[] {
  const today = localDate(now, LONDON).slice(0, 7)
  const soon = localDate(now + 2 * 86_400_000, LONDON).slice(0, 7)
  return today === soon ? [today] : [today, soon]
}
