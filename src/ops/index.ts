/*
 * The ops feature's door: what another folder of src/ may use of it. Nothing else of
 * src/ops/ is imported from outside (test/platform/imports.test.ts).
 */
export { metricsTokenOption, retainDaysOption } from './config'
export { MetricsSink, metricsLoadTask } from './metric-hooks'
export { DEFAULT_RETAIN_DAYS, retentionTask } from './retention'
export { SERVICE_UNIT_DEFAULTS, serviceUnit } from './service-unit'
export { collectStatus, recordBackup } from './status'
