import { Type, type Static } from '@sinclair/typebox'
import canonicalize from 'canonicalize'
import { compile, schemaErrors } from '../platform/validation'
import { ruled } from '../platform/detail-rules'
import type { ErrorDetail } from '../platform/errors'
import { nameErrors, resolveName } from '../platform/names'
import type { Actor } from '../platform/actor'
import { weeklyHoursErrors } from '../structure'
import { ProvisionedEntities, MAX_BREAK_REASONS, MAX_BREAK_REASON_LENGTH, MAX_NORMAL_PER_PRIORITY, type ProvisioningFile, type ProvisionedQueueUnit } from '../provisioning'

/*
 * A head-office profile (contract §26): what a chain decides once for many branches. Its
 * content is a part of a queue unit's provisioning document, so a branch applies a revision
 * with the provisioning validator it applies a file with (`profileDocument`), and the fields
 * it owns are exactly what `managedFields` lists for the branch console's HQ_MANAGED check.
 *
 * - `services`: chain-wide services by ID (`svc_accounts` is the same service at every branch):
 *   names per language, prefix, default service time and wait target, opening hours. A branch
 *   keeps choosing where it offers them (their locations) and which counters serve them.
 * - `openingHours`: the weekly hours of every location of the branch (closed dates stay local).
 * - `breakReasons`, `priority`: the unit's settings of those names.
 * Absent parts are not owned: the branch keeps its own.
 *
 * Notification templates (contract §25) are not part of a profile yet: this build's
 * provisioning file has no notification settings to carry them (docs/head-office.md).
 */

/** Who applies a head-office revision at a branch (contract §26): its audit entries carry this actor. */
export const HQ_ACTOR: Actor = { type: 'system', id: 'hq' }

const closed = { additionalProperties: false } as const
const { LocalizedName, WeeklyHours } = ProvisionedEntities

export const ProfileService = Type.Object({
  id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,160}$', description: 'the same ID at every branch' }),
  name: LocalizedName,
  prefix: Type.String({ pattern: '^[A-Z]{1,3}$' }),
  defaultServiceSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
  waitTargetSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
  openingHours: Type.Optional(WeeklyHours),
}, closed)

export const ProfileContent = Type.Object({
  services: Type.Optional(Type.Array(ProfileService, { maxItems: 200 })),
  openingHours: Type.Optional(WeeklyHours),
  breakReasons: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: MAX_BREAK_REASON_LENGTH, pattern: '\\S' }), { minItems: 1, maxItems: MAX_BREAK_REASONS })),
  priority: Type.Optional(Type.Object({
    mode: Type.Union([Type.Literal('FIRST'), Type.Literal('INTERLEAVE')]),
    normalPerPriority: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_NORMAL_PER_PRIORITY })),
  }, closed)),
}, closed)
export type ProfileContent = Static<typeof ProfileContent>

const checkContent = compile(ProfileContent)

/** What is wrong with a profile's content (pointers under `prefix`), checked as far as head office can without a branch. */
export function profileContentErrors(content: unknown, prefix = '/content'): ErrorDetail[] {
  if (!checkContent.Check(content)) return schemaErrors(checkContent, content).map((d) => ({ ...d, path: `${prefix}${d.path}` }))
  const problems: ErrorDetail[] = []
  const ids = new Set<string>()
  const prefixes = new Set<string>()
  content.services?.forEach((s, i) => {
    const at = `${prefix}/services/${i}`
    if (ids.has(s.id)) problems.push(ruled(`${at}/id`, 'duplicate service id', 'duplicateId', { kind: 'service' }))
    if (prefixes.has(s.prefix)) problems.push(ruled(`${at}/prefix`, `duplicate prefix ${s.prefix}`, 'duplicateValue', { value: s.prefix }))
    ids.add(s.id)
    prefixes.add(s.prefix)
    problems.push(...nameErrors(s.name, `${at}/name`))
    if (s.openingHours !== undefined) problems.push(...weeklyHoursErrors(s.openingHours, `${at}/openingHours`))
  })
  if (content.openingHours !== undefined) problems.push(...weeklyHoursErrors(content.openingHours, `${prefix}/openingHours`))
  const reasons = new Set<string>()
  content.breakReasons?.forEach((r, i) => {
    if (reasons.has(r)) problems.push(ruled(`${prefix}/breakReasons/${i}`, 'duplicate break reason', 'duplicateValue', { value: r }))
    reasons.add(r)
  })
  if (content.priority?.mode === 'INTERLEAVE' && content.priority.normalPerPriority === undefined) {
    problems.push(ruled(`${prefix}/priority/normalPerPriority`, 'required when mode is INTERLEAVE', 'requiredWith', { mode: 'INTERLEAVE' }))
  }
  if (content.priority?.mode === 'FIRST' && content.priority.normalPerPriority !== undefined) {
    problems.push(ruled(`${prefix}/priority/normalPerPriority`, 'only with mode INTERLEAVE', 'onlyWith', { mode: 'INTERLEAVE' }))
  }
  return problems
}

/** The service fields a profile owns: a branch may not change them while its profile lists the service. */
export const MANAGED_SERVICE_FIELDS = ['name', 'prefix', 'defaultServiceSeconds', 'waitTargetSeconds', 'openingHours', 'active'] as const

type UnitDocument = { workspace: { id: string; name: string }; unit: ProvisionedQueueUnit }

/**
 * The provisioning document that brings the branch's unit to the profile: the unit's settings
 * with the profile's break reasons and priority, every location with the profile's hours, and
 * each profile service with its owned fields as the profile says (absent optional ones take
 * their defaults) and, for a service new to the branch, every active location of the unit.
 * Counters, keys, webhooks and whatever the profile does not name are left out, so they stay.
 */
export function profileDocument({ workspace, unit }: UnitDocument, content: ProfileContent): ProvisioningFile {
  const settings: Record<string, unknown> = { ...unit }
  for (const key of ['locations', 'services', 'counters', 'apiKeys', 'webhooks']) delete settings[key]
  if (content.breakReasons !== undefined) settings.breakReasons = content.breakReasons
  if (content.priority !== undefined) settings.priority = content.priority
  const locations = unit.locations ?? []
  const activeLocations = locations.filter((l) => l.active !== false).map((l) => l.id)
  const out: Record<string, unknown> = { ...settings, id: unit.id }
  if (content.openingHours !== undefined && locations.length > 0) {
    out.locations = locations.map((l) => ({ ...l, openingHours: content.openingHours }))
  }
  if (content.services !== undefined && content.services.length > 0) {
    out.services = content.services.map((s) => {
      const existing = (unit.services ?? []).find((e) => e.id === s.id)
      const merged: Record<string, unknown> = { ...(existing ?? {}) }
      for (const field of MANAGED_SERVICE_FIELDS) delete merged[field]
      return { ...merged, ...s, locations: existing?.locations ?? activeLocations, active: true }
    })
  }
  return { workspaces: [{ id: workspace.id, name: workspace.name, queueUnits: [out as ProvisionedQueueUnit] }] }
}

/** A field of the unit a profile owns, with its value now: what `managedChanges` compares. */
interface ManagedField {
  path: string
  label: string
  value: string
}

function managedFields(unit: ProvisionedQueueUnit, content: ProfileContent): ManagedField[] {
  const language = unit.defaultLanguage ?? 'en'
  const fields: ManagedField[] = []
  const text = (value: unknown) => canonicalize(value ?? null) ?? 'null'
  for (const s of content.services ?? []) {
    const current = (unit.services ?? []).find((e) => e.id === s.id) as Record<string, unknown> | undefined
    const label = `Service "${resolveName(s.name, language, language)}"`
    if (current === undefined) fields.push({ path: `/services/${s.id}`, label, value: 'absent' })
    else for (const f of MANAGED_SERVICE_FIELDS) fields.push({ path: `/services/${s.id}/${f}`, label: `${label}: ${f}`, value: text(f === 'active' ? current[f] ?? true : current[f]) })
  }
  if (content.openingHours !== undefined) {
    for (const l of unit.locations ?? []) fields.push({ path: `/locations/${l.id}/openingHours`, label: `Location "${resolveName(l.name, language, language)}": opening hours`, value: text(l.openingHours) })
  }
  if (content.breakReasons !== undefined) fields.push({ path: '/breakReasons', label: 'Break reasons', value: text(unit.breakReasons) })
  if (content.priority !== undefined) fields.push({ path: '/priority', label: 'Priority', value: text(unit.priority) })
  return fields
}

/** The profile-owned fields an edit of the unit changes (before → after), each with its label in words. */
export function managedChanges(before: ProvisionedQueueUnit, after: ProvisionedQueueUnit, content: ProfileContent): { path: string; label: string }[] {
  const then = new Map(managedFields(before, content).map((f) => [f.path, f]))
  const now = managedFields(after, content)
  const changed: { path: string; label: string }[] = []
  const seen = new Set<string>()
  for (const f of now) {
    seen.add(f.path)
    if (then.get(f.path)?.value !== f.value) changed.push({ path: f.path, label: f.label })
  }
  for (const [path, f] of then) if (!seen.has(path)) changed.push({ path, label: f.label })
  return changed
}
