import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/open'
import type { Logger } from '../platform/log'
import { CommitListeners } from '../platform/listeners'
import type { WriteBatcher } from '../platform/write-batch'
import { queueUnits } from './tables'

/** A committed change to a queue unit's tickets or counters (display feeds' "queue" topic). */
export interface QueueChange {
  queueUnitId: string
  workspaceId: string
  /** The unit's `stateRevision` after the change. */
  stateRevision: number
}

export type QueueChangeListener = (change: QueueChange) => void

const queueChangeListeners = new CommitListeners<QueueChange>('queue change')

/**
 * Calls `listener` after every committed change to the tickets or counters of any queue unit
 * in `db` (ticket issue, walk-in, every transition, counter open/close, the daily close), in
 * commit order, in this process. Idempotent replays and refused requests change nothing and
 * are not reported. Returns the function that unsubscribes.
 */
export function onQueueChange(db: Db, listener: QueueChangeListener): () => void {
  return queueChangeListeners.on(db, listener)
}

/**
 * The per-unit `stateRevision`: `bump` inside the transaction that changes the unit's tickets
 * or counters (so the number is persisted with the change, survives restarts and never goes
 * back), `notify` once that transaction committed.
 */
export class QueueRevisions {
  private readonly bumpStmt
  private readonly readStmt

  constructor(private readonly db: Db, private readonly log: Logger) {
    this.bumpStmt = db
      .update(queueUnits)
      .set({ stateRevision: sql`${queueUnits.stateRevision} + 1` })
      .where(eq(queueUnits.id, sql.placeholder('id')))
      .prepare()
    this.readStmt = db
      .select({ queueUnitId: queueUnits.id, workspaceId: queueUnits.workspaceId, stateRevision: queueUnits.stateRevision })
      .from(queueUnits)
      .where(eq(queueUnits.id, sql.placeholder('id')))
      .prepare()
  }

  /** +1 on the unit's revision; must run inside the change's own transaction. */
  bump(queueUnitId: string): void {
    if (!this.db.$client.inTransaction) throw new Error('stateRevision must be bumped inside the change\'s transaction')
    this.bumpStmt.run({ id: queueUnitId })
  }

  /** The unit's current revision, or null for an unknown unit. */
  current(queueUnitId: string): QueueChange | null {
    return this.readStmt.get({ id: queueUnitId }) ?? null
  }

  /**
   * Tells the listeners, after commit. The revision is read back here: the transaction and
   * this call run in one synchronous stretch, so no other change of this process can come in
   * between.
   */
  notify(queueUnitId: string): void {
    const change = this.current(queueUnitId)
    if (change !== null) queueChangeListeners.emit(this.db, change, this.log)
  }

  /**
   * `notify` for a change written inside a group commit (`WriteBatcher`): the revision is read
   * now, inside the batch's transaction (so each change reports its own), and told to the
   * listeners once the batch committed. Outside a batch this is `notify`.
   */
  notifyOnCommit(queueUnitId: string, writes: WriteBatcher): void {
    if (!writes.inBatch) {
      this.notify(queueUnitId)
      return
    }
    const change = this.current(queueUnitId)
    if (change !== null) writes.afterCommit(() => queueChangeListeners.emit(this.db, change, this.log))
  }
}
