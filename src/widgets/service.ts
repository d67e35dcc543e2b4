import type { Db } from '../db/open'
import { readIdempotencyKeyHeader, type IdempotencyKeyPolicy } from '../platform/idempotency'
import { admitRate, RateBuckets } from '../platform/admission'
import { parseJsonBytes } from '../platform/body'
import { isoTime } from '../platform/clock'
import type { WidgetDeps } from './deps'
import { ApiError, pointer } from '../platform/errors'
import { sha256Hex } from '../platform/idempotency'
import { WidgetCodes } from './errors'
import {
  IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN, RATE_WINDOW_MS, SCHEMA_VERSION,
  type PushEnvelope, type PushResponse, type PushWarning, type WidgetType, type WidgetSnapshot,
} from './model'
import { validatePush, withItemDefaults } from './validate'

/** One push as the route hands it over: no HTTP types, only what was sent. */
export interface PushRequest {
  widgetId: string
  /** The workspace key presented (null when none was). */
  secret: string | null
  /** The `Idempotency-Key` header as sent (null when absent). */
  idempotencyKey: string | null
  /** The body exactly as received: idempotency compares these bytes. */
  rawBody: Uint8Array
}

/** What to answer: a fresh result or the replay of a stored one. `body` is the exact JSON text. */
export interface PushOutcome {
  status: number
  body: string
  headers: Record<string, string>
}

export type { WidgetSnapshot } from './model'

/**
 * Told after every accepted snapshot of a widget, once committed and in order of acceptance, in
 * this process (idempotent replays are not new snapshots): subscribed on the app's one registry,
 * `deps.events.widgetSnapshots` (src/root/deps.ts).
 */
export type WidgetSnapshotListener = (snapshot: WidgetSnapshot) => void

/** The configuration of the widget a push targets. */
interface PushTarget {
  id: string
  workspaceId: string
  type: WidgetType
  name: string
  pushRateLimitPerMinute: number
}

export const REVISION_HEADER = 'x-service-data-revision'
export const REPLAYED_HEADER = 'idempotent-replayed'

/** A push that passed every check before the write (see `preparePush`). */
interface PreparedPush {
  widget: PushTarget
  envelope: PushEnvelope
  warnings: PushWarning[]
  idempotency: { scope: string; key: string | null; requestHash: string }
}

/**
 * public-api.md endpoint 6, after the route's body size, content type and credential-header
 * checks, in contract §4's order: widget access (`authorizePush`) → rate limit
 * (`assertPushRate`) → Idempotency-Key format (`readIdempotencyKey`) → idempotency lookup on
 * the raw bytes → JSON → envelope and payload (`preparePush`) → sequence → write (`storePush`,
 * group commit through `deps.writes.run`). The same steps, by the same names, as the prayer
 * push (src/prayer/service.ts). Answers once the write committed.
 */
export async function pushWidgetData(deps: WidgetDeps, request: PushRequest): Promise<PushOutcome> {
  const now = deps.clock.now()
  const widget = authorizePush(deps, request.secret, request.widgetId, now)
  assertPushRate(deps, widget, now)
  const key = readIdempotencyKey(request.idempotencyKey)
  const prepared = preparePush(deps, widget, key, request.rawBody, now)
  if ('replay' in prepared) return prepared.replay
  const { outcome, snapshot } = await deps.writes.run(() => storePush(deps, prepared, now))
  if (snapshot !== null) {
    deps.log({
      level: 'info',
      msg: 'widget snapshot accepted',
      widgetId: widget.id,
      dataRevision: snapshot.dataRevision,
      sequence: prepared.envelope.source?.sequence ?? null,
      eventId: prepared.envelope.source?.eventId ?? null,
    })
  }
  return outcome
}

/** The idempotency lookup, then JSON and the envelope: a replay, or a push ready to store. */
export function preparePush(deps: WidgetDeps, widget: PushTarget, key: string | null, rawBody: Uint8Array, now: number): { replay: PushOutcome } | PreparedPush {
  const requestHash = sha256Hex(rawBody)
  const scope = idempotencyScope(widget.id)
  if (key !== null) {
    const replay = replayOf(deps, scope, key, requestHash, now)
    if (replay !== null) return { replay }
  }
  const { envelope, warnings } = validatePush(widget.type, parseJsonBytes(rawBody))
  return { widget, envelope, warnings, idempotency: { scope, key, requestHash } }
}

/**
 * No key is 401 AUTHENTICATION_REQUIRED. Otherwise the key must be a valid workspace key of
 * the widget's workspace, and the widget must exist with an active push source; any failure
 * is the same 403 WIDGET_NOT_FOUND_OR_FORBIDDEN, so the answer reveals no widget IDs.
 */
export function authorizePush(deps: WidgetDeps, secret: string | null, widgetId: string, now: number): PushTarget {
  if (secret === null) {
    throw new ApiError(401, WidgetCodes.AUTHENTICATION_REQUIRED, 'send a workspace API key in Authorization: Bearer or x-service-api-key')
  }
  const credential = deps.credentials.authenticate(secret, 'workspace', now)
  const widget = deps.widgets.statements.widgetById.get({ id: widgetId })
  if (credential === null || widget === undefined || widget.workspaceId !== credential.ownerId || widget.pushSource !== 'ACTIVE') {
    throw new ApiError(403, WidgetCodes.WIDGET_NOT_FOUND_OR_FORBIDDEN, 'no widget with an active push source for this key')
  }
  return widget
}

/**
 * public-api.md Limits: `pushRateLimitPerMinute` (default 120) attempts per widget per rolling
 * minute. Every authorized request counts, whatever its outcome; a refused one does not.
 */
export function assertPushRate(deps: WidgetDeps, widget: PushTarget, now: number): void {
  const limit = widget.pushRateLimitPerMinute
  admitRate(deps.limiter, { ...RateBuckets.widgetPush, windowMs: RATE_WINDOW_MS }, widget.id, limit, now,
    () => `more than ${limit} pushes to this widget in a minute; back off with jitter and retry with the same Idempotency-Key`)
}

/** public-api.md Limits: `Idempotency-Key` is optional; when sent, 8 to 180 characters. */
/** A widget push: optional, 8–180 characters. */
const WIDGET_IDEMPOTENCY_KEY: IdempotencyKeyPolicy = {
  required: false, min: IDEMPOTENCY_KEY_MIN, max: IDEMPOTENCY_KEY_MAX, missing: '', invalid: `must be ${IDEMPOTENCY_KEY_MIN} to ${IDEMPOTENCY_KEY_MAX} characters`,
}

export function readIdempotencyKey(key: string | null): string | null {
  const { problem } = readIdempotencyKeyHeader(key, WIDGET_IDEMPOTENCY_KEY)
  if (problem !== null) throw new ApiError(400, WidgetCodes.INVALID_IDEMPOTENCY_KEY, `Idempotency-Key must be ${IDEMPOTENCY_KEY_MIN} to ${IDEMPOTENCY_KEY_MAX} characters`, [problem])
  return key
}

/** Keys belong to the widget: two widgets may use the same key independently. */
export function idempotencyScope(widgetId: string): string {
  return `widget:${widgetId}`
}

/**
 * public-api.md endpoint 6 rules 1 and 2: the same key with the same raw bytes answers the
 * original status, body and revision header; any byte changed is 409 IDEMPOTENCY_KEY_REUSED.
 */
function replayOf(deps: WidgetDeps, scope: string, key: string, requestHash: string, now: number): PushOutcome | null {
  const stored = deps.idempotency.find(scope, key, now)
  if (stored === null) return null
  if (stored.requestHash !== requestHash) {
    throw new ApiError(409, WidgetCodes.IDEMPOTENCY_KEY_REUSED, 'this Idempotency-Key was used with a different body; any changed byte counts', [
      { path: 'Idempotency-Key', message: 'already used for a different request body' },
    ])
  }
  return { status: stored.status, body: stored.body, headers: { ...stored.headers, [REPLAYED_HEADER]: 'true' } }
}

/**
 * public-api.md endpoint 6 rule 3: a present `source.sequence` must be greater than the last
 * accepted one; contract §4: the 409 names the last accepted sequence. An absent sequence
 * is not compared (it is accepted with a warning and leaves the last sequence as it was).
 */
export function assertSequenceAdvances(lastSequence: number | null, sequence: number | undefined): void {
  if (sequence === undefined || lastSequence === null || sequence > lastSequence) return
  throw new ApiError(409, WidgetCodes.STALE_SOURCE_SEQUENCE, `source.sequence must be greater than ${lastSequence}, the last accepted sequence`, [
    { path: pointer('source', 'sequence'), message: `must be greater than the last accepted sequence ${lastSequence}` },
  ])
}

/**
 * The write, inside a write of `deps.writes` (one immediate transaction): the idempotency
 * lookup again (a push with the same key may have been stored since `preparePush`: then its
 * replay, snapshot null), the sequence check against the stored row, the new snapshot with its
 * revision and sequence in one row, and the idempotency record. A reader sees the old snapshot
 * or the new one, never half of it; a refused push writes nothing. Listeners hear of the new
 * snapshot once it committed.
 */
export function storePush(deps: WidgetDeps, prepared: PreparedPush, now: number): { outcome: PushOutcome; snapshot: WidgetSnapshot | null } {
  const { widget, envelope, warnings, idempotency } = prepared
  const store = deps.widgets.statements
  const sequence = envelope.source?.sequence
  const dataJson = JSON.stringify(withItemDefaults(widget.type, envelope.data))
  const itemCount = envelope.data.items.length
  const acceptedAt = isoTime(now)
  return deps.writes.now(() => {
    if (idempotency.key !== null) {
      const raced = replayOf(deps, idempotency.scope, idempotency.key, idempotency.requestHash, now)
      if (raced !== null) return { outcome: raced, snapshot: null }
    }
    const current = store.snapshotState.get({ widgetId: widget.id })
    assertSequenceAdvances(current?.lastSequence ?? null, sequence)
    const dataRevision = (current?.dataRevision ?? 0) + 1
    store.replaceSnapshot.run({
      widgetId: widget.id,
      dataRevision,
      lastSequence: sequence ?? current?.lastSequence ?? null,
      schemaVersion: SCHEMA_VERSION,
      itemCount,
      data: dataJson,
      acceptedAt: now,
    })
    const response: PushResponse = {
      accepted: true,
      widgetId: widget.id,
      widgetType: widget.type,
      dataRevision,
      schemaVersion: SCHEMA_VERSION,
      acceptedAt,
      itemCount,
      warnings,
    }
    const outcome: PushOutcome = { status: 200, body: JSON.stringify(response), headers: { [REVISION_HEADER]: String(dataRevision) } }
    if (idempotency.key !== null) {
      deps.idempotency.save(idempotency.scope, idempotency.key, { requestHash: idempotency.requestHash, ...outcome }, now)
    }
    const snapshot: WidgetSnapshot = {
      widgetId: widget.id,
      workspaceId: widget.workspaceId,
      widgetType: widget.type,
      name: widget.name,
      dataRevision,
      acceptedAt,
      itemCount,
      dataJson,
    }
    deps.writes.afterCommit(() => deps.events.widgetSnapshots.emit(snapshot, deps.log))
    return { outcome, snapshot }
  })
}

/**
 * The widget `widgetId` with its current snapshot (revision 0 and null data before its first
 * push), or null when there is no such widget. Reads one row: a snapshot and its revision are
 * always from the same accepted push.
 */
export function getWidgetSnapshot(deps: Pick<WidgetDeps, 'widgets'>, widgetId: string): WidgetSnapshot | null {
  const row = deps.widgets.statements.snapshotForRead.get({ widgetId })
  if (row === undefined) return null
  return {
    widgetId: row.widgetId,
    workspaceId: row.workspaceId,
    widgetType: row.widgetType,
    name: row.name,
    dataRevision: row.dataRevision ?? 0,
    acceptedAt: row.acceptedAt === null ? null : isoTime(row.acceptedAt),
    itemCount: row.itemCount ?? 0,
    dataJson: row.data,
  }
}

