import { fieldName } from './error-words'
import { fill, STRINGS, type Lang, type Strings } from './strings'

/*
 * An audit entry's change as its fields (contract §24, "the audit log shows each change as its
 * fields, before → after"). DOM-free, so test/admin/audit-diff.test.ts imports it.
 *
 * The snapshots are walked together: where both sides are sets of fields (or one side is missing)
 * each field is compared on its own, so a nested field is one row with its path ("Opening hours,
 * Monday", "Name (Arabic)"); anything else (a text, a number, a list, or a field whose shape
 * changed) is one row, listed only when it differs. A create lists every field it set, a delete
 * every field it had. Fields are named by the label the Branch forms give them (strings.ts,
 * shortened and grouped as the errors in words name them, error-words.ts `fieldName`), else by
 * their path (`appointments.slotMinutes`). Values are text: lists joined, an opening
 * ("08:30", "12:00") as 08:30–12:00, a set of fields as `key: value, …`.
 */

export interface FieldChange {
  /** The field's path in the snapshot, e.g. ['openingHours', 'mon']. */
  path: string[]
  /** Its name on the page, in the page's language. */
  label: string
  /** Its value before and after as text; null where the field was not there. */
  before: string | null
  after: string | null
}

export interface AuditChange {
  /** `create`: no snapshot before; `delete`: none after; else `update`. */
  kind: 'create' | 'update' | 'delete'
  fields: FieldChange[]
}

type Label = (t: Strings) => string
type Snapshot = Record<string, unknown>

/** Labels of the Branch forms, by field path: for every entity type, then per type (which wins). */
const COMMON: Record<string, Label> = {
  id: (t) => t.id,
  name: (t) => t.name,
  queueUnitId: (t) => t.unit,
  workspaceId: (t) => t.workspace,
  active: (t) => t.active,
  timezone: (t) => t.timezone,
  openingHours: (t) => t.hours,
}

const BY_TYPE: Record<string, Record<string, Label>> = {
  queueUnit: {
    languages: (t) => t.languages,
    defaultLanguage: (t) => t.defaultLanguage,
    priority: (t) => t.priorityMode,
    'priority.mode': (t) => t.priorityMode,
    'priority.normalPerPriority': (t) => t.normalPerPriority,
    kioskPriority: (t) => t.kioskPriority,
    deskSignIn: (t) => t.deskSignIn,
    breakReasons: (t) => t.breakReasons,
    noShowGraceMinutes: (t) => t.noShowGraceMinutes,
    approachingAhead: (t) => t.approachingAhead,
  },
  location: {
    closedDates: (t) => t.closedDates,
    lastTicketMinutesBeforeClose: (t) => t.lastTicketMinutes,
    remoteJoin: (t) => t.remoteJoin,
    'remoteJoin.enabled': (t) => t.remoteJoin,
    'remoteJoin.maxWaiting': (t) => t.maxWaiting,
    'remoteJoin.allowedNetworks': (t) => t.allowedNetworks,
  },
  service: {
    prefix: (t) => t.prefix,
    locations: (t) => t.serviceLocations,
    defaultServiceSeconds: (t) => t.defaultServiceSeconds,
    waitTargetSeconds: (t) => t.waitTargetSeconds,
  },
  counter: {
    locationId: (t) => t.location,
    services: (t) => t.counterServices,
  },
  webhook: {
    url: (t) => t.url,
    events: (t) => t.events,
    active: (t) => t.webhookActive,
  },
  user: {
    username: (t) => t.username,
    displayName: (t) => t.displayName,
    role: (t) => t.userRole,
    queueUnits: (t) => t.userUnits,
    state: (t) => t.state,
    passwordSet: (t) => t.password,
    createdAt: (t) => t.created,
  },
  device: {
    role: (t) => t.deviceRole,
    binding: (t) => t.binding,
    expiresAt: (t) => t.expires,
    state: (t) => t.state,
  },
  key: {
    kind: (t) => t.keyKind,
    owner: (t) => t.keyOwner,
    graceSeconds: (t) => t.graceSeconds,
  },
}

/** Fields shown in a group of the form (a fieldset): named after the group's legend, as errors are. */
const GROUPS: Record<string, Label> = { openingHours: (t) => t.hours, remoteJoin: (t) => t.remoteJoin }

const isFields = (value: unknown): value is Snapshot => value !== null && typeof value === 'object' && !Array.isArray(value)

/** A language tag's name in the page's language ("ar" → "Arabic"), else the tag. */
function languageName(tag: string, lang: Lang): string {
  try {
    return new Intl.DisplayNames([lang], { type: 'language' }).of(tag) ?? tag
  } catch {
    return tag
  }
}

/** The page's name of the field at `path` of an entity of `type`. */
export function fieldLabel(type: string, path: string[], lang: Lang): string {
  const t = STRINGS[lang]
  const key = path.join('.')
  if (path[0] === 'name' && path.length === 2) return fill(t.nameIn, { language: languageName(path[1]!, lang) })
  if (path[0] === 'openingHours' && path.length === 2) {
    const day = (t.days as Record<string, string>)[path[1]!] ?? path[1]!
    return fieldName(day, t.hours, lang)
  }
  const label = BY_TYPE[type]?.[key] ?? (path.length === 1 ? COMMON[key] : undefined)
  if (label === undefined) return key === '' ? type : key
  const group = path.length > 1 ? GROUPS[path[0]!] : undefined
  return fieldName(label(t), group === undefined ? null : group(t), lang)
}

const TIME = /^\d{2}:\d{2}$/

/** A value as text: a list joined, an opening as from–to, a set of fields as `key: value, …`. */
export function valueText(value: unknown, lang: Lang): string {
  const t = STRINGS[lang]
  if (value === null || value === undefined) return '—'
  if (typeof value === 'boolean') return value ? t.yes : t.no
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  if (Array.isArray(value)) {
    if (value.length === 0) return '—'
    if (value.length === 2 && value.every((v) => typeof v === 'string' && TIME.test(v))) return `${value[0]}–${value[1]}`
    return value.map((v) => (isFields(v) ? `(${valueText(v, lang)})` : valueText(v, lang))).join(', ')
  }
  if (isFields(value)) {
    const parts = Object.entries(value).map(([k, v]) => `${k}: ${Array.isArray(v) || isFields(v) ? `(${valueText(v, lang)})` : valueText(v, lang)}`)
    return parts.length === 0 ? '—' : parts.join(', ')
  }
  return String(value)
}

/** The fields that differ between two values at `path`, appended to `out` (absent: undefined). */
function walk(type: string, before: unknown, after: unknown, path: string[], lang: Lang, out: FieldChange[]): void {
  const beforeFields = before === undefined || isFields(before)
  const afterFields = after === undefined || isFields(after)
  if (beforeFields && afterFields && (before !== undefined || after !== undefined)) {
    const b = (before ?? {}) as Snapshot
    const a = (after ?? {}) as Snapshot
    for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) walk(type, b[key], a[key], [...path, key], lang, out)
    return
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return
  const change: FieldChange = {
    path,
    label: fieldLabel(type, path, lang),
    before: before === undefined ? null : valueText(before, lang),
    after: after === undefined ? null : valueText(after, lang),
  }
  // An absent list and an empty one, or null and nothing, read the same: nothing to show.
  if ((change.before ?? '—') === (change.after ?? '—')) return
  out.push(change)
}

/** An entry's change as its fields, in the page's language. */
export function auditChange(entry: { entity: { type: string }; before: unknown; after: unknown }, lang: Lang): AuditChange {
  const before = entry.before === null ? undefined : entry.before
  const after = entry.after === null ? undefined : entry.after
  const fields: FieldChange[] = []
  walk(entry.entity.type, before, after, [], lang, fields)
  const kind = before === undefined && after !== undefined ? 'create' : after === undefined && before !== undefined ? 'delete' : 'update'
  return { kind, fields }
}
