/*
 * The prayer feature's door: what another folder of src/ may use of it. Nothing else of
 * src/prayer/ is imported from outside (test/platform/imports.test.ts).
 */
export { type PrayerMonthEvent } from './events'
export { Day, LocationSchema, Month } from './model'
export { findSource, prayerToday, readMonth, storedChangeCount } from './service'
export { DEFAULT_PRAYER_PUSH_RATE_LIMIT, prayerSources } from './tables'
