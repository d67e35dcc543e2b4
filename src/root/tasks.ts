import type { AppDeps } from './deps'
import { loadReplicator, type ReplicationTarget } from '../replication'
import { DailyClose } from '../counters'
import { OpeningWatch } from '../display'
import { WebhookWorker } from '../webhooks'
import { retentionTask, DEFAULT_RETAIN_DAYS } from '../ops'
import { NotificationWorker } from '../notifications'
import type { FloorSnapshot } from '../manage'

export interface ServerTaskOptions {
  /** Closed tickets older than this many days are deleted by the daily retention job (default 400). */
  retainDays?: number
  /** `--replicate-to`: the head-office PostgreSQL (contract §14). */
  replicateTo?: ReplicationTarget
  /** The HTTP client of SMS gateways and push services (tests: one that trusts their own certificate). */
  notificationFetch?: typeof fetch
  /** `--hq`: head office's PostgreSQL for profiles and the live view (contract §26), with the floor it is told. */
  hq?: ReplicationTarget
  floor?: (queueUnitId: string) => FloorSnapshot | null
}

const PRUNE_EVERY_MS = 10 * 60_000

/**
 * `LOBBY_HQ_POLL_MS` (default 5000) and `LOBBY_HQ_LIVE_MS` (default 5000): how often a branch asks
 * head office for a newer profile revision and tells it the floor; tests and the bench shorten them.
 */
function hqTimings(): { pollMs?: number; liveMs?: number } {
  const ms = (name: string) => {
    const value = Number(process.env[name])
    return Number.isInteger(value) && value >= 100 && value <= 60_000 ? value : undefined
  }
  const pollMs = ms('LOBBY_HQ_POLL_MS')
  const liveMs = ms('LOBBY_HQ_LIVE_MS')
  return { ...(pollMs !== undefined ? { pollMs } : {}), ...(liveMs !== undefined ? { liveMs } : {}) }
}

/**
 * The composition root's server half: the background work only a serving process runs
 * (`createApp` alone registers none of it), registered on `deps.lifecycle` after what
 * `createApp` registered; `startServer` starts them all once it listens.
 */
export async function registerServerTasks(deps: AppDeps, options: ServerTaskOptions): Promise<void> {
  // Loaded only when replicating (the PostgreSQL client and the feed cost ~7 ms of every start otherwise).
  const Replicator = options.replicateTo === undefined ? null : await loadReplicator()
  const { db, clock, log } = deps
  let pruneTimer: ReturnType<typeof setInterval> | undefined
  deps.lifecycle.register({
    start: () => {
      deps.idempotency.prune(clock.now())
      pruneTimer = setInterval(() => deps.idempotency.prune(clock.now()), PRUNE_EVERY_MS)
    },
    beforeStop: () => clearInterval(pruneTimer),
  })
  const webhookWorker = new WebhookWorker({ db, clock, log, onGivenUp: () => deps.metrics.webhookGivenUp() })
  deps.lifecycle.register({ start: () => webhookWorker.start(), stop: () => webhookWorker.stop() })
  // Contract §25: customer notifications leave through their own worker, never a request.
  const notificationWorker = new NotificationWorker({ db, clock, log, observe: (channel, kind, result) => deps.metrics.notification(channel, kind, result), ...(options.notificationFetch === undefined ? {} : { fetch: options.notificationFetch }) })
  deps.lifecycle.register({ start: () => notificationWorker.start(), stop: () => notificationWorker.stop() })
  // The daily close runs with the server (once at start, then on its timer), not when routes are built.
  deps.lifecycle.register(new DailyClose(deps).task())
  // Openings and closings move the queue state's revision, so boards hear of them (docs/display.md).
  deps.lifecycle.register(new OpeningWatch(deps).task())
  const replicator = Replicator === null || options.replicateTo === undefined
    ? null
    : new Replicator({ db, writes: deps.writes, clock, log, target: options.replicateTo, queueChanges: deps.events.queueChanges })
  if (replicator !== null) {
    deps.metrics.replication = () => replicator.status()
    deps.lifecycle.register(replicator)
  }
  if (options.hq !== undefined) {
    const { BranchLink } = await import('../hq/program')
    const floor = options.floor ?? (() => null)
    deps.lifecycle.register(new BranchLink(deps, { target: options.hq, floor, ...hqTimings() }))
  }
  deps.lifecycle.register(retentionTask({
    db,
    clock,
    log,
    retainDays: options.retainDays ?? DEFAULT_RETAIN_DAYS,
    replicatedThrough: () => replicator?.replicatedThrough() ?? null,
  }))
}
