import { CommonCodes } from '../platform/errors'
import type { ErrorExample } from '../platform/openapi'

/** Every error code of the admin API (contract §17). Tests and the /admin page import these. */
export const AdminCodes = {
  INVALID_JSON: CommonCodes.INVALID_JSON,
  INVALID_REQUEST: CommonCodes.INVALID_REQUEST,
  VALIDATION_FAILED: CommonCodes.VALIDATION_FAILED,
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  NOT_FOUND: CommonCodes.NOT_FOUND,
  /** No session cookie, or the session ended (an API key or a device cookie is never enough). */
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  /** A write authenticated by the session cookie from another origin (contract §7, §16). */
  ORIGIN_FORBIDDEN: 'ORIGIN_FORBIDDEN',
  /** The role may not do this: a clerk anywhere in the console; a manager outside branch settings. */
  ROLE_FORBIDDEN: 'ROLE_FORBIDDEN',
  /** A manager asked for a queue unit that is not among theirs. */
  UNIT_FORBIDDEN: 'UNIT_FORBIDDEN',
  /** The `revision` sent is not the entity's current one: someone else changed it first. */
  EDIT_CONFLICT: 'EDIT_CONFLICT',
  /** A delete of something other configuration still refers to (a service a counter serves…). */
  ENTITY_IN_USE: 'ENTITY_IN_USE',
} as const

export type AdminCode = (typeof AdminCodes)[keyof typeof AdminCodes]

/** An example of each code for the OpenAPI document. */
export const AdminErrorExamples = {
  INVALID_JSON: 'request body is not valid JSON',
  INVALID_REQUEST: { message: 'Content-Type must be application/json', details: [{ path: 'Content-Type', message: 'must be application/json' }] },
  VALIDATION_FAILED: { message: 'request validation failed', details: [{ path: '/name/ar', message: 'Expected string length greater or equal to 1' }] },
  PAYLOAD_TOO_LARGE: 'request body exceeds 65536 bytes',
  NOT_FOUND: 'no counter "ctr_9" in queue unit "qu_main"',
  AUTHENTICATION_FAILED: 'not signed in (or the session ended): sign in at /login',
  ORIGIN_FORBIDDEN: 'a signed-in browser may change things only from a page of this server (Origin does not match)',
  ROLE_FORBIDDEN: 'a clerk may not use the administration console',
  UNIT_FORBIDDEN: 'queue unit "qu_other" is not one of your units',
  EDIT_CONFLICT: 'someone else changed this counter after you loaded it: reload it and make your change again',
  ENTITY_IN_USE: { message: 'service "svc_loans" is still served by counters: change them first', details: [{ path: '/counters/ctr_2', message: 'serves this service' }] },
} as const satisfies Record<keyof typeof AdminCodes, ErrorExample>
