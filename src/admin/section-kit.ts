import type { TSchema, Static } from '@sinclair/typebox'
import { serverOrigin } from '../access'
import type { AdminDeps } from './deps'
import { appendAudit, type AuditEntry } from '../platform/audit'
import { assertJsonContentType, closingConnection, parseJsonBytes, readBodyLimited } from '../platform/body'
import { json } from '../platform/http'
import { qrSvg } from '../platform/qr'
import { assertSchema, type SchemaCheck } from '../platform/validation'
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

/**
 * The body's bytes once `checks` (what the route checks of the request after its admission,
 * `admitConsole` with its `body` bound) passed: a refusal leaves the body unread (with
 * `Connection: close` when there is one); a chunked body that grows past `limit` is 413.
 */
export async function bodyAfterChecks<T>(request: Request, limit: number, checks: () => T): Promise<{ raw: Uint8Array; checked: T }> {
  let checked: T
  try {
    checked = checks()
  } catch (error) {
    throw request.body !== null ? closingConnection(error) : error
  }
  return { raw: await readBodyLimited(request, limit), checked }
}

/**
 * A JSON body checked against `check` (422 VALIDATION_FAILED with every failing JSON Pointer),
 * once the route's admission (`admitConsole` with its `body` bound: a declared size over it
 * first, then the session, role and Origin) passed: then the Content-Type (refused with
 * `Connection: close` while the body is unread), then the body within `limit`.
 */
export async function jsonAfterAdmission<S extends TSchema>(request: Request, limit: number, check: SchemaCheck<S>): Promise<Static<S>> {
  try {
    assertJsonContentType(request)
  } catch (error) {
    throw request.body !== null ? closingConnection(error) : error
  }
  const body = parseJsonBytes(await readBodyLimited(request, limit))
  assertSchema(check, body, AdminCodes.VALIDATION_FAILED)
  return body
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
