import { SQL } from 'bun'
import type { HqBranchDeps } from './deps'
import type { BackgroundTask } from '../platform/lifecycle'
import type { ReplicationTarget } from '../replication'
import { exportProvisioning, applyProvisioningWithin, ProvisioningError } from '../provisioning'
import type { FloorSnapshot } from '../manage'
import { HQ_ACTOR, profileDocument, profileContentErrors, type ProfileContent } from './profile'


export interface BranchLinkOptions {
  /** `--hq` (or the replication connection): the head-office PostgreSQL. */
  target: ReplicationTarget
  /** The unit's live floor (the manager's view, contract §22); null for a unit it does not know. */
  floor: (queueUnitId: string) => FloorSnapshot | null
  /** How often head office is asked for a newer revision (contract §26: applied within 30 s of publishing). */
  pollMs?: number
  /** The live row is sent at least this often ("last heard"), and at most every `liveMinMs` after a change. */
  liveMs?: number
  liveMinMs?: number
  /** A revision the branch refused is tried again after this long (the branch may have fixed what was in the way). */
  retryRefusedMs?: number
  timeoutMs?: number
}

interface AppliedRow {
  queueUnitId: string
  profileId: string | null
  revision: number | null
  errorRevision: number | null
  errorAt: number | null
  reported: number
}

export interface Newest {
  queue_unit_id: string
  profile_id: string
  profile_name: string
  revision: number
  content: unknown
}

/**
 * A branch's link to head office (contract §26), beside replication: every `pollMs` it asks
 * for the newest revision of each of its units' profiles and applies a newer one through the
 * provisioning validator in one write transaction (audited as `system:hq`), or records why it
 * refused it (the branch keeps serving on its configuration as it was); then it writes the
 * outcome back to `lobby.hq_branch_applies`. The outcome is kept in SQLite first (`hq_applied`,
 * `reported = 0`), so a branch that was cut off tells head office when the link is back. It
 * also sends each unit's floor (waiting, longest wait, counters open, lines over target) to
 * `lobby.hq_branch_live`: after a change (at most every `liveMinMs`) and every `liveMs` anyway.
 * Head office never waits for the branch, and the branch never waits for head office.
 */
export class BranchLink implements BackgroundTask {
  private readonly pollMs: number
  private readonly liveMs: number
  private readonly liveMinMs: number
  private readonly retryRefusedMs: number
  private readonly timeoutMs: number
  private sql: SQL | null = null
  private timer: ReturnType<typeof setTimeout> | undefined
  private stopped = true
  private running: Promise<void> | null = null
  private lastPoll = 0
  private lastLive = 0
  private changed = true
  private lastError: string | null = null
  private unsubscribe: (() => void) | null = null

  constructor(private readonly deps: HqBranchDeps, private readonly options: BranchLinkOptions) {
    this.pollMs = options.pollMs ?? 5_000
    this.liveMs = options.liveMs ?? 5_000
    this.liveMinMs = options.liveMinMs ?? 1_000
    this.retryRefusedMs = options.retryRefusedMs ?? 60_000
    this.timeoutMs = options.timeoutMs ?? 20_000
  }

  start(): void {
    this.stopped = false
    this.unsubscribe = this.deps.events.queueChanges.on(() => {
      this.changed = true
    })
    this.deps.log({ level: 'info', msg: 'head-office link started', target: this.options.target.display })
    this.schedule(0)
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.unsubscribe?.()
    clearTimeout(this.timer)
    await this.running
    const sql = this.sql
    this.sql = null
    await sql?.close({ timeout: 0 }).catch(() => {})
  }

  private schedule(ms: number): void {
    if (this.stopped) return
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => {
        this.running = null
        this.schedule(Math.min(this.liveMinMs, this.pollMs))
      })
    }, ms)
  }

  /** One look: the profiles when due, the write-backs not yet told, the live rows when due. */
  private async tick(): Promise<void> {
    const now = this.deps.clock.now()
    try {
      const sql = (this.sql ??= new SQL(this.options.target.url, { max: 1, connectionTimeout: Math.ceil(this.timeoutMs / 1000), idleTimeout: 60, connection: { application_name: 'lobby-hq-link' } }))
      if (now - this.lastPoll >= this.pollMs) {
        await this.bounded(this.pollProfiles(sql, now))
        this.lastPoll = now
      }
      await this.bounded(this.report(sql))
      if (now - this.lastLive >= this.liveMs || (this.changed && now - this.lastLive >= this.liveMinMs)) {
        this.changed = false
        await this.bounded(this.sendLive(sql, now))
        this.lastLive = now
      }
      if (this.lastError !== null) {
        this.deps.log({ level: 'info', msg: 'head-office link resumed', target: this.options.target.display })
        this.lastError = null
      }
    } catch (error) {
      const message = this.options.target.redact(error instanceof Error ? error.message : String(error))
      if (message !== this.lastError) this.deps.log({ level: 'error', msg: 'head-office link failed', target: this.options.target.display, error: message })
      this.lastError = message
      const sql = this.sql
      this.sql = null
      await sql?.close({ timeout: 0 }).catch(() => {})
      // Try again after a poll period, not at once (the link or head office is down).
      this.lastPoll = now
      this.lastLive = now
    }
  }

  private bounded<T>(work: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`head office did not answer within ${this.timeoutMs / 1000} s`)), this.timeoutMs)
    })
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
  }

  private units(): string[] {
    return this.deps.db.$client.query<{ id: string }, []>('SELECT id FROM queue_units ORDER BY id').all().map((r) => r.id)
  }

  private appliedRow(unitId: string): AppliedRow | null {
    return this.deps.db.$client.query<AppliedRow, [string]>(
      'SELECT queue_unit_id AS queueUnitId, profile_id AS profileId, revision, error_revision AS errorRevision, error_at AS errorAt, reported FROM hq_applied WHERE queue_unit_id = ?1',
    ).get(unitId)
  }

  /** The newest revision of each unit's profile; a newer one than applied is applied (or refused). */
  private async pollProfiles(sql: SQL, now: number): Promise<void> {
    const units = this.units()
    if (units.length === 0) return
    for (const row of await newestRevisions(sql, units)) {
      const applied = this.appliedRow(row.queue_unit_id)
      if (applied !== null && applied.profileId === row.profile_id && (applied.revision ?? 0) >= row.revision) continue
      if (applied !== null && applied.profileId === row.profile_id && applied.errorRevision === row.revision && now - (applied.errorAt ?? 0) < this.retryRefusedMs) continue
      this.apply(row, now)
    }
  }

  /** Applies one revision in one write transaction, or records why not; either way head office is told next. */
  private apply(row: Newest, now: number): void {
    const content = (typeof row.content === 'string' ? JSON.parse(row.content) : row.content) as ProfileContent
    const raw = this.deps.db.$client
    try {
      this.deps.writes.now(() => {
        const problems = profileContentErrors(content, '/content')
        if (problems.length > 0) throw new ProvisioningError(problems)
        const ws = raw.query<{ workspaceId: string }, [string]>('SELECT workspace_id AS workspaceId FROM queue_units WHERE id = ?1').get(row.queue_unit_id)!
        const file = exportProvisioning(this.deps.db, ws.workspaceId).workspaces[0]!
        const unit = (file.queueUnits ?? []).find((u) => u.id === row.queue_unit_id)!
        applyProvisioningWithin(this.deps.db, profileDocument({ workspace: { id: file.id, name: file.name }, unit }, content), now, this.deps.ids, HQ_ACTOR)
        raw.query(`INSERT INTO hq_applied (queue_unit_id, profile_id, profile_name, revision, content, applied_at, error_revision, error, error_at, reported, updated_at)
          VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULL, NULL, NULL, 0, ?6)
          ON CONFLICT (queue_unit_id) DO UPDATE SET profile_id = ?2, profile_name = ?3, revision = ?4, content = ?5, applied_at = ?6,
            error_revision = NULL, error = NULL, error_at = NULL, reported = 0, updated_at = ?6`)
          .run(row.queue_unit_id, row.profile_id, row.profile_name, row.revision, JSON.stringify(content), now)
        this.deps.tickets.touch(row.queue_unit_id)
      })
      this.deps.log({ level: 'info', msg: 'head-office profile applied', queueUnitId: row.queue_unit_id, profileId: row.profile_id, revision: row.revision })
    } catch (error) {
      const message = error instanceof ProvisioningError
        ? error.details.map((d) => `${placeOf(d.path, content)}: ${d.message}`).join('; ')
        : error instanceof Error ? error.message : String(error)
      // A refused revision leaves the applied one (and its content) as it was: the branch keeps serving.
      this.deps.writes.now(() => {
        raw.query(`INSERT INTO hq_applied (queue_unit_id, profile_id, profile_name, error_revision, error, error_at, reported, updated_at)
          VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?6)
          ON CONFLICT (queue_unit_id) DO UPDATE SET error_revision = ?4, error = ?5, error_at = ?6, reported = 0, updated_at = ?6,
            profile_id = CASE WHEN revision IS NULL THEN ?2 ELSE profile_id END, profile_name = CASE WHEN revision IS NULL THEN ?3 ELSE profile_name END`)
          .run(row.queue_unit_id, row.profile_id, row.profile_name, row.revision, message.slice(0, 2000), now)
      })
      // The refusal is remembered per profile: a different profile assigned later is tried at once.
      this.deps.log({ level: 'error', msg: 'head-office profile refused', queueUnitId: row.queue_unit_id, profileId: row.profile_id, revision: row.revision, error: message.slice(0, 500) })
    }
  }

  /** Every outcome head office has not heard of yet, upserted; marked told after PostgreSQL's COMMIT. */
  private async report(sql: SQL): Promise<void> {
    const raw = this.deps.db.$client
    const rows = raw.query<{ queueUnitId: string; profileId: string | null; revision: number | null; appliedAt: number | null; errorRevision: number | null; error: string | null; errorAt: number | null; updatedAt: number }, []>(
      `SELECT queue_unit_id AS queueUnitId, profile_id AS profileId, revision, applied_at AS appliedAt, error_revision AS errorRevision, error, error_at AS errorAt, updated_at AS updatedAt
       FROM hq_applied WHERE reported = 0`,
    ).all()
    for (const r of rows) {
      await reportOutcome(sql, r)
      // Only if nothing changed meanwhile (a newer outcome is told on the next look).
      this.deps.writes.now(() => raw.query('UPDATE hq_applied SET reported = 1 WHERE queue_unit_id = ?1 AND updated_at = ?2').run(r.queueUnitId, r.updatedAt))
    }
  }

  /** Each unit's floor now, summed for /hq/live, with its lines for the drill-down. */
  private async sendLive(sql: SQL, now: number): Promise<void> {
    const rows = []
    for (const unitId of this.units()) {
      const floor = this.options.floor(unitId)
      if (floor !== null) rows.push(liveRow(floor, now))
    }
    await upsertLive(sql, rows)
  }
}

/**
 * Where in the profile a refusal points, in words for /hq: `/workspaces/0/queueUnits/0/services/2/prefix`
 * is `service svc_express, prefix` (the document lists the profile's services in its order).
 */
function placeOf(path: string, content: ProfileContent): string {
  const inUnit = path.replace(/^\/workspaces\/0\/queueUnits\/0/, '')
  const service = /^\/services\/(\d+)(?:\/(.*))?$/.exec(inUnit)
  if (service !== null) {
    const id = content.services?.[Number(service[1])]?.id ?? `#${Number(service[1]) + 1}`
    return `service ${id}${service[2] ? `, ${service[2].replaceAll('/', ' ')}` : ''}`
  }
  const location = /^\/locations\/(\d+)\/(.*)$/.exec(inUnit)
  if (location !== null) return `location #${Number(location[1]) + 1}, ${location[2]!.replaceAll('/', ' ')}`
  return inUnit === '' ? 'the unit' : `the unit's ${inUnit.slice(1).replaceAll('/', ' ')}`
}

/*
 * The statements a branch runs at head office, one function each: BranchLink's, and the
 * chain bench's (bench/hq-chain.ts), which simulates 500 branches with them.
 */

/** The newest revision of the profile each of `units` follows (units without one are absent). */
export async function newestRevisions(sql: SQL, units: string[]): Promise<Newest[]> {
  if (units.length === 0) return []
  return (await sql`
    SELECT b.queue_unit_id, b.profile_id, p.name AS profile_name, r.revision, r.content
    FROM lobby.hq_branches b
    JOIN lobby.hq_profiles p ON p.id = b.profile_id
    JOIN LATERAL (SELECT revision, content FROM lobby.hq_profile_revisions WHERE profile_id = b.profile_id ORDER BY revision DESC LIMIT 1) r ON true
    WHERE b.queue_unit_id IN ${sql(units)}`) as Newest[]
}

export interface Outcome {
  queueUnitId: string
  profileId: string | null
  revision: number | null
  appliedAt: number | null
  errorRevision: number | null
  error: string | null
  errorAt: number | null
}

/** A unit's outcome, told to head office (`lobby.hq_branch_applies`, the unit's own row). */
export async function reportOutcome(sql: SQL, r: Outcome): Promise<void> {
  const date = (ms: number | null) => (ms === null ? null : new Date(ms))
  await sql`
    INSERT INTO lobby.hq_branch_applies (queue_unit_id, profile_id, revision, applied_at, error_revision, error, error_at, reported_at)
    VALUES (${r.queueUnitId}, ${r.profileId}, ${r.revision}, ${date(r.appliedAt)}, ${r.errorRevision}, ${r.error}, ${date(r.errorAt)}, now())
    ON CONFLICT (queue_unit_id) DO UPDATE SET profile_id = excluded.profile_id, revision = excluded.revision, applied_at = excluded.applied_at,
      error_revision = excluded.error_revision, error = excluded.error, error_at = excluded.error_at, reported_at = now()`
}

/** The units' floors, told to head office (`lobby.hq_branch_live`). */
export async function upsertLive(sql: SQL, rows: ReturnType<typeof liveRow>[]): Promise<void> {
  if (rows.length === 0) return
  await sql`
    INSERT INTO lobby.hq_branch_live ${sql(rows.map((row) => ({ ...row, lines: sql.json(row.lines) })))}
    ON CONFLICT (queue_unit_id) DO UPDATE SET name = excluded.name, waiting = excluded.waiting, longest_wait_seconds = excluded.longest_wait_seconds,
      counters_open = excluded.counters_open, over_target = excluded.over_target, lines = excluded.lines, observed_at = excluded.observed_at, reported_at = now()`
}

/** The row of `lobby.hq_branch_live` for a floor at `now`: longest waits counted to `now`, not to when the floor was read. */
export function liveRow(floor: FloorSnapshot, now: number) {
  let waiting = 0
  let longest = 0
  let open = 0
  let over = 0
  const lines: { locationId: string; serviceId: string; name: string; waiting: number; longestWaitSeconds: number; waitTargetSeconds: number; overTarget: boolean }[] = []
  for (const location of floor.locations) {
    open += location.counters.filter((c) => c.state === 'open').length
    for (const service of location.services) {
      const seconds = service.longestWait === null ? 0 : Math.max(0, Math.floor((now - Date.parse(service.longestWait.waitingSince)) / 1000))
      const overTarget = service.longestWait !== null && seconds > service.waitTargetSeconds
      waiting += service.waiting
      longest = Math.max(longest, seconds)
      if (overTarget) over++
      lines.push({ locationId: location.id, serviceId: service.id, name: service.name, waiting: service.waiting, longestWaitSeconds: seconds, waitTargetSeconds: service.waitTargetSeconds, overTarget })
    }
  }
  return {
    queue_unit_id: floor.queueUnitId,
    name: floor.name,
    waiting,
    longest_wait_seconds: longest,
    counters_open: open,
    over_target: over,
    lines,
    observed_at: new Date(now),
  }
}
