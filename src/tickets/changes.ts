import type { Db } from '../db/open'
import type { Logger } from '../platform/log'
import type { CommitListeners } from '../platform/listeners'
import type { WriteBatcher } from '../platform/write-batch'

/** A committed change to a queue unit's tickets or counters (display feeds' "queue" topic). */
export interface QueueChange {
  queueUnitId: string
  workspaceId: string
  /** The unit's `stateRevision` after the change. */
  stateRevision: number
}

export type QueueChangeListener = (change: QueueChange) => void

/*
 * Who hears of a change: the app's one registry, `deps.events.queueChanges` (built by the
 * composition root, src/root/deps.ts, and handed to `Tickets`). A listener is called after every
 * committed change to the tickets or counters of any queue unit (ticket issue, walk-in, every
 * transition, counter open/close, the daily close), in commit order, in this process.
 * Idempotent replays and refused requests change nothing and are not reported.
 */

/**
 * The per-unit `stateRevision`. `bump` runs inside the transaction that changes the unit's
 * tickets or counters (so the number is persisted with the change, survives restarts and never
 * goes back) and hands the listeners' call to `WriteBatcher.afterCommit`: they hear of the change
 * once it committed, never before, and not at all when it was undone. Several bumps of one unit
 * in one write are told once, with the last revision.
 */
export class QueueRevisions {
  private readonly bumpStmt
  private readonly readStmt

  // Raw statements: `RETURNING` hands back the new revision without a second read.
  constructor(private readonly db: Db, private readonly writes: WriteBatcher, private readonly log: Logger, private readonly listeners: CommitListeners<QueueChange>) {
    this.bumpStmt = db.$client.query<QueueChange, [string]>(
      'UPDATE queue_units SET state_revision = state_revision + 1 WHERE id = ?1 RETURNING id AS queueUnitId, workspace_id AS workspaceId, state_revision AS stateRevision',
    )
    this.readStmt = db.$client.query<QueueChange, [string]>(
      'SELECT id AS queueUnitId, workspace_id AS workspaceId, state_revision AS stateRevision FROM queue_units WHERE id = ?1',
    )
  }

  /** +1 on the unit's revision, told to the listeners after commit; must run inside the change's own write. */
  bump(queueUnitId: string): void {
    if (!this.db.$client.inTransaction) throw new Error('stateRevision must be bumped inside the change\'s transaction')
    const change = this.bumpStmt.get(queueUnitId)
    if (change === null) return
    this.writes.afterCommit(() => this.listeners.emit(change, this.log), `queue-change:${queueUnitId}`)
  }

  /** The unit's current revision, or null for an unknown unit. */
  current(queueUnitId: string): QueueChange | null {
    return this.readStmt.get(queueUnitId) ?? null
  }
}
