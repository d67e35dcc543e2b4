/*
 * The people feature's door (contract §16): what another folder of src/ uses of accounts and
 * sessions. The root builds `PeopleService` once; the CLI uses it with its own connection.
 */
export {
  PeopleService, USER_ROLES, USER_HOME, USERNAME_PATTERN, UserSetupError, UserNotFoundError,
  SETUP_CODE_TTL_MS, SESSION_IDLE_MS, SESSION_ABSOLUTE_MS, LOCK_FAILURES, LOCK_WINDOW_MS, ADDRESS_FAILURES, ADDRESS_WINDOW_MS, SIGN_IN_ATTEMPTS_PER_ADDRESS,
  SignInFailed, SignInLocked, PIN_LOCK_PREFIX,
  type User, type UserRole, type UserListing, type UserChange, type SetupLink, type NewUser, type ClerkPinCheck,
} from './service'
export { StaffIntervals, dayEnd, type DeskClerk, type DeskClerkState, type IntervalCounter } from './staff'
export { DEFAULT_PASSWORD_COST, MIN_PASSWORD_LENGTH, PIN_PATTERN, passwordProblem, type PasswordContext, type PasswordCost } from './passwords'
export { PeopleCodes, type PeopleCode } from './errors'
export { AUTH_API } from './cookie'
export { StaffReads, type StaffTimeRow } from './staff-reads'
