/*
 * The desk feature's door: what another folder of src/ may use of it. Nothing else of
 * src/desk/ is imported from outside (test/platform/imports.test.ts).
 */
export { DeskService } from './service'
