/**
 * The display feed bodies the screens read (docs/display.md; widget payloads contract §4,
 * prayer months contract §5). Declared here, not imported from the server features, because
 * this is the wire format the browser sees, and the browser bundle must not pull server code.
 */

export type TopicKind = 'widget' | 'queue' | 'prayer'

// ---- queue ----

export interface QueueLocation {
  id: string
  name: string
  timezone: string
}

export interface NowServing {
  number: string
  counterName: string
  status?: string
  calledAt?: string
}

export interface QueueServiceState {
  id: string
  name: string
  prefix: string
  locationId: string
  waiting: number
  estimatedWaitSeconds: number
  nowServing: NowServing | null
}

export interface RecentCall {
  number: string
  serviceId: string
  locationId: string
  counterName: string
  calledAt: string
  status?: string
}

export interface QueueState {
  queueUnitId: string
  name: string
  stateRevision: number
  generatedAt?: string
  locations: QueueLocation[]
  services: QueueServiceState[]
  recentCalls: RecentCall[]
}

// ---- widgets ----

export type WidgetType = 'TODAYS_SCHEDULE' | 'ANNOUNCEMENTS' | 'EVENTS' | 'TRANSPORT_BOARD'

export interface WidgetRead {
  widgetId: string
  widgetType: WidgetType
  name?: string
  dataRevision: number
  acceptedAt: string | null
  data: WidgetData | null
}

export type WidgetData = ScheduleData | AnnouncementsData | EventsData | TransportData

export interface ScheduleItem {
  id: string
  title: string
  startAt: string
  endAt?: string
  location?: string
  host?: string
  status?: 'SCHEDULED' | 'IN_PROGRESS' | 'DELAYED' | 'RESCHEDULED' | 'CANCELLED' | 'COMPLETED'
}

export interface ScheduleData {
  schemaVersion: number
  title?: string
  subtitle?: string
  locale?: string
  timezone: string
  date: string
  items: ScheduleItem[]
}

export interface Announcement {
  id: string
  title: string
  body: string
  priority?: 'LOW' | 'NORMAL' | 'HIGH' | 'URGENT'
  category?: string
  startsAt?: string
  endsAt?: string
  displaySeconds?: number
  imageUrl?: string
}

export interface AnnouncementsData {
  schemaVersion: number
  title?: string
  locale?: string
  timezone?: string
  items: Announcement[]
}

export interface EventItem {
  id: string
  title: string
  startAt: string
  endAt?: string
  allDay?: boolean
  location?: string
  organizer?: string
  description?: string
  imageUrl?: string
  status?: 'SCHEDULED' | 'CANCELLED' | 'POSTPONED' | 'RESCHEDULED' | 'MOVED_ONLINE'
}

export interface EventsData {
  schemaVersion: number
  title?: string
  subtitle?: string
  locale?: string
  timezone: string
  items: EventItem[]
}

export type TransportStatus =
  | 'ON_TIME' | 'EARLY' | 'DELAYED' | 'CANCELLED' | 'BOARDING' | 'ARRIVED' | 'DEPARTED' | 'SKIPPED' | 'NO_REPORT'

export interface TransportItem {
  id: string
  direction: 'DEPARTURE' | 'ARRIVAL'
  line: { shortName: string; color?: string; textColor?: string }
  scheduledAt: string
  status: TransportStatus
  destination?: string
  origin?: string
  mode?: string
  estimatedAt?: string
  platform?: string
  remarks?: string
}

export interface TransportData {
  schemaVersion: number
  title?: string
  locale?: string
  stop?: { id?: string; name: string }
  timezone: string
  items: TransportItem[]
}

// ---- prayer ----

export type PrayerName = 'fajr' | 'dhuhr' | 'asr' | 'maghrib' | 'isha'
export type AdhanName = PrayerName | 'sunrise'

export interface PrayerDay {
  date: string
  fajr: string
  sunrise: string
  dhuhr: string
  asr: string
  maghrib: string
  isha: string
  iqamah?: Record<PrayerName, string>
  jumuah?: { khutbah?: string; iqamah: string }[]
  hijri?: { year: number; month: number; day: number }
}

export interface PrayerToday {
  sourceId: string
  timezone: string
  date: string
  localTime: string
  period: string
  revision: number
  checksum: string
  location: { name: string | null; city: string | null; country?: string | null }
  day: PrayerDay
  next: { prayer: PrayerName; date: string; time: string; at: string; iqamah: string | null } | null
}

// ---- live messages (server → client) ----

export type LiveMessage =
  | { type: 'snapshot' | 'update'; kind: TopicKind; id: string; revision: number; data: unknown }
  | { type: 'ping' }
  | { type: 'error'; code: string; message: string }
