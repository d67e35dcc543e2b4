import type { SQL } from 'bun'
import canonicalize from 'canonicalize'
import type { Clock } from '../platform/clock'
import { ApiError, type ErrorDetail } from '../platform/errors'
import { ruled } from '../platform/detail-rules'
import { DEFAULT_PASSWORD_COST, passwordProblem, type PasswordCost } from '../people'
import { HqCodes, HqErrorExamples } from './errors'
import { profileContentErrors, type ProfileContent } from './profile'

/*
 * Head office's work over its PostgreSQL (contract §26), no HTTP in it: its people and their
 * sessions (as §16: Argon2id passwords, single-use setup links, 30 minutes idle, 12 hours in all,
 * 5 failures lock a username for 15 minutes), the profiles and their immutable revisions, which
 * branch follows which, and the reads of /hq/live and /hq/reports. Every state is a row in
 * PostgreSQL, so any number of `hq serve` processes answer alike.
 */

export const HQ_ROLES = ['hq-admin', 'hq-viewer'] as const
export type HqRole = (typeof HQ_ROLES)[number]
export const HQ_USERNAME = /^[a-z0-9._-]{1,64}$/
export const HQ_SESSION_PATTERN = /^hqs_[a-z2-7]{52}$/
const SETUP_CODE_PATTERN = /^[a-z2-7]{52}$/
const PROFILE_ID = /^[A-Za-z0-9_-]{1,160}$/
export const SETUP_TTL_MS = 24 * 3_600_000
export const SESSION_IDLE_MS = 30 * 60_000
export const SESSION_ABSOLUTE_MS = 12 * 3_600_000
const LOCK_FAILURES = 5
const LOCK_WINDOW_MS = 15 * 60_000

export interface HqUser {
  username: string
  displayName: string
  role: HqRole
}

export interface ProfileView {
  id: string
  name: string
  content: ProfileContent
  draftVersion: number
  updatedAt: string
  updatedBy: string
  /** The newest published revision, null before the first. */
  publishedRevision: number | null
  /** The draft differs from the newest revision (or nothing is published yet). */
  unpublished: boolean
}

export interface BranchView {
  queueUnitId: string
  name: string | null
  profileId: string | null
  /** The newest revision of its profile. */
  newestRevision: number | null
  appliedRevision: number | null
  appliedAt: string | null
  refusedRevision: number | null
  refusedBecause: string | null
  /** `applied` (the newest), `pending` (not yet), `refused` (the newest failed there), `none` (no profile). */
  rollout: 'applied' | 'pending' | 'refused' | 'none'
}

export interface LiveBranch {
  queueUnitId: string
  name: string
  waiting: number
  longestWaitSeconds: number
  countersOpen: number
  overTarget: number
  lastHeardAt: string
  lastHeardSeconds: number
  /** The branch's replication lag: now − its newest replicated ticket event (null before its first). */
  replicatedAt: string | null
}

export interface LiveLine {
  locationId: string
  serviceId: string
  name: string
  waiting: number
  longestWaitSeconds: number
  waitTargetSeconds: number
  overTarget: boolean
}

export interface ReportRow {
  date: string
  queueUnitId: string
  locationId: string
  serviceId: string
  issued: number
  served: number
  noShow: number
  cancelled: number
  transferredOut: number
  waitSeconds: { avg: number | null; p50: number | null; p90: number | null; max: number | null }
  serviceSeconds: { avg: number | null; p50: number | null; p90: number | null }
  withinTarget: number | null
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString())
const round1 = (n: number) => Math.round(n * 10) / 10

function randomBase32(bytes: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
  const data = crypto.getRandomValues(new Uint8Array(bytes))
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of data) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31]
  return out
}

/** Each password rule's code (contract §16, §27): the branch's setup answers the same. */
const PASSWORD_CODES: Partial<Record<string, string>> = {
  'too-short': HqCodes.PASSWORD_TOO_SHORT,
  'too-common': HqCodes.PASSWORD_TOO_COMMON,
  repeated: HqCodes.PASSWORD_REPEATED,
  sequence: HqCodes.PASSWORD_SEQUENCE,
  'contains-username': HqCodes.PASSWORD_CONTAINS_USERNAME,
}

const sha256 = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex')
const invalid = (details: ErrorDetail[]) => new ApiError(422, HqCodes.VALIDATION_FAILED, 'request validation failed', details)

export interface HqServiceDeps {
  sql: SQL
  clock: Clock
  passwordCost?: PasswordCost
}

export class HqService {
  private readonly sql: SQL
  private readonly cost: PasswordCost
  /** Verified against for an unknown username, so its answer takes about as long as a wrong password's. */
  private dummyHash: Promise<string> | null = null

  constructor(private readonly deps: HqServiceDeps) {
    this.sql = deps.sql
    this.cost = deps.passwordCost ?? DEFAULT_PASSWORD_COST
  }

  private now(): number {
    return this.deps.clock.now()
  }

  // ------------------------------------------------------------------ people

  /** A new HQ user with a setup link (no password yet); the code is stored only as its hash. */
  async addUser(input: { username: string; role: string; displayName?: string }): Promise<{ username: string; setupPath: string; expiresAt: string }> {
    if (!HQ_USERNAME.test(input.username)) throw invalid([ruled('/username', 'must be 1–64 of a-z, 0-9, ".", "_" and "-"', 'form')])
    if (!(HQ_ROLES as readonly string[]).includes(input.role)) throw invalid([ruled('/role', 'must be hq-admin or hq-viewer', 'oneOf', { allowed: [...HQ_ROLES] })])
    const code = randomBase32(32)
    const now = this.now()
    const expires = new Date(now + SETUP_TTL_MS)
    const rows = await this.sql`
      INSERT INTO lobby_hq.users (username, display_name, role, setup_code_hash, setup_expires_at, created_at)
      VALUES (${input.username}, ${input.displayName ?? input.username}, ${input.role}, ${sha256(code)}, ${expires}, ${new Date(now)})
      ON CONFLICT (username) DO NOTHING RETURNING username`
    if (rows.length === 0) throw invalid([ruled('/username', `an HQ user is already named "${input.username}"`, 'taken', { kind: 'user' })])
    return { username: input.username, setupPath: `/hq/setup?code=${code}`, expiresAt: expires.toISOString() }
  }

  /** Sets the password of the setup code's user (once); ends every session of that user. */
  async completeSetup(code: unknown, password: unknown): Promise<{ username: string }> {
    if (typeof code !== 'string' || !SETUP_CODE_PATTERN.test(code)) throw new ApiError(400, HqCodes.SETUP_CODE_INVALID, 'this setup link is wrong, expired or already used')
    const [user] = (await this.sql`SELECT username FROM lobby_hq.users WHERE setup_code_hash = ${sha256(code)} AND setup_expires_at > ${new Date(this.now())} AND state = 'active'`) as { username: string }[]
    if (user === undefined) throw new ApiError(400, HqCodes.SETUP_CODE_INVALID, 'this setup link is wrong, expired or already used')
    if (typeof password !== 'string') throw invalid([ruled('/password', 'required', 'required')])
    const problem = passwordProblem(password, { username: user.username, workspaceNames: [] })
    if (problem !== null) {
      const code = PASSWORD_CODES[problem]
      if (code === undefined) throw invalid([ruled('/password', `at most ${256} characters`, 'maxLength', { max: 256 })])
      throw new ApiError(422, code, HqErrorExamples[code] !== undefined && typeof HqErrorExamples[code] === 'object' ? (HqErrorExamples[code] as { message: string }).message : problem, [{ path: '/password', message: problem }])
    }
    const hash = await Bun.password.hash(password, { algorithm: 'argon2id', memoryCost: this.cost.memoryCost, timeCost: this.cost.timeCost })
    const done = await this.sql.begin(async (tx) => {
      const updated = await tx`UPDATE lobby_hq.users SET password_hash = ${hash}, setup_code_hash = NULL, setup_expires_at = NULL WHERE username = ${user.username} AND setup_code_hash = ${sha256(code)} RETURNING username`
      await tx`DELETE FROM lobby_hq.sessions WHERE username = ${user.username}`
      return updated.length
    })
    if (done === 0) throw new ApiError(400, HqCodes.SETUP_CODE_INVALID, 'this setup link is wrong, expired or already used')
    return { username: user.username }
  }

  /** A new session for the right password (401 SIGN_IN_FAILED, alike for an unknown user; 429 SIGN_IN_LOCKED after 5 failures in 15 minutes). */
  async signIn(username: unknown, password: unknown): Promise<{ sessionId: string; user: HqUser }> {
    const name = typeof username === 'string' ? username : ''
    const given = typeof password === 'string' ? password : ''
    const now = this.now()
    const since = new Date(now - LOCK_WINDOW_MS)
    const [failures] = (await this.sql`SELECT count(*)::int AS n, max(at) AS last FROM lobby_hq.sign_in_failures WHERE username = ${name} AND at > ${since}`) as { n: number; last: Date | null }[]
    if (failures!.n >= LOCK_FAILURES) {
      const retry = Math.max(1, Math.ceil((new Date(failures!.last!).getTime() + LOCK_WINDOW_MS - now) / 1000))
      throw new ApiError(429, HqCodes.SIGN_IN_LOCKED, 'too many failed sign-ins for this username: try again in 15 minutes', undefined, { 'retry-after': String(retry) })
    }
    const [row] = (await this.sql`SELECT username, display_name, role, password_hash FROM lobby_hq.users WHERE username = ${name} AND state = 'active'`) as { username: string; display_name: string; role: HqRole; password_hash: string | null }[]
    const hash = row?.password_hash ?? (await (this.dummyHash ??= Bun.password.hash('not-a-password-of-anyone', { algorithm: 'argon2id', memoryCost: this.cost.memoryCost, timeCost: this.cost.timeCost })))
    let ok = false
    try {
      ok = await Bun.password.verify(given, hash)
    } catch {
      ok = false
    }
    if (!ok || row === undefined || row.password_hash === null) {
      if (name !== '' && name.length <= 64) await this.sql`INSERT INTO lobby_hq.sign_in_failures (username, at) VALUES (${name}, ${new Date(now)})`
      throw new ApiError(401, HqCodes.SIGN_IN_FAILED, 'wrong username or password')
    }
    await this.sql`DELETE FROM lobby_hq.sign_in_failures WHERE username = ${name} OR at < ${since}`
    const sessionId = `hqs_${randomBase32(32)}`
    await this.sql`INSERT INTO lobby_hq.sessions (id_hash, username, created_at, last_seen_at) VALUES (${sha256(sessionId)}, ${row.username}, ${new Date(now)}, ${new Date(now)})`
    return { sessionId, user: { username: row.username, displayName: row.display_name, role: row.role } }
  }

  /** The session's user, its idle time renewed; null when it is unknown, idle 30 minutes, 12 hours old or its user disabled. */
  async authenticate(sessionId: string | null): Promise<HqUser | null> {
    if (sessionId === null || !HQ_SESSION_PATTERN.test(sessionId)) return null
    const now = this.now()
    const [row] = (await this.sql`
      UPDATE lobby_hq.sessions s SET last_seen_at = ${new Date(now)}
      FROM lobby_hq.users u
      WHERE s.id_hash = ${sha256(sessionId)} AND u.username = s.username AND u.state = 'active'
        AND s.last_seen_at > ${new Date(now - SESSION_IDLE_MS)} AND s.created_at > ${new Date(now - SESSION_ABSOLUTE_MS)}
      RETURNING u.username, u.display_name, u.role`) as { username: string; display_name: string; role: HqRole }[]
    return row === undefined ? null : { username: row.username, displayName: row.display_name, role: row.role }
  }

  async signOut(sessionId: string | null): Promise<void> {
    if (sessionId !== null) await this.sql`DELETE FROM lobby_hq.sessions WHERE id_hash = ${sha256(sessionId)}`
  }

  // ------------------------------------------------------------------ profiles

  async listProfiles(): Promise<ProfileView[]> {
    const rows = await this.sql`
      SELECT p.*, r.revision AS published_revision, r.content AS published_content
      FROM lobby.hq_profiles p
      LEFT JOIN LATERAL (SELECT revision, content FROM lobby.hq_profile_revisions WHERE profile_id = p.id ORDER BY revision DESC LIMIT 1) r ON true
      ORDER BY p.name, p.id`
    return (rows as ProfileRow[]).map(profileView)
  }

  async readProfile(id: string): Promise<ProfileView> {
    const [row] = (await this.sql`
      SELECT p.*, r.revision AS published_revision, r.content AS published_content
      FROM lobby.hq_profiles p
      LEFT JOIN LATERAL (SELECT revision, content FROM lobby.hq_profile_revisions WHERE profile_id = p.id ORDER BY revision DESC LIMIT 1) r ON true
      WHERE p.id = ${id}`) as ProfileRow[]
    if (row === undefined) throw new ApiError(404, HqCodes.NOT_FOUND, `no profile "${id}"`)
    return profileView(row)
  }

  /** A new profile `{id?, name, content}` (a draft: nothing reaches a branch before it is published). */
  async createProfile(body: unknown, by: string): Promise<ProfileView> {
    const { id, name, content } = this.profileBody(body, true)
    const profileId = id ?? `prof_${randomBase32(10)}`
    const now = new Date(this.now())
    const rows = await this.sql`
      INSERT INTO lobby.hq_profiles (id, name, draft, created_at, updated_at, updated_by)
      VALUES (${profileId}, ${name}, ${this.sql.json(content)}, ${now}, ${now}, ${by})
      ON CONFLICT (id) DO NOTHING RETURNING id`
    if (rows.length === 0) throw invalid([ruled('/id', `a profile "${profileId}" exists already`, 'taken', { kind: 'profile' })])
    return this.readProfile(profileId)
  }

  /** Replaces the draft's name and content; `draftVersion` must be the one loaded (409 EDIT_CONFLICT otherwise). */
  async updateProfile(id: string, body: unknown, by: string): Promise<ProfileView> {
    const { name, content, draftVersion } = this.profileBody(body, false)
    const rows = await this.sql`
      UPDATE lobby.hq_profiles SET name = ${name}, draft = ${this.sql.json(content)}, draft_version = draft_version + 1, updated_at = ${new Date(this.now())}, updated_by = ${by}
      WHERE id = ${id} AND draft_version = ${draftVersion} RETURNING id`
    if (rows.length === 0) {
      const current = await this.readProfile(id)
      throw new ApiError(409, HqCodes.EDIT_CONFLICT, 'someone else changed this profile after you loaded it: reload it and make your change again', undefined, undefined, { current })
    }
    return this.readProfile(id)
  }

  /** Publishes the draft as the next revision (immutable); 409 NOTHING_TO_PUBLISH when it is the newest already. */
  async publish(id: string, by: string): Promise<{ profileId: string; revision: number; publishedAt: string }> {
    return this.sql.begin(async (tx) => {
      const [profile] = (await tx`SELECT draft FROM lobby.hq_profiles WHERE id = ${id} FOR UPDATE`) as { draft: unknown }[]
      if (profile === undefined) throw new ApiError(404, HqCodes.NOT_FOUND, `no profile "${id}"`)
      const [newest] = (await tx`SELECT revision, content FROM lobby.hq_profile_revisions WHERE profile_id = ${id} ORDER BY revision DESC LIMIT 1`) as { revision: number; content: unknown }[]
      if (newest !== undefined && canonicalize(jsonOf(newest.content)) === canonicalize(jsonOf(profile.draft))) {
        throw new ApiError(409, HqCodes.NOTHING_TO_PUBLISH, `the draft is the same as revision ${newest.revision}: nothing to publish`)
      }
      const revision = (newest?.revision ?? 0) + 1
      const at = new Date(this.now())
      await tx`INSERT INTO lobby.hq_profile_revisions (profile_id, revision, content, published_at, published_by) VALUES (${id}, ${revision}, ${tx.json(jsonOf(profile.draft) as object)}, ${at}, ${by})`
      return { profileId: id, revision, publishedAt: at.toISOString() }
    })
  }

  async revisions(id: string): Promise<{ revision: number; content: ProfileContent; publishedAt: string; publishedBy: string }[]> {
    await this.readProfile(id)
    const rows = (await this.sql`SELECT revision, content, published_at, published_by FROM lobby.hq_profile_revisions WHERE profile_id = ${id} ORDER BY revision DESC`) as { revision: number; content: unknown; published_at: Date; published_by: string }[]
    return rows.map((r) => ({ revision: r.revision, content: jsonOf(r.content) as ProfileContent, publishedAt: iso(r.published_at)!, publishedBy: r.published_by }))
  }

  private profileBody(body: unknown, creating: boolean): { id?: string; name: string; content: ProfileContent; draftVersion: number } {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid([ruled('/', 'must be an object', 'type', { expected: 'object' })])
    const b = body as Record<string, unknown>
    const problems: ErrorDetail[] = []
    const allowed = creating ? ['id', 'name', 'content'] : ['name', 'content', 'draftVersion']
    for (const key of Object.keys(b)) if (!allowed.includes(key)) problems.push(ruled(`/${key}`, 'is not a field of a profile', 'unknownField'))
    if (creating && b.id !== undefined && (typeof b.id !== 'string' || !PROFILE_ID.test(b.id))) problems.push(ruled('/id', 'must be 1–160 of letters, digits, "_" and "-"', 'form'))
    if (typeof b.name !== 'string' || b.name.trim() === '' || b.name.length > 200) problems.push(ruled('/name', 'required: 1–200 characters', 'required'))
    if (!creating && (typeof b.draftVersion !== 'number' || !Number.isInteger(b.draftVersion))) problems.push(ruled('/draftVersion', 'required: the draftVersion the profile was loaded at', 'required'))
    problems.push(...profileContentErrors(b.content ?? {}, '/content'))
    if (problems.length > 0) throw invalid(problems)
    return { ...(typeof b.id === 'string' ? { id: b.id } : {}), name: (b.name as string).trim(), content: (b.content ?? {}) as ProfileContent, draftVersion: (b.draftVersion as number) ?? 0 }
  }

  // ------------------------------------------------------------------ branches

  /** Every branch head office knows (assigned, heard from live, or listed for replication), with its rollout. */
  async listBranches(): Promise<BranchView[]> {
    const rows = (await this.sql`
      WITH units AS (
        SELECT queue_unit_id FROM lobby.hq_branches
        UNION SELECT queue_unit_id FROM lobby.hq_branch_live
        UNION SELECT queue_unit_id FROM lobby.hq_branch_applies
        UNION SELECT queue_unit_id FROM lobby.branch_roles
      )
      SELECT u.queue_unit_id, l.name, b.profile_id, r.revision AS newest, a.profile_id AS applied_profile, a.revision AS applied, a.applied_at, a.error_revision, a.error
      FROM units u
      LEFT JOIN lobby.hq_branches b ON b.queue_unit_id = u.queue_unit_id
      LEFT JOIN lobby.hq_branch_live l ON l.queue_unit_id = u.queue_unit_id
      LEFT JOIN lobby.hq_branch_applies a ON a.queue_unit_id = u.queue_unit_id
      LEFT JOIN LATERAL (SELECT revision FROM lobby.hq_profile_revisions WHERE profile_id = b.profile_id ORDER BY revision DESC LIMIT 1) r ON true
      ORDER BY u.queue_unit_id`) as {
      queue_unit_id: string; name: string | null; profile_id: string | null; newest: number | null; applied_profile: string | null; applied: number | null
      applied_at: Date | null; error_revision: number | null; error: string | null
    }[]
    return rows.map((r) => {
      const sameProfile = r.applied_profile === r.profile_id
      const applied = sameProfile ? r.applied : null
      const rollout: BranchView['rollout'] = r.profile_id === null || r.newest === null ? 'none'
        : applied !== null && applied >= r.newest ? 'applied'
        : sameProfile && r.error_revision === r.newest ? 'refused' : 'pending'
      return {
        queueUnitId: r.queue_unit_id,
        name: r.name,
        profileId: r.profile_id,
        newestRevision: r.newest,
        appliedRevision: applied,
        appliedAt: sameProfile ? iso(r.applied_at) : null,
        refusedRevision: sameProfile ? r.error_revision : null,
        refusedBecause: sameProfile ? r.error : null,
        rollout,
      }
    })
  }

  async assign(queueUnitId: string, body: unknown, by: string): Promise<BranchView> {
    if (!PROFILE_ID.test(queueUnitId)) throw new ApiError(404, HqCodes.NOT_FOUND, `no branch "${queueUnitId}"`)
    const profileId = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).profileId : undefined
    if (typeof profileId !== 'string') throw invalid([ruled('/profileId', 'required: the profile the branch follows', 'required')])
    const [exists] = await this.sql`SELECT 1 FROM lobby.hq_profiles WHERE id = ${profileId}`
    if (exists === undefined) throw invalid([ruled('/profileId', `no profile "${profileId}"`, 'unknownReference', { kind: 'profile', value: profileId })])
    await this.sql`
      INSERT INTO lobby.hq_branches (queue_unit_id, profile_id, assigned_at, assigned_by) VALUES (${queueUnitId}, ${profileId}, ${new Date(this.now())}, ${by})
      ON CONFLICT (queue_unit_id) DO UPDATE SET profile_id = excluded.profile_id, assigned_at = excluded.assigned_at, assigned_by = excluded.assigned_by`
    return (await this.listBranches()).find((b) => b.queueUnitId === queueUnitId)!
  }

  // ------------------------------------------------------------------ live and reports

  /** Every branch's floor as it last told (longest waits counted on to now while people wait). */
  async live(): Promise<{ generatedAt: string; data: LiveBranch[] }> {
    const now = this.now()
    const rows = (await this.sql`
      SELECT l.queue_unit_id, l.name, l.waiting, l.longest_wait_seconds, l.counters_open, l.over_target, l.observed_at, l.reported_at,
        (SELECT max(at) FROM lobby.ticket_events e WHERE e.queue_unit_id = l.queue_unit_id) AS replicated_at
      FROM lobby.hq_branch_live l ORDER BY l.name, l.queue_unit_id`) as {
      queue_unit_id: string; name: string; waiting: number; longest_wait_seconds: number; counters_open: number; over_target: number
      observed_at: Date; reported_at: Date; replicated_at: Date | null
    }[]
    return {
      generatedAt: new Date(now).toISOString(),
      data: rows.map((r) => {
        const observed = new Date(r.observed_at).getTime()
        const since = Math.max(0, Math.floor((now - observed) / 1000))
        return {
          queueUnitId: r.queue_unit_id,
          name: r.name,
          waiting: r.waiting,
          longestWaitSeconds: r.waiting > 0 ? r.longest_wait_seconds + since : 0,
          countersOpen: r.counters_open,
          overTarget: r.over_target,
          lastHeardAt: new Date(observed).toISOString(),
          lastHeardSeconds: since,
          replicatedAt: iso(r.replicated_at),
        }
      }),
    }
  }

  async liveBranch(queueUnitId: string): Promise<{ queueUnitId: string; name: string; lastHeardAt: string; lines: LiveLine[] }> {
    const [row] = (await this.sql`SELECT queue_unit_id, name, lines, observed_at FROM lobby.hq_branch_live WHERE queue_unit_id = ${queueUnitId}`) as { queue_unit_id: string; name: string; lines: unknown; observed_at: Date }[]
    if (row === undefined) throw new ApiError(404, HqCodes.NOT_FOUND, `head office has not heard from branch "${queueUnitId}"`)
    const since = Math.max(0, Math.floor((this.now() - new Date(row.observed_at).getTime()) / 1000))
    const lines = (jsonOf(row.lines) as LiveLine[]).map((l) => {
      const seconds = l.waiting > 0 ? l.longestWaitSeconds + since : 0
      return { ...l, longestWaitSeconds: seconds, overTarget: l.waiting > 0 && seconds > l.waitTargetSeconds }
    })
    return { queueUnitId: row.queue_unit_id, name: row.name, lastHeardAt: new Date(row.observed_at).toISOString(), lines }
  }

  /** Contract §12's daily figures across branches (one row per day, branch, location and service), from the replicated roll-ups. */
  async daily(query: { from: string; to: string; queueUnitId?: string; serviceId?: string }): Promise<ReportRow[]> {
    const rows = (await this.sql`
      SELECT to_char(business_day, 'YYYY-MM-DD') AS day, queue_unit_id, location_id, service_id, issued, served, no_show, cancelled, transferred_out,
        wait_count, wait_sum, wait_max, wait_p50, wait_p90, within_target, service_count, service_sum, service_p50, service_p90
      FROM lobby.report_daily
      WHERE business_day BETWEEN ${query.from}::date AND ${query.to}::date
        AND (${query.queueUnitId ?? null}::text IS NULL OR queue_unit_id = ${query.queueUnitId ?? null})
        AND (${query.serviceId ?? null}::text IS NULL OR service_id = ${query.serviceId ?? null})
      ORDER BY business_day, queue_unit_id, location_id, service_id`) as {
      day: string; queue_unit_id: string; location_id: string; service_id: string; issued: number; served: number; no_show: number; cancelled: number; transferred_out: number
      wait_count: number; wait_sum: string | number; wait_max: number | null; wait_p50: number | null; wait_p90: number | null; within_target: number
      service_count: number; service_sum: string | number; service_p50: number | null; service_p90: number | null
    }[]
    return rows.map((r) => ({
      date: r.day,
      queueUnitId: r.queue_unit_id,
      locationId: r.location_id,
      serviceId: r.service_id,
      issued: r.issued,
      served: r.served,
      noShow: r.no_show,
      cancelled: r.cancelled,
      transferredOut: r.transferred_out,
      waitSeconds: { avg: r.wait_count === 0 ? null : round1(Number(r.wait_sum) / r.wait_count), p50: r.wait_p50, p90: r.wait_p90, max: r.wait_max },
      serviceSeconds: { avg: r.service_count === 0 ? null : round1(Number(r.service_sum) / r.service_count), p50: r.service_p50, p90: r.service_p90 },
      withinTarget: r.wait_count === 0 ? null : Math.round((r.within_target / r.wait_count) * 1000) / 1000,
    }))
  }
}

interface ProfileRow {
  id: string
  name: string
  draft: unknown
  draft_version: number
  updated_at: Date
  updated_by: string
  published_revision: number | null
  published_content: unknown
}

/** jsonb arrives parsed, or as text from an older driver: either way the value. */
function jsonOf(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value
}

function profileView(row: ProfileRow): ProfileView {
  const draft = jsonOf(row.draft) as ProfileContent
  return {
    id: row.id,
    name: row.name,
    content: draft,
    draftVersion: row.draft_version,
    updatedAt: iso(row.updated_at)!,
    updatedBy: row.updated_by,
    publishedRevision: row.published_revision,
    unpublished: row.published_revision === null || canonicalize(jsonOf(row.published_content)) !== canonicalize(draft),
  }
}

/** The CSV of daily rows, the header as `lobby report` names its columns (contract §12). */
export function reportCsv(rows: ReportRow[]): string {
  const header = ['date', 'queueUnitId', 'locationId', 'serviceId', 'issued', 'served', 'noShow', 'cancelled', 'transferredOut',
    'waitSecondsAvg', 'waitSecondsP50', 'waitSecondsP90', 'waitSecondsMax', 'serviceSecondsAvg', 'serviceSecondsP50', 'serviceSecondsP90', 'withinTarget']
  const cell = (v: unknown) => {
    const text = v === null || v === undefined ? '' : String(v)
    return /[",\n\r]/.test(text) || /^[=+\-@]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
  }
  const lines = rows.map((r) => [r.date, r.queueUnitId, r.locationId, r.serviceId, r.issued, r.served, r.noShow, r.cancelled, r.transferredOut,
    r.waitSeconds.avg, r.waitSeconds.p50, r.waitSeconds.p90, r.waitSeconds.max, r.serviceSeconds.avg, r.serviceSeconds.p50, r.serviceSeconds.p90, r.withinTarget].map(cell).join(','))
  return [header.join(','), ...lines].join('\r\n') + '\r\n'
}
