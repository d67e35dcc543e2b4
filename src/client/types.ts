/**
 * The bodies the screens read (docs/display.md; widget payloads contract §4, prayer months
 * contract §5): the wire types of src/contract/wire.ts, derived from the server's schemas.
 * Type-only: nothing of the server reaches the bundle.
 */
export type {
  TopicKind, QueueLocation, NowServing, QueueServiceState, RecentCall, QueueState,
  WidgetType, WidgetRead, WidgetData, ScheduleItem, ScheduleData, Announcement, AnnouncementsData,
  EventItem, EventsData, TransportStatus, TransportItem, TransportData,
  PrayerName, AdhanName, PrayerDay, PrayerToday, LiveMessage, LiveErrorCode,
} from '../contract/wire'
