import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Db } from '../db/open'
import { SCHEMA_VERSION } from '../db/migrate'
import { buildInfo } from '../version'
import { isoOrNull } from '../platform/clock'
import { businessDayAt, QueueLines, issuedCounter } from '../tickets'
import { deliveryBacklog } from '../webhooks'
import { replicationStatus, type ReplicationStatus } from '../replication'

export interface DeviceStatus {
  name: string
  owner: string
  pairedAt: string
  lastUsedAt: string | null
}

/** `lobby status` (contract §13). */
export interface LobbyStatus {
  version: string
  commit: string
  builtAt: string | null
  schema: { database: number; build: number }
  database: { path: string; bytes: number; walBytes: number; freeBytes: number; autoVacuum: 'incremental' | 'full' | 'none' }
  /** Tickets issued on each location's current local business day (cancelled ones included). */
  ticketsToday: { total: number; byLocation: { queueUnitId: string; locationId: string; businessDay: string; issued: number }[] }
  /** Tickets waiting now, over every line. */
  waitingNow: number
  webhooks: { pending: number; failed: number }
  /** Paired devices (credentials of kind `device` in force); none until pairing exists. */
  devices: { count: number; list: DeviceStatus[] }
  /** The newest copy Lobby made (`lobby backup` or before a migration), and whether the file is still there. */
  lastBackup: { kind: string; path: string; bytes: number; at: string; exists: boolean } | null
  /** Head-office replication (contract §14): lag, backlog, last error; null when this database never replicated. */
  replication: ReplicationStatus | null
}

const fileSize = (path: string) => (existsSync(path) ? statSync(path).size : 0)

/** Reads everything `lobby status` shows; read-only, safe while the server runs. */
export function collectStatus(db: Db, path: string, now: number): LobbyStatus {
  const client = db.$client
  const tables = new Set(client.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name))
  const pragma = <T>(name: string) => client.query<Record<string, T>, []>(`PRAGMA ${name}`).get()![name]!
  const info = buildInfo()

  const byLocation: LobbyStatus['ticketsToday']['byLocation'] = []
  const locations = client.query<{ id: string; queueUnitId: string; timezone: string }, []>(
    'SELECT id, queue_unit_id AS queueUnitId, timezone FROM locations ORDER BY queue_unit_id, id',
  ).all()
  const issued = issuedCounter(db)
  for (const location of locations) {
    const businessDay = businessDayAt(now, location.timezone)
    byLocation.push({ queueUnitId: location.queueUnitId, locationId: location.id, businessDay, issued: issued(location.id, businessDay) })
  }

  const lines = new QueueLines(db)
  let waitingNow = 0
  for (const unit of client.query<{ id: string }, []>('SELECT id FROM queue_units').all()) {
    for (const line of lines.lines(unit.id, false)) waitingNow += line.waiting
  }

  const devices = client.query<{ name: string; owner: string; createdAt: number; lastUsedAt: number | null }, [number]>(`
    SELECT name, owner_id AS owner, created_at AS createdAt, last_used_at AS lastUsedAt FROM credentials
    WHERE kind = 'device' AND revoked_at IS NULL AND superseded_at IS NULL AND (expires_at IS NULL OR expires_at > ?1)
    ORDER BY name`).all(now).map((d) => ({ name: d.name, owner: d.owner, pairedAt: isoOrNull(d.createdAt)!, lastUsedAt: isoOrNull(d.lastUsedAt) }))

  const backup = tables.has('ops_backups')
    ? client.query<{ kind: string; path: string; bytes: number; createdAt: number }, []>(
        'SELECT kind, path, bytes, created_at AS createdAt FROM ops_backups ORDER BY created_at DESC, id DESC LIMIT 1',
      ).get()
    : null

  const autoVacuum = pragma<number>('auto_vacuum')
  return {
    version: info.version,
    commit: info.commit,
    builtAt: info.builtAt,
    schema: { database: client.query<{ n: number }, []>('SELECT count(*) AS n FROM lobby_migrations').get()!.n, build: SCHEMA_VERSION },
    database: {
      path,
      bytes: fileSize(path),
      walBytes: fileSize(`${path}-wal`),
      freeBytes: pragma<number>('freelist_count') * pragma<number>('page_size'),
      autoVacuum: autoVacuum === 2 ? 'incremental' : autoVacuum === 1 ? 'full' : 'none',
    },
    ticketsToday: { total: byLocation.reduce((sum, l) => sum + l.issued, 0), byLocation },
    waitingNow,
    webhooks: deliveryBacklog(db),
    devices: { count: devices.length, list: devices },
    lastBackup: backup ? { kind: backup.kind, path: backup.path, bytes: backup.bytes, at: isoOrNull(backup.createdAt)!, exists: existsSync(backup.path) } : null,
    replication: replicationStatus(db, now),
  }
}

/**
 * Records a copy `lobby backup` made, for `lobby status`, by its absolute path (status may run
 * from another directory); skipped on a database older than the table.
 */
export function recordBackup(db: Db, path: string, bytes: number, now: number): void {
  const has = db.$client.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ops_backups'").get()
  if (has !== null) db.$client.query("INSERT INTO ops_backups (kind, path, bytes, created_at) VALUES ('backup', ?, ?, ?)").run(resolve(path), bytes, now)
}
