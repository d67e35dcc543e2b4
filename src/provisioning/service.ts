import { and, eq } from 'drizzle-orm'
import { DEFAULT_ISSUE_PER_MINUTE, DEFAULT_READ_PER_MINUTE } from '../access'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { Db } from '../db/open'
import { compile, schemaErrors } from '../platform/validation'
import { pointer, type ErrorDetail } from '../platform/errors'
import { ruled } from '../platform/detail-rules'
import { isIanaTimeZone } from '../platform/time'
import { parseCidr } from '../platform/client-address'
import { canonicalLanguageTag, canonicalName, nameErrors, resolveName, type LocalizedName } from '../platform/names'
import { closedDatesErrors, weeklyHoursErrors } from '../structure'
import { randomIds, type IdGenerator } from '../platform/ids'
import type { CredentialKind } from '../platform/credentials'
import { workspaces, credentials } from '../structure'
import { widgets, DEFAULT_WIDGET_PUSH_RATE_LIMIT } from '../widgets'
import { prayerSources, DEFAULT_PRAYER_PUSH_RATE_LIMIT } from '../prayer'
import { DEFAULT_SERVICE_SECONDS, DEFAULT_WAIT_TARGET_SECONDS } from '../tickets'
import { queueUnits, locations, services, serviceLocations, DEFAULT_BREAK_REASONS, DEFAULT_NO_SHOW_GRACE_MINUTES, DEFAULT_APPROACHING_AHEAD, storedRemoteJoin } from '../structure'
import { counters, counterServices } from '../structure'
import { webhooks } from '../webhooks'
import { settingsProblems, writeNotificationSettings } from '../notifications'
import { breakReasonId } from '../structure'
import { ProvisioningFile, DEFAULT_QUEUE_SCOPES, DEFAULT_APPOINTMENTS } from './model'
import { insertCredential, NO_PROPERTIES, type KeyProperties } from '../structure'
import { auditConfigurationChanges, configurationSnapshots, PROVISION_ACTOR } from './audit'
import type { Actor } from '../platform/actor'

export { PROVISION_ACTOR }

const checkFile = compile(ProvisioningFile)

/** A provisioning file that cannot be applied; nothing was written. */
export class ProvisioningError extends Error {
  constructor(public readonly details: ErrorDetail[]) {
    super(`provisioning file is invalid: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`)
  }
}

export interface ProvisionedSecret {
  /** Devices get their secrets by pairing, never from a provisioning file. */
  kind: Exclude<CredentialKind, 'device'>
  owner: string
  name: string
  secret: string
}

type Counts = { created: number; updated: number; unchanged: number }
export interface ProvisionResult {
  applied: Record<string, Counts>
  secrets: ProvisionedSecret[]
}

/** Parses a provisioning file's text: YAML for .yaml/.yml, else JSON. */
export function parseProvisioningText(text: string, fileName: string): unknown {
  if (/\.ya?ml$/i.test(fileName)) return Bun.YAML.parse(text)
  return JSON.parse(text)
}

/**
 * Creates or updates what the file describes, in one immediate transaction: a bad file
 * changes nothing. Idempotent: unchanged entities are not written, and a secret is created
 * (and returned) only for a credential name that has none yet. Entities absent from the
 * file are left alone; a revoked key stays revoked (`keys rotate` issues a new one). Every
 * entity created, updated or retired is appended to the audit log as `actor`'s change, in the
 * same transaction (./audit.ts).
 */
export function applyProvisioning(db: Db, document: unknown, now: number, ids: IdGenerator = randomIds, actor: Actor = PROVISION_ACTOR): ProvisionResult {
  // The schema first, outside the transaction: a malformed file never takes the write lock.
  checkSchema(document)
  return db.$client.transaction(() => applyProvisioningWithin(db, document, now, ids, actor)).immediate()
}

function checkSchema(document: unknown): asserts document is ProvisioningFile {
  if (!checkFile.Check(document)) throw new ProvisioningError(preciseNameErrors(document, schemaErrors(checkFile, document)))
}

/**
 * A name that matches neither form (string, object of languages) is one union failure at
 * `…/name`; `nameErrors` says which language's text is wrong (`…/name/ar: must be a non-empty
 * string`), so a form can show it at that language's field.
 */
const LOCALIZED_NAME_PATH = /\/queueUnits\/\d+(\/(locations|services|counters)\/\d+)?\/name$/

function preciseNameErrors(document: unknown, details: ErrorDetail[]): ErrorDetail[] {
  return details.flatMap((detail) => {
    if (!LOCALIZED_NAME_PATH.test(detail.path)) return [detail]
    const value = valueAt(document, detail.path)
    const precise = nameErrors(value, detail.path)
    return precise.length > 0 ? precise : [detail]
  })
}

/** The value a JSON Pointer names in `document` (undefined when there is none). */
function valueAt(document: unknown, path: string): unknown {
  let value: unknown = document
  for (const raw of path.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

/**
 * `applyProvisioning` inside a write transaction the caller owns (the admin console's write,
 * which also bumps the unit's live revision in it): the same validation, the same writes and
 * the same audit entries. Throws `ProvisioningError` (the caller's transaction is then undone).
 */
export function applyProvisioningWithin(db: Db, document: unknown, now: number, ids: IdGenerator, actor: Actor): ProvisionResult {
  if (!db.$client.inTransaction) throw new Error('applyProvisioningWithin must run inside a write transaction')
  checkSchema(document)
  const file = document
  const problems = checkReferences(db, file)
  if (problems.length > 0) throw new ProvisioningError(problems)
  const before = configurationSnapshots(db, file)
  const result = write(db, file, now, ids)
  auditConfigurationChanges(db, before, configurationSnapshots(db, file), actor, now)
  return result
}

function checkReferences(db: Db, file: ProvisioningFile): ErrorDetail[] {
  const problems: ErrorDetail[] = []
  const seen = new Map<string, string>()
  const unique = (kind: string, id: string, path: string) => {
    const key = `${kind}:${id}`
    if (seen.has(key)) problems.push(ruled(path, `duplicate ${kind} id (also at ${seen.get(key)})`, 'duplicateId', { kind }))
    else seen.set(key, path)
  }
  /** An existing row with this id must belong to the same parent. */
  const owned = (table: SQLiteTable & { id: any }, parentColumn: any, id: string, parentId: string, path: string, what: string) => {
    const row = db.select({ parent: parentColumn }).from(table).where(eq(table.id, id)).get() as { parent: string } | undefined
    if (row !== undefined && row.parent !== parentId) problems.push(ruled(path, `${what} already belongs to ${row.parent}`, 'belongsElsewhere', { kind: what, owner: row.parent }))
  }
  const uniqueNames = (names: string[], path: string) => {
    const s = new Set<string>()
    names.forEach((n, i) => {
      if (s.has(n)) problems.push(ruled(`${path}/${i}/name`, 'duplicate key name', 'duplicateValue', { value: n }))
      s.add(n)
    })
  }

  file.workspaces.forEach((ws, w) => {
    const wp = pointer('workspaces', w)
    unique('workspace', ws.id, `${wp}/id`)
    uniqueNames((ws.apiKeys ?? []).map((k) => k.name), `${wp}/apiKeys`)
    uniqueNames((ws.displayTokens ?? []).map((k) => k.name), `${wp}/displayTokens`)
    ws.widgets?.forEach((wd, i) => {
      unique('widget', wd.id, `${wp}/widgets/${i}/id`)
      owned(widgets, widgets.workspaceId, wd.id, ws.id, `${wp}/widgets/${i}/id`, 'widget')
      const existing = db.select({ type: widgets.type }).from(widgets).where(eq(widgets.id, wd.id)).get()
      if (existing && existing.type !== wd.type) problems.push(ruled(`${wp}/widgets/${i}/type`, `a widget's type cannot change (is ${existing.type})`, 'typeFixed', { value: existing.type }))
    })
    ws.prayerSources?.forEach((ps, i) => {
      const pp = `${wp}/prayerSources/${i}`
      unique('prayer source', ps.id, `${pp}/id`)
      owned(prayerSources, prayerSources.workspaceId, ps.id, ws.id, `${pp}/id`, 'prayer source')
      if (!isIanaTimeZone(ps.timezone)) problems.push(ruled(`${pp}/timezone`, 'not an IANA time zone name', 'timeZone', { value: ps.timezone }))
    })
    if (ws.notifications !== undefined) problems.push(...settingsProblems(ws.notifications, `${wp}/notifications`))
    ws.queueUnits?.forEach((qu, u) => {
      const up = `${wp}/queueUnits/${u}`
      problems.push(...languageErrors(qu, up))
      for (const [list, key] of [[[qu], ''], [qu.locations ?? [], 'locations'], [qu.services ?? [], 'services'], [qu.counters ?? [], 'counters']] as const) {
        list.forEach((entity, i) => problems.push(...nameErrors(entity.name, key === '' ? `${up}/name` : `${up}/${key}/${i}/name`)))
      }
      qu.locations?.forEach((l, i) => {
        if (l.openingHours !== undefined) problems.push(...weeklyHoursErrors(l.openingHours, `${up}/locations/${i}/openingHours`))
        if (l.closedDates !== undefined) problems.push(...closedDatesErrors(l.closedDates, `${up}/locations/${i}/closedDates`))
        for (const list of ['allowedNetworks', 'guestNetworks'] as const) {
          l.remoteJoin?.[list]?.forEach((network, n) => {
            if (parseCidr(network) === null) problems.push(ruled(`${up}/locations/${i}/remoteJoin/${list}/${n}`, 'not a CIDR network (e.g. 192.168.1.0/24 or fd00::/8)', 'cidr', { value: network }))
          })
        }
      })
      qu.services?.forEach((sv, i) => {
        if (sv.openingHours !== undefined) problems.push(...weeklyHoursErrors(sv.openingHours, `${up}/services/${i}/openingHours`))
      })
      unique('queue unit', qu.id, `${up}/id`)
      owned(queueUnits, queueUnits.workspaceId, qu.id, ws.id, `${up}/id`, 'queue unit')
      if (qu.priority?.mode === 'INTERLEAVE' && qu.priority.normalPerPriority === undefined) {
        problems.push(ruled(`${up}/priority/normalPerPriority`, 'required when mode is INTERLEAVE', 'requiredWith', { mode: 'INTERLEAVE' }))
      }
      if (qu.priority?.mode === 'FIRST' && qu.priority.normalPerPriority !== undefined) {
        problems.push(ruled(`${up}/priority/normalPerPriority`, 'only with mode INTERLEAVE', 'onlyWith', { mode: 'INTERLEAVE' }))
      }
      const reasons = new Map<string, number>()
      qu.breakReasons?.forEach((item, i) => {
        // Contract §28: an item's id (a string item is its own id) names it in `close {"reason"}`.
        const id = breakReasonId(item)
        const first = reasons.get(id)
        if (first !== undefined) problems.push(ruled(`${up}/breakReasons/${i}`, `duplicate break reason (also at ${up}/breakReasons/${first})`, 'duplicateValue', { value: id }))
        else reasons.set(id, i)
      })
      const unitLocations = new Set([
        ...(qu.locations ?? []).map((l) => l.id),
        ...db.select({ id: locations.id }).from(locations).where(eq(locations.queueUnitId, qu.id)).all().map((r) => r.id),
      ])
      const unitServices = new Set([
        ...(qu.services ?? []).map((s) => s.id),
        ...db.select({ id: services.id }).from(services).where(eq(services.queueUnitId, qu.id)).all().map((r) => r.id),
      ])
      qu.locations?.forEach((l, i) => {
        unique('location', l.id, `${up}/locations/${i}/id`)
        owned(locations, locations.queueUnitId, l.id, qu.id, `${up}/locations/${i}/id`, 'location')
        if (!isIanaTimeZone(l.timezone)) problems.push(ruled(`${up}/locations/${i}/timezone`, 'not an IANA time zone name', 'timeZone', { value: l.timezone }))
      })
      // Contract §24: a prefix is unique within the unit. The services the file names are judged as
      // it says; the unit's other stored services (retired ones too: their tickets carry the
      // prefix) keep theirs, so a file naming one service (the console's) is checked against them.
      const named = new Set((qu.services ?? []).map((s) => s.id))
      const prefixHolders = new Map(db.select({ id: services.id, prefix: services.prefix }).from(services)
        .where(eq(services.queueUnitId, qu.id)).all().filter((r) => !named.has(r.id)).map((r) => [r.prefix, r.id]))
      qu.services?.forEach((s, i) => {
        const holder = prefixHolders.get(s.prefix)
        if (holder !== undefined && holder !== s.id) problems.push(ruled(`${up}/services/${i}/prefix`, `"${s.prefix}" is already the prefix of service ${holder} in this queue unit`, 'taken', { value: s.prefix }))
        else if (holder === undefined) prefixHolders.set(s.prefix, s.id)
      })
      qu.services?.forEach((s, i) => {
        unique('service', s.id, `${up}/services/${i}/id`)
        owned(services, services.queueUnitId, s.id, qu.id, `${up}/services/${i}/id`, 'service')
        s.locations.forEach((l, j) => {
          if (!unitLocations.has(l)) problems.push(ruled(`${up}/services/${i}/locations/${j}`, 'no such location in this queue unit', 'unknownReference', { kind: 'location', value: l }))
        })
      })
      // Contract §27: a counter serves only services offered at its location. The file's services
      // and counters as it gives them, the unit's other stored ones as they are; checked from both
      // sides, so a console edit of one counter or of one service cannot break the rule.
      const offeredAt = new Map<string, Set<string>>()
      for (const r of db.select({ serviceId: serviceLocations.serviceId, locationId: serviceLocations.locationId }).from(serviceLocations)
        .innerJoin(services, eq(services.id, serviceLocations.serviceId)).where(eq(services.queueUnitId, qu.id)).all()) {
        if (named.has(r.serviceId)) continue
        let at = offeredAt.get(r.serviceId)
        if (at === undefined) offeredAt.set(r.serviceId, (at = new Set()))
        at.add(r.locationId)
      }
      for (const sv of qu.services ?? []) offeredAt.set(sv.id, new Set(sv.locations))
      const namedCounters = new Set((qu.counters ?? []).map((c) => c.id))
      const standing = [
        ...(qu.counters ?? []).map((c) => ({ id: c.id, locationId: c.locationId, services: c.services })),
        ...db.select({ id: counters.id, locationId: counters.locationId }).from(counters).where(eq(counters.queueUnitId, qu.id)).all()
          .filter((r) => !namedCounters.has(r.id))
          .map((r) => ({ ...r, services: db.select({ s: counterServices.serviceId }).from(counterServices).where(eq(counterServices.counterId, r.id)).all().map((x) => x.s) })),
      ]
      qu.counters?.forEach((c, i) => {
        c.services.forEach((s, j) => {
          const at = offeredAt.get(s)
          if (at !== undefined && unitLocations.has(c.locationId) && !at.has(c.locationId)) {
            problems.push(ruled(`${up}/counters/${i}/services/${j}`, `service ${s} is not offered at this counter's location ${c.locationId}`, 'notOfferedThere', { value: s }))
          }
        })
      })
      qu.services?.forEach((sv, i) => {
        for (const c of standing) {
          if (namedCounters.has(c.id) || !c.services.includes(sv.id) || sv.locations.includes(c.locationId)) continue
          problems.push(ruled(`${up}/services/${i}/locations`, `counter ${c.id} at location ${c.locationId} serves this service: offer it there, or change the counter first`, 'notOfferedThere', { value: sv.id, counter: c.id }))
        }
      })
      qu.counters?.forEach((c, i) => {
        unique('counter', c.id, `${up}/counters/${i}/id`)
        owned(counters, counters.queueUnitId, c.id, qu.id, `${up}/counters/${i}/id`, 'counter')
        if (!unitLocations.has(c.locationId)) problems.push(ruled(`${up}/counters/${i}/locationId`, 'no such location in this queue unit', 'unknownReference', { kind: 'location', value: c.locationId }))
        c.services.forEach((s, j) => {
          if (!unitServices.has(s)) problems.push(ruled(`${up}/counters/${i}/services/${j}`, 'no such service in this queue unit', 'unknownReference', { kind: 'service', value: s }))
        })
      })
      uniqueNames((qu.apiKeys ?? []).map((k) => k.name), `${up}/apiKeys`)
      qu.apiKeys?.forEach((k, i) => {
        k.locations?.forEach((l, j) => {
          if (!unitLocations.has(l)) problems.push(ruled(`${up}/apiKeys/${i}/locations/${j}`, 'no such location in this queue unit', 'unknownReference', { kind: 'location', value: l }))
        })
        k.services?.forEach((s, j) => {
          if (!unitServices.has(s)) problems.push(ruled(`${up}/apiKeys/${i}/services/${j}`, 'no such service in this queue unit', 'unknownReference', { kind: 'service', value: s }))
        })
      })
      qu.webhooks?.forEach((h, i) => {
        unique('webhook', h.id, `${up}/webhooks/${i}/id`)
        owned(webhooks, webhooks.queueUnitId, h.id, qu.id, `${up}/webhooks/${i}/id`, 'webhook')
      })
    })
  })
  return problems
}

type ProvisionedUnit = NonNullable<ProvisioningFile['workspaces'][number]['queueUnits']>[number]

/** Contract §18: the unit's languages are language tags, and its default language is among them. */
function languageErrors(qu: ProvisionedUnit, up: string): ErrorDetail[] {
  const problems: ErrorDetail[] = []
  if (qu.defaultLanguage !== undefined && canonicalLanguageTag(qu.defaultLanguage) === null) {
    problems.push(ruled(`${up}/defaultLanguage`, `"${qu.defaultLanguage}" is not a BCP 47 language tag (such as en, ar, fr-CA)`, 'languageTag', { tag: qu.defaultLanguage }))
  }
  qu.languages?.forEach((tag, i) => {
    if (canonicalLanguageTag(tag) === null) problems.push(ruled(`${up}/languages/${i}`, `"${tag}" is not a BCP 47 language tag (such as en, ar, fr-CA)`, 'languageTag', { tag }))
  })
  if (problems.length === 0 && qu.languages !== undefined) {
    const canonical = qu.languages.map((tag) => canonicalLanguageTag(tag)!.toLowerCase())
    if (new Set(canonical).size !== canonical.length) problems.push(ruled(`${up}/languages`, 'names a language twice', 'uniqueItems'))
    const fallback = canonicalLanguageTag(qu.defaultLanguage ?? 'en')!.toLowerCase()
    if (!canonical.includes(fallback)) problems.push(ruled(`${up}/languages`, `must include the default language "${qu.defaultLanguage ?? 'en'}"`, 'languageMissing', { tag: qu.defaultLanguage ?? 'en' }))
  }
  return problems
}

/** The `name` (in the unit's default language) and `names` (null for a plain string) columns of a provisioned name. */
function nameColumns(name: LocalizedName, defaultLanguage: string): { name: string; names: string | null } {
  const canonical = canonicalName(name)
  return { name: resolveName(canonical, defaultLanguage, defaultLanguage), names: typeof canonical === 'string' ? null : JSON.stringify(canonical) }
}

/** A unit's languages in canonical spelling, the default first. */
function unitLanguages(qu: ProvisionedUnit): { defaultLanguage: string; languages: string[] } {
  const defaultLanguage = canonicalLanguageTag(qu.defaultLanguage ?? 'en')!
  const listed = (qu.languages ?? [defaultLanguage]).map((tag) => canonicalLanguageTag(tag)!)
  return { defaultLanguage, languages: [defaultLanguage, ...listed.filter((tag) => tag.toLowerCase() !== defaultLanguage.toLowerCase())] }
}

/** Weekly hours as stored: the weekdays in week order, so applying the same file again changes nothing. */
function hoursColumn(hours: Record<string, string[][]> | undefined): string | null {
  if (hours === undefined) return null
  const order = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
  return JSON.stringify(Object.fromEntries(order.filter((day) => day in hours).map((day) => [day, hours[day]])))
}

function write(db: Db, file: ProvisioningFile, now: number, ids: IdGenerator): ProvisionResult {
  const applied: Record<string, Counts> = {}
  const secrets: ProvisionedSecret[] = []
  const count = (kind: string, outcome: keyof Counts) => {
    applied[kind] ??= { created: 0, updated: 0, unchanged: 0 }
    applied[kind][outcome] += 1
  }

  /** Insert, or update only the fields that differ; `updatedAt` moves only on a real change. */
  const upsert = (kind: string, table: SQLiteTable & { id: any }, id: string, values: Record<string, unknown>) => {
    const existing = db.select().from(table).where(eq(table.id, id)).get() as Record<string, unknown> | undefined
    if (existing === undefined) {
      db.insert(table).values({ id, ...values, createdAt: now, updatedAt: now } as never).run()
      return count(kind, 'created')
    }
    const changed = Object.entries(values).filter(([k, v]) => existing[k] !== v)
    if (changed.length === 0) return count(kind, 'unchanged')
    db.update(table).set({ ...Object.fromEntries(changed), updatedAt: now } as never).where(eq(table.id, id)).run()
    count(kind, 'updated')
  }

  /** Makes the set of linked IDs exactly `wanted`. */
  const link = (table: typeof serviceLocations | typeof counterServices, ownerColumn: any, otherColumn: any, ownerId: string, wanted: string[], make: (other: string) => Record<string, string>) => {
    const have = (db.select({ other: otherColumn }).from(table).where(eq(ownerColumn, ownerId)).all() as { other: string }[]).map((r) => r.other)
    for (const other of have) if (!wanted.includes(other)) db.delete(table).where(and(eq(ownerColumn, ownerId), eq(otherColumn, other))).run()
    for (const other of wanted) if (!have.includes(other)) db.insert(table).values(make(other) as never).run()
  }

  /** Creates the credential name if it has no version yet; else keeps its properties in step. */
  const credential = (kind: ProvisionedSecret['kind'], ownerId: string, name: string, props: KeyProperties) => {
    const rows = db.select().from(credentials)
      .where(and(eq(credentials.kind, kind), eq(credentials.ownerId, ownerId), eq(credentials.name, name))).all()
    if (rows.length === 0) {
      secrets.push({ kind, owner: ownerId, name, secret: insertCredential(db, ids, kind, ownerId, name, props, now) })
      return count(`${kind}Keys`, 'created')
    }
    const stored = {
      scopes: props.scopes && JSON.stringify(props.scopes),
      locations: props.locations && JSON.stringify(props.locations),
      services: props.services && JSON.stringify(props.services),
      issuePerMinute: props.issuePerMinute,
      readPerMinute: props.readPerMinute,
    }
    const differs = rows.some((r) => (Object.keys(stored) as (keyof typeof stored)[]).some((k) => r[k] !== stored[k]))
    if (!differs) return count(`${kind}Keys`, 'unchanged')
    db.update(credentials).set(stored)
      .where(and(eq(credentials.kind, kind), eq(credentials.ownerId, ownerId), eq(credentials.name, name))).run()
    count(`${kind}Keys`, 'updated')
  }

  for (const ws of file.workspaces) {
    upsert('workspaces', workspaces, ws.id, { name: ws.name })
    if (ws.notifications !== undefined) count('notifications', writeNotificationSettings(db, ws.id, ws.notifications, now) ? 'updated' : 'unchanged')
    for (const key of ws.apiKeys ?? []) credential('workspace', ws.id, key.name, NO_PROPERTIES)
    for (const token of ws.displayTokens ?? []) credential('display', ws.id, token.name, NO_PROPERTIES)
    for (const wd of ws.widgets ?? []) {
      upsert('widgets', widgets, wd.id, {
        workspaceId: ws.id, type: wd.type, name: wd.name, pushSource: wd.pushSource,
        pushRateLimitPerMinute: wd.pushRateLimitPerMinute ?? DEFAULT_WIDGET_PUSH_RATE_LIMIT,
      })
    }
    for (const ps of ws.prayerSources ?? []) {
      upsert('prayerSources', prayerSources, ps.id, {
        workspaceId: ws.id, name: ps.name, timezone: ps.timezone,
        locationName: ps.location?.name ?? null, city: ps.location?.city ?? null, country: ps.location?.country ?? null,
        latitude: ps.location?.latitude ?? null, longitude: ps.location?.longitude ?? null,
        pushRateLimitPerMinute: ps.pushRateLimitPerMinute ?? DEFAULT_PRAYER_PUSH_RATE_LIMIT,
      })
    }
    for (const qu of ws.queueUnits ?? []) {
      const { defaultLanguage, languages } = unitLanguages(qu)
      upsert('queueUnits', queueUnits, qu.id, {
        workspaceId: ws.id, ...nameColumns(qu.name, defaultLanguage), defaultLanguage, languages: JSON.stringify(languages), active: qu.active ?? true,
        // Absent means the defaults, like `active`: FIRST, and no kiosk choice.
        priorityMode: qu.priority?.mode ?? 'FIRST',
        normalPerPriority: qu.priority?.mode === 'INTERLEAVE' ? qu.priority.normalPerPriority ?? null : null,
        kioskPriority: qu.kioskPriority ?? false,
        deskSignIn: qu.deskSignIn ?? 'optional',
        breakReasons: JSON.stringify(qu.breakReasons ?? DEFAULT_BREAK_REASONS),
        noShowGraceMinutes: qu.noShowGraceMinutes ?? DEFAULT_NO_SHOW_GRACE_MINUTES,
        approachingAhead: qu.approachingAhead ?? DEFAULT_APPROACHING_AHEAD,
      })
      for (const l of qu.locations ?? []) {
        upsert('locations', locations, l.id, {
          queueUnitId: qu.id, ...nameColumns(l.name, defaultLanguage), timezone: l.timezone, active: l.active ?? true,
          openingHours: hoursColumn(l.openingHours), closedDates: JSON.stringify([...(l.closedDates ?? [])].sort()),
          lastTicketMinutesBeforeClose: l.lastTicketMinutesBeforeClose ?? 0,
          remoteJoin: l.remoteJoin === undefined ? null : JSON.stringify(storedRemoteJoin(l.remoteJoin)),
        })
      }
      for (const s of qu.services ?? []) {
        upsert('services', services, s.id, {
          queueUnitId: qu.id, ...nameColumns(s.name, defaultLanguage), prefix: s.prefix, active: s.active ?? true,
          openingHours: hoursColumn(s.openingHours),
          defaultServiceSeconds: s.defaultServiceSeconds ?? DEFAULT_SERVICE_SECONDS,
          waitTargetSeconds: s.waitTargetSeconds ?? DEFAULT_WAIT_TARGET_SECONDS,
          appointments: s.appointments === undefined ? null : JSON.stringify({
            enabled: s.appointments.enabled,
            slotMinutes: s.appointments.slotMinutes ?? DEFAULT_APPOINTMENTS.slotMinutes,
            ...(s.appointments.capacityPerSlot === undefined ? {} : { capacityPerSlot: s.appointments.capacityPerSlot }),
            bookAheadDays: s.appointments.bookAheadDays ?? DEFAULT_APPOINTMENTS.bookAheadDays,
            checkIn: {
              earlyMinutes: s.appointments.checkIn?.earlyMinutes ?? DEFAULT_APPOINTMENTS.checkIn.earlyMinutes,
              lateMinutes: s.appointments.checkIn?.lateMinutes ?? DEFAULT_APPOINTMENTS.checkIn.lateMinutes,
            },
            retainDays: s.appointments.retainDays ?? DEFAULT_APPOINTMENTS.retainDays,
          }),
        })
        link(serviceLocations, serviceLocations.serviceId, serviceLocations.locationId, s.id, s.locations, (l) => ({ serviceId: s.id, locationId: l }))
      }
      for (const c of qu.counters ?? []) {
        // A retired counter is also closed, so it no longer feeds the wait estimate.
        upsert('counters', counters, c.id, { queueUnitId: qu.id, locationId: c.locationId, ...nameColumns(c.name, defaultLanguage), active: c.active ?? true, ...(c.active === false ? { open: false } : {}) })
        link(counterServices, counterServices.counterId, counterServices.serviceId, c.id, c.services, (s) => ({ counterId: c.id, serviceId: s }))
      }
      for (const k of qu.apiKeys ?? []) {
        credential('queue', qu.id, k.name, {
          scopes: k.scopes ?? DEFAULT_QUEUE_SCOPES,
          locations: k.locations ?? null,
          services: k.services ?? null,
          issuePerMinute: k.rateLimits?.issuePerMinute ?? DEFAULT_ISSUE_PER_MINUTE,
          readPerMinute: k.rateLimits?.readPerMinute ?? DEFAULT_READ_PER_MINUTE,
        })
      }
      for (const h of qu.webhooks ?? []) {
        upsert('webhooks', webhooks, h.id, { queueUnitId: qu.id, url: h.url, events: JSON.stringify(h.events), active: h.active ?? true })
        credential('webhook', h.id, h.id, NO_PROPERTIES)
      }
    }
  }
  return { applied, secrets }
}
