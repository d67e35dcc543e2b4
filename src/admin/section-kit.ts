import type { TSchema, Static } from '@sinclair/typebox'
import type { AdminDeps } from './deps'
import { ApiError } from '../platform/errors'
import { appendAudit, type AuditEntry } from '../platform/audit'
import { closingConnection, isJsonContentType, parseJsonBytes, readBodyLimited } from '../platform/body'
import { json } from '../platform/http'
import { qrSvg } from '../platform/qr'
import { assertSchema, type SchemaCheck } from '../platform/validation'
import { serverOrigin } from '../devices'
import type { User } from '../people'
import { AdminCodes } from './errors'

/*
 * What the console's section routes share: the order of checks for a body (declared size →
 * session, role and Origin → Content-Type → body within its bound → JSON → schema), the write
 * with its audit entry in one transaction, and the absolute link a QR code holds.
 */

/** Answers of the console API are about one person's session: never cached. */
export const NO_STORE = { 'cache-control': 'no-store' } as const

export function ok(status: number, body: unknown): Response {
  return json(status, body, NO_STORE)
}

function declaredOver(request: Request, limit: number): boolean {
  const declared = request.headers.get('content-length')
  return declared !== null && Number(declared) > limit
}

/**
 * The body's bytes once `guard` (the session, role and Origin; async, as sessions are) and
 * `headerChecks` passed: nothing of the body is read for a caller who is refused. A declared
 * size over `limit` is refused first (413 in the envelope); so is a chunked body that grows past it.
 */
export async function bodyAfterGuard<T>(request: Request, limit: number, guard: () => Promise<T>, headerChecks: () => void = () => {}): Promise<{ raw: Uint8Array; checked: T }> {
  if (declaredOver(request, limit)) throw closingConnection(new ApiError(413, AdminCodes.PAYLOAD_TOO_LARGE, `request body exceeds ${limit} bytes`))
  let checked: T
  try {
    checked = await guard()
    headerChecks()
  } catch (error) {
    throw request.body !== null ? closingConnection(error) : error
  }
  return { raw: await readBodyLimited(request, limit), checked }
}

/** A JSON body checked against `check` (422 VALIDATION_FAILED with every failing JSON Pointer), after `guard`. */
export async function jsonAfterGuard<S extends TSchema, T>(request: Request, limit: number, check: SchemaCheck<S>, guard: () => Promise<T>): Promise<{ body: Static<S>; checked: T }> {
  const { raw, checked } = await bodyAfterGuard(request, limit, guard, () => {
    if (!isJsonContentType(request)) {
      throw new ApiError(400, AdminCodes.INVALID_REQUEST, 'Content-Type must be application/json', [{ path: 'Content-Type', message: 'must be application/json' }])
    }
  })
  const body = parseJsonBytes(raw)
  assertSchema(check, body, AdminCodes.VALIDATION_FAILED)
  return { body, checked }
}

/** The audit actor of a console change: the signed-in person. */
export function actorOf(user: User) {
  return { type: 'user' as const, id: user.username }
}

/**
 * One console write: `work` runs through the one write path (the group commit), and the audit
 * entry it returns is appended in the same transaction, so the change and its entry land or
 * fail together. `work` runs synchronously and may call a service that opens its own
 * transaction: inside the batch's that becomes a savepoint.
 */
export function auditedWrite<R>(deps: AdminDeps, user: User, work: () => { result: R; audit: Omit<AuditEntry, 'actor'> }): Promise<R> {
  return deps.writes.run(() => {
    const { result, audit } = work()
    appendAudit(deps.db.$client, { ...audit, actor: actorOf(user) }, deps.clock.now())
    return result
  })
}

/** `path` as an absolute URL of this server (what a phone's camera needs from a QR code). */
export function absoluteUrl(deps: AdminDeps, request: Request, path: string): string {
  return serverOrigin(request, deps.publicOrigin) + path
}

/** A QR code (SVG) of `url`, made on the box (src/platform/qr.ts). */
export function qrOf(url: string, label: string): string {
  return qrSvg(url, { label })
}
