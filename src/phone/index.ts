/*
 * The phone feature's door: what another folder of src/ may use of it. Nothing else of
 * src/phone/ is imported from outside (test/platform/imports.test.ts).
 */
export { createPhoneWaits, phoneWaitsTask } from './live'
export { PhoneService, type PhoneStatus, type UnitView } from './service'
export { type PhoneWaits } from './waits'
export { PhoneActions } from './actions'
