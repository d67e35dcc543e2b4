import { CommonCodes } from '../platform/errors'
import type { ErrorExample } from '../platform/openapi'

/** Every error code the auth routes answer with (contract §16). Tests import these. */
export const PeopleCodes = {
  INVALID_JSON: CommonCodes.INVALID_JSON,
  INVALID_REQUEST: CommonCodes.INVALID_REQUEST,
  VALIDATION_FAILED: CommonCodes.VALIDATION_FAILED,
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  RATE_LIMITED: CommonCodes.RATE_LIMITED,
  /** Wrong username or password (the same answer for an unknown user). */
  SIGN_IN_FAILED: 'SIGN_IN_FAILED',
  /** 5 failures for this username in 15 minutes: locked for 15 minutes (Retry-After). */
  SIGN_IN_LOCKED: 'SIGN_IN_LOCKED',
  /** No session cookie, or the session ended (signed out, idle, 12 h, disabled, reset). */
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  /** A state-changing request authenticated by the session cookie from another origin. */
  ORIGIN_FORBIDDEN: 'ORIGIN_FORBIDDEN',
  /** Wrong, expired or already used setup code. */
  SETUP_CODE_INVALID: 'SETUP_CODE_INVALID',
  /** Fewer than 10 characters. */
  PASSWORD_TOO_SHORT: 'PASSWORD_TOO_SHORT',
  /** Among the 100,000 most common passwords (contract §27). */
  PASSWORD_TOO_COMMON: 'PASSWORD_TOO_COMMON',
  /** One character repeated (`aaaaaaaaaa`, ten spaces). */
  PASSWORD_REPEATED: 'PASSWORD_REPEATED',
  /** A run of letters, digits or keys in a row, forwards or backwards (`abcdefghij`, `1234567890`, `qwertyuiop`). */
  PASSWORD_SEQUENCE: 'PASSWORD_SEQUENCE',
  /** Contains the account's username (of 3 or more characters), in any case. */
  PASSWORD_CONTAINS_USERNAME: 'PASSWORD_CONTAINS_USERNAME',
  /** Contains a workspace's name (of 3 or more characters), in any case. */
  PASSWORD_CONTAINS_WORKSPACE: 'PASSWORD_CONTAINS_WORKSPACE',
  /** A clerk's PIN missing or not 6 digits, or a PIN given for another role. */
  PIN_INVALID: 'PIN_INVALID',
} as const

export type PeopleCode = (typeof PeopleCodes)[keyof typeof PeopleCodes]

/** An example of each code for the OpenAPI document (the messages the routes answer with). */
export const PeopleErrorExamples = {
  INVALID_JSON: 'request body is not valid JSON',
  INVALID_REQUEST: { message: 'Content-Type must be application/json', details: [{ path: 'Content-Type', message: 'must be application/json' }] },
  VALIDATION_FAILED: { message: 'request validation failed', details: [{ path: '/username', message: 'Expected string length less or equal to 64' }] },
  PAYLOAD_TOO_LARGE: 'request body exceeds 4096 bytes',
  RATE_LIMITED: 'too many sign-in attempts from this address; retry after 42 s',
  SIGN_IN_FAILED: 'wrong username or password',
  SIGN_IN_LOCKED: 'too many failed sign-ins for this username; try again in 15 minutes',
  AUTHENTICATION_FAILED: 'not signed in (or the session ended): sign in at /login',
  ORIGIN_FORBIDDEN: 'a signed-in browser may change things only from a page of this server (Origin does not match)',
  SETUP_CODE_INVALID: 'this setup link is wrong, expired or already used: ask an administrator for a new one',
  PASSWORD_TOO_SHORT: { message: 'the password must have at least 10 characters', details: [{ path: '/password', message: 'at least 10 characters' }] },
  PASSWORD_TOO_COMMON: { message: 'this password is among the 100,000 most common: choose another', details: [{ path: '/password', message: 'too common' }] },
  PASSWORD_REPEATED: { message: 'the password is one character repeated: choose another', details: [{ path: '/password', message: 'one repeated character' }] },
  PASSWORD_SEQUENCE: { message: 'the password is a run of letters, digits or keys in a row, forwards or backwards: choose another', details: [{ path: '/password', message: 'a run' }] },
  PASSWORD_CONTAINS_USERNAME: { message: 'the password contains the username: choose another', details: [{ path: '/password', message: 'contains the username' }] },
  PASSWORD_CONTAINS_WORKSPACE: { message: 'the password contains the workspace\'s name: choose another', details: [{ path: '/password', message: 'contains the workspace name' }] },
  PIN_INVALID: { message: 'a clerk\'s PIN is exactly 6 digits', details: [{ path: '/pin', message: 'exactly 6 digits' }] },
} as const satisfies Record<keyof typeof PeopleCodes, ErrorExample>
