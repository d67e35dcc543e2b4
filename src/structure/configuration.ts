import type { Statement } from 'bun:sqlite'
import type { Db } from '../db/open'
import type { DatabaseChanges } from '../platform/db-changes'
import { storedName, type LocalizedName } from '../platform/names'
import { inReadTransaction } from '../platform/transactions'
import { locationHoursOf, serviceHoursOf, type LocationHours, type WeeklyHours } from './opening-hours'

/*
 * The configuration read (issue 49): one owner of the reads of the provisioned structure (queue
 * units, locations, services, counters, their links and hours), typed and parsed once, cached
 * per unit. The features that show or check the structure (kiosk, join, the boards' state, the
 * console) read it here instead of each keeping its own SQL near-copy.
 */

/** A location as provisioned: names, time zone, hours (parsed) and the services offered there. */
export interface LocationConfiguration {
  readonly id: string
  readonly queueUnitId: string
  /** Contract §18: the default-language `name`, or the names per language. */
  readonly name: LocalizedName
  /** The stored `name` column: the name in the unit's default language. */
  readonly defaultName: string
  readonly timezone: string
  readonly active: boolean
  /** Contract §18: weekly hours, closed dates and the last-ticket margin, parsed. */
  readonly hours: LocationHours
  /** Contract §20: the stored `remote_join` JSON (`storedRemoteJoin`), or null: no joining from a phone. */
  readonly remoteJoin: string | null
  /** The services offered here (`service_locations`), in id order. */
  readonly serviceIds: readonly string[]
}

/** A service as provisioned. */
export interface ServiceConfiguration {
  readonly id: string
  readonly queueUnitId: string
  readonly name: LocalizedName
  /** The stored `name` column: the name in the unit's default language. */
  readonly defaultName: string
  readonly prefix: string
  readonly active: boolean
  /** Contract §18: the service's own hours narrowing its location's, or null (the location's). */
  readonly hours: WeeklyHours | null
  readonly defaultServiceSeconds: number
  readonly waitTargetSeconds: number
  /** Contract §21: the stored `appointments` JSON, or null: no appointments. */
  readonly appointments: string | null
  /** Contract §21: the stored settings say `enabled: true`. */
  readonly appointmentsEnabled: boolean
  /** The locations offering it (`service_locations`), in id order. */
  readonly locationIds: readonly string[]
}

/** A counter as provisioned (its `open` state is the desks' runtime state, not configuration). */
export interface CounterConfiguration {
  readonly id: string
  readonly queueUnitId: string
  readonly locationId: string
  readonly name: LocalizedName
  /** The stored `name` column: the name in the unit's default language. */
  readonly defaultName: string
  readonly active: boolean
  /** The services it serves (`counter_services`), in id order. */
  readonly serviceIds: readonly string[]
}

/** A queue unit's configuration: its settings, and its locations, services and counters (each map in id order). */
export interface UnitConfiguration {
  readonly id: string
  readonly workspaceId: string
  /** Contract §18: the default-language `name`, or the names per language. */
  readonly name: LocalizedName
  /** The stored `name` column: the name in the default language. */
  readonly defaultName: string
  readonly active: boolean
  /** Contract §18: names fall back to this language. */
  readonly defaultLanguage: string
  /** Contract §18: the languages the unit's pages offer (the default first). */
  readonly languages: readonly string[]
  /** Contract §9: the kiosk offers a "Priority" choice. */
  readonly kioskPriority: boolean
  readonly priorityMode: 'FIRST' | 'INTERLEAVE'
  readonly normalPerPriority: number | null
  readonly deskSignIn: 'optional' | 'required'
  /** Contract §16, §28: the stored `break_reasons` JSON (`breakReasonsOf` reads it). */
  readonly breakReasons: string
  readonly noShowGraceMinutes: number
  readonly approachingAhead: number
  readonly locations: ReadonlyMap<string, LocationConfiguration>
  readonly services: ReadonlyMap<string, ServiceConfiguration>
  readonly counters: ReadonlyMap<string, CounterConfiguration>
}

interface UnitRow {
  id: string
  workspaceId: string
  name: string
  names: string | null
  active: number
  defaultLanguage: string
  languages: string
  kioskPriority: number
  priorityMode: 'FIRST' | 'INTERLEAVE'
  normalPerPriority: number | null
  deskSignIn: 'optional' | 'required'
  breakReasons: string
  noShowGraceMinutes: number
  approachingAhead: number
}

interface LocationRow {
  id: string
  name: string
  names: string | null
  timezone: string
  openingHours: string | null
  closedDates: string
  lastTicketMinutesBeforeClose: number
  remoteJoin: string | null
  active: number
}

interface ServiceRow {
  id: string
  name: string
  names: string | null
  prefix: string
  openingHours: string | null
  active: number
  defaultServiceSeconds: number
  waitTargetSeconds: number
  appointments: string | null
  appointmentsEnabled: number | null
}

interface CounterRow {
  id: string
  locationId: string
  name: string
  names: string | null
  active: number
}

interface LinkRow {
  a: string
  b: string
}

function prepareConfigurationStatements(db: Db) {
  const client = db.$client
  return {
    unit: client.query<UnitRow, [string]>(
      `SELECT id, workspace_id AS workspaceId, name, names, active, default_language AS defaultLanguage, languages,
              kiosk_priority AS kioskPriority, priority_mode AS priorityMode, normal_per_priority AS normalPerPriority,
              desk_sign_in AS deskSignIn, break_reasons AS breakReasons, no_show_grace_minutes AS noShowGraceMinutes,
              approaching_ahead AS approachingAhead
       FROM queue_units WHERE id = ?1`,
    ),
    locations: client.query<LocationRow, [string]>(
      `SELECT id, name, names, timezone, opening_hours AS openingHours, closed_dates AS closedDates,
              last_ticket_minutes_before_close AS lastTicketMinutesBeforeClose, remote_join AS remoteJoin, active
       FROM locations WHERE queue_unit_id = ?1 ORDER BY id`,
    ),
    services: client.query<ServiceRow, [string]>(
      `SELECT id, name, names, prefix, opening_hours AS openingHours, active, default_service_seconds AS defaultServiceSeconds,
              wait_target_seconds AS waitTargetSeconds, appointments, json_extract(appointments, '$.enabled') AS appointmentsEnabled
       FROM services WHERE queue_unit_id = ?1 ORDER BY id`,
    ),
    serviceLocations: client.query<LinkRow, [string]>(
      `SELECT sl.service_id AS a, sl.location_id AS b FROM service_locations sl
       INNER JOIN services s ON s.id = sl.service_id WHERE s.queue_unit_id = ?1 ORDER BY sl.service_id, sl.location_id`,
    ),
    counters: client.query<CounterRow, [string]>(
      'SELECT id, location_id AS locationId, name, names, active FROM counters WHERE queue_unit_id = ?1 ORDER BY id',
    ),
    counterServices: client.query<LinkRow, [string]>(
      `SELECT cs.counter_id AS a, cs.service_id AS b FROM counter_services cs
       INNER JOIN counters c ON c.id = cs.counter_id WHERE c.queue_unit_id = ?1 ORDER BY cs.counter_id, cs.service_id`,
    ),
    unitOfLocation: client.query<{ queueUnitId: string }, [string]>('SELECT queue_unit_id AS queueUnitId FROM locations WHERE id = ?1'),
  }
}

/**
 * The tables the configuration is read from, and for each the columns that are not
 * configuration: runtime state written beside it (a ticket change bumps `state_revision`, Edge
 * authority is a lease, a desk opens and closes its counter). An UPDATE of any other column,
 * and every INSERT and DELETE, changes the configuration; a column added later counts as
 * configuration until it is named here, so a new column can never be missed.
 */
export const CONFIGURATION_TABLES: Readonly<Record<string, readonly string[]>> = {
  queue_units: ['state_revision', 'edge_holder', 'edge_expires_at', 'updated_at'],
  locations: ['updated_at'],
  services: ['updated_at'],
  service_locations: [],
  counters: ['open', 'open_day', 'updated_at'],
  counter_services: [],
}

/** The connection's own count of configuration changes (a TEMP table: never in the file, a backup or a copy). */
const REVISION_TABLE = 'lobby_configuration_revision'
const TRIGGER_PREFIX = 'lobby_configuration_'
/** Three triggers (INSERT, UPDATE, DELETE) per table. */
const TRIGGER_COUNT = Object.keys(CONFIGURATION_TABLES).length * 3

/**
 * Installs, on this connection, the TEMP triggers that count every change of the configuration
 * tables in `REVISION_TABLE`: each INSERT and DELETE, and each UPDATE of a configuration column
 * (the table's columns as the database has them, less `CONFIGURATION_TABLES`' runtime ones).
 * A trigger fires for whatever statement this connection runs, whoever runs it (console,
 * provisioning, head office, replication, a test's own SQL), and its count is part of the
 * transaction: a rollback takes it back with the change.
 */
function installRevisionTriggers(db: Db): void {
  const client = db.$client
  client.exec(`CREATE TEMP TABLE IF NOT EXISTS ${REVISION_TABLE} (revision INTEGER NOT NULL)`)
  client.exec(`INSERT INTO temp.${REVISION_TABLE} (revision) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM temp.${REVISION_TABLE})`)
  const bump = `BEGIN UPDATE temp.${REVISION_TABLE} SET revision = revision + 1; END`
  for (const [table, runtime] of Object.entries(CONFIGURATION_TABLES)) {
    const columns = client.query<{ name: string }, [string]>('SELECT name FROM pragma_table_info(?1)').all(table).map((c) => c.name).filter((c) => !runtime.includes(c))
    client.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${TRIGGER_PREFIX}${table}_insert AFTER INSERT ON main.${table} ${bump}`)
    client.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${TRIGGER_PREFIX}${table}_update AFTER UPDATE OF ${columns.map((c) => `"${c}"`).join(', ')} ON main.${table} ${bump}`)
    client.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${TRIGGER_PREFIX}${table}_delete AFTER DELETE ON main.${table} ${bump}`)
  }
}

/** What a kept unit was read at: this connection's count of configuration changes, and SQLite's count of other connections' commits. */
interface Revision {
  revision: number
  dataVersion: number
  triggers: number
}

/** At most this many units are kept; past it the map starts again empty. */
const MAX_KEPT_UNITS = 1_000

/**
 * The one read of the configuration tables, cached per unit.
 *
 * How the cache stays right: each kept unit is tagged with the configuration's revision it was
 * read at, and used only while that revision stands. The revision is two numbers SQLite keeps,
 * so no writer has to remember to drop the cache: this connection's count of configuration
 * changes (TEMP triggers on the six tables, `installRevisionTriggers`: console saves,
 * provisioning apply, head-office publish, replication, any SQL of this process) and
 * `data_version` (moves on every commit of another connection: the CLI's provisioning, keys).
 * A ticket change, a counter opening, an Edge lease leave it alone, so the boards' and the
 * kiosk's reads keep their unit across them.
 *
 * The revision is read in one small statement, and outside a transaction only when
 * `deps.changes` moved (src/platform/db-changes.ts: after every commit of this process, and
 * within its poll bound of another's); a read with nothing changed costs a map lookup. Inside
 * a transaction (a ticket issue in the group commit) it is read every time, so a read in a
 * write sees that write's own changes; a unit read by a transaction that changed the
 * configuration is used but not kept, since the transaction may still roll back.
 */
export class ConfigurationRead {
  private prepared: ReturnType<typeof prepareConfigurationStatements> | undefined
  private revisionStmt: Statement<Revision, []> | undefined
  /** The units kept (null: no such unit), all read at `keptAt`. */
  private kept = new Map<string, UnitConfiguration | null>()
  /** Which unit holds each location asked for, read at `keptAt`. */
  private locationUnits = new Map<string, string>()
  private keptAt: Revision | null = null
  /** The revision as last read outside a transaction, and the generation of `changes` it was read at. */
  private revision: Revision | null = null
  private generation = Number.NaN

  constructor(private readonly db: Db, private readonly changes: Pick<DatabaseChanges, 'current'>) {}

  /** Prepared on first use (not while the server starts). */
  private get statements(): ReturnType<typeof prepareConfigurationStatements> {
    return (this.prepared ??= prepareConfigurationStatements(this.db))
  }

  /** The unit's configuration as the database holds it now, or null when there is no such unit. */
  unit(queueUnitId: string): UnitConfiguration | null {
    return this.unitAt(queueUnitId, this.keepable())
  }

  private unitAt(queueUnitId: string, keep: 'store' | false): UnitConfiguration | null {
    const kept = keep ? this.kept.get(queueUnitId) : undefined
    if (kept !== undefined) return kept
    const unit = inReadTransaction(this.db, () => this.read(queueUnitId))
    if (keep === 'store') {
      if (this.kept.size >= MAX_KEPT_UNITS) this.kept.clear()
      this.kept.set(queueUnitId, unit)
    }
    return unit
  }

  /** The configuration of the unit holding the location, or null when there is no such location. */
  unitOfLocation(locationId: string): UnitConfiguration | null {
    const keep = this.keepable()
    let queueUnitId = keep ? this.locationUnits.get(locationId) : undefined
    if (queueUnitId === undefined) {
      const row = this.statements.unitOfLocation.get(locationId)
      // An unknown id (anyone may ask a public page for one) is not kept.
      if (row === null) return null
      queueUnitId = row.queueUnitId
      if (keep === 'store') {
        if (this.locationUnits.size >= MAX_KEPT_UNITS) this.locationUnits.clear()
        this.locationUnits.set(locationId, queueUnitId)
      }
    }
    return this.unitAt(queueUnitId, keep)
  }

  /**
   * Whether what is kept is the configuration as this read sees it, and whether what it reads
   * now may be kept: 'store' (yes to both; a new revision first drops everything kept), or
   * false (read it all again, keep nothing). Inside a transaction only while this connection
   * has changed nothing since what is kept was read, not even uncommitted (its count is the
   * kept one): what the transaction reads is then committed, and cannot be rolled back.
   */
  private keepable(): 'store' | false {
    const revision = this.currentRevision()
    if (this.db.$client.inTransaction && (this.keptAt === null || revision.revision !== this.keptAt.revision || revision.triggers !== this.keptAt.triggers)) return false
    if (this.keptAt === null || !sameRevision(this.keptAt, revision)) {
      this.kept.clear()
      this.locationUnits.clear()
      this.keptAt = revision
    }
    return 'store'
  }

  /**
   * The configuration's revision now (installing the triggers first when they are missing).
   * Outside a transaction it is read again only when `deps.changes` moved.
   */
  private currentRevision(): Revision {
    if (this.db.$client.inTransaction) return this.revisionNow()
    const generation = this.changes.current()
    if (generation === this.generation && this.revision !== null) return this.revision
    this.generation = generation
    this.revision = this.revisionNow()
    return this.revision
  }

  private revisionNow(): Revision {
    if (this.revisionStmt === undefined) return this.install()
    let revision: Revision
    try {
      revision = this.revisionStmt.get()!
    } catch {
      // The count's table is gone with the transaction that made it (rolled back).
      return this.install()
    }
    return revision.triggers === TRIGGER_COUNT ? revision : this.install()
  }

  /**
   * Installs the triggers (first use, or a table rebuilt since: a migration drops a table with
   * its triggers) and starts the cache again, empty, at the revision they start from. Done
   * inside a transaction, it is undone with it by a rollback, and seen missing at the next read;
   * a change made before the install cannot be rolled back without rolling the install back too,
   * so what is kept from here on is never read from a change that did not commit.
   */
  private install(): Revision {
    installRevisionTriggers(this.db)
    this.revisionStmt ??= this.db.$client.query<Revision, []>(
      `SELECT (SELECT revision FROM temp.${REVISION_TABLE}) AS revision, (SELECT data_version FROM pragma_data_version) AS dataVersion,
              (SELECT count(*) FROM sqlite_temp_master WHERE type = 'trigger' AND name LIKE '${TRIGGER_PREFIX}%') AS triggers`,
    )
    this.kept.clear()
    this.locationUnits.clear()
    this.keptAt = this.revisionStmt!.get()!
    return this.keptAt
  }

  private read(queueUnitId: string): UnitConfiguration | null {
    const s = this.statements
    const row = s.unit.get(queueUnitId)
    if (row === null) return null
    const offered = s.serviceLocations.all(queueUnitId)
    const servicesAt = linksOf(offered, 'b')
    const locationsOf = linksOf(offered, 'a')
    const servicesOf = linksOf(s.counterServices.all(queueUnitId), 'a')
    const locations = new Map<string, LocationConfiguration>()
    for (const l of s.locations.all(queueUnitId)) {
      locations.set(l.id, {
        id: l.id,
        queueUnitId,
        name: storedName(l.name, l.names),
        defaultName: l.name,
        timezone: l.timezone,
        active: l.active === 1,
        hours: locationHoursOf(l),
        remoteJoin: l.remoteJoin,
        serviceIds: servicesAt.get(l.id) ?? [],
      })
    }
    const services = new Map<string, ServiceConfiguration>()
    for (const v of s.services.all(queueUnitId)) {
      services.set(v.id, {
        id: v.id,
        queueUnitId,
        name: storedName(v.name, v.names),
        defaultName: v.name,
        prefix: v.prefix,
        active: v.active === 1,
        hours: serviceHoursOf(v),
        defaultServiceSeconds: v.defaultServiceSeconds,
        waitTargetSeconds: v.waitTargetSeconds,
        appointments: v.appointments,
        appointmentsEnabled: v.appointmentsEnabled === 1,
        locationIds: locationsOf.get(v.id) ?? [],
      })
    }
    const counters = new Map<string, CounterConfiguration>()
    for (const c of s.counters.all(queueUnitId)) {
      counters.set(c.id, { id: c.id, queueUnitId, locationId: c.locationId, name: storedName(c.name, c.names), defaultName: c.name, active: c.active === 1, serviceIds: servicesOf.get(c.id) ?? [] })
    }
    return {
      id: row.id,
      workspaceId: row.workspaceId,
      name: storedName(row.name, row.names),
      defaultName: row.name,
      active: row.active === 1,
      defaultLanguage: row.defaultLanguage,
      languages: JSON.parse(row.languages) as string[],
      kioskPriority: row.kioskPriority === 1,
      priorityMode: row.priorityMode,
      normalPerPriority: row.normalPerPriority,
      deskSignIn: row.deskSignIn,
      breakReasons: row.breakReasons,
      noShowGraceMinutes: row.noShowGraceMinutes,
      approachingAhead: row.approachingAhead,
      locations,
      services,
      counters,
    }
  }
}

/** Link rows grouped by one side: `by` names the key column, the other is listed (in the rows' order). */
function linksOf(rows: LinkRow[], by: 'a' | 'b'): Map<string, string[]> {
  const out = new Map<string, string[]>()
  const other = by === 'a' ? 'b' : 'a'
  for (const row of rows) {
    const list = out.get(row[by])
    if (list === undefined) out.set(row[by], [row[other]])
    else list.push(row[other])
  }
  return out
}

function sameRevision(a: Revision, b: Revision): boolean {
  return a.revision === b.revision && a.dataVersion === b.dataVersion && a.triggers === b.triggers
}
