/*
 * The display feature's door: what another folder of src/ may use of it. Nothing else of
 * src/display/ is imported from outside (test/platform/imports.test.ts).
 */
export { CloseCodes } from './errors'
export { LiveHub, type LiveSocket } from './hub'
export { createLiveHub, liveHubTask } from './live'
export { OpeningWatch } from './opening-watch'
