import { createPlatformDeps, type PlatformDeps, type PlatformInput } from '../platform/deps'
import { CommitListeners } from '../platform/listeners'
import type { PrayerMonthEvent } from '../prayer'
import { MetricsSink } from '../ops'
import { Tickets, type QueueChange } from '../tickets'
import { WidgetStore, type WidgetSnapshot } from '../widgets'
import { WebhookOutbox } from '../webhooks'
import { StaffIntervals, type PasswordCost } from '../people'
import { ConfigurationRead } from '../structure'

/**
 * What the features are handed: the platform's objects and the per-app stores that own
 * prepared statements, each built once per app, here. Features import this type only.
 */
export interface AppDeps extends PlatformDeps {
  /** The owner of ticket state (tickets, their history, calls, live counts). */
  tickets: Tickets
  /** The widget feature's statements (push and snapshot reads). */
  widgets: WidgetStore
  /** What `/metrics` reports (src/ops): fed by the write path, tickets and webhooks. */
  metrics: MetricsSink
  /** `--metrics-token`: lets callers other than loopback read `/metrics` (src/ops). */
  metricsToken?: string | null
  /** Contract §10: makes a new ticket's tracking code at `now` (absent: its minute and 100 random bits); tests inject their own. */
  trackingCodes?: (now: number) => string
  /** Contract §16: the Argon2id cost of password and PIN hashes (absent: 19 MiB, 2 passes); tests pass a cheap one. */
  passwordCost?: PasswordCost
  /**
   * Contract §16: the clerks' time at the desk (`staff_intervals`, src/people/staff.ts). Here, not
   * in a feature's service, because the desk's credential (devices), the counter's open and close
   * (counters) and the daily close write or read it beside their own change, and none of them
   * may import the people feature (which uses devices).
   */
  staff: StaffIntervals
  /** The one webhook outbox (src/webhooks): ticket changes, appointments and the wait watch write their events through it. */
  outbox: WebhookOutbox
  /** The app's in-process events, told after COMMIT; one registry each, here and nowhere else. */
  events: AppEvents
  /** The one cached read of the configuration tables (src/structure/configuration.ts): units, locations, services, counters, hours. */
  configuration: ConfigurationRead
}

/** What committed changes the app's listeners hear of (display feeds, phone polls, the floor, replication). */
export interface AppEvents {
  /** A queue unit's tickets or counters changed (src/tickets: `Tickets` emits). */
  queueChanges: CommitListeners<QueueChange>
  /** A widget's snapshot was accepted (src/widgets: a push emits). */
  widgetSnapshots: CommitListeners<WidgetSnapshot>
  /** A prayer month's new revision was stored (src/prayer: a push emits). */
  prayerMonths: CommitListeners<PrayerMonthEvent>
}

type AppOwn = 'tickets' | 'widgets' | 'metrics' | 'metricsToken' | 'trackingCodes' | 'passwordCost' | 'staff' | 'outbox' | 'events' | 'configuration'

export type DepsInput = PlatformInput & Partial<Pick<AppDeps, AppOwn>>

/** The app's dependencies; what `input` gives is kept (a built `AppDeps` comes back with the same objects). */
export function createDeps(input: DepsInput): AppDeps {
  const { tickets, widgets, metrics: givenMetrics, metricsToken, trackingCodes, passwordCost, staff, outbox: givenOutbox, events: givenEvents, configuration, ...platformInput } = input
  const platform = createPlatformDeps(platformInput)
  const metrics = givenMetrics ?? new MetricsSink(input.db)
  const outbox = givenOutbox ?? new WebhookOutbox(input.db, platform.ids)
  const events: AppEvents = givenEvents ?? {
    queueChanges: new CommitListeners<QueueChange>('queue change'),
    widgetSnapshots: new CommitListeners<WidgetSnapshot>('widget snapshot'),
    prayerMonths: new CommitListeners<PrayerMonthEvent>('prayer month'),
  }
  const base = {
    ...platform,
    metrics,
    ...(metricsToken !== undefined ? { metricsToken } : {}),
    ...(trackingCodes !== undefined ? { trackingCodes } : {}),
    ...(passwordCost !== undefined ? { passwordCost } : {}),
    outbox,
    events,
  }
  const configurationRead = configuration ?? new ConfigurationRead(input.db, platform.changes)
  return {
    ...base,
    tickets: tickets ?? new Tickets({ ...base, configuration: configurationRead, queueChanges: events.queueChanges, onEvent: (type) => metrics.ticketEvent(type.slice('ticket.'.length)) }),
    widgets: widgets ?? new WidgetStore(input.db),
    staff: staff ?? new StaffIntervals(input.db),
    configuration: configurationRead,
  }
}
