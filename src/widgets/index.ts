/*
 * The widgets feature's door: what another folder of src/ may use of it. Nothing else of
 * src/widgets/ is imported from outside (test/platform/imports.test.ts).
 */
export { PAYLOADS, WIDGET_TYPES } from './model'
export { getWidgetSnapshot, type WidgetSnapshot } from './service'
export { WidgetStore } from './store'
export { DEFAULT_WIDGET_PUSH_RATE_LIMIT, widgets } from './tables'
