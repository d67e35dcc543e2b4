/*
 * The kiosk feature's door: what another folder of src/ may use of it. Nothing else of
 * src/kiosk/ is imported from outside (test/platform/imports.test.ts).
 */
export { KioskTicketResponse } from './model'
export { KioskService } from './service'
