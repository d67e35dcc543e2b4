import { CommonCodes } from '../platform/errors'
import type { ErrorExample } from '../platform/openapi'

/** Every error code of the live floor's API (contract §22). */
export const ManageCodes = {
  INVALID_JSON: CommonCodes.INVALID_JSON,
  INVALID_REQUEST: CommonCodes.INVALID_REQUEST,
  VALIDATION_FAILED: CommonCodes.VALIDATION_FAILED,
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  /** No session cookie, or the session ended. */
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  /** A state-changing request from another origin. */
  ORIGIN_FORBIDDEN: 'ORIGIN_FORBIDDEN',
  /** Signed in, but not as an admin or a manager. */
  ROLE_FORBIDDEN: 'ROLE_FORBIDDEN',
  /** No such queue unit among the caller's (a manager of another unit gets this too). */
  QUEUE_UNIT_NOT_FOUND: 'QUEUE_UNIT_NOT_FOUND',
  /** No such counter in the unit. */
  COUNTER_NOT_FOUND: 'COUNTER_NOT_FOUND',
  /** The counter holds a ticket: it cannot close. */
  COUNTER_BUSY: 'COUNTER_BUSY',
  /** The unit is switched off. */
  QUEUE_UNIT_INACTIVE: 'QUEUE_UNIT_INACTIVE',
  /** The unit is run by an Edge server now. */
  QUEUE_UNIT_EDGE_MANAGED: 'QUEUE_UNIT_EDGE_MANAGED',
} as const

export type ManageCode = (typeof ManageCodes)[keyof typeof ManageCodes]

export const ManageErrorExamples = {
  INVALID_JSON: 'request body is not valid JSON',
  INVALID_REQUEST: { message: 'Content-Type must be application/json', details: [{ path: 'Content-Type', message: 'must be application/json' }] },
  VALIDATION_FAILED: { message: '"Nap" is not a break reason of this queue unit (Break, Lunch, Admin work, Other)', details: [{ path: '/reason', message: 'must be one of the unit\'s breakReasons: Break, Lunch, Admin work, Other' }] },
  PAYLOAD_TOO_LARGE: 'request body exceeds 1024 bytes',
  AUTHENTICATION_FAILED: 'not signed in (or the session ended): sign in at /login',
  ORIGIN_FORBIDDEN: 'a signed-in browser may change things only from a page of this server (Origin does not match)',
  ROLE_FORBIDDEN: 'the live floor is for managers and administrators',
  QUEUE_UNIT_NOT_FOUND: 'no queue unit "qu_other" among yours',
  COUNTER_NOT_FOUND: 'no counter "cnt_9" in this queue unit',
  COUNTER_BUSY: 'counter cnt_1 holds ticket A007 (CALLED); complete, no-show, requeue or transfer it first',
  QUEUE_UNIT_INACTIVE: 'the queue unit is not active',
  QUEUE_UNIT_EDGE_MANAGED: 'the queue unit is managed by an Edge server until 2026-11-25T10:00:00.000Z',
} as const satisfies Record<keyof typeof ManageCodes, ErrorExample>
