import type { Db } from '../db/open'
import type { BackgroundTask } from '../platform/lifecycle'
import type { LobbyMetrics, LongestWaitGauge, ReplicationGauges } from './metrics'
import { HttpTally } from './http-tally'

/** Observations made before prom-client is loaded, replayed into it once it is. */
interface Pending {
  tickets: string[]
  batches: number[]
  givenUp: number
  notifications: [string, string, string][]
}

const LOAD_AFTER_START_MS = 3_000

/** Past this many waiting observations, prom-client is loaded at once instead of later. */
const MAX_PENDING = 1_000

/**
 * The metrics of one database without prom-client on the start path: loading it costs more
 * than the cold-start budget has left (bench/RESULTS.md: ≤ 150 ms to the first /health), so
 * `serve` loads it a little after it listens, or the first scrape does. Until then
 * observations are kept here (at most MAX_PENDING) and replayed, so none is lost.
 */
export class MetricsSink {
  private metrics: LobbyMetrics | null = null
  private loading: Promise<LobbyMetrics> | null = null
  private pending: Pending = { tickets: [], batches: [], givenUp: 0, notifications: [] }
  /** HTTP requests are counted here whether prom-client is loaded or not; it reads them when scraped. */
  private readonly httpTally = new HttpTally()
  private pendingCount = 0
  /** Open display websockets; the metrics route points it at Bun's count once a server runs. */
  websocketConnections: () => number = () => 0
  /** Head-office replication's lag and backlog when `serve` replicates (set before the server starts); null otherwise. */
  replication: (() => ReplicationGauges) | null = null
  /** Contract §22: every line's longest current wait, from the live floor's heads in memory (src/manage); set by the root. */
  longestWaits: () => LongestWaitGauge[] = () => []

  constructor(private readonly db: Db) {}

  http(route: string, method: string, status: string, seconds: number | undefined): void {
    this.httpTally.observe(route, method, status, seconds)
  }

  ticketEvent(event: string): void {
    if (this.metrics === null) return this.hold(() => this.pending.tickets.push(event))
    this.metrics.tickets.inc({ event })
  }

  writeBatch(size: number): void {
    if (this.metrics === null) return this.hold(() => this.pending.batches.push(size))
    this.metrics.writeBatchSize.observe(size)
  }

  webhookGivenUp(): void {
    if (this.metrics === null) return this.hold(() => (this.pending.givenUp += 1))
    this.metrics.webhookDeliveriesFailed.inc()
  }

  /** Contract §25: one notification's outcome (`sent`, `retry`, `failed`, `skipped`). */
  notification(channel: string, kind: string, result: string): void {
    if (this.metrics === null) return this.hold(() => this.pending.notifications.push([channel, kind, result]))
    this.metrics.notifications.inc({ channel, kind, result })
  }

  /** prom-client with everything observed so far. */
  load(): Promise<LobbyMetrics> {
    this.loading ??= import('./metrics').then(({ LobbyMetrics }) => {
      const replication = this.replication
      const m = new LobbyMetrics({ db: this.db, http: this.httpTally, websocketConnections: () => this.websocketConnections(), replication, longestWaits: () => this.longestWaits() })
      const { tickets, batches, givenUp, notifications } = this.pending
      for (const event of tickets) m.tickets.inc({ event })
      for (const size of batches) m.writeBatchSize.observe(size)
      if (givenUp > 0) m.webhookDeliveriesFailed.inc(givenUp)
      for (const [channel, kind, result] of notifications) m.notifications.inc({ channel, kind, result })
      this.pending = { tickets: [], batches: [], givenUp: 0, notifications: [] }
      this.metrics = m
      return m
    })
    return this.loading
  }

  private hold(push: () => void): void {
    push()
    if (++this.pendingCount >= MAX_PENDING) void this.load()
  }
}

/** prom-client is loaded once the server has started (`LOAD_AFTER_START_MS` after), off the cold-start path. */
export function metricsLoadTask(sink: MetricsSink): BackgroundTask {
  let loadTimer: ReturnType<typeof setTimeout> | undefined
  return {
    start: () => (loadTimer = setTimeout(() => void sink.load(), LOAD_AFTER_START_MS)),
    stop: () => clearTimeout(loadTimer),
  }
}
