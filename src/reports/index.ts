/*
 * The reports feature's door: what another folder of src/ may use of it. Nothing else of
 * src/reports/ is imported from outside (test/platform/imports.test.ts).
 */
export { ReportCache } from './cache'
export { COUNTERS_CSV_HEADER, DAILY_CSV_HEADER, staffCsv, toCsv } from './csv'
export { FeedbackReport } from './feedback'
export { type StaffReportRow } from './model'
export { ReportService, ReportSummaryReader } from './service'
export { StaffReport } from './staff'
