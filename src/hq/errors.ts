import type { ErrorExamples } from '../platform/openapi'

/** The codes head office answers with (contract §26), beside the common ones. */
export const HqCodes = {
  INVALID_REQUEST: 'INVALID_REQUEST',
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  SIGN_IN_FAILED: 'SIGN_IN_FAILED',
  SIGN_IN_LOCKED: 'SIGN_IN_LOCKED',
  SETUP_CODE_INVALID: 'SETUP_CODE_INVALID',
  PASSWORD_REJECTED: 'PASSWORD_REJECTED',
  ORIGIN_FORBIDDEN: 'ORIGIN_FORBIDDEN',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  EDIT_CONFLICT: 'EDIT_CONFLICT',
  NOTHING_TO_PUBLISH: 'NOTHING_TO_PUBLISH',
  /** A branch's console or admin API refused a change of a field its head-office profile owns. */
  HQ_MANAGED: 'HQ_MANAGED',
} as const
export type HqCode = (typeof HqCodes)[keyof typeof HqCodes]

export const HqErrorExamples: ErrorExamples = {
  INVALID_REQUEST: 'Content-Type must be application/json',
  VALIDATION_FAILED: { message: 'request validation failed', details: [{ path: '/content/services/0/prefix', message: 'must match ^[A-Z]{1,3}$' }] },
  AUTHENTICATION_FAILED: 'not signed in (or the session ended): sign in at /hq/login',
  SIGN_IN_FAILED: 'wrong username or password',
  SIGN_IN_LOCKED: 'too many failed sign-ins for this username: try again in 15 minutes',
  SETUP_CODE_INVALID: 'this setup link is wrong, expired or already used',
  PASSWORD_REJECTED: 'the password must have at least 10 characters',
  ORIGIN_FORBIDDEN: 'a signed-in browser may change things only from a page of this server (Origin does not match)',
  FORBIDDEN: 'an hq-viewer may look, not change: ask an hq-admin',
  NOT_FOUND: 'no profile "prof_retail"',
  EDIT_CONFLICT: 'someone else changed this profile after you loaded it: reload it and make your change again',
  NOTHING_TO_PUBLISH: 'the draft is the same as revision 3: nothing to publish',
  HQ_MANAGED: 'Service "Accounts": its name is set by head office (profile "Retail", revision 3); change it in the head-office console',
}
