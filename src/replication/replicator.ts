import { SQL } from 'bun'
import type { Db } from '../db/open'
import type { Clock } from '../platform/clock'
import type { Logger } from '../platform/log'
import type { BackgroundTask } from '../platform/lifecycle'
import type { WriteBatcher } from '../platform/write-batch'
import { TicketChangeFeed, type ChangeBatch, type QueueChange } from '../tickets'
import type { CommitListeners } from '../platform/listeners'
import { migrateHeadOffice } from './postgres-schema'
import { ReplicationState, statusOf, type ReplicationStatus } from './state'
import type { ReplicationTarget } from './target'

export interface ReplicatorOptions {
  db: Db
  writes: WriteBatcher
  clock: Clock
  log: Logger
  target: ReplicationTarget
  /** The app's queue-change events (`deps.events.queueChanges`): each committed change wakes the replicator. */
  queueChanges: Pick<CommitListeners<QueueChange>, 'on'>
  /** Ticket events per PostgreSQL transaction. */
  batchSize?: number
  /** Wait after a failure before the next try (contract §14: at most 10 s). */
  retryMs?: number
  /** With nothing to send, look again after this long even if no change was announced. */
  pollMs?: number
  /** After a change is announced, wait this long for more so they travel together. */
  gatherMs?: number
  /** Longest wait for PostgreSQL in one step (connect, migrate, a batch) before giving up on the connection. */
  timeoutMs?: number
}

const DEFAULTS = { batchSize: 500, retryMs: 5_000, pollMs: 2_000, gatherMs: 250, timeoutMs: 30_000 }

/**
 * Copies tickets, their events and the report roll-ups of their days to the head office's PostgreSQL (contract §14), in the
 * background of `serve`: the branch never waits for it. The loop reads up to `batchSize` events
 * after its cursor (one SQLite snapshot: the events in id order and their tickets as they stand),
 * upserts them in ONE PostgreSQL transaction, and only after PostgreSQL's COMMIT moves the cursor
 * in SQLite. A crash between the two re-sends the batch, which changes nothing at head office:
 * events are inserted once per (queue unit, id) and a ticket is only replaced by a higher version.
 * A failure (link down, PostgreSQL stopped, a refused write) is logged once per distinct message,
 * stored for `lobby status`, and retried every `retryMs` from the same cursor.
 */
export class Replicator implements BackgroundTask {
  private readonly options: Required<Omit<ReplicatorOptions, 'db' | 'writes' | 'clock' | 'log' | 'target' | 'queueChanges'>>
  private readonly feed: TicketChangeFeed
  private readonly state: ReplicationState
  private cursor = 0
  private lastError: string | null = null
  private lastErrorAt: number | null = null
  private lastSuccessAt: number | null = null
  private sql: SQL | null = null
  private migrated = false
  private stopped = true
  private loop: Promise<void> | null = null
  private wake: (() => void) | null = null
  private interrupt: (() => void) | null = null
  private announced = false
  private unsubscribe: (() => void) | null = null

  constructor(private readonly deps: ReplicatorOptions) {
    this.options = {
      batchSize: deps.batchSize ?? DEFAULTS.batchSize,
      retryMs: deps.retryMs ?? DEFAULTS.retryMs,
      pollMs: deps.pollMs ?? DEFAULTS.pollMs,
      gatherMs: deps.gatherMs ?? DEFAULTS.gatherMs,
      timeoutMs: deps.timeoutMs ?? DEFAULTS.timeoutMs,
    }
    this.feed = new TicketChangeFeed(deps.db)
    this.state = new ReplicationState(deps.db, deps.writes, deps.target.display)
  }

  start(): void {
    const row = this.state.load(this.deps.clock.now())
    this.cursor = row.cursor
    this.lastError = row.lastError
    this.lastErrorAt = row.lastErrorAt
    this.lastSuccessAt = row.lastSuccessAt
    this.stopped = false
    // Told after the COMMIT of every ticket change: a cheap nudge, never a wait on the write path.
    this.unsubscribe = this.deps.queueChanges.on(() => this.announce())
    this.deps.log({ level: 'info', msg: 'replication started', target: this.deps.target.display, cursor: this.cursor })
    this.loop = this.run()
  }

  /** Ends the loop; a batch in flight is abandoned with its connection (its cursor did not move: it goes again next start). */
  async stop(): Promise<void> {
    this.stopped = true
    this.unsubscribe?.()
    this.interrupt?.()
    await this.closeConnection()
    await this.loop
  }

  /** The last event id head office has committed (retention keeps tickets with later events). */
  replicatedThrough(): number {
    return this.cursor
  }

  /** Lag, backlog and last error as now (for /metrics; `lobby status` reads the same from the database). */
  status(): ReplicationStatus {
    return statusOf(
      { target: this.deps.target.display, cursor: this.cursor, lastError: this.lastError, lastErrorAt: this.lastErrorAt, lastSuccessAt: this.lastSuccessAt },
      this.feed,
      this.deps.clock.now(),
    )
  }

  private announce(): void {
    this.announced = true
    this.wake?.()
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let delay = 0
      try {
        const sent = await this.step()
        if (sent === 'idle') delay = -1
      } catch (error) {
        if (this.stopped) break
        await this.failed(error)
        delay = this.options.retryMs
      }
      if (this.stopped) break
      if (delay === -1) await this.idle()
      // After a failure new changes do not hasten the retry: head office is tried every `retryMs`.
      else if (delay > 0) await this.sleep(delay, false)
    }
  }

  /** One batch: read, send, commit, move the cursor. 'idle' when there was nothing to send. */
  private async step(): Promise<'sent' | 'idle'> {
    const sql = (this.sql ??= this.connect())
    if (!this.migrated) {
      const applied = await this.bounded(migrateHeadOffice(sql), 'migrating the head-office schema')
      if (applied.length > 0) this.deps.log({ level: 'info', msg: 'head-office schema migrated', target: this.deps.target.display, applied })
      this.migrated = true
    }
    const batch = this.feed.after(this.cursor, this.options.batchSize)
    if (batch.through === this.cursor) return 'idle'
    const rows = batch.events.length === 0 ? 0 : await this.bounded(send(sql, batch), 'sending a batch')
    const now = this.deps.clock.now()
    this.state.advance(batch.through, rows, now)
    this.cursor = batch.through
    this.lastSuccessAt = now
    if (this.lastError !== null) {
      this.deps.log({ level: 'info', msg: 'replication resumed', target: this.deps.target.display, cursor: this.cursor })
      this.lastError = null
    }
    return batch.events.length === this.options.batchSize ? 'sent' : 'idle'
  }

  private connect(): SQL {
    return new SQL(this.deps.target.url, {
      max: 1,
      connectionTimeout: Math.ceil(this.options.timeoutMs / 1000),
      idleTimeout: 60,
      connection: { application_name: 'lobby-replication' },
    })
  }

  private async failed(error: unknown): Promise<void> {
    const message = this.deps.target.redact(describe(error))
    const now = this.deps.clock.now()
    if (message !== this.lastError) {
      this.deps.log({ level: 'error', msg: 'replication failed', target: this.deps.target.display, error: message, retryInSeconds: this.options.retryMs / 1000 })
    }
    this.lastError = message
    this.lastErrorAt = now
    try {
      this.state.fail(message, now)
    } catch (stateError) {
      this.deps.log({ level: 'error', msg: 'replication state not written', error: this.deps.target.redact(describe(stateError)) })
    }
    // A fresh connection (and a fresh look at the schema) for the next try.
    this.migrated = false
    await this.closeConnection()
  }

  private async closeConnection(): Promise<void> {
    const sql = this.sql
    this.sql = null
    if (sql !== null) await sql.close({ timeout: 0 }).catch(() => {})
  }

  /** `work`, or an error once it took longer than `timeoutMs` (a link that swallows packets). */
  private bounded<T>(work: Promise<T>, what: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`head office did not answer within ${this.options.timeoutMs / 1000} s while ${what}`)), this.options.timeoutMs)
    })
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
  }

  /** Until a change is announced (then `gatherMs` more, so changes travel together) or `pollMs`. */
  private async idle(): Promise<void> {
    if (!this.announced) await this.sleep(this.options.pollMs)
    if (this.announced && !this.stopped) {
      this.announced = false
      await this.sleep(this.options.gatherMs, false)
    }
  }

  /** Waits `ms`; `stop()` always ends the wait, an announced change only when `byChanges`. */
  private sleep(ms: number, byChanges = true): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        if (this.wake === done) this.wake = null
        if (this.interrupt === done) this.interrupt = null
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.interrupt = done
      if (byChanges) this.wake = done
    })
  }
}

/** The batch as one PostgreSQL transaction; returns the rows written (bench/hq-chain.ts sends simulated branches' batches with it too). */
export async function send(sql: SQL, batch: ChangeBatch): Promise<number> {
  const tickets = batch.tickets.map((t) => ({
    queue_unit_id: t.queueUnitId,
    id: t.id,
    location_id: t.locationId,
    service_id: t.serviceId,
    business_day: t.businessDay,
    prefix: t.prefix,
    seq: t.seq,
    ticket_number: t.ticketNumber,
    priority: t.priority === 1,
    status: t.status,
    source: t.source,
    external_reference: t.externalReference,
    counter_id: t.counterId,
    call_count: t.callCount,
    created_at: new Date(t.createdAt),
    called_at: date(t.calledAt),
    serving_at: date(t.servingAt),
    completed_at: date(t.completedAt),
    version: t.version,
  }))
  const events = batch.events.map((e) => ({
    queue_unit_id: e.queueUnitId,
    id: e.id,
    ticket_id: e.ticketId,
    type: e.type,
    from_status: e.fromStatus,
    to_status: e.toStatus,
    counter_id: e.counterId,
    actor: e.actor,
    at: new Date(e.at),
    detail: e.detail === null ? null : (JSON.parse(e.detail) as Record<string, unknown>),
  }))
  const version = batch.through
  const daily = batch.daily.map((r) => ({
    queue_unit_id: r.queueUnitId,
    location_id: r.locationId,
    service_id: r.serviceId,
    business_day: r.businessDay,
    issued: r.issued,
    served: r.served,
    no_show: r.noShow,
    cancelled: r.cancelled,
    transferred_out: r.transferredOut,
    wait_count: r.waitCount,
    wait_sum: r.waitSum,
    wait_max: r.waitMax,
    wait_p50: r.waitP50,
    wait_p90: r.waitP90,
    within_target: r.withinTarget,
    service_count: r.serviceCount,
    service_sum: r.serviceSum,
    service_p50: r.serviceP50,
    service_p90: r.serviceP90,
    issued_by_hour: r.issuedByHour,
    served_by_hour: r.servedByHour,
    wait_histogram: sql.json(r.waitHistogram),
    service_histogram: sql.json(r.serviceHistogram),
    version,
  }))
  const counters = batch.counters.map((r) => ({
    queue_unit_id: r.queueUnitId,
    counter_id: r.counterId,
    business_day: r.businessDay,
    location_id: r.locationId,
    served: r.served,
    no_show: r.noShow,
    service_count: r.serviceCount,
    service_sum: r.serviceSum,
    service_p50: r.serviceP50,
    service_p90: r.serviceP90,
    busy_seconds: r.busySeconds,
    service_histogram: sql.json(r.serviceHistogram),
    version,
  }))
  const staff = batch.staff.map((r) => ({
    queue_unit_id: r.queueUnitId,
    username: r.username,
    business_day: r.businessDay,
    served: r.served,
    no_show: r.noShow,
    service_count: r.serviceCount,
    service_sum: r.serviceSum,
    service_p50: r.serviceP50,
    service_p90: r.serviceP90,
    service_histogram: sql.json(r.serviceHistogram),
    version,
  }))
  await sql.begin(async (tx) => {
    if (tickets.length > 0) {
      // A ticket is replaced only by a later state of itself (`version`: its latest event id).
      await tx`
        INSERT INTO lobby.tickets ${tx(tickets)}
        ON CONFLICT (queue_unit_id, id) DO UPDATE SET
          location_id = excluded.location_id, service_id = excluded.service_id, business_day = excluded.business_day,
          prefix = excluded.prefix, seq = excluded.seq, ticket_number = excluded.ticket_number, priority = excluded.priority, status = excluded.status,
          source = excluded.source, external_reference = excluded.external_reference, counter_id = excluded.counter_id,
          call_count = excluded.call_count, created_at = excluded.created_at, called_at = excluded.called_at,
          serving_at = excluded.serving_at, completed_at = excluded.completed_at, version = excluded.version,
          replicated_at = now()
        WHERE lobby.tickets.version < excluded.version`
    }
    // Events never change: a re-sent one (after a crash before the cursor moved) is already there.
    if (events.length > 0) await tx`INSERT INTO lobby.ticket_events ${tx(events)} ON CONFLICT (queue_unit_id, id) DO NOTHING`
    // Roll-ups read at a later cursor are at least as new: `<=`, so a re-sent batch (read after
    // a restart, so no older) may rewrite its own version.
    if (daily.length > 0) {
      await tx`
        INSERT INTO lobby.report_daily ${tx(daily)}
        ON CONFLICT (queue_unit_id, location_id, service_id, business_day) DO UPDATE SET
          issued = excluded.issued, served = excluded.served, no_show = excluded.no_show, cancelled = excluded.cancelled,
          transferred_out = excluded.transferred_out, wait_count = excluded.wait_count, wait_sum = excluded.wait_sum,
          wait_max = excluded.wait_max, wait_p50 = excluded.wait_p50, wait_p90 = excluded.wait_p90,
          within_target = excluded.within_target, service_count = excluded.service_count, service_sum = excluded.service_sum,
          service_p50 = excluded.service_p50, service_p90 = excluded.service_p90, issued_by_hour = excluded.issued_by_hour, served_by_hour = excluded.served_by_hour,
          wait_histogram = excluded.wait_histogram, service_histogram = excluded.service_histogram,
          version = excluded.version, replicated_at = now()
        WHERE lobby.report_daily.version <= excluded.version`
    }
    if (counters.length > 0) {
      await tx`
        INSERT INTO lobby.report_counter_daily ${tx(counters)}
        ON CONFLICT (queue_unit_id, counter_id, business_day) DO UPDATE SET
          location_id = excluded.location_id, served = excluded.served, no_show = excluded.no_show,
          service_count = excluded.service_count, service_sum = excluded.service_sum, service_p50 = excluded.service_p50,
          service_p90 = excluded.service_p90, busy_seconds = excluded.busy_seconds,
          service_histogram = excluded.service_histogram, version = excluded.version, replicated_at = now()
        WHERE lobby.report_counter_daily.version <= excluded.version`
    }
    if (staff.length > 0) {
      await tx`
        INSERT INTO lobby.report_staff_daily ${tx(staff)}
        ON CONFLICT (queue_unit_id, username, business_day) DO UPDATE SET
          served = excluded.served, no_show = excluded.no_show, service_count = excluded.service_count,
          service_sum = excluded.service_sum, service_p50 = excluded.service_p50, service_p90 = excluded.service_p90,
          service_histogram = excluded.service_histogram, version = excluded.version, replicated_at = now()
        WHERE lobby.report_staff_daily.version <= excluded.version`
    }
  })
  return tickets.length + events.length + daily.length + counters.length + staff.length
}

const date = (ms: number | null) => (ms === null ? null : new Date(ms))

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { errno?: unknown; code?: unknown }).errno ?? (error as { code?: unknown }).code
    return code === undefined ? error.message : `${error.message} (${String(code)})`
  }
  return String(error)
}
