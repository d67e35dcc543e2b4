import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/open'
import { planStableParam } from '../platform/sql'
import { widgets, widgetSnapshots } from './tables'

/**
 * The widget push's statements, prepared once per app (see `WidgetStore`): the push path runs
 * them on every request. `placeholder` values are bound at run time.
 */
export class WidgetStatements {
  /** Widget configuration needed to authorize and rate-limit a push. */
  readonly widgetById
  /** Revision and last sequence of the current snapshot, read inside the write transaction. */
  readonly snapshotState
  /** Replaces the snapshot row whole: data, revision and sequence in one statement. */
  readonly replaceSnapshot
  /** A widget with its current snapshot (null columns when it never had one), for readers. */
  readonly snapshotForRead

  constructor(db: Db) {
    this.widgetById = db
      .select({
        id: widgets.id,
        workspaceId: widgets.workspaceId,
        type: widgets.type,
        name: widgets.name,
        pushSource: widgets.pushSource,
        pushRateLimitPerMinute: widgets.pushRateLimitPerMinute,
      })
      .from(widgets)
      .where(eq(widgets.id, sql.placeholder('id')))
      .prepare()
    this.snapshotState = db
      .select({ dataRevision: widgetSnapshots.dataRevision, lastSequence: widgetSnapshots.lastSequence })
      .from(widgetSnapshots)
      .where(eq(widgetSnapshots.widgetId, sql.placeholder('widgetId')))
      .prepare()
    this.replaceSnapshot = db
      .insert(widgetSnapshots)
      .values({
        widgetId: sql.placeholder('widgetId'),
        dataRevision: sql.placeholder('dataRevision'),
        lastSequence: sql.placeholder('lastSequence'),
        schemaVersion: sql.placeholder('schemaVersion'),
        itemCount: sql.placeholder('itemCount'),
        data: sql.placeholder('data'),
        acceptedAt: sql.placeholder('acceptedAt'),
      })
      .onConflictDoUpdate({
        target: widgetSnapshots.widgetId,
        set: {
          dataRevision: sql`excluded.data_revision`,
          lastSequence: sql`excluded.last_sequence`,
          schemaVersion: sql`excluded.schema_version`,
          itemCount: sql`excluded.item_count`,
          data: sql`excluded.data`,
          acceptedAt: sql`excluded.accepted_at`,
        },
      })
      .prepare()
    this.snapshotForRead = db
      .select({
        widgetId: widgets.id,
        workspaceId: widgets.workspaceId,
        widgetType: widgets.type,
        name: widgets.name,
        dataRevision: widgetSnapshots.dataRevision,
        schemaVersion: widgetSnapshots.schemaVersion,
        itemCount: widgetSnapshots.itemCount,
        data: widgetSnapshots.data,
        acceptedAt: widgetSnapshots.acceptedAt,
      })
      .from(widgets)
      .leftJoin(widgetSnapshots, eq(widgetSnapshots.widgetId, widgets.id))
      .where(eq(widgets.id, planStableParam('widgetId')))
      .prepare()
  }
}

/**
 * The widget feature's statements for one app: built once (in `createDeps`, as `deps.widgets`),
 * prepared on first use (not while the server starts).
 */
export class WidgetStore {
  private prepared: WidgetStatements | undefined

  constructor(private readonly db: Db) {}

  get statements(): WidgetStatements {
    return (this.prepared ??= new WidgetStatements(this.db))
  }
}
