import type { DisplayDeps } from './deps'
import { isoTime } from '../platform/clock'
import { getWidgetSnapshot } from '../widgets'
import { findSource, prayerToday, readMonth, storedChangeCount } from '../prayer'
import { queueDisplayState } from '../tickets'
import type { TopicState } from './hub'

/** A display read: the body as JSON text (built once, reused by the websocket) and its revision. */
export interface DisplayView extends TopicState {
  /** Entity tag when the body has parts that change without a new revision (e.g. `generatedAt`). */
  etag?: string
}

/** `{widgetId, widgetType, name, dataRevision, acceptedAt, data}` of the workspace's widget, or null. */
export function widgetView(deps: Pick<DisplayDeps, 'widgets'>, widgetId: string, workspaceId: string): DisplayView | null {
  const snapshot = getWidgetSnapshot(deps, widgetId)
  if (snapshot === null || snapshot.workspaceId !== workspaceId) return null
  const head = JSON.stringify({
    widgetId: snapshot.widgetId,
    widgetType: snapshot.widgetType,
    name: snapshot.name,
    dataRevision: snapshot.dataRevision,
    acceptedAt: snapshot.acceptedAt,
  })
  // The stored data is already JSON text: splice it in rather than parse and re-encode it.
  return { revision: snapshot.dataRevision, dataJson: `${head.slice(0, -1)},"data":${snapshot.dataJson ?? 'null'}}` }
}

/**
 * Today at the workspace's prayer source (times, iqamah, next prayer), or `data: null` when
 * today's month is not stored. The revision counts every stored month change of the source.
 */
export function prayerTodayView(deps: Pick<DisplayDeps, 'db' | 'clock'>, sourceId: string, workspaceId: string): DisplayView | null {
  const source = findSource(deps.db, sourceId)
  if (source === null || source.workspaceId !== workspaceId) return null
  const today = prayerToday(deps.db, sourceId, deps.clock.now())
  return { revision: storedChangeCount(deps.db, sourceId), dataJson: JSON.stringify(today) }
}

/** One stored month of the workspace's source, or null. */
export function prayerMonthView(deps: Pick<DisplayDeps, 'db'>, sourceId: string, period: string, workspaceId: string): DisplayView | null {
  const source = findSource(deps.db, sourceId)
  if (source === null || source.workspaceId !== workspaceId) return null
  const stored = readMonth(deps.db, sourceId, period)
  if (stored === null) return null
  return {
    revision: stored.revision,
    dataJson: JSON.stringify({
      sourceId, period, revision: stored.revision, checksum: stored.checksum, storedAt: isoTime(stored.storedAt),
      dayCount: stored.dayCount, location: source.location, timezone: source.timezone, month: stored.month,
    }),
  }
}

/** The live state of the workspace's queue unit (every active service and location, or one location), or null. */
export function queueStateView(deps: Pick<DisplayDeps, 'tickets' | 'clock'>, queueUnitId: string, workspaceId: string, locationId?: string): DisplayView | null {
  const state = queueDisplayState(deps, queueUnitId, workspaceId, locationId)
  if (state === null) return null
  if (locationId !== undefined && state.locations.length === 0) return null
  // `generatedAt` moves on every read; the state itself changes with the revision, and with
  // time where opening hours open or close a service: the entity tag names that too, so a
  // poll sees an opening at once (the opening watch moves the revision within 15 s).
  const opening = state.services.map((s) => (s.open ? 'o' : s.opensAt ?? 'c')).join(',')
  const etag = `"q-${state.stateRevision}-${locationId ?? 'all'}-${Bun.hash(opening).toString(36)}"`
  return { revision: state.stateRevision, dataJson: JSON.stringify(state), etag }
}
