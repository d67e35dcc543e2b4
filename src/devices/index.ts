/*
 * The devices feature's door: what another folder of src/ may use of it. Nothing else of
 * src/devices/ is imported from outside (test/platform/imports.test.ts).
 */
export { DEVICES_API } from './cookie'
export { DeskCodes, DeviceCodes, DeviceErrorExamples } from './errors'
export { DEVICE_ROLES, DeviceNotFoundError, DeviceService, DeviceSetupError, MAX_PAIRING_TTL_SECONDS, ROLE_HOME, type Device, type DeviceListing, type PairingCode, type PairingRequest } from './service'
