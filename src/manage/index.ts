/*
 * The manage feature's door: what another folder of src/ may use of it. Nothing else of
 * src/manage/ is imported from outside (test/platform/imports.test.ts).
 */
export { ManageService } from './service'
export type { FloorSnapshot } from './model'
