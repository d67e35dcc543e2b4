/**
 * The wire: what the server sends and the browser pages read, as TYPES derived from the
 * servers' own TypeBox schemas (`Static<typeof Schema>`), so the two cannot drift apart.
 *
 * Browser code (src/client/**) imports this module with `import type` only: every
 * import here is `import type` too, so the bundler erases all of it and no server code
 * reaches a bundle (test/screens/contract.test.ts checks the bundles and the imports). The
 * values the browser needs at run time (close codes) are in ../screens/shared/close-codes.ts, which imports
 * nothing.
 *
 * The browser's tsconfig (src/client/tsconfig.json) typechecks the server files these
 * types come from, with bun-types.
 */
import type { Static } from '@sinclair/typebox'
import type { ProvisionedCounter, ProvisionedLocation, ProvisionedQueueUnit, ProvisionedService } from '../provisioning/model'
import type { AdminCodes } from '../admin/errors'
import type { AdminWorkspace as AdminWorkspaceSchema, AuditPage as AuditPageSchema, DeleteOutcome as DeleteOutcomeSchema } from '../admin/model'
import type { DisplayNowServing, DisplayPrayerToday, DisplayQueueState, DisplayWidget } from '../display/model'
import type { DisplayCodes } from '../display/errors'
import type { ANNOUNCEMENT_PRIORITIES, AnnouncementsPayload } from '../widgets/payloads/announcements'
import type { EVENT_STATUSES, EventsPayload } from '../widgets/payloads/events'
import type { SCHEDULE_STATUSES, TodaysSchedulePayload } from '../widgets/payloads/todays-schedule'
import type { DIRECTIONS, TRANSPORT_STATUSES, TransportBoardPayload } from '../widgets/payloads/transport-board'
import type { WidgetType as ServerWidgetType } from '../widgets/payloads/common'
import type { Day, PrayerName as ServerPrayerName, ADHAN_ORDER } from '../prayer/model'
import type { KioskTicket as KioskTicketSchema, KioskView as KioskViewSchema } from '../kiosk/model'
import type {
  DeskView as DeskViewSchema, DeskClerk as DeskClerkSchema, DeskSignInRequest as DeskSignInRequestSchema,
  DeskClerkResponse as DeskClerkResponseSchema, DeskSignOutResponse as DeskSignOutResponseSchema,
} from '../desk/model'
import type { DeskClerkCodes } from '../desk/errors'
import type { QueueTicket as QueueTicketSchema, TrackedQueueTicket as TrackedQueueTicketSchema, TicketStatus as ServerTicketStatus } from '../tickets'
import type { VoiceManifest as VoiceManifestSchema } from '../voice/model'
import type { CounterCodes } from '../counters/errors'
import type { CloseCounterRequest as CloseCounterRequestSchema } from '../counters/model'
import type { DeviceCodes } from '../devices/errors'
import type { KioskCodes } from '../kiosk/errors'
import type { PhoneCodes } from '../phone/errors'
import type { CommonCodes, ErrorDetail as ServerErrorDetail } from '../platform/errors'
import type {
  CurrentSessionResponse as CurrentSessionResponseSchema, SessionResponse as SessionResponseSchema, SetupRequest as SetupRequestSchema,
  SetupResponse as SetupResponseSchema, SignInRequest as SignInRequestSchema, SignOutResponse as SignOutResponseSchema,
} from '../people/model'
import type { PeopleCodes } from '../people/errors'
import type {
  FloorSnapshot as FloorSnapshotSchema, ManagedUnits as ManagedUnitsSchema, CloseCounterRequest as FloorCloseRequestSchema,
  CounterChanged as FloorCounterChangedSchema,
} from '../manage/model'
import type { ManageCodes } from '../manage/errors'
import type { StaffReportResponse as StaffReportResponseSchema, FeedbackReportResponse as FeedbackReportResponseSchema } from '../reports/model'
import type { AppointmentReportResponse as AppointmentReportResponseSchema, CheckInResponse as CheckInResponseSchema } from '../appointments/model'
import type { PairingCodeResponse as AdminPairingResponseSchema, DeviceListResponse as AdminDeviceListSchema } from '../admin/devices-model'
import type { UserListResponse as AdminUserListSchema, SetupLinkResponse as AdminSetupLinkSchema } from '../admin/staff-model'
import type { VoiceLanguagesResponse as AdminVoiceLanguagesSchema } from '../admin/voice-model'
import type { KeyListResponse as AdminKeyListSchema, SecretResponse as AdminSecretSchema } from '../admin/keys-model'
import type {
  WebhookListResponse as AdminWebhookListSchema, CreatedWebhookResponse as AdminCreatedWebhookSchema, DeliveryListResponse as AdminDeliveryListSchema,
} from '../admin/webhooks-model'
import type {
  NotificationsSectionResponse as AdminNotificationsSchema, NotificationMessagesResponse as AdminNotificationMessagesSchema,
  TestNotificationResponse as AdminTestNotificationSchema,
} from '../admin/notifications-model'
import type { ProfileJson as HqProfileSchema, BranchJson as HqBranchSchema, RevisionJson as HqRevisionSchema, LiveList as HqLiveListSchema, LiveBranchDetail as HqLiveBranchDetailSchema, ReportList as HqReportListSchema } from '../hq/model'
import type { DailyReportResponse as DailyReportResponseSchema, CounterReportResponse as CounterReportResponseSchema, ReportSummaryResponse as ReportSummaryResponseSchema } from '../reports/model'
import type { DeviceResponse as DeviceResponseSchema, BoardsResponse as BoardsResponseSchema, PairResponse as PairResponseSchema } from '../devices/model'
import type { PhoneStatusResponse as PhoneStatusResponseSchema, PhoneFeedbackBody as PhoneFeedbackBodySchema } from '../phone/model'
import type { ContactsResponse as ContactsResponseSchema, PushKeyResponse as PushKeyResponseSchema } from '../notifications/docs'

export type { WireCloseCode } from '../screens/shared/close-codes'

type ValueOf<T> = T[keyof T]
type ElementOf<T> = T extends readonly (infer E)[] ? E : never
/**
 * `T` with the fields of `F` replaced (kept optional where `T` has them optional). The
 * payload schemas build their enums with `OneOf(values)`, a union over a mapped array, whose
 * `Static` is plain `string`: the contract narrows those fields to the server's own lists.
 */
type Narrow<T, F> = Omit<T, keyof F> &
  { [K in keyof F as K extends keyof T ? (undefined extends T[K] ? never : K) : never]: F[K] } &
  { [K in keyof F as K extends keyof T ? (undefined extends T[K] ? K : never) : never]?: F[K] }
type Items<D, I> = Narrow<D, { items: I[] }>

// ---- tickets ----

export type TicketStatus = ServerTicketStatus
/** The ticket of the operator API, desk and kiosk (contract §8: with `priority`). */
export type QueueTicket = Static<typeof QueueTicketSchema>
/** The ticket as the operator API answers an action or a walk-in, with its phone page (contract §10). */
export type TrackedQueueTicket = Static<typeof TrackedQueueTicketSchema>

// ---- display feeds: queue (docs/display.md) ----

export type QueueState = Static<typeof DisplayQueueState>
export type QueueLocation = ElementOf<QueueState['locations']>
export type QueueServiceState = ElementOf<QueueState['services']>
export type NowServing = Static<typeof DisplayNowServing>
export type RecentCall = ElementOf<QueueState['recentCalls']>

// ---- display feeds: widgets (contract §4) ----

export type WidgetType = ServerWidgetType
type SchedulePayload = Static<typeof TodaysSchedulePayload>
type AnnouncementsStatic = Static<typeof AnnouncementsPayload>
type EventsStatic = Static<typeof EventsPayload>
type TransportStatic = Static<typeof TransportBoardPayload>

export type ScheduleItem = Narrow<ElementOf<SchedulePayload['items']>, { status: (typeof SCHEDULE_STATUSES)[number] }>
export type Announcement = Narrow<ElementOf<AnnouncementsStatic['items']>, { priority: (typeof ANNOUNCEMENT_PRIORITIES)[number] }>
export type EventItem = Narrow<ElementOf<EventsStatic['items']>, { status: (typeof EVENT_STATUSES)[number] }>
export type TransportStatus = (typeof TRANSPORT_STATUSES)[number]
export type TransportItem = Narrow<ElementOf<TransportStatic['items']>, { status: TransportStatus; direction: (typeof DIRECTIONS)[number] }>
export type ScheduleData = Items<SchedulePayload, ScheduleItem>
export type AnnouncementsData = Items<AnnouncementsStatic, Announcement>
export type EventsData = Items<EventsStatic, EventItem>
export type TransportData = Items<TransportStatic, TransportItem>
export type WidgetData = ScheduleData | AnnouncementsData | EventsData | TransportData
/** A widget read: the payload typed by the four payload schemas (the server's union is of `TSchema`s). */
export type WidgetRead = Omit<Static<typeof DisplayWidget>, 'data' | 'widgetType'> & { widgetType: WidgetType; data: WidgetData | null }

// ---- display feeds: prayer (contract §5) ----

export type PrayerName = ServerPrayerName
export type AdhanName = (typeof ADHAN_ORDER)[number]
export type PrayerDay = Static<typeof Day>
type PrayerTodayStatic = Static<typeof DisplayPrayerToday>
export type PrayerToday = Narrow<PrayerTodayStatic, { next: (Narrow<NonNullable<PrayerTodayStatic['next']>, { prayer: PrayerName }>) | null }>

// ---- the live feed (websocket, docs/display.md) ----

export type TopicKind = 'widget' | 'queue' | 'prayer'
/** The codes of the feed's `error` message. */
export type LiveErrorCode = 'INVALID_MESSAGE' | 'TOPIC_NOT_FOUND' | 'TOO_MANY_TOPICS' | 'RATE_LIMITED'
export type LiveMessage =
  | { type: 'snapshot' | 'update'; kind: TopicKind; id: string; revision: number; data: unknown }
  | { type: 'ping' }
  | { type: 'heartbeat' }
  | { type: 'error'; code: LiveErrorCode; message: string }

// ---- device pages: desk and kiosk (contract §8, §9) ----

export type DeskView = Static<typeof DeskViewSchema>
/** The desk's clerk (contract §16): `POST /api/devices/v1/desk/clerk` signs one in, `DELETE` out. */
export type DeskClerk = Static<typeof DeskClerkSchema>
export type DeskSignInRequest = Static<typeof DeskSignInRequestSchema>
export type DeskClerkResponse = Static<typeof DeskClerkResponseSchema>
export type DeskSignOutResponse = Static<typeof DeskSignOutResponseSchema>
/** `POST counters/{id}/close`'s optional body (contract §16). */
export type CloseCounterRequest = Static<typeof CloseCounterRequestSchema>
export type KioskView = Static<typeof KioskViewSchema>
export type KioskTicket = Static<typeof KioskTicketSchema>
export type VoiceManifest = Static<typeof VoiceManifestSchema>
/** `GET /api/devices/v1/device`: this browser's paired device. */
export type DeviceResponse = Static<typeof DeviceResponseSchema>
export type DeviceInfo = DeviceResponse['data']
/** `GET /api/devices/v1/boards`: the display's workspace's screens. */
export type BoardsResponse = Static<typeof BoardsResponseSchema>
export type DeviceBoard = ElementOf<BoardsResponse['data']['boards']>
/** `POST /api/devices/v1/pair`. */
export type PairResponse = Static<typeof PairResponseSchema>

// ---- the phone page (contract §10, §20, §25) ----

/** `GET /api/phone/v1/tickets/{code}` and the answers of its actions. */
export type PhoneStatusResponse = Static<typeof PhoneStatusResponseSchema>
export type PhoneStatus = PhoneStatusResponse['data']
/** The ticket's contacts and the channels the branch sends through. */
export type PhoneContacts = Static<typeof ContactsResponseSchema>['data']
export type PhonePushKey = Static<typeof PushKeyResponseSchema>['data']
/** Contract §20: a rating of a completed visit. */
export type PhoneFeedbackRequest = Static<typeof PhoneFeedbackBodySchema>

// ---- sign-in pages: the auth API (contract §16) ----

export type SignInRequest = Static<typeof SignInRequestSchema>
export type SessionResponse = Static<typeof SessionResponseSchema>
export type CurrentSessionResponse = Static<typeof CurrentSessionResponseSchema>
export type SetupRequest = Static<typeof SetupRequestSchema>
export type SetupResponse = Static<typeof SetupResponseSchema>
export type SignOutResponse = Static<typeof SignOutResponseSchema>

// ---- the reports page: the staff report (contract §16) ----

export type StaffReportResponse = Static<typeof StaffReportResponseSchema>
export type StaffReportRow = ElementOf<StaffReportResponse['data']>
/** Contract §20: the customers' ratings and comments. */
export type FeedbackReportResponse = Static<typeof FeedbackReportResponseSchema>
export type FeedbackReport = FeedbackReportResponse['data']
/** Contract §12: the daily and counter rows, and the page's summary of a range. */
export type DailyReportRow = ElementOf<Static<typeof DailyReportResponseSchema>['data']>
export type CounterReportRow = ElementOf<Static<typeof CounterReportResponseSchema>['data']>
export type ReportSummary = Static<typeof ReportSummaryResponseSchema>['data']
export type ReportSummaryLine = ElementOf<ReportSummary['lines']>

// ---- the live floor (/manage, contract §22) ----

export type FloorSnapshot = Static<typeof FloorSnapshotSchema>
export type FloorLocation = ElementOf<FloorSnapshot['locations']>
export type FloorService = ElementOf<FloorLocation['services']>
export type FloorCounter = ElementOf<FloorLocation['counters']>
export type FloorAppointment = ElementOf<FloorLocation['appointments']>
export type ManagedUnits = Static<typeof ManagedUnitsSchema>
export type FloorCloseRequest = Static<typeof FloorCloseRequestSchema>
export type FloorCounterChanged = Static<typeof FloorCounterChangedSchema>
export type ManageErrorCode = ValueOf<typeof ManageCodes>

// ---- the administration console: the admin API (contract §17) ----

type Viewed<T> = Omit<T, 'name'> & { name: string; names: Record<string, string>; revision: string }
export type AdminLocationView = Viewed<ProvisionedLocation>
export type AdminServiceView = Viewed<ProvisionedService>
export type AdminCounterView = Viewed<ProvisionedCounter>
export type AdminUnitView = Viewed<Omit<ProvisionedQueueUnit, 'locations' | 'services' | 'counters' | 'apiKeys' | 'webhooks'>> & { workspaceId: string }
/** Contract §24: a workspace as the console lists, makes and renames it. */
export type AdminWorkspaceView = Static<typeof AdminWorkspaceSchema>
/** The audit log, a page at a time (`next`: the `before` of the older page). */
export type AdminAuditPage = Static<typeof AuditPageSchema>
export type AdminAuditEntry = ElementOf<AdminAuditPage['data']>
/** What deleting a location, service or counter did. */
export type AdminDeleteOutcome = Static<typeof DeleteOutcomeSchema>
export type AdminErrorCode = ValueOf<typeof AdminCodes>
/** Devices (contract §17, §7): a pairing code's answer, and a paired device as listed. */
export type AdminPairing = Static<typeof AdminPairingResponseSchema>['data']
export type AdminDevice = ElementOf<Static<typeof AdminDeviceListSchema>['data']>
/** Staff: a user as listed, and the setup link a new user or a reset answers. */
export type AdminUser = ElementOf<Static<typeof AdminUserListSchema>['data']>
export type AdminSetupLink = Static<typeof AdminSetupLinkSchema>['data']
/** Voice clips: one language's clips and what it misses. */
export type AdminVoiceLanguage = ElementOf<Static<typeof AdminVoiceLanguagesSchema>['data']>
export type AdminVoiceClip = ElementOf<AdminVoiceLanguage['clips']>
/** Keys and webhooks: a credential as listed, a secret shown once, an endpoint, a delivery. */
export type AdminKey = ElementOf<Static<typeof AdminKeyListSchema>['data']>
export type AdminSecret = Static<typeof AdminSecretSchema>['data']
export type AdminWebhook = ElementOf<Static<typeof AdminWebhookListSchema>['data']>
export type AdminCreatedWebhook = Static<typeof AdminCreatedWebhookSchema>['data']
export type AdminDelivery = ElementOf<Static<typeof AdminDeliveryListSchema>['data']>
/** Notifications (contract §25): the section, a recent message, a test send's outcome. */
export type AdminNotifications = Static<typeof AdminNotificationsSchema>['data']
export type AdminNotificationSettings = NonNullable<AdminNotifications['settings']>
export type AdminNotificationMessage = ElementOf<Static<typeof AdminNotificationMessagesSchema>['data']>
export type AdminTestNotification = Static<typeof AdminTestNotificationSchema>['data']

// ---- the head office console (contract §26) ----

export type HqProfile = Static<typeof HqProfileSchema>
export type HqBranch = Static<typeof HqBranchSchema>
export type HqRevision = Static<typeof HqRevisionSchema>
export type HqLiveList = Static<typeof HqLiveListSchema>
export type HqLiveBranch = ElementOf<HqLiveList['data']>
export type HqLiveBranchDetail = Static<typeof HqLiveBranchDetailSchema>
export type HqLiveLine = ElementOf<HqLiveBranchDetail['lines']>
export type HqReportRow = ElementOf<Static<typeof HqReportListSchema>['data']>

// ---- the reports page: appointments (contract §21) ----

export type AppointmentReportRow = ElementOf<Static<typeof AppointmentReportResponseSchema>['data']>
/** `POST …/appointments/{id}/check-in`: the booking and the ticket it became. */
export type AppointmentCheckIn = Static<typeof CheckInResponseSchema>

// ---- error codes (the `error.code` of an API answer) ----

export type DisplayErrorCode = ValueOf<typeof DisplayCodes>
export type CounterErrorCode = ValueOf<typeof CounterCodes>
export type DeviceErrorCode = ValueOf<typeof DeviceCodes>
export type KioskErrorCode = ValueOf<typeof KioskCodes>
export type PhoneErrorCode = ValueOf<typeof PhoneCodes>
export type PeopleErrorCode = ValueOf<typeof PeopleCodes>
export type DeskClerkErrorCode = ValueOf<typeof DeskClerkCodes>
/** Every code an API answer a page reads may carry. */
export type WireErrorCode =
  | ValueOf<typeof CommonCodes> | DisplayErrorCode | CounterErrorCode | DeviceErrorCode | KioskErrorCode | PhoneErrorCode | PeopleErrorCode | DeskClerkErrorCode

/** One failing field of an error answer (contract §24): a JSON Pointer, the rule it breaks, in English. */
export type ErrorDetail = ServerErrorDetail
/**
 * The error envelope every API answer that fails carries (src/platform/errors.ts, the OpenAPI
 * document's `ErrorResponse`), read defensively: `E` is what an operation adds (an edit
 * conflict's `current`).
 */
export type ErrorEnvelope<E = {}> = { error?: { code?: string; message?: string; details?: ErrorDetail[] } & Partial<E> }

/** The rule a validation detail breaks, and its particulars (contract §24; src/platform/detail-rules.ts). */
export type { DetailRule, DetailParams } from '../platform/detail-rules'
