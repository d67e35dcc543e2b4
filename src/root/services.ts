import type { AppDeps } from './deps'
import { metricsLoadTask } from '../ops'
import { QueueService } from '../queue'
import { QueueReadModel } from '../queue'
import { CounterService } from '../counters'
import { DeskService } from '../desk'
import { DeviceService } from '../devices'
import { KioskService } from '../kiosk'
import { PhoneActions, PhoneService } from '../phone'
import { JoinService } from '../join'
import { ReportService, ReportSummaryReader } from '../reports'
import { ReportCache } from '../reports'
import { StaffReport } from '../reports'
import { FeedbackReport } from '../reports'
import { createPhoneWaits, phoneWaitsTask } from '../phone'
import type { PhoneWaits } from '../phone'
import type { PhoneStatus, UnitView } from '../phone'
import type { LiveHub } from '../display'
import { createLiveHub, liveHubTask } from '../display'
import { PeopleService, StaffReads } from '../people'
import { ManageService } from '../manage'
import { liveHubTask as floorHubTask } from '../display'
import { AdminDevices, AdminKeys, AdminStaff, AdminVoice, AdminWebhooks, BranchService, type AdminServices } from '../admin'
import { AppointmentService, missedAppointmentsTask } from '../appointments'
import { NotificationService } from '../notifications'
import { tapOutboxEvents } from '../webhooks'
import { Admission } from '../access'

/** Every feature service of one app, each built once; `createApp` hands each route factory the ones it uses. */
export interface AppServices {
  queue: QueueService
  /** The public reads' in-memory model (src/queue/read-model.ts). */
  queueReads: QueueReadModel
  counters: CounterService
  desk: DeskService
  devices: DeviceService
  kiosk: KioskService
  phone: PhoneService
  /** The phone page's changes to a ticket (more time, leave the line, contract §20). */
  phoneActions: PhoneActions
  /** Joining the queue from a phone (contract §20). */
  join: JoinService
  /** The phone's long polls waiting for a change (src/phone/live.ts). */
  phoneWaits: PhoneWaits<PhoneStatus, UnitView>
  /** The display feeds' websocket hub. */
  liveHub: LiveHub
  /** Built on the first report request (their statements are off the cold-start path), then kept. */
  reports: () => ReportService
  reportSummaries: () => ReportSummaryReader
  /** The per-clerk report (contract §16), built on its first request as the other reports. */
  staffReport: () => StaffReport
  /** Contract §20: the customers' ratings. */
  feedbackReport: () => FeedbackReport
  /** Range reads' answers per roll-up revision (contract §23). */
  reportCache: ReportCache
  /** Staff accounts, sign-in and sessions (contract §16). */
  people: PeopleService
  /** The live floor (contract §22): its model, views' hub and wait-target watch. */
  manage: ManageService
  /** The console's Branch section (contract §17): configuration edits through the provisioning code. */
  branch: BranchService
  /** The console's other sections (contract §17): devices, staff, keys, webhooks, voice clips. */
  admin: AdminServices
  /** Bookings, slots and check-in (contract §21). */
  appointments: AppointmentService
  /** SMS, e-mail and web push to customers who opted in (contract §25). */
  notifications: NotificationService
  /** The one admission (src/access/): every credential a route takes, asked of the devices, the clerks' sign-ins and the sessions. */
  admission: Admission
}

/**
 * The composition root's feature half: builds every service once, and registers the hooks
 * (after-commit listeners, the write path's metrics) and the background tasks that go with
 * them on `deps.lifecycle`. Starts nothing: `startServer` starts the lifecycle once it listens.
 */
export function composeServices(deps: AppDeps): AppServices {
  // Metrics (src/ops): group-commit sizes, and prom-client loaded a little after the start.
  deps.writes.onBatchCommitted = (size) => deps.metrics.writeBatch(size)
  deps.lifecycle.register(metricsLoadTask(deps.metrics))

  // The display feeds: the hub hears of every committed change after its COMMIT.
  const liveHub = createLiveHub(deps)
  deps.events.widgetSnapshots.on((snapshot) => liveHub.publish('widget', snapshot.widgetId, snapshot.workspaceId))
  deps.events.prayerMonths.on((event) => liveHub.publish('prayer', event.sourceId, event.workspaceId))
  deps.events.queueChanges.on((change) => liveHub.publish('queue', change.queueUnitId, change.workspaceId))
  deps.lifecycle.register(liveHubTask(liveHub, deps.limits.socketRecheckMs))

  // One Queue service for the public, operator, desk and kiosk routes (its statements are prepared once).
  const queue = new QueueService(deps)
  const counters = new CounterService(deps, queue)
  // The phone's waiting polls: told of every committed queue change, all answered when stopping.
  const phone = new PhoneService(deps)
  const phoneWaits = createPhoneWaits(deps, phone)
  deps.events.queueChanges.on((change) => phoneWaits.changed(change.queueUnitId))
  deps.lifecycle.register(phoneWaitsTask(phoneWaits))
  const people = new PeopleService(deps, deps.passwordCost === undefined ? {} : { passwordCost: deps.passwordCost })
  // The live floor: its views hear of every committed change of their unit (coalesced, FLOOR_PUBLISH_MS);
  // the wait-target watch and the views' timers run with the server; /metrics reads the lines' heads.
  // Contract §21: BOOKED appointments past their check-in window become MISSED (every minute).
  const appointments = new AppointmentService(deps)
  deps.lifecycle.register(missedAppointmentsTask(deps, appointments))
  // Contract §25: every outbox event writes its notifications in its own transaction; reminders and deletions every minute.
  const notifications = new NotificationService(deps)
  tapOutboxEvents(deps.db, notifications.outbox.onEvent)
  deps.lifecycle.register(notifications.task())
  const manage = new ManageService(deps, counters, appointments)
  deps.events.queueChanges.on((change) => manage.changed(change.queueUnitId))
  deps.lifecycle.register(manage.task())
  deps.lifecycle.register(floorHubTask(manage.hub, deps.limits.socketRecheckMs))
  deps.metrics.longestWaits = () => manage.watch.longestWaits()
  let reports: ReportService | undefined
  let summaries: ReportSummaryReader | undefined
  let staffReport: StaffReport | undefined
  let feedbackReport: FeedbackReport | undefined
  const devices = new DeviceService(deps.db, deps.ids)
  const reportService = () => (reports ??= new ReportService(deps.db.$client, deps.tickets.rollupReads))
  return {
    queue,
    queueReads: new QueueReadModel(deps, queue),
    counters,
    desk: new DeskService(deps, counters, people, appointments),
    devices,
    kiosk: new KioskService(deps, queue),
    join: new JoinService(deps, queue),
    phone,
    phoneActions: new PhoneActions(deps, phone),
    phoneWaits,
    liveHub,
    reports: reportService,
    reportSummaries: () => (summaries ??= new ReportSummaryReader(deps.db.$client, reportService(), deps.tickets.rollupReads)),
    staffReport: () => (staffReport ??= new StaffReport(deps.db.$client, deps.tickets.rollupReads, new StaffReads(deps.db.$client))),
    feedbackReport: () => (feedbackReport ??= new FeedbackReport(deps.tickets.feedback)),
    reportCache: new ReportCache(deps.changes),
    people,
    manage,
    branch: new BranchService(deps),
    admin: {
      devices: new AdminDevices(deps.db, devices),
      keys: new AdminKeys(deps.db, deps.ids),
      staff: new AdminStaff(people),
      voice: new AdminVoice(deps.db),
      webhooks: new AdminWebhooks(deps.db, deps.ids),
    },
    appointments,
    notifications,
    admission: new Admission(deps, { devices, staff: deps.staff, people }),
  }
}
