import { CommonCodes } from '../platform/errors'
import type { ErrorExample } from '../platform/openapi'

/**
 * The error codes of the console's devices, staff, keys, webhooks and voice sections under
 * `/api/admin/v1` (contract §17). Tests import these.
 */
export const AdminSectionCodes = {
  INVALID_JSON: CommonCodes.INVALID_JSON,
  INVALID_REQUEST: CommonCodes.INVALID_REQUEST,
  VALIDATION_FAILED: CommonCodes.VALIDATION_FAILED,
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  UNSUPPORTED_CONTENT_TYPE: CommonCodes.UNSUPPORTED_CONTENT_TYPE,
  /** No session cookie, or the session ended. Keys and device cookies are never read here. */
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  /** A state-changing request from another origin than this server's. */
  ORIGIN_FORBIDDEN: 'ORIGIN_FORBIDDEN',
  /** The signed-in role may not use this section (a clerk anywhere; a manager in staff, keys, webhooks). */
  ROLE_FORBIDDEN: 'ROLE_FORBIDDEN',
  /** A manager acting on a queue unit that is not one of theirs (or on a display, bound to a whole workspace). */
  UNIT_FORBIDDEN: 'UNIT_FORBIDDEN',
  DEVICE_NOT_FOUND: 'DEVICE_NOT_FOUND',
  USER_NOT_FOUND: 'USER_NOT_FOUND',
  USER_EXISTS: 'USER_EXISTS',
  KEY_NOT_FOUND: 'KEY_NOT_FOUND',
  KEY_EXISTS: 'KEY_EXISTS',
  WEBHOOK_NOT_FOUND: 'WEBHOOK_NOT_FOUND',
  WEBHOOK_EXISTS: 'WEBHOOK_EXISTS',
  DELIVERY_NOT_FOUND: 'DELIVERY_NOT_FOUND',
  VOICE_CLIP_NOT_FOUND: 'VOICE_CLIP_NOT_FOUND',
} as const

export type AdminSectionCode = (typeof AdminSectionCodes)[keyof typeof AdminSectionCodes]

/** An example of each code for the OpenAPI document. */
export const AdminSectionErrorExamples = {
  INVALID_JSON: 'request body is not valid JSON',
  INVALID_REQUEST: { message: 'Content-Type must be application/json', details: [{ path: 'Content-Type', message: 'must be application/json' }] },
  VALIDATION_FAILED: { message: 'request validation failed', details: [{ path: '/counterId', message: 'no counter "cnt_9"' }] },
  PAYLOAD_TOO_LARGE: 'request body exceeds 1048576 bytes',
  UNSUPPORTED_CONTENT_TYPE: 'Content-Type must be audio/wav, audio/mpeg or audio/ogg',
  AUTHENTICATION_FAILED: 'not signed in (or the session ended): sign in at /login',
  ORIGIN_FORBIDDEN: 'a signed-in browser may change things only from a page of this server (Origin does not match)',
  ROLE_FORBIDDEN: 'only an administrator manages staff accounts',
  UNIT_FORBIDDEN: 'queue unit "qu_east" is not one of yours',
  DEVICE_NOT_FOUND: 'no device named "kiosk-hall"',
  USER_NOT_FOUND: 'no user named "amira.h"',
  USER_EXISTS: { message: 'a user is already named "amira.h"', details: [{ path: '/username', message: 'taken' }] },
  KEY_NOT_FOUND: 'no queue credential named "cms" for qu_main',
  KEY_EXISTS: { message: 'a queue credential named "cms" for qu_main exists: rotate it instead', details: [{ path: '/name', message: 'taken' }] },
  WEBHOOK_NOT_FOUND: 'no webhook endpoint "wh_crm"',
  WEBHOOK_EXISTS: { message: 'a webhook endpoint "wh_crm" exists', details: [{ path: '/id', message: 'taken' }] },
  DELIVERY_NOT_FOUND: 'no webhook delivery "dlv_01JD5DELIVERY0000000000000"',
  VOICE_CLIP_NOT_FOUND: 'no voice clip "ticket" for ar',
} as const satisfies Record<keyof typeof AdminSectionCodes, ErrorExample>
