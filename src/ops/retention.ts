import type { Db } from '../db/open'
import type { Clock } from '../platform/clock'
import type { Logger } from '../platform/log'
import type { BackgroundTask } from '../platform/lifecycle'
import { deleteDeliveriesCreatedBefore } from '../webhooks'
import { deleteTicketsCreatedBefore } from '../tickets'
import { eraseAppointmentContacts } from '../appointments'

export const DEFAULT_RETAIN_DAYS = 400
export const DELIVERY_RETAIN_DAYS = 30
const DAY_MS = 86_400_000
/** Rows per transaction: each holds the write lock for a few milliseconds, so requests go on in between. */
const BATCH = 2_000
/** Pages returned to the file system per step of the incremental vacuum. */
const VACUUM_STEP_PAGES = 2_048
/** Page cache for a run, in KiB as `PRAGMA cache_size` takes it when negative. */
const RUN_CACHE_KIB = -65_536
/** The first run waits for the server to settle after a start; then one run a day. */
const FIRST_RUN_DELAY_MS = 10 * 60_000

export interface RetentionReport {
  /** Tickets created before this were deleted (ISO time). */
  ticketsBefore: string
  deliveriesBefore: string
  tickets: number
  events: number
  calls: number
  /** Contract §20: ratings of the deleted tickets. */
  feedback: number
  sequences: number
  deliveries: number
  /** Contract §21: appointments whose name, phone and e-mail were erased (`retainDays` of their service after the slot). */
  appointmentsErased: number
  /** Database file size (without WAL) before and after the incremental vacuum. */
  bytesBefore: number
  bytesAfter: number
  /** The whole run, and the part of it spent returning space (incremental vacuum, checkpoint). */
  ms: number
  vacuumMs: number
}

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Retention (contract §13): deletes closed tickets and their events older than `retainDays`,
 * webhook deliveries older than 30 days, then returns the freed pages to the file system
 * (incremental vacuum, then a WAL checkpoint so the file really shrinks). Report roll-ups stay.
 * Works in short transactions and yields between them: the server keeps answering.
 */
export async function runRetention(
  db: Db,
  retainDays: number,
  now: number,
  stopping: () => boolean = () => false,
  /** Head-office replication's cursor when it runs: tickets it has not sent yet are kept (src/replication). */
  replicatedThrough: () => number | null = () => null,
): Promise<RetentionReport> {
  const started = performance.now()
  const client = db.$client
  const fileBytes = () => {
    const pages = client.query<{ page_count: number }, []>('PRAGMA page_count').get()!.page_count
    return pages * client.query<{ page_size: number }, []>('PRAGMA page_size').get()!.page_size
  }
  const ticketCutoff = now - retainDays * DAY_MS
  const deliveryCutoff = now - DELIVERY_RETAIN_DAYS * DAY_MS
  const report: RetentionReport = {
    ticketsBefore: new Date(ticketCutoff).toISOString(),
    deliveriesBefore: new Date(deliveryCutoff).toISOString(),
    tickets: 0, events: 0, calls: 0, feedback: 0, sequences: 0, deliveries: 0, appointmentsErased: 0,
    bytesBefore: fileBytes(), bytesAfter: 0, ms: 0, vacuumMs: 0,
  }

  // Deleting touches every index of the tickets and events tables: with SQLite's default 2 MB
  // page cache each batch re-reads most of them (1,000,000 tickets: 15 s per 100,000 deleted
  // against 5.5 s with 64 MB). The larger cache lasts for the run only.
  const cacheSize = client.query<{ cache_size: number }, []>('PRAGMA cache_size').get()!.cache_size
  client.exec(`PRAGMA cache_size = ${RUN_CACHE_KIB}`)
  try {
    return await deleteAndVacuum()
  } finally {
    client.exec(`PRAGMA cache_size = ${cacheSize}`)
    client.exec('PRAGMA shrink_memory')
  }

  async function deleteAndVacuum(): Promise<RetentionReport> {
    for (let after = 0; ;) {
      const batch = deleteTicketsCreatedBefore(db, ticketCutoff, after, BATCH, replicatedThrough())
      report.tickets += batch.tickets
      report.events += batch.events
      report.calls += batch.calls
      report.feedback += batch.feedback
      report.sequences += batch.sequences
      after = batch.afterRowid
      if (batch.done || stopping()) break
      await yieldToRequests()
    }
    for (let after = 0; ;) {
      const batch = deleteDeliveriesCreatedBefore(db, deliveryCutoff, after, BATCH)
      report.deliveries += batch.deleted
      after = batch.afterRowid
      if (batch.done || stopping()) break
      await yieldToRequests()
    }

    // Contract §21 privacy: the appointments' contact details, each service's retainDays after the slot.
    for (;;) {
      const erased = eraseAppointmentContacts(db, now, BATCH)
      report.appointmentsErased += erased
      if (erased < BATCH || stopping()) break
      await yieldToRequests()
    }

    // Incremental auto-vacuum moves free pages to the end and truncates, a step at a time.
    const vacuumStarted = performance.now()
    const freePages = client.query<{ freelist_count: number }, []>('PRAGMA freelist_count')
    const autoVacuum = client.query<{ auto_vacuum: number }, []>('PRAGMA auto_vacuum').get()!.auto_vacuum
    if (autoVacuum === 2) {
      while (freePages.get()!.freelist_count > 0 && !stopping()) {
        client.exec(`PRAGMA incremental_vacuum(${VACUUM_STEP_PAGES})`)
        await yieldToRequests()
      }
      // In WAL mode the main file is truncated when the WAL is checkpointed into it.
      client.query('PRAGMA wal_checkpoint(TRUNCATE)').get()
    }
    report.vacuumMs = Math.round(performance.now() - vacuumStarted)
    report.bytesAfter = fileBytes()
    report.ms = Math.round(performance.now() - started)
    return report
  }
}

/**
 * The daily job `serve` runs: 10 minutes after start, then every 24 hours. A run that fails is
 * logged and tried again the next day; stopping ends a run in progress after its current batch
 * (the next run carries on).
 */
export function retentionTask(options: {
  db: Db
  clock: Clock
  log: Logger
  retainDays: number
  /** Tests start the first run at once. */
  firstRunDelayMs?: number
  /** See `runRetention`. */
  replicatedThrough?: () => number | null
}): BackgroundTask {
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> | undefined
  let stopped = false
  const run = async () => {
    if (stopped) return
    try {
      const report = await runRetention(options.db, options.retainDays, options.clock.now(), () => stopped, options.replicatedThrough)
      options.log({ level: 'info', msg: 'retention', retainDays: options.retainDays, ...report })
    } catch (error) {
      options.log({ level: 'error', msg: 'retention failed', error: String((error as Error)?.stack ?? error) })
    }
  }
  const schedule = (delay: number) => {
    timer = setTimeout(() => {
      running = run().finally(() => {
        running = undefined
        if (!stopped) schedule(DAY_MS)
      })
    }, delay)
  }
  return {
    start: () => schedule(options.firstRunDelayMs ?? FIRST_RUN_DELAY_MS),
    stop: async () => {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
