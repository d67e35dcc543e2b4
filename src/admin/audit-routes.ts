import { Elysia } from 'elysia'
import type { AdminDeps } from './deps'
import { ApiError, type ErrorDetail } from '../platform/errors'
import { ruled } from '../platform/detail-rules'
import { readAudit } from '../platform/audit'
import { json } from '../platform/http'
import type { AdmissionPlugin } from '../access'
import { AdminCodes } from './errors'
import { readAuditDocs } from './docs'
import { ADMIN_API } from './branch-routes'
import { AUDIT_ADMIN_ONLY_TYPES } from '../screens'

export const AUDIT_PAGE_DEFAULT = 50
export const AUDIT_PAGE_MAX = 200

/** The audit route's query, checked: 422 naming each bad parameter. */
export function auditQuery(query: Record<string, string | undefined>) {
  const problems: ErrorDetail[] = []
  const integer = (name: string, min: number, max: number): number | undefined => {
    const raw = query[name]
    if (raw === undefined || raw === '') return undefined
    const n = Number(raw)
    if (!/^\d+$/.test(raw) || n < min || n > max) problems.push(ruled(name, `must be an integer from ${min} to ${max}`, 'range', { min, max }))
    return n
  }
  let since: number | undefined
  if (query.since !== undefined && query.since !== '') {
    since = Date.parse(query.since)
    if (!/^\d{4}-\d{2}-\d{2}/.test(query.since) || Number.isNaN(since)) problems.push(ruled('since', 'must be an ISO 8601 date or time, e.g. 2026-11-25T00:00:00Z', 'dateTime'))
  }
  // Entity types and actions are letters, dots and hyphens: `webhook-delivery`, `voice-clip`, `queueUnit.edge-take`.
  const text = (name: string, max: number) => {
    const raw = query[name]
    if (raw === undefined || raw === '') return undefined
    if (raw.length > max || !/^[A-Za-z.-]+$/.test(raw)) problems.push(ruled(name, `letters, dots and hyphens, at most ${max}`, 'format', { format: 'other' }))
    return raw
  }
  const limit = integer('limit', 1, AUDIT_PAGE_MAX) ?? AUDIT_PAGE_DEFAULT
  const beforeId = integer('before', 1, Number.MAX_SAFE_INTEGER)
  const entityType = text('entityType', 40)
  const action = text('action', 60)
  if (problems.length > 0) throw new ApiError(422, AdminCodes.VALIDATION_FAILED, 'request validation failed', problems)
  return { limit, ...(since === undefined ? {} : { since }), ...(beforeId === undefined ? {} : { beforeId }), ...(entityType === undefined ? {} : { entityType }), ...(action === undefined ? {} : { action }) }
}


/**
 * `GET /api/admin/v1/audit`: an admin reads every entry; a manager its units' entries, never
 * webhook and key entries (`AUDIT_ADMIN_ONLY_TYPES`, contract §27; docs/admin.md). URLs come
 * without user-info for both (`readAudit`).
 */
export function auditRoutes(deps: AdminDeps, { access }: { access: AdmissionPlugin }) {
  return new Elysia({ name: 'lobby.admin.audit' })
    .use(access)
    .get(`${ADMIN_API}/audit`, ({ query, principal: caller }) => {
      const q = auditQuery(query)
      const data = readAudit(deps.db.$client, { ...q, ...(caller.units === null ? {} : { queueUnitIds: caller.units, withoutEntityTypes: [...AUDIT_ADMIN_ONLY_TYPES] }) })
      return json(200, { data, next: data.length === q.limit ? data[data.length - 1]!.id : null }, { 'cache-control': 'no-store' })
    }, { admitConsole: { who: 'console' }, detail: readAuditDocs })
}
