import { CommonCodes } from '../platform/errors'
import type { ErrorExample } from '../platform/openapi'

/**
 * Every error code of the admin API under `/api/admin/v1` (contract §17): the branch settings
 * and the audit log, and the devices, staff, keys, webhooks and voice sections. Tests and the
 * /admin page import these.
 */
export const AdminCodes = {
  INVALID_JSON: CommonCodes.INVALID_JSON,
  INVALID_REQUEST: CommonCodes.INVALID_REQUEST,
  VALIDATION_FAILED: CommonCodes.VALIDATION_FAILED,
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  UNSUPPORTED_CONTENT_TYPE: CommonCodes.UNSUPPORTED_CONTENT_TYPE,
  NOT_FOUND: CommonCodes.NOT_FOUND,
  /** No session cookie, or the session ended (an API key or a device cookie is never enough). */
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  /** A write authenticated by the session cookie from another origin (contract §7, §16). */
  ORIGIN_FORBIDDEN: 'ORIGIN_FORBIDDEN',
  /** The role may not do this: a clerk anywhere in the console; a manager in staff, keys, webhooks or displays. */
  ROLE_FORBIDDEN: 'ROLE_FORBIDDEN',
  /** A manager asked for a queue unit that is not among theirs (or for a display, bound to a whole workspace). */
  UNIT_FORBIDDEN: 'UNIT_FORBIDDEN',
  /** The `revision` sent is not the entity's current one: someone else changed it first. */
  EDIT_CONFLICT: 'EDIT_CONFLICT',
  /** A delete of something other configuration still refers to (a service a counter serves…). */
  ENTITY_IN_USE: 'ENTITY_IN_USE',
  DEVICE_NOT_FOUND: 'DEVICE_NOT_FOUND',
  USER_NOT_FOUND: 'USER_NOT_FOUND',
  USER_EXISTS: 'USER_EXISTS',
  KEY_NOT_FOUND: 'KEY_NOT_FOUND',
  KEY_EXISTS: 'KEY_EXISTS',
  WEBHOOK_NOT_FOUND: 'WEBHOOK_NOT_FOUND',
  WEBHOOK_EXISTS: 'WEBHOOK_EXISTS',
  DELIVERY_NOT_FOUND: 'DELIVERY_NOT_FOUND',
  VOICE_CLIP_NOT_FOUND: 'VOICE_CLIP_NOT_FOUND',
  /** Contract §25: the Notifications section of a workspace that does not exist. */
  WORKSPACE_NOT_FOUND: 'WORKSPACE_NOT_FOUND',
  /** Contract §25: a test send on a channel the workspace has not set up. */
  CHANNEL_NOT_CONFIGURED: 'CHANNEL_NOT_CONFIGURED',
  /** Contract §26: the field is owned by the unit's head-office profile (the message names each such field in words). */
  HQ_MANAGED: 'HQ_MANAGED',
} as const

export type AdminCode = (typeof AdminCodes)[keyof typeof AdminCodes]

/** An example of each code for the OpenAPI document (the branch settings' and audit log's wording). */
export const AdminErrorExamples = {
  INVALID_JSON: 'request body is not valid JSON',
  INVALID_REQUEST: { message: 'Content-Type must be application/json', details: [{ path: 'Content-Type', message: 'must be application/json' }] },
  VALIDATION_FAILED: { message: 'request validation failed', details: [{ path: '/openingHours/mon/1', message: 'overlaps /openingHours/mon/0', rule: 'overlap', params: { day: 'mon', from: '11:00', to: '14:00', otherDay: 'mon', otherFrom: '08:00', otherTo: '12:00' } }] },
  PAYLOAD_TOO_LARGE: 'request body exceeds 65536 bytes',
  NOT_FOUND: 'no counter "ctr_9" in queue unit "qu_main"',
  AUTHENTICATION_FAILED: 'not signed in (or the session ended): sign in at /login',
  ORIGIN_FORBIDDEN: 'a signed-in browser may change things only from a page of this server (Origin does not match)',
  ROLE_FORBIDDEN: 'a clerk may not use the administration console',
  UNIT_FORBIDDEN: 'queue unit "qu_other" is not one of your units',
  EDIT_CONFLICT: 'someone else changed this counter after you loaded it: reload it and make your change again',
  ENTITY_IN_USE: { message: 'service "svc_loans" is still served by counters: change them first', details: [{ path: '/counters/ctr_2', message: 'serves this service' }] },
  UNSUPPORTED_CONTENT_TYPE: 'Content-Type must be audio/wav, audio/mpeg or audio/ogg',
  DEVICE_NOT_FOUND: 'no device named "kiosk-hall"',
  USER_NOT_FOUND: 'no user named "amira.h"',
  USER_EXISTS: { message: 'a user is already named "amira.h"', details: [{ path: '/username', message: 'taken' }] },
  KEY_NOT_FOUND: 'no queue credential named "cms" for qu_main',
  KEY_EXISTS: { message: 'a queue credential named "cms" for qu_main exists: rotate it instead', details: [{ path: '/name', message: 'taken' }] },
  WEBHOOK_NOT_FOUND: 'no webhook endpoint "wh_crm"',
  WEBHOOK_EXISTS: { message: 'a webhook endpoint "wh_crm" exists', details: [{ path: '/id', message: 'taken' }] },
  DELIVERY_NOT_FOUND: 'no webhook delivery "dlv_01JD5DELIVERY0000000000000"',
  VOICE_CLIP_NOT_FOUND: 'no voice clip "ticket" for ar',
  WORKSPACE_NOT_FOUND: 'no workspace "ws_other"',
  CHANNEL_NOT_CONFIGURED: 'set up the SMS gateway first',
  HQ_MANAGED: { message: 'Service "Accounts": name: set by head office (profile "Retail", revision 3). Change it in the head-office console, or leave it as it is.', details: [{ path: '/services/svc_accounts/name', message: 'set by head office (profile "Retail", revision 3)' }] },
} as const satisfies Record<keyof typeof AdminCodes, ErrorExample>

/** The same codes in the sections' wording where it differs (a voice clip's 1 MiB, a staff-only role, a pairing's field). */
export const AdminSectionErrorExamples = {
  ...AdminErrorExamples,
  VALIDATION_FAILED: { message: 'request validation failed', details: [{ path: '/counterId', message: 'no counter "cnt_9"' }] },
  PAYLOAD_TOO_LARGE: 'request body exceeds 1048576 bytes',
  ROLE_FORBIDDEN: 'only an administrator manages staff accounts',
  UNIT_FORBIDDEN: 'queue unit "qu_east" is not one of yours',
} as const satisfies Record<keyof typeof AdminCodes, ErrorExample>
