import type { ErrorExamples } from '../platform/openapi'

/** The codes head office answers with (contract §26), beside the common ones. */
export const HqCodes = {
  INVALID_REQUEST: 'INVALID_REQUEST',
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  SIGN_IN_FAILED: 'SIGN_IN_FAILED',
  SIGN_IN_LOCKED: 'SIGN_IN_LOCKED',
  SETUP_CODE_INVALID: 'SETUP_CODE_INVALID',
  /** The password rules of contract §16 and §27, with the codes the branch's setup answers (the sign-in page's words are keyed by them). */
  PASSWORD_TOO_SHORT: 'PASSWORD_TOO_SHORT',
  PASSWORD_TOO_COMMON: 'PASSWORD_TOO_COMMON',
  PASSWORD_REPEATED: 'PASSWORD_REPEATED',
  PASSWORD_SEQUENCE: 'PASSWORD_SEQUENCE',
  PASSWORD_CONTAINS_USERNAME: 'PASSWORD_CONTAINS_USERNAME',
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
  PASSWORD_TOO_SHORT: { message: 'the password must have at least 10 characters', details: [{ path: '/password', message: 'at least 10 characters' }] },
  PASSWORD_TOO_COMMON: { message: 'this password is among the 100,000 most common: choose another', details: [{ path: '/password', message: 'too common' }] },
  PASSWORD_REPEATED: { message: 'the password is one character repeated: choose another', details: [{ path: '/password', message: 'one character repeated' }] },
  PASSWORD_SEQUENCE: { message: 'the password is a run of letters, digits or keys in a row: choose another', details: [{ path: '/password', message: 'a run' }] },
  PASSWORD_CONTAINS_USERNAME: { message: 'the password must not contain the username: choose another', details: [{ path: '/password', message: 'contains the username' }] },
  ORIGIN_FORBIDDEN: 'a signed-in browser may change things only from a page of this server (Origin does not match)',
  FORBIDDEN: 'an hq-viewer may look, not change: ask an hq-admin',
  NOT_FOUND: 'no profile "prof_retail"',
  EDIT_CONFLICT: 'someone else changed this profile after you loaded it: reload it and make your change again',
  NOTHING_TO_PUBLISH: 'the draft is the same as revision 3: nothing to publish',
  HQ_MANAGED: 'Service "Accounts": its name is set by head office (profile "Retail", revision 3); change it in the head-office console',
}
