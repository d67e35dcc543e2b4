import { createPlatformDeps, type PlatformDeps, type PlatformInput } from '../platform/deps'
import { MetricsSink } from '../ops'
import { Tickets } from '../tickets'
import { WidgetStore } from '../widgets'
import { WebhookOutbox } from '../webhooks'
import { StaffIntervals, type PasswordCost } from '../people'

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
}

type AppOwn = 'tickets' | 'widgets' | 'metrics' | 'metricsToken' | 'trackingCodes' | 'passwordCost' | 'staff' | 'outbox'

export type DepsInput = PlatformInput & Partial<Pick<AppDeps, AppOwn>>

/** The app's dependencies; what `input` gives is kept (a built `AppDeps` comes back with the same objects). */
export function createDeps(input: DepsInput): AppDeps {
  const { tickets, widgets, metrics: givenMetrics, metricsToken, trackingCodes, passwordCost, staff, outbox: givenOutbox, ...platformInput } = input
  const platform = createPlatformDeps(platformInput)
  const metrics = givenMetrics ?? new MetricsSink(input.db)
  const outbox = givenOutbox ?? new WebhookOutbox(input.db, platform.ids)
  const base = {
    ...platform,
    metrics,
    ...(metricsToken !== undefined ? { metricsToken } : {}),
    ...(trackingCodes !== undefined ? { trackingCodes } : {}),
    ...(passwordCost !== undefined ? { passwordCost } : {}),
    outbox,
  }
  return {
    ...base,
    tickets: tickets ?? new Tickets({ ...base, onEvent: (type) => metrics.ticketEvent(type.slice('ticket.'.length)) }),
    widgets: widgets ?? new WidgetStore(input.db),
    staff: staff ?? new StaffIntervals(input.db),
  }
}
