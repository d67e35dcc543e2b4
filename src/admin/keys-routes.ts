import { Elysia } from 'elysia'
import type { AdmissionPlugin } from '../access'
import { Type } from '@sinclair/typebox'
import type { AdminDeps } from './deps'
import { ApiError } from '../platform/errors'
import { assertSchema, compile } from '../platform/validation'
import { NamedKey, QueueKey } from '../provisioning'
import { ADMIN_API } from './branch-routes'
import { auditedWrite, jsonAfterAdmission, ok } from './section-kit'
import { AdminCodes as C } from './errors'
import { type AdminKeys, KeyNotFoundError, KeyRefused, type NewKey } from './keys-service'
import { CreateKeyHead, createKeyDocs, listKeysDocs, RevokeKeyRequest, revokeKeyDocs, RotateKeyRequest, rotateKeyDocs } from './keys-model'

const MAX_BODY = 16_384
/** The head first (kind and owner, other fields left to the second check), then the rest by the provisioning file's schema of that kind. */
const checkHead = compile(Type.Object(CreateKeyHead.properties))
const checkQueueKey = compile(QueueKey)
const checkNamedKey = compile(NamedKey)
const checkRotate = compile(RotateKeyRequest)
const checkRevoke = compile(RevokeKeyRequest)

const entityOf = (k: { kind: string; owner: string; name: string }) => ({ type: 'key', id: `${k.kind}/${k.owner}/${k.name}` })

function notFound(error: unknown): never {
  if (error instanceof KeyNotFoundError) throw new ApiError(404, C.KEY_NOT_FOUND, error.message)
  throw error
}

/**
 * The console's keys section (contract §17), administrators only: list (no secrets), create,
 * rotate with grace, revoke. A secret is in the answer that made it, nowhere else: not in the
 * list, the log or the audit entry.
 */
export function adminKeyRoutes(deps: AdminDeps, { access, adminKeys: keys }: { access: AdmissionPlugin; adminKeys: AdminKeys }) {

  return new Elysia({ name: 'lobby.admin.keys' })
    .use(access)
    .get(`${ADMIN_API}/keys`, async ({ request, principal }) => {
      return ok(200, { data: keys.list(deps.clock.now()) })
    }, { admitConsole: { who: 'admin' }, detail: listKeysDocs })
    .post(`${ADMIN_API}/keys`, async ({ request, principal }) => {
      const body = await jsonAfterAdmission(request, MAX_BODY, checkHead)
      const user = principal.user
      const { kind, owner, ...rest } = body as Record<string, unknown> & { kind: NewKey['kind']; owner: string }
      // The same schema as a key in a provisioning file, so the same mistake has the same pointer's tail.
      assertSchema(kind === 'queue' ? checkQueueKey : checkNamedKey, rest, C.VALIDATION_FAILED)
      const key = { kind, owner, ...rest } as NewKey
      const now = deps.clock.now()
      const made = await auditedWrite(deps, user, () => {
        const created = keys.create(key, now)
        return { result: created, audit: { action: 'key.create', entity: entityOf(key), after: { kind, owner, name: key.name, ...created.properties } } }
      }).catch((error) => {
        if (error instanceof KeyRefused) throw error.kind === 'exists' ? new ApiError(409, C.KEY_EXISTS, error.message, error.details) : new ApiError(422, C.VALIDATION_FAILED, error.message, error.details)
        throw error
      })
      deps.log({ level: 'info', msg: 'key created', by: user.username, kind, owner, name: key.name })
      return ok(201, { data: { kind, owner, name: key.name, secret: made.secret, previousWorksUntil: null } })
    }, { admitConsole: { who: 'admin', body: MAX_BODY }, parse: 'none', detail: createKeyDocs })
    .post(`${ADMIN_API}/keys/rotate`, async ({ request, principal }) => {
      const body = await jsonAfterAdmission(request, MAX_BODY, checkRotate)
      const user = principal.user
      const grace = body.graceSeconds ?? 0
      const now = deps.clock.now()
      const rotated = await auditedWrite(deps, user, () => {
        const done = keys.rotate(body.kind, body.owner, body.name, grace, now)
        return { result: done, audit: { action: 'key.rotate', entity: entityOf(body), after: { graceSeconds: grace, previousWorksUntil: done.previousWorksUntil } } }
      }).catch(notFound)
      deps.log({ level: 'info', msg: 'key rotated', by: user.username, kind: body.kind, owner: body.owner, name: body.name, graceSeconds: grace })
      return ok(200, { data: rotated })
    }, { admitConsole: { who: 'admin', body: MAX_BODY }, parse: 'none', detail: rotateKeyDocs })
    .post(`${ADMIN_API}/keys/revoke`, async ({ request, principal }) => {
      const body = await jsonAfterAdmission(request, MAX_BODY, checkRevoke)
      const user = principal.user
      const now = deps.clock.now()
      const revoked = await auditedWrite(deps, user, () => {
        const done = keys.revoke(body.kind, body.owner, body.name, now)
        return { result: done, audit: { action: 'key.revoke', entity: entityOf(body), after: { revoked: done.revoked } } }
      }).catch(notFound)
      deps.log({ level: 'info', msg: 'key revoked', by: user.username, kind: body.kind, owner: body.owner, name: body.name })
      return ok(200, { data: revoked })
    }, { admitConsole: { who: 'admin', body: MAX_BODY }, parse: 'none', detail: revokeKeyDocs })
}
