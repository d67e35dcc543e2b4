import type { Statement } from 'bun:sqlite'
import type { Db } from '../db/open'
import type { WriteBatcher } from '../platform/write-batch'
import { TicketChangeFeed } from '../tickets'

export interface ReplicationStateRow {
  target: string
  cursor: number
  rowsSent: number
  lastSuccessAt: number | null
  lastError: string | null
  lastErrorAt: number | null
  updatedAt: number
}

/** `"replication"` in `lobby status` (contract §14), and what /metrics reads of it. */
export interface ReplicationStatus {
  /** The head-office database, without its password. */
  target: string
  /** Age of the oldest change head office has not committed yet; 0 when it has everything. */
  lagSeconds: number
  /** Ticket events (each with its ticket's state) not yet committed at head office. */
  pending: number
  /** The last failure (password removed), or null once a batch went through again. */
  lastError: string | null
  lastErrorAt: string | null
  lastSuccessAt: string | null
}

const SELECT_COLUMNS = `target, cursor, rows_sent AS rowsSent, last_success_at AS lastSuccessAt, last_error AS lastError,
  last_error_at AS lastErrorAt, updated_at AS updatedAt FROM replication_state`

/**
 * The durable side of replication, in the branch's SQLite: the cursor and the last error, one row
 * per head-office target. Writes go through `writes.now` (background work: its own immediate
 * transaction), so they never share a transaction with a request.
 */
export class ReplicationState {
  private readonly readStmt: Statement<ReplicationStateRow, [string]>
  private readonly ensureStmt: Statement<unknown, [string, number]>
  private readonly advanceStmt: Statement<unknown, [number, number, number, string]>
  private readonly failStmt: Statement<unknown, [string, number, string]>

  constructor(private readonly db: Db, private readonly writes: WriteBatcher, readonly target: string) {
    const client = db.$client
    this.readStmt = client.query(`SELECT ${SELECT_COLUMNS} WHERE target = ?1`)
    this.ensureStmt = client.query('INSERT INTO replication_state (target, updated_at) VALUES (?1, ?2) ON CONFLICT (target) DO NOTHING')
    this.advanceStmt = client.query(
      'UPDATE replication_state SET cursor = ?1, rows_sent = rows_sent + ?2, last_success_at = ?3, last_error = NULL, updated_at = ?3 WHERE target = ?4',
    )
    this.failStmt = client.query('UPDATE replication_state SET last_error = ?1, last_error_at = ?2, updated_at = ?2 WHERE target = ?3')
  }

  /** The row of this target, created (cursor 0: everything still to send) the first time. */
  load(now: number): ReplicationStateRow {
    this.writes.now(() => this.ensureStmt.run(this.target, now))
    return this.readStmt.get(this.target)!
  }

  /**
   * Head office committed everything up to `cursor`. Written without waiting for the disk
   * (`synchronous = NORMAL` for this one commit, WAL: never corrupt, at worst lost with power):
   * a cursor lost that way only sends batches again, which head office ignores (upserts), and
   * an fsync per batch would stall the requests sharing this thread.
   */
  advance(cursor: number, rows: number, now: number): void {
    this.withoutFsync(() => this.writes.now(() => this.advanceStmt.run(cursor, rows, now, this.target)))
  }

  fail(message: string, now: number): void {
    this.withoutFsync(() => this.writes.now(() => this.failStmt.run(message, now, this.target)))
  }

  private withoutFsync(write: () => void): void {
    const client = this.db.$client
    // Outside a transaction only: the setting applies to the next COMMIT of this connection.
    if (client.inTransaction) return write()
    const level = client.query<{ synchronous: number }, []>('PRAGMA synchronous').get()!.synchronous
    if (level <= 1) return write()
    client.exec('PRAGMA synchronous = NORMAL')
    try {
      write()
    } finally {
      client.exec(`PRAGMA synchronous = ${level}`)
    }
  }
}

/**
 * Replication as `lobby status` shows it, from the database alone (the CLI is another process):
 * the target written most recently, its backlog and last error; null when this database never
 * replicated (or predates the table).
 */
export function replicationStatus(db: Db, now: number): ReplicationStatus | null {
  const client = db.$client
  const table = client.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'replication_state'").get()
  if (table === null) return null
  const row = client.query<ReplicationStateRow, []>(`SELECT ${SELECT_COLUMNS} ORDER BY updated_at DESC LIMIT 1`).get()
  if (row === null) return null
  return statusOf(row, new TicketChangeFeed(db), now)
}

/** Status of one state row against the feed's backlog. */
export function statusOf(row: Pick<ReplicationStateRow, 'target' | 'cursor' | 'lastError' | 'lastErrorAt' | 'lastSuccessAt'>, feed: TicketChangeFeed, now: number): ReplicationStatus {
  const backlog = feed.backlog(row.cursor)
  return {
    target: row.target,
    lagSeconds: lagSeconds(backlog.oldestAt, now),
    pending: backlog.pending,
    lastError: row.lastError,
    lastErrorAt: iso(row.lastErrorAt),
    lastSuccessAt: iso(row.lastSuccessAt),
  }
}

/** Seconds (to 0.1) since the oldest change head office lacks; 0 when it lacks none. */
export function lagSeconds(oldestAt: number | null, now: number): number {
  return oldestAt === null ? 0 : Math.max(0, Math.round((now - oldestAt) / 100) / 10)
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())
