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
  readonly active: boolean
  /** The services it serves (`counter_services`), in id order. */
  readonly serviceIds: readonly string[]
}

/** A queue unit's configuration: its settings, and its locations, services and counters (each map in id order). */
export interface UnitConfiguration {
  readonly id: string
  readonly workspaceId: string
  readonly name: LocalizedName
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

/** A unit's configuration as kept: the generation of `DatabaseChanges` it was read at. */
interface Kept {
  generation: number
  unit: UnitConfiguration | null
}

/** At most this many units (or unknown unit ids) are kept; past it the map starts again empty. */
const MAX_KEPT_UNITS = 1_000

/**
 * The one read of the configuration tables, cached per unit.
 *
 * How the cache stays right: each kept unit carries the generation of `deps.changes`
 * (src/platform/db-changes.ts) it was read at, and is used only while that number has not
 * moved. The number moves right after every COMMIT of this process's one write path
 * (`deps.writes`: console saves, provisioning apply, head-office publish, replication's writes
 * at the branch), on any row this connection changes by any path (`total_changes()`), and on
 * any commit by another process (`data_version`: the CLI's provisioning and keys) within the
 * server's poll bound (5 ms; tests look on every read). Nothing has to remember to drop the
 * cache, so no writer can forget to. Any commit moves it, ticket writes too: the next read then
 * reads the unit again (a handful of indexed statements over small tables, once per change
 * instead of once per request as the near-copies it replaces did).
 *
 * Inside a transaction the number is looked at without the poll bound (a read in a write sees
 * every commit before it), and a unit read there is used but not kept: that transaction may
 * still roll back what it wrote, and a rollback does not move the number.
 */
export class ConfigurationRead {
  private prepared: ReturnType<typeof prepareConfigurationStatements> | undefined
  private kept = new Map<string, Kept>()
  private locationUnits = new Map<string, { generation: number; queueUnitId: string }>()

  constructor(private readonly db: Db, private readonly changes: Pick<DatabaseChanges, 'current'>) {}

  /** Prepared on first use (not while the server starts). */
  private get statements(): ReturnType<typeof prepareConfigurationStatements> {
    return (this.prepared ??= prepareConfigurationStatements(this.db))
  }

  /** The unit's configuration as the database holds it now, or null when there is no such unit. */
  unit(queueUnitId: string): UnitConfiguration | null {
    const inTransaction = this.db.$client.inTransaction
    const generation = this.changes.current(inTransaction)
    const kept = this.kept.get(queueUnitId)
    if (kept !== undefined && kept.generation === generation) return kept.unit
    const unit = inReadTransaction(this.db, () => this.read(queueUnitId))
    if (!inTransaction) {
      if (this.kept.size >= MAX_KEPT_UNITS) this.kept.clear()
      this.kept.set(queueUnitId, { generation, unit })
    }
    return unit
  }

  /** The configuration of the unit holding the location, or null when there is no such location. */
  unitOfLocation(locationId: string): UnitConfiguration | null {
    const inTransaction = this.db.$client.inTransaction
    const generation = this.changes.current(inTransaction)
    let queueUnitId = this.locationUnits.get(locationId)
    if (queueUnitId === undefined || queueUnitId.generation !== generation) {
      const row = this.statements.unitOfLocation.get(locationId)
      // An unknown id (anyone may ask a public page for one) is not kept.
      if (row === null) return null
      queueUnitId = { generation, queueUnitId: row.queueUnitId }
      if (!inTransaction) {
        if (this.locationUnits.size >= MAX_KEPT_UNITS) this.locationUnits.clear()
        this.locationUnits.set(locationId, queueUnitId)
      }
    }
    return this.unit(queueUnitId.queueUnitId)
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
      counters.set(c.id, { id: c.id, queueUnitId, locationId: c.locationId, name: storedName(c.name, c.names), active: c.active === 1, serviceIds: servicesOf.get(c.id) ?? [] })
    }
    return {
      id: row.id,
      workspaceId: row.workspaceId,
      name: storedName(row.name, row.names),
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
