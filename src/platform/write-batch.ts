import type { Db } from '../db/open'
import { inWriteTransaction } from './transactions'

interface Job {
  work: () => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/** What one write deferred: listeners for after its COMMIT, gathered items for just before it. */
interface Deferred {
  afterCommit: Map<unknown, () => void>
  gathered: Map<string, { flush: (items: unknown[]) => void; items: unknown[] }>
}

const newDeferred = (): Deferred => ({ afterCommit: new Map(), gathered: new Map() })

/** Adds a nested `now`'s deferred work to its `work`'s (a key set again replaces, in its place). */
function mergeDeferred(into: Deferred, from: Deferred): void {
  for (const [key, fn] of from.afterCommit) into.afterCommit.set(key, fn)
  mergeGathered(into, from)
}

/** Appends `from`'s gathered items to `into`'s, key by key. */
function mergeGathered(into: Deferred, from: Deferred): void {
  for (const [key, entry] of from.gathered) {
    const existing = into.gathered.get(key)
    if (existing === undefined) into.gathered.set(key, { flush: entry.flush, items: [...entry.items] })
    else existing.items.push(...entry.items)
  }
}

/** Writes what the write gathered (inside its transaction, before COMMIT). */
function flushGathered(deferred: Deferred): void {
  for (const { flush, items } of deferred.gathered.values()) flush(items)
}

/**
 * Group commit for request writes. At `synchronous = FULL` every commit waits for the disk
 * (an fsync of the WAL, ~0.35–0.55 ms here), and a commit's cost hardly depends on how much
 * it writes; so the writes of requests that arrive together share one commit:
 *
 * - `run(work)` queues `work`; the queue is written on the next turn of the event loop, in
 *   arrival order, in ONE immediate transaction, each `work` in a savepoint of its own;
 * - a `work` that throws is undone alone (its savepoint rolled back) and its request gets the
 *   error, exactly as if it had run in its own transaction; the others are kept;
 * - every request is answered only after the shared COMMIT returned, i.e. once its write is as
 *   durable as the configured `synchronous` makes it; if BEGIN or COMMIT fails, every request
 *   of the batch gets that error and nothing of the batch is kept;
 * - `afterCommit(fn)` inside a `work` defers `fn` (listeners) until the batch committed, and
 *   drops it when that `work` is undone;
 * - `gather(key, item, flush)` inside a `work` hands `item` to `flush`, which runs once per key
 *   at the end of the batch, inside its transaction, just before COMMIT, with the items of every
 *   kept `work` in order (an undone `work` takes its items with it): many small writes of one
 *   row (a counter every ticket issue adds to) become one statement per batch. A `flush` that
 *   throws fails the whole batch, as a failed COMMIT does.
 *
 * `now(work)` is the same write for work that is not a request (the daily close's timer): one
 * immediate transaction of its own, at once, with the same `afterCommit`. These two are the
 * only ways to write: `afterCommit` is the one way to tell listeners, and it refuses to be
 * called inside a transaction it does not own, so no listener can hear of a change before its
 * COMMIT (outside any transaction it runs `fn` at once: there is nothing left to commit).
 *
 * Each `work` must be synchronous: the whole batch runs in one synchronous stretch, so no other
 * code of this process runs between a `work`'s reads and its writes, nor inside the batch.
 */
export class WriteBatcher {
  private queue: Job[] = []
  private scheduled = false
  /** What the `work` running now deferred; null outside a write. */
  private pending: Deferred | null = null
  /**
   * How many writes of this batcher committed (batches and top-level `now`s), counted right after
   * each COMMIT, before any callback: in-memory copies of the database (src/platform/db-changes.ts)
   * compare it to know that they are stale.
   */
  commits = 0
  /** Told the size of every committed batch (`lobby_write_batch_size`, src/ops/metric-hooks.ts). */
  onBatchCommitted: ((size: number) => void) | undefined

  constructor(
    private readonly db: Db,
    private readonly onCallbackError: (error: unknown) => void = () => {},
    /** At most this many writes in one transaction; more wait for the next turn. */
    private readonly maxBatch = 256,
  ) {}

  /** Queues `work` for the next group commit; resolves with its result once committed. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject })
      this.schedule()
    })
  }

  /**
   * Runs `work` at once in an immediate transaction of its own (inside a `work`: in a savepoint
   * of the write already open) and its `afterCommit` callbacks once that committed; a throw
   * undoes the write, drops its callbacks and is rethrown. For writes that are not requests.
   */
  now<T>(work: () => T): T {
    const outer = this.pending
    const deferred = newDeferred()
    this.pending = deferred
    let result: T
    try {
      // At the top level, what `work` gathered is written inside its transaction, before COMMIT.
      result = inWriteTransaction(this.db, outer === null ? () => {
        const value = work()
        flushGathered(deferred)
        return value
      } : work)
    } finally {
      this.pending = outer
    }
    if (outer !== null) {
      mergeDeferred(outer, deferred)
    } else {
      this.commits += 1
      this.runCallbacks(deferred.afterCommit.values())
    }
    return result
  }

  /** True while a write of this batcher runs (inside a `work` of `run` or `now`). */
  get inBatch(): boolean {
    return this.pending !== null
  }

  /**
   * Runs `fn` once the write running now committed. With a `key`, a later call with the same key
   * in the same `work` replaces the earlier one (in its place): several changes of one thing in
   * one write are told once, as they stand at the end. Outside a write and outside any
   * transaction it runs `fn` at once; inside a transaction this batcher does not own it throws,
   * as `fn` would otherwise run before that transaction committed.
   */
  afterCommit(fn: () => void, key?: string): void {
    if (this.pending !== null) {
      this.pending.afterCommit.set(key ?? Symbol(), fn)
      return
    }
    if (this.db.$client.inTransaction) {
      throw new Error('afterCommit inside a transaction not opened by the WriteBatcher: write through writes.run or writes.now')
    }
    fn()
  }

  /**
   * Hands `item` to `flush`, called once per `key` just before the running write's COMMIT with
   * the items of every kept `work` (see the class comment). Every call with one key must pass
   * the same `flush`. Only inside a write of this batcher: elsewhere there is no COMMIT to
   * write before, so it throws.
   */
  gather<T>(key: string, item: T, flush: (items: T[]) => void): void {
    if (this.pending === null) throw new Error('gather outside a write of the WriteBatcher: write through writes.run or writes.now')
    const entry = this.pending.gathered.get(key)
    if (entry === undefined) this.pending.gathered.set(key, { flush: flush as (items: unknown[]) => void, items: [item] })
    else entry.items.push(item)
  }

  private runCallbacks(callbacks: Iterable<() => void>): void {
    for (const fn of callbacks) {
      try {
        fn()
      } catch (error) {
        this.onCallbackError(error)
      }
    }
  }

  private schedule(): void {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => this.flush())
  }

  private flush(): void {
    this.scheduled = false
    const jobs = this.queue.length <= this.maxBatch ? this.queue : this.queue.slice(0, this.maxBatch)
    this.queue = this.queue.length <= this.maxBatch ? [] : this.queue.slice(this.maxBatch)
    if (this.queue.length > 0) this.schedule()
    if (jobs.length === 0) return

    const results: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = []
    // Each kept `work`'s listeners run (its keys told once per `work`, not once per batch);
    // the items they gathered are flushed together.
    const committed: (() => void)[] = []
    const kept = newDeferred()
    try {
      inWriteTransaction(this.db, () => {
        for (const job of jobs) {
          const deferred = newDeferred()
          this.pending = deferred
          try {
            results.push({ ok: true, value: inWriteTransaction(this.db, job.work) })
            committed.push(...deferred.afterCommit.values())
            mergeGathered(kept, deferred)
          } catch (error) {
            results.push({ ok: false, error })
          }
        }
        this.pending = null
        flushGathered(kept)
      })
    } catch (error) {
      this.pending = null
      for (const job of jobs) job.reject(error)
      return
    }
    this.commits += 1
    this.runCallbacks(committed)
    this.onBatchCommitted?.(jobs.length)
    jobs.forEach((job, i) => {
      const result = results[i]!
      if (result.ok) job.resolve(result.value)
      else job.reject(result.error)
    })
  }
}
