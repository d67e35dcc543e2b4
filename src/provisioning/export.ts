import type { BreakReasonItem } from '../structure'
import type { Db } from '../db/open'
import type { ProvisioningFile } from './model'
import { storedRemoteJoin } from '../structure'
import { exportedSettings } from '../notifications'

/*
 * `lobby provision --export` (contract §17): the whole configuration as a provisioning file,
 * without a secret. Applying it to the same database changes nothing; applying it to an empty
 * one gives the same structure (new secrets are made there, as for any new key). A credential
 * name every version of which is revoked is left out: re-created elsewhere it would be a live
 * key the administrator had stopped. Devices and people are not in provisioning files.
 */

type Workspace = ProvisioningFile['workspaces'][number]
type QueueUnit = NonNullable<Workspace['queueUnits']>[number]

interface CredentialRow { name: string; scopes: string | null; locations: string | null; services: string | null; issuePerMinute: number | null; readPerMinute: number | null }

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T))

/** A stored name back as provisioned: the object of languages when there is one, else the string. */
function nameOf(row: { name: string; names: string | null }): string | Record<string, string> {
  return json<Record<string, string>>(row.names) ?? row.name
}

/**
 * The provisioning file of every workspace (or of one), in creation order. With `units`, only
 * those queue units are in it, each with its `part` (what a provisioning document names, for
 * its audit entries); without, every unit whole.
 */
export function exportProvisioning(db: Db, workspaceId: string | null = null, units?: ReadonlyMap<string, UnitPart>): ProvisioningFile {
  const sql = db.$client
  return sql.transaction(() => {
    const all = <T>(query: string, ...params: string[]) => sql.query<T, string[]>(query).all(...params)
    const credentialsOf = credentialsReader(all)

    const workspaces = all<{ id: string; name: string }>(
      `SELECT id, name FROM workspaces ${workspaceId === null ? '' : 'WHERE id = ?1'} ORDER BY created_at, id`, ...(workspaceId === null ? [] : [workspaceId]))
    return {
      workspaces: workspaces.map((ws): Workspace => {
        const widgets = all<{ id: string; type: string; name: string; pushSource: string; pushRateLimitPerMinute: number }>(
          'SELECT id, type, name, push_source AS pushSource, push_rate_limit_per_minute AS pushRateLimitPerMinute FROM widgets WHERE workspace_id = ?1 ORDER BY created_at, id', ws.id)
        const prayerSources = all<{ id: string; name: string; timezone: string; locationName: string | null; city: string | null; country: string | null; latitude: number | null; longitude: number | null; pushRateLimitPerMinute: number }>(
          `SELECT id, name, timezone, location_name AS locationName, city, country, latitude, longitude, push_rate_limit_per_minute AS pushRateLimitPerMinute
           FROM prayer_sources WHERE workspace_id = ?1 ORDER BY created_at, id`, ws.id)
        const unitRows = all<{ id: string }>('SELECT id FROM queue_units WHERE workspace_id = ?1 ORDER BY created_at, id', ws.id)
        return {
          id: ws.id,
          name: ws.name,
          apiKeys: credentialsOf('workspace', ws.id).map((k) => ({ name: k.name })),
          displayTokens: credentialsOf('display', ws.id).map((k) => ({ name: k.name })),
          widgets: widgets.map((w) => ({ ...w }) as NonNullable<Workspace['widgets']>[number]),
          prayerSources: prayerSources.map((p) => {
            const location = Object.fromEntries(Object.entries({ name: p.locationName, city: p.city, country: p.country, latitude: p.latitude, longitude: p.longitude }).filter(([, v]) => v !== null))
            return { id: p.id, name: p.name, timezone: p.timezone, ...(Object.keys(location).length > 0 ? { location } : {}), pushRateLimitPerMinute: p.pushRateLimitPerMinute }
          }),
          queueUnits: (units === undefined ? unitRows : unitRows.filter((u) => units.has(u.id))).map((u) => unitOf(all, credentialsOf, u.id, units?.get(u.id))),
          ...notificationsOf(db, ws.id),
        }
      }),
    }
  }).deferred()
}

/**
 * What of a queue unit to read besides its own settings: a collection (`true`: all of it) or some
 * of its entities by ID; keys and webhooks when asked. What is absent is not read at all.
 */
export interface UnitPart {
  locations?: true | readonly string[]
  services?: true | readonly string[]
  counters?: true | readonly string[]
  apiKeys?: boolean
  webhooks?: boolean
}

/** A unit's whole document: every collection, its keys and webhooks. */
const WHOLE_UNIT: Required<UnitPart> = { locations: true, services: true, counters: true, apiKeys: true, webhooks: true }

/**
 * One queue unit as `exportProvisioning` writes it, with its workspace's ID and name, for the
 * console's request path (contract §24): its own settings and only the `part` asked for — never
 * the rest of the unit or of its workspace. null: no such unit.
 */
export function exportQueueUnit(db: Db, unitId: string, part: UnitPart): { workspace: { id: string; name: string }; unit: QueueUnit } | null {
  const sql = db.$client
  const all = <T>(query: string, ...params: string[]) => sql.query<T, string[]>(query).all(...params)
  const [workspace] = all<{ id: string; name: string }>('SELECT w.id AS id, w.name AS name FROM queue_units u JOIN workspaces w ON w.id = u.workspace_id WHERE u.id = ?1', unitId)
  if (workspace === undefined) return null
  return { workspace, unit: unitOf(all, credentialsReader(all), unitId, part) }
}

/** Live credential names of a kind and owner, each with its current version's properties. */
const credentialsReader = (all: <T>(query: string, ...params: string[]) => T[]) => (kind: string, owner: string) => all<CredentialRow>(
  `SELECT name, scopes, locations, services, issue_per_minute AS issuePerMinute, read_per_minute AS readPerMinute
   FROM credentials c WHERE kind = ?1 AND owner_id = ?2 AND revoked_at IS NULL
     AND created_at = (SELECT max(created_at) FROM credentials v WHERE v.kind = c.kind AND v.owner_id = c.owner_id AND v.name = c.name AND v.revoked_at IS NULL)
   GROUP BY name ORDER BY min(created_at), name`, kind, owner)

function unitOf(
  all: <T>(query: string, ...params: string[]) => T[],
  credentialsOf: (kind: string, owner: string) => CredentialRow[],
  unitId: string,
  part: UnitPart = WHOLE_UNIT,
): QueueUnit {
  const [unit] = all<{ id: string; name: string; names: string | null; defaultLanguage: string; languages: string; active: number; priorityMode: 'FIRST' | 'INTERLEAVE'; normalPerPriority: number | null; kioskPriority: number; deskSignIn: 'optional' | 'required'; breakReasons: string; noShowGraceMinutes: number; approachingAhead: number }>(
    `SELECT id, name, names, default_language AS defaultLanguage, languages, active, priority_mode AS priorityMode, normal_per_priority AS normalPerPriority,
            kiosk_priority AS kioskPriority, desk_sign_in AS deskSignIn, break_reasons AS breakReasons,
            no_show_grace_minutes AS noShowGraceMinutes, approaching_ahead AS approachingAhead
     FROM queue_units WHERE id = ?1`, unitId)
  // What `part` leaves out is not read at all; named entities are read by their IDs.
  type Collection = 'locations' | 'services' | 'counters'
  const wanted = (collection: Collection) => part[collection] !== undefined
  const one = (collection: Collection) => (part[collection] === true ? '' : ' AND id IN (SELECT value FROM json_each(?2))')
  const params = (collection: Collection) => (part[collection] === true ? [unitId] : [unitId, JSON.stringify(part[collection])])
  const locations = !wanted('locations') ? [] : all<{ id: string; name: string; names: string | null; timezone: string; active: number; openingHours: string | null; closedDates: string; lastTicketMinutesBeforeClose: number; remoteJoin: string | null }>(
    `SELECT id, name, names, timezone, active, opening_hours AS openingHours, closed_dates AS closedDates, last_ticket_minutes_before_close AS lastTicketMinutesBeforeClose, remote_join AS remoteJoin
     FROM locations WHERE queue_unit_id = ?1${one('locations')} ORDER BY created_at, id`, ...params('locations'))
  const services = !wanted('services') ? [] : all<{ id: string; name: string; names: string | null; prefix: string; active: number; defaultServiceSeconds: number; waitTargetSeconds: number; openingHours: string | null; appointments: string | null }>(
    `SELECT id, name, names, prefix, active, default_service_seconds AS defaultServiceSeconds, wait_target_seconds AS waitTargetSeconds, opening_hours AS openingHours, appointments
     FROM services WHERE queue_unit_id = ?1${one('services')} ORDER BY created_at, id`, ...params('services'))
  const counters = !wanted('counters') ? [] : all<{ id: string; name: string; names: string | null; locationId: string; active: number }>(
    `SELECT id, name, names, location_id AS locationId, active FROM counters WHERE queue_unit_id = ?1${one('counters')} ORDER BY created_at, id`, ...params('counters'))
  const webhooks = part.webhooks !== true ? [] : all<{ id: string; url: string; events: string; active: number }>(
    'SELECT id, url, events, active FROM webhooks WHERE queue_unit_id = ?1 ORDER BY created_at, id', unitId)
  const linked = (query: string, id: string) => all<{ other: string }>(query, id).map((r) => r.other)
  const u = unit!
  return {
    id: u.id,
    name: nameOf(u),
    defaultLanguage: u.defaultLanguage,
    languages: JSON.parse(u.languages) as string[],
    active: u.active === 1,
    priority: u.priorityMode === 'INTERLEAVE' ? { mode: 'INTERLEAVE', normalPerPriority: u.normalPerPriority ?? 1 } : { mode: 'FIRST' },
    kioskPriority: u.kioskPriority === 1,
    deskSignIn: u.deskSignIn,
    // As provisioned: plain strings and `{id, name}` items alike (contract §28), so the file round-trips.
    breakReasons: JSON.parse(u.breakReasons) as BreakReasonItem[],
    noShowGraceMinutes: u.noShowGraceMinutes,
    approachingAhead: u.approachingAhead,
    ...(!wanted('locations') ? {} : { locations: locations.map((l) => ({
      id: l.id,
      name: nameOf(l),
      timezone: l.timezone,
      active: l.active === 1,
      ...(l.openingHours === null ? {} : { openingHours: JSON.parse(l.openingHours) as Record<string, string[][]> }),
      closedDates: JSON.parse(l.closedDates) as string[],
      lastTicketMinutesBeforeClose: l.lastTicketMinutesBeforeClose,
      ...(l.remoteJoin === null ? {} : { remoteJoin: storedRemoteJoin(JSON.parse(l.remoteJoin) as Parameters<typeof storedRemoteJoin>[0]) }),
    })) }),
    ...(!wanted('services') ? {} : { services: services.map((s) => ({
      id: s.id,
      name: nameOf(s),
      prefix: s.prefix,
      active: s.active === 1,
      locations: linked('SELECT location_id AS other FROM service_locations WHERE service_id = ?1 ORDER BY location_id', s.id),
      defaultServiceSeconds: s.defaultServiceSeconds,
      waitTargetSeconds: s.waitTargetSeconds,
      ...(s.openingHours === null ? {} : { openingHours: JSON.parse(s.openingHours) as Record<string, string[][]> }),
      ...(s.appointments === null ? {} : { appointments: JSON.parse(s.appointments) as NonNullable<NonNullable<QueueUnit['services']>[number]['appointments']> }),
    })) }),
    ...(!wanted('counters') ? {} : { counters: counters.map((c) => ({
      id: c.id,
      name: nameOf(c),
      locationId: c.locationId,
      services: linked('SELECT service_id AS other FROM counter_services WHERE counter_id = ?1 ORDER BY service_id', c.id),
      active: c.active === 1,
    })) }),
    ...(part.apiKeys !== true ? {} : { apiKeys: credentialsOf('queue', unitId).map((k) => ({
      name: k.name,
      ...(k.scopes === null ? {} : { scopes: JSON.parse(k.scopes) as NonNullable<NonNullable<QueueUnit['apiKeys']>[number]['scopes']> }),
      ...(k.locations === null ? {} : { locations: JSON.parse(k.locations) as string[] }),
      ...(k.services === null ? {} : { services: JSON.parse(k.services) as string[] }),
      rateLimits: { ...(k.issuePerMinute === null ? {} : { issuePerMinute: k.issuePerMinute }), ...(k.readPerMinute === null ? {} : { readPerMinute: k.readPerMinute }) },
    })) }),
    ...(part.webhooks !== true ? {} : { webhooks: webhooks.map((h) => ({ id: h.id, url: h.url, events: JSON.parse(h.events) as NonNullable<QueueUnit['webhooks']>[number]['events'], active: h.active === 1 })) }),
  }
}

/** Contract §25: the workspace's notification settings without their secrets (absent when it has none). */
function notificationsOf(db: Db, workspaceId: string): Pick<Workspace, 'notifications'> {
  const settings = exportedSettings(db, workspaceId)
  return settings === null ? {} : { notifications: settings }
}
