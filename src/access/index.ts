/*
 * The access feature's door: the one admission (contract §3, §7, §16, §23). Every route that
 * takes a credential declares it through `admissionPlugin`'s macros; the principals' types and
 * the headers' credentials are here too. This folder imports no feature: what it asks of the
 * devices and the people it is handed (`AccessPorts`) by the composition root.
 */
export { Admission, deskCredential, deviceNotPaired, notSignedIn, REPORT_RANGE_READS_PER_MINUTE, type AppointmentCaller, type ConsoleCaller, type DisplayViewer, type Reach, type ReportReader } from './admission'
export { admissionPlugin, type AdmissionPlugin, type ConsoleAdmission, type DeviceAdmission, type KeyAdmission, type ReportAdmission } from './plugin'
export { AccessCodes } from './codes'
export type { AccessDeps, AccessPorts } from './deps'
export {
  DEVICE_COOKIE, SESSION_COOKIE, SESSION_PATTERN, SESSION_PREFIX, SAFE_METHODS,
  assertSameOrigin, assertSessionOrigin, deviceSecretOf, displayTokenOf, isSecureRequest, serverOrigin, sessionIdOf,
} from './headers'
export {
  DEFAULT_ISSUE_PER_MINUTE, DEFAULT_READ_PER_MINUTE, DEFAULT_SCOPES, Scopes,
  credentialScope, hasScope, mayUseLocation, mayUseService, type RateBucket, type Scope,
} from './keys'
export { DEVICE_ROLES, USER_ROLES, type Device, type DeviceBinding, type DeviceRole, type Session, type User, type UserRole, type UserState } from './principals'
