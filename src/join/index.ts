/*
 * The join feature's door: what another folder of src/ may use of it. Nothing else of
 * src/join/ is imported from outside (test/platform/imports.test.ts).
 */
export { JoinService } from './service'
