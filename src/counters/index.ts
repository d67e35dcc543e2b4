/*
 * The counters feature's door: what another folder of src/ may use of it. Nothing else of
 * src/counters/ is imported from outside (test/platform/imports.test.ts).
 */
export { DailyClose } from './daily-close'
export { CounterCodes, CounterErrorExamples } from './errors'
export { Names } from './model'
export { CounterService } from './service'
