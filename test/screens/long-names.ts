import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { announcementsData, eventsData, scheduleData, transportData } from './data'
import { localDate } from './support'

/**
 * A branch that stresses the layouts: 30-character names for the unit, its locations, its
 * services and counters, 3-letter ticket prefixes, 12 services over three locations in one unit,
 * and a second unit with two locations (shown without `&location=`). Written as JSON, which the
 * provisioning reader takes as YAML.
 */

/** Exactly 30 characters each (the issue's "long names"). */
export const LONG = {
  unit: 'Northern Regional Service Hall',
  twoUnit: 'Westside Community Branch Desk',
  locations: ['Ground Floor Customer Hall (A)', 'First Floor Business Annex (B)', 'Second Floor Mortgage Suite C.'],
  twoLocations: ['Left Wing Personal Banking Bay', 'Right Wing Small Business Bays'],
  services: [
    'Current Accounts and Savings Q',
    'International Money Transfers.',
    'Mortgages and Home Equity Loan',
    'Business Accounts and Payrolls',
    'Pensions, Annuities and Bonds.',
    'Cards, PINs and Online Banking',
    'Student and Graduate Accounts.',
    'Foreign Currency and Travel Cx',
    'Safe Deposit Boxes and Vaults.',
    'Insurance Claims and Policies.',
    'خدمات الحسابات الجارية والتوفير',
    'Complaints, Appeals and Refund',
  ],
  counter: (n: number) => `Customer Service Window Nº. ${String(n).padStart(2, '0')}`,
}

/** The same names in Arabic (contract §18: a name per language), about as long, so an Arabic board is tested with its own long names. */
export const LONG_AR = {
  unit: 'قاعة الخدمات الإقليمية الشمالية',
  twoUnit: 'مكتب فرع المجتمع في الجانب الغربي',
  locations: ['قاعة العملاء بالطابق الأرضي (أ)', 'ملحق الأعمال بالطابق الأول (ب)', 'جناح الرهن العقاري بالطابق الثاني'],
  twoLocations: ['جناح الخدمات المصرفية الشخصية', 'جناح خدمات الأعمال الصغيرة والمتوسطة'],
  services: [
    'الحسابات الجارية وحسابات التوفير',
    'التحويلات المالية الدولية السريعة',
    'الرهن العقاري وقروض الملكية للمنازل',
    'حسابات الشركات وكشوف الرواتب الشهرية',
    'المعاشات التقاعدية والسندات والأقساط',
    'البطاقات والأرقام السرية والخدمات الرقمية',
    'حسابات الطلاب والخريجين الجدد',
    'العملات الأجنبية وخدمات السفر والسياحة',
    'صناديق الأمانات والخزائن الآمنة',
    'مطالبات التأمين ووثائق التأمين',
    'خدمات الحسابات الجارية والتوفير',
    'الشكاوى والتظلمات واسترداد المبالغ',
  ],
  counter: (n: number) => `نافذة خدمة العملاء رقم ${String(n).padStart(2, '0')}`,
}

/** A name in English and Arabic, English first (the unit's default language). */
const both = (en: string, ar: string) => ({ en, ar })

/** The location of qu_closed: open every day 08:30–16:30, but closed yesterday, today and tomorrow (Berlin), so it opens the day after tomorrow at 08:30. */
export const CLOSED = {
  location: both('Central Station Customer Lounge', 'صالة العملاء في المحطة المركزية'),
  unit: both('Central Station Travel Branch', 'فرع السفر في المحطة المركزية'),
  services: [both('Foreign Currency and Travel Cx', 'العملات الأجنبية وخدمات السفر والسياحة'), both('Cards, PINs and Online Banking', 'البطاقات والأرقام السرية والخدمات الرقمية')],
}

const PREFIXES = ['WMA', 'WMB', 'WMC', 'WMD', 'WME', 'WMF', 'WMG', 'WMH', 'WMJ', 'WMK', 'WML', 'WMN']

export function longNamesProvisioning(dir: string, now = Date.now()): string {
  const berlin = 'Europe/Berlin'
  const day = 86_400_000
  const closedDates = [-1, 0, 1].map((k) => localDate(now + k * day, berlin))
  const everyDay = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['08:30', '16:30']]]))
  const mainLocations = ['loc_hall', 'loc_annex', 'loc_upper']
  // 6 services in the hall, 4 in the annex, 2 upstairs: 12 cards.
  const placeOf = (i: number) => (i < 6 ? 'loc_hall' : i < 10 ? 'loc_annex' : 'loc_upper')
  const twoServices = [0, 1, 2, 3, 4, 5]
  const document = {
    workspaces: [
      {
        id: 'ws_demo',
        name: 'Long names workspace',
        apiKeys: [{ name: 'cms' }],
        displayTokens: [{ name: 'lobby-screens' }],
        widgets: [
          { id: 'wdg_schedule_lobby', type: 'TODAYS_SCHEDULE', name: 'Lobby schedule', pushSource: 'ACTIVE' },
          { id: 'wdg_announcements', type: 'ANNOUNCEMENTS', name: 'Announcements', pushSource: 'ACTIVE' },
          { id: 'wdg_events', type: 'EVENTS', name: 'Events this week', pushSource: 'ACTIVE' },
          { id: 'wdg_departures', type: 'TRANSPORT_BOARD', name: 'Departures', pushSource: 'ACTIVE' },
        ],
        prayerSources: [
          {
            id: 'psrc_centralmosque-0001-london',
            name: 'Central Mosque',
            timezone: 'Europe/London',
            location: { name: 'Central Mosque of North London', city: 'London', country: 'GB', latitude: 51.52, longitude: -0.08 },
          },
        ],
        queueUnits: [
          {
            id: 'qu_main',
            name: both(LONG.unit, LONG_AR.unit),
            languages: ['en', 'ar'],
            active: true,
            locations: mainLocations.map((id, i) => ({ id, name: both(LONG.locations[i]!, LONG_AR.locations[i]!), timezone: berlin })),
            services: LONG.services.map((name, i) => ({ id: `svc_${i + 1}`, name: both(name, LONG_AR.services[i]!), prefix: PREFIXES[i], active: true, locations: [placeOf(i)], defaultServiceSeconds: 300 + i * 97 })),
            counters: LONG.services.map((_, i) => ({ id: `cnt_${i + 1}`, name: both(LONG.counter(i + 1), LONG_AR.counter(i + 1)), locationId: placeOf(i), services: [`svc_${i + 1}`] })),
            apiKeys: [
              { name: 'kiosk', scopes: ['services:read', 'tickets:write', 'tickets:read', 'state:read'], rateLimits: { issuePerMinute: 600, readPerMinute: 600 } },
              { name: 'operator', scopes: ['counter:operate', 'tickets:read', 'state:read', 'services:read'] },
            ],
          },
          {
            id: 'qu_two',
            name: both(LONG.twoUnit, LONG_AR.twoUnit),
            languages: ['en', 'ar'],
            active: true,
            locations: [
              { id: 'loc_left', name: both(LONG.twoLocations[0]!, LONG_AR.twoLocations[0]!), timezone: berlin },
              { id: 'loc_right', name: both(LONG.twoLocations[1]!, LONG_AR.twoLocations[1]!), timezone: berlin },
            ],
            services: twoServices.map((i) => ({ id: `svc_two_${i + 1}`, name: both(LONG.services[i]!, LONG_AR.services[i]!), prefix: PREFIXES[i], active: true, locations: [i < 3 ? 'loc_left' : 'loc_right'] })),
            counters: twoServices.map((i) => ({ id: `cnt_two_${i + 1}`, name: both(LONG.counter(20 + i), LONG_AR.counter(20 + i)), locationId: i < 3 ? 'loc_left' : 'loc_right', services: [`svc_two_${i + 1}`] })),
            apiKeys: [
              { name: 'kiosk', scopes: ['services:read', 'tickets:write', 'tickets:read', 'state:read'], rateLimits: { issuePerMinute: 600, readPerMinute: 600 } },
              { name: 'operator', scopes: ['counter:operate', 'tickets:read', 'state:read', 'services:read'] },
            ],
          },
          {
            id: 'qu_closed',
            name: CLOSED.unit,
            languages: ['en', 'ar'],
            active: true,
            locations: [{ id: 'loc_station', name: CLOSED.location, timezone: berlin, openingHours: everyDay, closedDates }],
            services: CLOSED.services.map((name, i) => ({ id: `svc_station_${i + 1}`, name, prefix: PREFIXES[i], active: true, locations: ['loc_station'] })),
            counters: CLOSED.services.map((_, i) => ({ id: `cnt_station_${i + 1}`, name: both(LONG.counter(30 + i), LONG_AR.counter(30 + i)), locationId: 'loc_station', services: [`svc_station_${i + 1}`] })),
            apiKeys: [{ name: 'operator', scopes: ['counter:operate', 'tickets:read', 'state:read', 'services:read'] }],
          },
        ],
      },
    ],
  }
  const file = join(dir, 'long-names.yaml')
  writeFileSync(file, JSON.stringify(document, null, 2))
  return file
}

/** The 12 services of qu_main with their location and counter, and the 6 of qu_two. */
export const MAIN_LINES = LONG.services.map((_, i) => ({ service: `svc_${i + 1}`, location: i < 6 ? 'loc_hall' : i < 10 ? 'loc_annex' : 'loc_upper', counter: `cnt_${i + 1}` }))
export const TWO_LINES = [0, 1, 2, 3, 4, 5].map((i) => ({ service: `svc_two_${i + 1}`, location: i < 3 ? 'loc_left' : 'loc_right', counter: `cnt_two_${i + 1}` }))

const LONG_PLACES = ['Flughafen BER Terminal 1 und 2', 'Hennigsdorf über Spandau (Bus)', 'Königs Wusterhausen Bahnhof Nord', 'Warschauer Straße via Ostkreuz']

/** The widget payloads with 30-character titles, places and remarks. */
export function longWidgets(now = Date.now()) {
  const schedule = scheduleData(now)
  schedule.title = 'Customer events at this branch'
  schedule.items = schedule.items.map((item, i) => ({ ...item, title: `${item.title} for business owners`.slice(0, 30), location: LONG.locations[i % 3]!, host: LONG.counter(i) }))
  const announcements = announcementsData(now, 'New opening hours from December')
  for (const item of announcements.items) Object.assign(item, { category: 'Branch news and service notes' })
  const events = eventsData(now)
  events.items.forEach((item, i) => Object.assign(item, { title: `${item.title} at the branch hall`.slice(0, 30), location: LONG.locations[i % 3]! }))
  const transport = transportData(now, 'DELAYED')
  transport.title = 'Departures from Central Station'
  transport.items = transport.items.map((item, i) => ({
    ...item,
    ...(item.direction === 'DEPARTURE' ? { destination: LONG_PLACES[i % LONG_PLACES.length]! } : { origin: LONG_PLACES[(i + 1) % LONG_PLACES.length]! }),
    platform: i % 2 === 0 ? '12B' : '3',
  }))
  return { schedule, announcements, events, transport }
}
