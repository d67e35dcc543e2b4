// The four classes only: prom-client's index also loads the default process metrics,
// Summary and the push gateway client (tens of milliseconds more to evaluate).
import Registry from 'prom-client/lib/registry'
import Counter from 'prom-client/lib/counter'
import Gauge from 'prom-client/lib/gauge'
import Histogram from 'prom-client/lib/histogram'
import type { Db } from '../db/open'
import { QueueLines } from '../tickets'
import { HTTP_DURATION_BUCKETS, type HttpTally } from './http-tally'

/** Sources read when Prometheus scrapes, so gauges are never stale and cost nothing between scrapes. */
export interface ScrapeSources {
  db: Db
  /** The HTTP requests' counts and durations, kept without prom-client (src/ops/http-tally.ts). */
  http: HttpTally
  /** Open display websockets (Bun's count of the server's websockets). */
  websocketConnections: () => number
  /** Head-office replication (src/replication) when `serve` runs it; its gauges exist only then. */
  replication?: (() => ReplicationGauges) | null
  /** Contract §22: every line's longest current wait, read at scrape time from memory. */
  longestWaits?: () => LongestWaitGauge[]
}

/** One line's longest current wait (0 when nobody waits). */
export interface LongestWaitGauge {
  queueUnitId: string
  locationId: string
  serviceId: string
  seconds: number
}

/** What the replication gauges read at scrape time. */
export interface ReplicationGauges {
  lagSeconds: number
  pending: number
}

/**
 * Lobby's metrics of contract §13 (loaded through MetricsSink, src/ops/metric-hooks.ts). Counters move as things happen; gauges are read at scrape time.
 * Every label has a bounded set of values: routes are the registered templates, never a raw
 * path; queue units, locations and services are provisioned entities.
 */
export class LobbyMetrics {
  readonly registry = new Registry()
  readonly httpRequests: Counter<'route' | 'method' | 'status'>
  readonly httpDuration: TallyHistogram
  readonly tickets: Counter<'event'>
  readonly writeBatchSize: Histogram
  readonly webhookDeliveriesFailed: Counter
  readonly notifications: Counter<'channel' | 'kind' | 'result'>

  constructor(sources: ScrapeSources) {
    const { db, http } = sources
    this.httpRequests = new Counter({
      name: 'lobby_http_requests_total',
      help: 'HTTP requests answered, by route template, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [this.registry],
      collect() {
        this.reset()
        for (const s of http.requests()) this.inc({ route: s.route, method: s.method, status: s.status }, s.count)
      },
    })
    this.httpDuration = new TallyHistogram(
      'lobby_http_request_duration_seconds',
      'Time from receiving a request to its response, by route template and method',
      http,
    )
    this.registry.registerMetric(this.httpDuration as unknown as Parameters<Registry['registerMetric']>[0])
    this.tickets = new Counter({
      name: 'lobby_tickets_total',
      help: 'Ticket events written by this process, by event (created, called, completed, ...)',
      labelNames: ['event'] as const,
      registers: [this.registry],
    })
    this.writeBatchSize = new Histogram({
      name: 'lobby_write_batch_size',
      help: 'Request writes committed together in one group-commit transaction',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers: [this.registry],
    })
    this.webhookDeliveriesFailed = new Counter({
      name: 'lobby_webhook_deliveries_failed_total',
      help: 'Webhook deliveries given up after their 24-hour retry window, in this process',
      registers: [this.registry],
    })
    this.notifications = new Counter({
      name: 'lobby_notifications_total',
      help: 'Customer notifications (contract §25) by channel, kind and result: sent, retry (an attempt failed, another follows), failed (given up after an hour), skipped (a limit or a removed contact), in this process',
      labelNames: ['channel', 'kind', 'result'],
      registers: [this.registry],
    })
    const units = db.$client.query<{ id: string }, []>('SELECT id FROM queue_units ORDER BY id')
    const pending = db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'PENDING'")
    const pageCount = db.$client.query<{ page_count: number }, []>('PRAGMA page_count')
    const pageSize = db.$client.query<{ page_size: number }, []>('PRAGMA page_size')
    let lines: QueueLines | undefined

    new Gauge({
      name: 'lobby_waiting_tickets',
      help: 'Tickets waiting now, by queue unit, location and service',
      labelNames: ['queue_unit', 'location', 'service'] as const,
      registers: [this.registry],
      collect() {
        this.reset()
        lines ??= new QueueLines(db)
        for (const unit of units.all()) {
          for (const line of lines.lines(unit.id, false)) {
            this.set({ queue_unit: unit.id, location: line.locationId, service: line.id }, line.waiting)
          }
        }
      },
    })
    const longestWaits = sources.longestWaits
    new Gauge({
      name: 'lobby_longest_wait_seconds',
      help: 'The longest current wait of a waiting ticket, by queue unit, location and service (0 when nobody waits)',
      labelNames: ['queue_unit', 'location', 'service'] as const,
      registers: [this.registry],
      collect() {
        this.reset()
        for (const line of longestWaits?.() ?? []) {
          this.set({ queue_unit: line.queueUnitId, location: line.locationId, service: line.serviceId }, line.seconds)
        }
      },
    })
    new Gauge({
      name: 'lobby_webhook_outbox_pending',
      help: 'Webhook deliveries waiting to be sent or retried',
      registers: [this.registry],
      collect() {
        this.set(pending.get()!.n)
      },
    })
    new Gauge({
      name: 'lobby_websocket_connections',
      help: 'Open display websockets',
      registers: [this.registry],
      collect() {
        this.set(sources.websocketConnections())
      },
    })
    const replication = sources.replication
    if (replication) {
      new Gauge({
        name: 'lobby_replication_lag_seconds',
        help: 'Age of the oldest ticket change head office has not committed yet (0 when it has all)',
        registers: [this.registry],
        collect() {
          this.set(replication().lagSeconds)
        },
      })
      new Gauge({
        name: 'lobby_replication_pending',
        help: 'Ticket events not yet committed at head office',
        registers: [this.registry],
        collect() {
          this.set(replication().pending)
        },
      })
    }
    new Gauge({
      name: 'lobby_database_bytes',
      help: 'Size of the database (pages in use and free pages, without the WAL)',
      registers: [this.registry],
      collect() {
        this.set(pageCount.get()!.page_count * pageSize.get()!.page_size)
      },
    })
  }
}

interface ExportedValue {
  labels: Record<string, string | number>
  sharedLabels: Record<string, string>
  value: number
  metricName: string
}

/**
 * The HTTP duration histogram, read from the tally when scraped: what prom-client's Histogram
 * exports for the same observations (`_bucket` cumulative per `le`, then `+Inf`, `_sum`,
 * `_count`), without its per-observation label hashing. The registry needs only `name`,
 * `help`, `type` and `getForPromString`/`get`.
 */
export class TallyHistogram {
  readonly type = 'histogram'
  readonly aggregator = 'sum'

  constructor(readonly name: string, readonly help: string, private readonly http: HttpTally) {}

  getForPromString(): { name: string; help: string; type: string; values: ExportedValue[]; aggregator: string } {
    const values: ExportedValue[] = []
    const bucket = `${this.name}_bucket`
    for (const s of this.http.durations()) {
      const series = { route: s.route, method: s.method }
      let cumulative = 0
      HTTP_DURATION_BUCKETS.forEach((le, i) => {
        cumulative += s.buckets[i]!
        values.push({ labels: { le }, sharedLabels: series, value: cumulative, metricName: bucket })
      })
      values.push({ labels: { le: '+Inf' }, sharedLabels: series, value: s.count, metricName: bucket })
      values.push({ labels: {}, sharedLabels: series, value: s.sum, metricName: `${this.name}_sum` })
      values.push({ labels: {}, sharedLabels: series, value: s.count, metricName: `${this.name}_count` })
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator }
  }

  /** As prom-client's `get()`: the series' labels spread into each value's. */
  async get(): Promise<{ name: string; help: string; type: string; values: ExportedValue[]; aggregator: string }> {
    const data = this.getForPromString()
    return { ...data, values: data.values.map((v) => ({ ...v, labels: { ...v.sharedLabels, ...v.labels }, sharedLabels: {} })) }
  }

  reset(): void {
    this.http.resetDurations()
  }
}
