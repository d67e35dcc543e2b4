import { Type } from '@sinclair/typebox'
import { routeDetail } from '../platform/openapi'
import { CREDENTIAL_KINDS } from '../structure'
import { QUEUE_SCOPES } from '../provisioning'
import { AdminCodes as C, AdminSectionErrorExamples } from './errors'

/* The console's keys section (contract §17): schemas and OpenAPI details. Administrators only. */

/** Kinds the console creates: webhook signing secrets come with their endpoint (webhooks section). */
export const CREATABLE_KINDS = ['queue', 'workspace', 'display'] as const

const Owner = Type.String({ pattern: '^[A-Za-z0-9_-]{1,160}$', description: 'the queue unit (queue keys), the workspace (workspace keys, display tokens) or the webhook (webhook secrets)' })
const KeyName = Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,80}$' })
const Kind = Type.Union(CREDENTIAL_KINDS.map((k) => Type.Literal(k)))

/** The first look at a create body: which kind and owner; the rest is checked by the provisioning file's key schema. */
export const CreateKeyHead = Type.Object({
  kind: Type.Union(CREATABLE_KINDS.map((k) => Type.Literal(k))),
  owner: Owner,
})

/** What the document shows for a create body: a queue key takes the provisioning file's key fields; the others only a name. */
export const CreateKeyRequest = Type.Object({
  kind: Type.Union(CREATABLE_KINDS.map((k) => Type.Literal(k))),
  owner: Owner,
  name: KeyName,
  scopes: Type.Optional(Type.Array(Type.Union(QUEUE_SCOPES.map((s) => Type.Literal(s))), { minItems: 1, uniqueItems: true, description: 'queue keys only (default services:read, tickets:write, tickets:read, state:read)' })),
  locations: Type.Optional(Type.Array(Type.String(), { minItems: 1, uniqueItems: true, description: 'queue keys only: limited to these locations of its unit' })),
  services: Type.Optional(Type.Array(Type.String(), { minItems: 1, uniqueItems: true, description: 'queue keys only: limited to these services of its unit' })),
  rateLimits: Type.Optional(Type.Object({ issuePerMinute: Type.Optional(Type.Integer({ minimum: 1 })), readPerMinute: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false })),
}, { additionalProperties: false })

export const RotateKeyRequest = Type.Object({
  kind: Kind,
  owner: Owner,
  name: KeyName,
  graceSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 * 86_400, description: 'how long the replaced secret keeps working (default 0: it stops now)' })),
}, { additionalProperties: false })

export const RevokeKeyRequest = Type.Object({ kind: Kind, owner: Owner, name: KeyName }, { additionalProperties: false })

export const KeyListResponse = Type.Object({
  data: Type.Array(Type.Object({
    kind: Kind,
    owner: Type.String(),
    name: Type.String(),
    state: Type.Union([Type.Literal('active'), Type.Literal('grace'), Type.Literal('rotated-out'), Type.Literal('revoked')]),
    created: Type.String({ format: 'date-time' }),
    lastUsed: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    expires: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'a replaced version works until then' }),
  }, { additionalProperties: false })),
}, { additionalProperties: false })

export const SecretResponse = Type.Object({
  data: Type.Object({
    kind: Kind,
    owner: Type.String(),
    name: Type.String(),
    secret: Type.String({ description: 'shown in this answer only: never listed, logged or audited' }),
    previousWorksUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'rotate: until when the replaced secret still works' }),
  }, { additionalProperties: false }),
}, { additionalProperties: false })

export const RevokeKeyResponse = Type.Object({
  data: Type.Object({ kind: Kind, owner: Type.String(), name: Type.String(), revoked: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
}, { additionalProperties: false })

const tags = ['Admin']
const forbidden = { 401: [C.AUTHENTICATION_FAILED], 403: [C.ORIGIN_FORBIDDEN, C.ROLE_FORBIDDEN] } as const
const bodyErrors = { 400: [C.INVALID_REQUEST, C.INVALID_JSON], 413: [C.PAYLOAD_TOO_LARGE], 422: [C.VALIDATION_FAILED] } as const
const SECRET = { kind: 'queue', owner: 'qu_main', name: 'cms', secret: 'lbq_…', previousWorksUntil: null }

export const listKeysDocs = routeDetail({
  operationId: 'adminListKeys',
  summary: 'List keys and display tokens',
  description: 'Every version of every queue key, workspace key, display token and webhook secret: kind, owner, name, state, created, last used, expiry. Never a secret or a hash.',
  tags, security: 'sessionCookie',
  responses: { 200: { description: 'the credentials', name: 'AdminKeyListResponse', schema: KeyListResponse, example: { data: [{ kind: 'queue', owner: 'qu_main', name: 'cms', state: 'active', created: '2026-11-20T08:00:00.000Z', lastUsed: '2026-11-25T09:30:00.000Z', expires: null }] } } },
  errors: { 401: [C.AUTHENTICATION_FAILED], 403: [C.ROLE_FORBIDDEN] },
  errorExamples: AdminSectionErrorExamples,
})

export const createKeyDocs = routeDetail({
  operationId: 'adminCreateKey',
  summary: 'Create a queue key, workspace key or display token',
  description: 'A new credential; its secret is in this answer only. A queue key\'s fields are checked by the provisioning file\'s key schema (the same JSON Pointers), its locations and services must be its unit\'s. A name in use (even revoked) is 409 KEY_EXISTS: rotate it. Audited as `key.create` without the secret.',
  tags, security: 'sessionCookie',
  body: { name: 'AdminCreateKeyRequest', schema: CreateKeyRequest, examples: { queue: { summary: 'a key for the CMS', value: { kind: 'queue', owner: 'qu_main', name: 'cms', scopes: ['services:read', 'state:read'] } }, display: { summary: 'a display token', value: { kind: 'display', owner: 'ws_demo', name: 'hall-tv' } } } },
  responses: { 201: { description: 'created; copy the secret now', name: 'AdminSecretResponse', schema: SecretResponse, example: { data: SECRET } } },
  errors: { ...bodyErrors, ...forbidden, 409: [C.KEY_EXISTS] },
  errorExamples: AdminSectionErrorExamples,
})

export const rotateKeyDocs = routeDetail({
  operationId: 'adminRotateKey',
  summary: 'Rotate a key (with grace)',
  description: 'As `lobby keys rotate`: a new secret (in this answer only); the replaced one keeps working `graceSeconds` (default 0). Scopes, locations and limits carry over. Audited as `key.rotate`.',
  tags, security: 'sessionCookie',
  body: { name: 'AdminRotateKeyRequest', schema: RotateKeyRequest, examples: { grace: { summary: 'a day to switch over', value: { kind: 'queue', owner: 'qu_main', name: 'cms', graceSeconds: 86400 } } } },
  responses: { 200: { description: 'rotated; copy the new secret now', name: 'AdminSecretResponse', schema: SecretResponse, example: { data: { ...SECRET, previousWorksUntil: '2026-11-26T09:30:00.000Z' } } } },
  errors: { ...bodyErrors, ...forbidden, 404: [C.KEY_NOT_FOUND] },
  errorExamples: AdminSectionErrorExamples,
})

export const revokeKeyDocs = routeDetail({
  operationId: 'adminRevokeKey',
  summary: 'Revoke a key',
  description: 'As `lobby keys revoke`: every version stops working now. Audited as `key.revoke`.',
  tags, security: 'sessionCookie',
  body: { name: 'AdminRevokeKeyRequest', schema: RevokeKeyRequest, examples: { revoke: { summary: 'a leaked key', value: { kind: 'queue', owner: 'qu_main', name: 'cms' } } } },
  responses: { 200: { description: 'revoked', name: 'AdminRevokeKeyResponse', schema: RevokeKeyResponse, example: { data: { kind: 'queue', owner: 'qu_main', name: 'cms', revoked: 1 } } } },
  errors: { ...bodyErrors, ...forbidden, 404: [C.KEY_NOT_FOUND] },
  errorExamples: AdminSectionErrorExamples,
})
