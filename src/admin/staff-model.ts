import { Type } from '@sinclair/typebox'
import { routeDetail } from '../platform/openapi'
import { USER_ROLES } from '../people'
import { AdminCodes as C, AdminSectionErrorExamples } from './errors'

/* The console's staff section (contract §17, §16): schemas and OpenAPI details. Administrators only. */

const Role = Type.Union(USER_ROLES.map((r) => Type.Literal(r)))
const Units = Type.Array(Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,80}$' }), { maxItems: 200, uniqueItems: true, description: 'the units a manager or clerk works in: at least one (none: 422 at /queueUnits); an admin has all and is given none' })
const DisplayName = Type.String({ minLength: 1, maxLength: 120 })

export const AddUserRequest = Type.Object({
  username: Type.String({ pattern: '^[a-z0-9._-]{1,64}$' }),
  role: Role,
  displayName: Type.Optional(DisplayName),
  queueUnits: Type.Optional(Units),
}, { additionalProperties: false })

export const ChangeUserRequest = Type.Object({
  role: Type.Optional(Role),
  queueUnits: Type.Optional(Units),
  displayName: Type.Optional(DisplayName),
}, { additionalProperties: false, minProperties: 1 })

const UserJson = Type.Object({
  username: Type.String(),
  displayName: Type.String(),
  role: Role,
  queueUnits: Type.Array(Type.String()),
  state: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
  passwordSet: Type.Boolean({ description: 'false until the person used their setup link' }),
  createdAt: Type.String({ format: 'date-time' }),
}, { additionalProperties: false })

export const UserResponse = Type.Object({ data: UserJson }, { additionalProperties: false })
export const UserListResponse = Type.Object({ data: Type.Array(UserJson) }, { additionalProperties: false })

export const SetupLinkResponse = Type.Object({
  data: Type.Object({
    username: Type.String(),
    setupPath: Type.String({ description: '/login/setup?code=…: shown here once, never logged, never in the audit log' }),
    setupUrl: Type.String({ description: 'the absolute link the QR code holds' }),
    qrSvg: Type.String({ description: 'an SVG QR code of setupUrl' }),
    expiresAt: Type.String({ format: 'date-time', description: 'the link works once, for 24 hours' }),
  }, { additionalProperties: false }),
}, { additionalProperties: false })

export const DisableUserResponse = Type.Object({
  data: Type.Object({ username: Type.String(), state: Type.Literal('disabled'), sessionsEnded: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
}, { additionalProperties: false })

const tags = ['Admin']
const USER = { username: 'amira.h', displayName: 'Amira Haddad', role: 'manager', queueUnits: ['qu_main'], state: 'active', passwordSet: true, createdAt: '2026-11-20T08:00:00.000Z' }
const LINK = { username: 'amira.h', setupPath: '/login/setup?code=…', setupUrl: 'https://lobby.branch.example/login/setup?code=…', qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" …</svg>', expiresAt: '2026-11-26T09:30:00.000Z' }
const forbidden = { 401: [C.AUTHENTICATION_FAILED], 403: [C.ORIGIN_FORBIDDEN, C.ROLE_FORBIDDEN] } as const
const username = { username: { description: 'the account', example: 'amira.h' } }

export const listUsersDocs = routeDetail({
  operationId: 'adminListUsers',
  summary: 'List staff accounts',
  description: 'Every account with name, role, units and state; never a hash or a code. Administrators only (a manager: 403 ROLE_FORBIDDEN).',
  tags, security: 'sessionCookie',
  responses: { 200: { description: 'the accounts, oldest first', name: 'AdminUserListResponse', schema: UserListResponse, example: { data: [USER] } } },
  errors: { 401: [C.AUTHENTICATION_FAILED], 403: [C.ROLE_FORBIDDEN] },
  errorExamples: AdminSectionErrorExamples,
})

export const addUserDocs = routeDetail({
  operationId: 'adminAddUser',
  summary: 'Add a staff account (setup link and QR code)',
  description: 'As `lobby users add`: the account and a single-use setup link (24 hours) with which the person sets their password (a clerk also a PIN). The link is in this answer only. Audited as `user.create`.',
  tags, security: 'sessionCookie',
  body: { name: 'AdminAddUserRequest', schema: AddUserRequest, examples: { manager: { summary: 'a manager of the main branch', value: { username: 'amira.h', role: 'manager', displayName: 'Amira Haddad', queueUnits: ['qu_main'] } } } },
  responses: { 201: { description: 'the account exists; hand over the link', name: 'AdminSetupLinkResponse', schema: SetupLinkResponse, example: { data: LINK } } },
  errors: { 400: [C.INVALID_REQUEST, C.INVALID_JSON], ...forbidden, 409: [C.USER_EXISTS], 413: [C.PAYLOAD_TOO_LARGE], 422: [C.VALIDATION_FAILED] },
  errorExamples: AdminSectionErrorExamples,
})

export const changeUserDocs = routeDetail({
  operationId: 'adminChangeUser',
  summary: 'Change a role, units or display name',
  description: 'The signed-in person\'s next request sees the change. A clerk signed in at a desk is signed out of it when the role or units change. An administrator cannot change their own role (another administrator can). Audited as `user.update`.',
  tags, security: 'sessionCookie', params: username,
  body: { name: 'AdminChangeUserRequest', schema: ChangeUserRequest, examples: { units: { summary: 'works in two units now', value: { queueUnits: ['qu_main', 'qu_east'] } } } },
  responses: { 200: { description: 'the account as it is now', name: 'AdminUserResponse', schema: UserResponse, example: { data: USER } } },
  errors: { 400: [C.INVALID_REQUEST, C.INVALID_JSON], ...forbidden, 404: [C.USER_NOT_FOUND], 413: [C.PAYLOAD_TOO_LARGE], 422: [C.VALIDATION_FAILED] },
  errorExamples: AdminSectionErrorExamples,
})

export const disableUserDocs = routeDetail({
  operationId: 'adminDisableUser',
  summary: 'Disable a staff account',
  description: 'As `lobby users disable`: no more sign-in; every session and setup link of the account ends now. An administrator cannot disable their own account. Audited as `user.disable`.',
  tags, security: 'sessionCookie', params: username,
  responses: { 200: { description: 'disabled', name: 'AdminDisableUserResponse', schema: DisableUserResponse, example: { data: { username: 'amira.h', state: 'disabled', sessionsEnded: 1 } } } },
  errors: { ...forbidden, 404: [C.USER_NOT_FOUND], 422: [C.VALIDATION_FAILED] },
  errorExamples: AdminSectionErrorExamples,
})

export const resetUserDocs = routeDetail({
  operationId: 'adminResetUser',
  summary: 'Reset a staff account (new setup link)',
  description: 'As `lobby users reset`: password and PIN cleared, every session ended, earlier links void, a disabled account active again; a new link (shown here once) and its QR code. Audited as `user.reset`.',
  tags, security: 'sessionCookie', params: username,
  responses: { 200: { description: 'the new link', name: 'AdminSetupLinkResponse', schema: SetupLinkResponse, example: { data: LINK } } },
  errors: { ...forbidden, 404: [C.USER_NOT_FOUND] },
  errorExamples: AdminSectionErrorExamples,
})
