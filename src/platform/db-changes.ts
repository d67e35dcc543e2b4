import type { Statement } from 'bun:sqlite'
import type { Db } from '../db/open'
import type { WriteBatcher } from './write-batch'

/**
 * How often, at most, the server asks SQLite whether the database changed under it (another
 * process: the CLI's provisioning, keys, Edge authority, devices). This is the bound on how long
 * a cached read can lag such a change; README promises 250 ms and this stays far below it.
 */
export const DEFAULT_CHANGE_POLL_MS = 5

/**
 * A number that moves whenever the database may have changed, so in-memory copies of it (keys,
 * the queue read model) know when to build themselves again without a database round trip per
 * read:
 *
 * - every write of this process through `deps.writes` (group commit and `now`) moves it at once,
 *   right after its COMMIT: a read that follows a commit of this process is never stale;
 * - `noteWrite()` moves it at once too, for the few writes of this process that are not
 *   requests through `deps.writes` (pairing a device in its own transaction);
 * - at most every `pollMs` (checked on the read path, so an idle server checks on the first
 *   request after the pause), one statement reads SQLite's `data_version` (moves when another
 *   connection committed) and `total_changes()` (rows this connection changed by any path): a
 *   change by another process is seen within `pollMs`, with no timer and no file watch.
 */
export class DatabaseChanges {
  private generation = 0
  private seenCommits = -1
  private seenVersion = -1
  private seenChanges = -1
  private checkedAt = Number.NEGATIVE_INFINITY
  private probeStmt: Statement<{ version: number; changes: number }, []> | undefined

  constructor(
    private readonly db: Db,
    private readonly writes: Pick<WriteBatcher, 'commits'>,
    private readonly pollMs: number = DEFAULT_CHANGE_POLL_MS,
    /** A monotonic clock in milliseconds (tests advance one by hand instead of sleeping). */
    private readonly monotonicNow: () => number = () => performance.now(),
  ) {}

  /** The current generation: equal numbers mean nothing changed in between (as far as `pollMs` allows for other processes). */
  current(): number {
    const commits = this.writes.commits
    if (commits !== this.seenCommits) {
      this.seenCommits = commits
      this.generation += 1
    }
    const t = this.monotonicNow()
    if (t - this.checkedAt >= this.pollMs) {
      this.checkedAt = t
      this.probe()
    }
    return this.generation
  }

  /** A write of this process outside `deps.writes` committed: caches built before it are stale now. */
  noteWrite(): void {
    this.generation += 1
  }

  private probe(): void {
    const client = this.db.$client
    // A closed database (the server is stopping) has nothing new to say.
    try {
      this.probeStmt ??= client.query('SELECT (SELECT data_version FROM pragma_data_version) AS version, total_changes() AS changes')
      const row = this.probeStmt.get()!
      if (row.version !== this.seenVersion || row.changes !== this.seenChanges) {
        this.seenVersion = row.version
        this.seenChanges = row.changes
        this.generation += 1
      }
    } catch {
      this.generation += 1
    }
  }
}
