import { and, eq } from 'drizzle-orm'
import { readIdempotencyKeyHeader, type IdempotencyKeyPolicy } from '../platform/idempotency'
import { admitRate, RateBuckets } from '../platform/admission'
import type { Db } from '../db/open'
import type { PrayerDeps } from './deps'
import { ApiError } from '../platform/errors'
import { parseJsonBytes } from '../platform/body'
import { sha256Hex, type StoredResponse } from '../platform/idempotency'
import { compile, assertSchema } from '../platform/validation'
import { isoTime } from '../platform/clock'
import { prayerMonths, prayerSources } from './tables'
import { Month, PRAYERS, type Day, type PrayerName } from './model'
import { monthRuleErrors } from './rules'
import { canonicalJson, monthChecksum } from './checksum'
import { addDays, localDateTime, periodOf, zonedInstant } from './calendar'
import { PrayerCodes } from './errors'

/** Contract §5: the source ID in the path. */
export const SOURCE_ID_PATTERN = /^psrc_[A-Za-z0-9-]{20,}$/

/** A period in a path: `YYYY-MM` with a month 01–12. */
export const PERIOD_PATTERN = /^[0-9]{4}-(0[1-9]|1[0-2])$/

/** Contract §5: Idempotency-Key of 12–160 characters; decided: printable ASCII (space to `~`). */
const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7e]+$/
const IDEMPOTENCY_KEY_MIN = 12
const IDEMPOTENCY_KEY_MAX = 160

/** Details listed in one 422, as for schema errors. */
const MAX_DETAILS = 100

const checkMonth = compile(Month)

export interface PrayerLocation {
  name: string | null
  city: string | null
  country: string | null
  latitude: number | null
  longitude: number | null
}

/** A configured Custom Push source, as the prayer feature sees it. */
export interface PrayerSource {
  id: string
  workspaceId: string
  name: string
  timezone: string
  location: PrayerLocation
  pushRateLimitPerMinute: number
}

/** The body of a successful push (contract §5). */
export interface PushResponseBody {
  success: true
  replay: boolean
  sourceId: string
  period: string
  checksum: string
  revision: number
  location: PrayerLocation
  dayCount: number
}

export interface PushOutcome {
  /** True when this push stored a new revision (201); false for a replay (200). */
  created: boolean
  body: PushResponseBody
}

/** A month as stored: the current revision of one source and period. */
export interface StoredMonth {
  sourceId: string
  period: string
  revision: number
  checksum: string
  /** Milliseconds since the Unix epoch. */
  storedAt: number
  dayCount: number
  month: Month
}

// ---- sources and callers ----

/** The source with this ID, or null. */
export function findSource(db: Db, sourceId: string): PrayerSource | null {
  const row = db.select().from(prayerSources).where(eq(prayerSources.id, sourceId)).get()
  if (row === undefined) return null
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    timezone: row.timezone,
    location: {
      name: row.locationName ?? row.name,
      city: row.city,
      country: row.country,
      latitude: row.latitude,
      longitude: row.longitude,
    },
    pushRateLimitPerMinute: row.pushRateLimitPerMinute,
  }
}

/**
 * The source a caller presenting `secret` may use (to push, and to read back its months): 401
 * when no key was presented; 403 for a key that is not a valid workspace key, an unknown source,
 * or a source of another workspace (one answer for all three, so a caller learns nothing about
 * other workspaces' sources).
 */
export function authorizePush(deps: Pick<PrayerDeps, 'db' | 'credentials'>, secret: string | null, sourceId: string, now: number): PrayerSource {
  if (secret === null) {
    throw new ApiError(401, PrayerCodes.AUTHENTICATION_REQUIRED, 'a Workspace API Key is required (Authorization: Bearer or x-service-api-key)')
  }
  const credential = deps.credentials.authenticate(secret, 'workspace', now)
  const source = credential === null ? null : findSource(deps.db, sourceId)
  if (credential === null || source === null || source.workspaceId !== credential.ownerId) {
    throw new ApiError(403, PrayerCodes.SOURCE_NOT_FOUND_OR_FORBIDDEN, 'unknown source, or the key may not push to it')
  }
  return source
}

/**
 * Contract §5: 30 pushes per source per rolling minute unless the source sets its own rate.
 * Every authenticated push to the source counts, whatever its outcome; a 429 does not.
 */
export function assertPushRate(deps: Pick<PrayerDeps, 'limiter'>, source: PrayerSource, now: number): void {
  admitRate(deps.limiter, RateBuckets.prayerPush, source.id, source.pushRateLimitPerMinute, now,
    () => `over ${source.pushRateLimitPerMinute} pushes per minute for this source; back off and retry with the same Idempotency-Key`)
}

/** Contract §5: `Idempotency-Key` required, 12–160 characters (printable ASCII). */
/** A prayer month push: required, 12–160 printable ASCII characters. */
const PRAYER_IDEMPOTENCY_KEY: IdempotencyKeyPolicy = {
  required: true, min: IDEMPOTENCY_KEY_MIN, max: IDEMPOTENCY_KEY_MAX, pattern: IDEMPOTENCY_KEY_PATTERN,
  missing: 'missing', invalid: `must be ${IDEMPOTENCY_KEY_MIN} to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters`,
}

export function readIdempotencyKey(key: string | null): string {
  const { problem } = readIdempotencyKeyHeader(key, PRAYER_IDEMPOTENCY_KEY)
  if (problem === null) return key!
  throw new ApiError(
    400,
    PrayerCodes.INVALID_IDEMPOTENCY_KEY,
    `Idempotency-Key is required: ${IDEMPOTENCY_KEY_MIN} to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters`,
    [problem],
  )
}

// ---- the push ----

/** Schema, then every rule of contract §5; 422 SCHEMA_VALIDATION_FAILED lists each failing path. */
export function validMonth(value: unknown, source: Pick<PrayerSource, 'timezone'>): Month {
  assertSchema(checkMonth, value, PrayerCodes.SCHEMA_VALIDATION_FAILED)
  const errors = monthRuleErrors(value, source.timezone)
  if (errors.length > 0) {
    throw new ApiError(422, PrayerCodes.SCHEMA_VALIDATION_FAILED, 'the month breaks the rules of the month contract', errors.slice(0, MAX_DETAILS))
  }
  return value
}

function idempotencyScope(sourceId: string): string {
  return `prayer:${sourceId}`
}

/** An earlier push with this key: the same raw bytes replay it, other bytes are a conflict. */
function replayOf(earlier: StoredResponse, requestHash: string): PushOutcome {
  if (earlier.requestHash !== requestHash) {
    throw new ApiError(409, PrayerCodes.IDEMPOTENCY_KEY_REUSED, 'this Idempotency-Key was used with a different body; use a new key for new content')
  }
  return { created: false, body: JSON.parse(earlier.body) as PushResponseBody }
}

function responseBody(source: PrayerSource, period: string, checksum: string, revision: number, dayCount: number, replay: boolean): PushResponseBody {
  return { success: true, replay, sourceId: source.id, period, checksum, revision, location: source.location, dayCount }
}

/** One push as the route hands it over: no HTTP types, only what was sent. */
export interface PushRequest {
  sourceId: string
  /** The workspace key presented (null when none was). */
  secret: string | null
  /** The `Idempotency-Key` header as sent (null when absent). */
  idempotencyKey: string | null
  /** The body exactly as received: idempotency compares these bytes. */
  rawBody: Uint8Array
}

/** A push that passed every check before the write (see `preparePush`). */
interface PreparedPush {
  source: PrayerSource
  month: Month
  canonical: string
  checksum: string
  idempotency: { scope: string; key: string; requestHash: string }
}

/**
 * Contract §5, after the route's body size, content type and path checks: source access
 * (`authorizePush`) → rate limit (`assertPushRate`) → Idempotency-Key format
 * (`readIdempotencyKey`) → idempotency lookup on the raw bytes → JSON → schema and rules
 * (`preparePush`) → write (`storePush`, group commit through `deps.writes.run`). The same steps,
 * by the same names, as the widget push (src/widgets/service.ts). Answers once the write
 * committed.
 */
export async function pushPrayerMonth(deps: PrayerDeps, request: PushRequest): Promise<PushOutcome> {
  const now = deps.clock.now()
  const source = authorizePush(deps, request.secret, request.sourceId, now)
  assertPushRate(deps, source, now)
  const key = readIdempotencyKey(request.idempotencyKey)
  const prepared = preparePush(deps, source, key, request.rawBody, now)
  if ('replay' in prepared) return prepared.replay
  return deps.writes.run(() => storePush(deps, prepared, now))
}

/**
 * Stores one complete validated month for a source the caller may use (`preparePush`, then
 * `storePush` in a write of its own, at once). See `storePush` for the outcomes.
 */
export function pushMonth(
  deps: Pick<PrayerDeps, 'db' | 'idempotency' | 'log' | 'writes' | 'events'>,
  source: PrayerSource,
  idempotencyKey: string,
  raw: Uint8Array,
  now: number,
): PushOutcome {
  const prepared = preparePush(deps, source, idempotencyKey, raw, now)
  if ('replay' in prepared) return prepared.replay
  return deps.writes.now(() => storePush(deps, prepared, now))
}

/** The idempotency lookup on the raw bytes, then JSON, schema and rules, and the checksum. */
export function preparePush(
  deps: Pick<PrayerDeps, 'idempotency'>,
  source: PrayerSource,
  idempotencyKey: string,
  raw: Uint8Array,
  now: number,
): { replay: PushOutcome } | PreparedPush {
  const scope = idempotencyScope(source.id)
  const requestHash = sha256Hex(raw)
  const earlier = deps.idempotency.find(scope, idempotencyKey, now)
  if (earlier !== null) return { replay: replayOf(earlier, requestHash) }
  const month = validMonth(parseJsonBytes(raw), source)
  const canonical = canonicalJson(month)
  return { source, month, canonical, checksum: monthChecksum(canonical), idempotency: { scope, key: idempotencyKey, requestHash } }
}

/**
 * The write (contract §5), inside a write of `deps.writes`: the month, its revision and the
 * idempotency record commit together. Outcomes:
 * - same key, same bytes (stored since `preparePush`): the earlier response again (replay);
 * - same key, other bytes: 409 IDEMPOTENCY_KEY_REUSED;
 * - new key, checksum equal to the current revision's: replay of the current revision;
 * - otherwise a new revision (current + 1, or 1), told to the `deps.events.prayerMonths` listeners once it
 *   committed.
 * The idempotency record keeps the replay form (status 200, `replay: true`).
 */
export function storePush(deps: Pick<PrayerDeps, 'db' | 'idempotency' | 'log' | 'writes' | 'events'>, prepared: PreparedPush, now: number): PushOutcome {
  const { source, month, canonical, checksum } = prepared
  const { scope, key, requestHash } = prepared.idempotency
  const dayCount = month.days.length
  // Inside a write already (the batch's transaction); `now` nests in a savepoint of it.
  return deps.writes.now(() => {
    const raced = deps.idempotency.find(scope, key, now)
    if (raced !== null) return replayOf(raced, requestHash)
    const current = deps.db
      .select({ revision: prayerMonths.revision, checksum: prayerMonths.checksum })
      .from(prayerMonths)
      .where(and(eq(prayerMonths.sourceId, source.id), eq(prayerMonths.period, month.period)))
      .get()
    const created = current === undefined || current.checksum !== checksum
    const revision = created ? (current?.revision ?? 0) + 1 : current.revision
    if (created) {
      const row = { sourceId: source.id, period: month.period, revision, checksum, body: canonical, dayCount, storedAt: now }
      deps.db
        .insert(prayerMonths)
        .values(row)
        .onConflictDoUpdate({ target: [prayerMonths.sourceId, prayerMonths.period], set: row })
        .run()
    }
    const replayBody = responseBody(source, month.period, checksum, revision, dayCount, true)
    deps.idempotency.save(scope, key, { requestHash, status: 200, body: JSON.stringify(replayBody), headers: {} }, now)
    if (created) {
      const event = { sourceId: source.id, workspaceId: source.workspaceId, period: month.period, revision, checksum, storedAt: now, dayCount, month }
      deps.writes.afterCommit(() => deps.events.prayerMonths.emit(event, deps.log))
    }
    return { created, body: created ? { ...replayBody, replay: false } : replayBody }
  })
}

// ---- reads for other features ----

/** The stored (current) month of a source and period, or null. */
export function readMonth(db: Db, sourceId: string, period: string): StoredMonth | null {
  const row = db
    .select()
    .from(prayerMonths)
    .where(and(eq(prayerMonths.sourceId, sourceId), eq(prayerMonths.period, period)))
    .get()
  if (row === undefined) return null
  return {
    sourceId: row.sourceId,
    period: row.period,
    revision: row.revision,
    checksum: row.checksum,
    storedAt: row.storedAt,
    dayCount: row.dayCount,
    month: JSON.parse(row.body) as Month,
  }
}

/** The next prayer with an adhan still ahead. */
export interface NextPrayer {
  prayer: PrayerName
  /** Local date and time of the adhan in the source's time zone. */
  date: string
  time: string
  /** The adhan as an instant, ISO 8601 UTC. */
  at: string
  /** The iqamah time that day, when the month gives one. */
  iqamah: string | null
}

/** Today at a source, ready for a display. */
export interface PrayerToday {
  sourceId: string
  timezone: string
  /** Today's local date and the local time of `now`, in the source's time zone. */
  date: string
  localTime: string
  period: string
  revision: number
  checksum: string
  location: PrayerLocation
  /** Today's entry as pushed: times, and iqamah, jumuah and hijri when given. */
  day: Day
  /** Null after isha when tomorrow's month is not stored. */
  next: NextPrayer | null
}

function dayOf(stored: StoredMonth | null, date: string): Day | null {
  return stored?.month.days.find((d) => d.date === date) ?? null
}

/**
 * "Today" at a source at instant `now` (pass the injected clock's time): today's times in the
 * source's time zone and the next prayer (fajr, dhuhr, asr, maghrib or isha — sunrise is not
 * a prayer), which after isha is tomorrow's fajr, from the next month when the day ends one.
 * Null when the source is unknown or today's month is not stored.
 */
export function prayerToday(db: Db, sourceId: string, now: number): PrayerToday | null {
  const source = findSource(db, sourceId)
  if (source === null) return null
  const local = localDateTime(now, source.timezone)
  const stored = readMonth(db, source.id, periodOf(local.date))
  const today = dayOf(stored, local.date)
  if (stored === null || today === null) return null

  const nextOn = (day: Day): NextPrayer | null => {
    for (const prayer of PRAYERS) {
      const at = zonedInstant(day.date, day[prayer], source.timezone)
      if (at > now) return { prayer, date: day.date, time: day[prayer], at: isoTime(at), iqamah: day.iqamah?.[prayer] ?? null }
    }
    return null
  }
  let next = nextOn(today)
  if (next === null) {
    const tomorrowDate = addDays(local.date, 1)
    const tomorrowMonth = periodOf(tomorrowDate) === stored.period ? stored : readMonth(db, source.id, periodOf(tomorrowDate))
    const tomorrow = dayOf(tomorrowMonth, tomorrowDate)
    next = tomorrow === null ? null : nextOn(tomorrow)
  }
  return {
    sourceId: source.id,
    timezone: source.timezone,
    date: local.date,
    localTime: local.time,
    period: stored.period,
    revision: stored.revision,
    checksum: stored.checksum,
    location: source.location,
    day: today,
    next,
  }
}

/**
 * Every stored month change of a source, all periods together: revisions count per period
 * from 1, so their sum grows by one with each stored change. Display feeds use it as the
 * revision of a source's live topic, which spans month boundaries.
 */
export function storedChangeCount(db: Db, sourceId: string): number {
  const row = db.$client.query<{ n: number }, [string]>('SELECT coalesce(sum(revision), 0) AS n FROM prayer_months WHERE source_id = ?').get(sourceId)
  return row?.n ?? 0
}
