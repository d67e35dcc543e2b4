import { routeDetail } from '../platform/openapi'
import { REPORT_RANGE_READS_PER_MINUTE } from '../access'
import { ReportCodes, ReportErrorExamples } from './errors'
import { CounterReportResponse, DailyReportResponse, ReportSummaryResponse, StaffReportResponse, FeedbackReportResponse } from './model'
import { NO_BREAK_REASON } from './csv'
import { MAX_REPORT_DAYS } from './service'

/*
 * The OpenAPI details of the report routes (src/reports/routes.ts): their queries, examples of
 * the rows, and the error codes they answer with.
 */

const errors = {
  401: [ReportCodes.AUTHENTICATION_FAILED],
  403: [ReportCodes.SCOPE_FORBIDDEN, ReportCodes.ROLE_FORBIDDEN],
  422: [ReportCodes.VALIDATION_FAILED],
  429: [ReportCodes.RATE_LIMITED],
}

const range = {
  from: { description: 'first business day, YYYY-MM-DD', example: '2026-11-01', required: true, schema: { type: 'string', format: 'date' } },
  to: { description: 'last business day (inclusive), YYYY-MM-DD', example: '2026-11-30', required: true, schema: { type: 'string', format: 'date' } },
}
const UNIT_QUERY = { queueUnitId: { description: "only this queue unit (one of the reader's: a manager may work in several, an admin reads every unit)", example: 'qu_main' } }
const DAILY_QUERY = {
  ...range,
  ...UNIT_QUERY,
  locationId: { description: 'only this location', example: 'loc_hall' },
  serviceId: { description: 'only this service', example: 'svc_accounts' },
}
const COUNTER_QUERY = { ...range, ...UNIT_QUERY, locationId: { description: 'only this location', example: 'loc_hall' } }
const STAFF_QUERY = { ...range, ...UNIT_QUERY }

const DAILY_EXAMPLE = {
  date: '2026-11-25', locationId: 'loc_hall', serviceId: 'svc_accounts',
  issued: 4, served: 1, noShow: 1, cancelled: 1, transferredOut: 1,
  waitSeconds: { avg: 540, p50: 600, p90: 900, max: 900 },
  serviceSeconds: { avg: 300, p50: 300, p90: 300 },
  withinTarget: 0.667,
  issuedByHour: [0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
}
const COUNTER_EXAMPLE = {
  date: '2026-11-25', counterId: 'cnt_1', locationId: 'loc_hall', served: 3, noShow: 0,
  serviceSeconds: { avg: 393.3, p50: 300, p90: 640 }, busySeconds: 1650,
}
const STAFF_EXAMPLE = {
  date: '2026-11-25', username: 'lina.k', displayName: 'Lina K.', served: 3, noShow: 1,
  serviceSeconds: { avg: 250, p50: 240, p90: 330 }, signedInSeconds: 25_200, breakSeconds: { Lunch: 1800, Break: 600 },
}
const SUMMARY_EXAMPLE = {
  from: '2026-11-25', to: '2026-11-25',
  queueUnits: [{ id: 'qu_main', name: 'Main branch', names: { en: 'Main branch', ar: 'الفرع الرئيسي' } }],
  queueUnitId: 'qu_main',
  defaultLanguage: 'en',
  locations: [{ id: 'loc_hall', name: 'Main hall', names: { en: 'Main hall', ar: 'القاعة الرئيسية' }, timezone: 'Europe/Berlin' }],
  services: [{ id: 'svc_accounts', name: 'Accounts', names: { en: 'Accounts', ar: 'الحسابات' }, waitTargetSeconds: 600 }],
  counters: [{ id: 'cnt_1', name: 'Counter 1', names: { en: 'Counter 1', ar: 'الشباك ١' }, locationId: 'loc_hall' }],
  lines: [{
    locationId: 'loc_hall', serviceId: 'svc_accounts', issued: 4, served: 1, called: 3, withinTarget: 2,
    issuedByHour: DAILY_EXAMPLE.issuedByHour,
    servedByHour: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    waitBins: [1, 0, 1, 1, 0, 0, 0, 0],
  }],
}

/** Who may read every report route (contract §12, §16, §24 "Reports for people"). */
const READERS = 'Readers: a Queue key with `reports:read` (not a default scope; its unit, within its locations and services), a paired `reports` device by its cookie (its unit), or a signed-in manager (the units it works in) or admin (every unit) by the `lobby_session` cookie; a clerk\'s session is 403 ROLE_FORBIDDEN, no credential 401. With an Authorization header the cookies are not read; a browser with both cookies is read as the device when that is a paired reports device, else as the session.'

const RANGE_RULES = `\`from\` and \`to\` are business days of the locations (YYYY-MM-DD, inclusive, at most ${MAX_REPORT_DAYS} days); \`queueUnitId\` narrows to one of the reader's units (without it, all of them together); a bad date, from after to, or a filter naming a unit, location or service the reader cannot see is 422 VALIDATION_FAILED. ${READERS} Rows exist for the days something happened. Range reads (summary, daily, counters, staff together) are limited to ${REPORT_RANGE_READS_PER_MINUTE} a minute per credential or person (429 RATE_LIMITED with Retry-After); answers are kept until a ticket changes.`

export const readReportSummaryDocs = routeDetail({
  operationId: 'readReportSummary',
  query: COUNTER_QUERY,
  summary: 'Range summary for the /reports page',
  description: `What the /reports page draws besides the rows: the queue units the reader may choose among (\`queueUnits\`) and the one read (\`queueUnitId\`, null when several are read together), the names of the reader's locations, services (with their waitTargetSeconds) and counters (contract §18: \`name\` in the unit's \`defaultLanguage\`, \`names\` beside it with every language given, a plain name as \`{"<defaultLanguage>": name}\`; the rows and their CSV carry IDs only), and per location and service over the whole range: issued, served, called, within target (counts), issued and served by local hour, and the called tickets' waits in bins from 0, 5, 10, 15, 20, 30, 45 and 60 minutes (merged from the days' distributions). ${RANGE_RULES}`,
  tags: ['Reports'],
  security: 'operatorOrSession',
  responses: { 200: { description: 'the summary', name: 'ReportSummaryResponse', schema: ReportSummaryResponse, example: { data: SUMMARY_EXAMPLE } } },
  errors,
  errorExamples: ReportErrorExamples,
})

export const readDailyReportDocs = routeDetail({
  operationId: 'readDailyReport',
  query: DAILY_QUERY,
  summary: 'Daily report per location and service',
  description: `Per location, service and business day: tickets issued (by local hour), served, no-show, cancelled, transferred out; waits (first call − createdAt) and service times (completedAt − servingAt) as average and nearest-rank percentiles; the share of called tickets within the service's waitTargetSeconds. ${RANGE_RULES}`,
  tags: ['Reports'],
  security: 'operatorOrSession',
  responses: { 200: { description: 'the rows, by date, location and service', name: 'DailyReportResponse', schema: DailyReportResponse, example: { data: [DAILY_EXAMPLE] } } },
  errors,
  errorExamples: ReportErrorExamples,
})

export const readCounterReportDocs = routeDetail({
  operationId: 'readCounterReport',
  query: COUNTER_QUERY,
  summary: 'Daily report per counter',
  description: `Per counter and business day: tickets served and no-shows, service times, and the seconds the counter held a ticket (busySeconds). ${RANGE_RULES}`,
  tags: ['Reports'],
  security: 'operatorOrSession',
  responses: { 200: { description: 'the rows, by date, location and counter', name: 'CounterReportResponse', schema: CounterReportResponse, example: { data: [COUNTER_EXAMPLE] } } },
  errors,
  errorExamples: ReportErrorExamples,
})

export const readStaffReportDocs = routeDetail({
  operationId: 'readStaffReport',
  query: STAFF_QUERY,
  summary: 'Daily report per clerk',
  description: `Per clerk and business day (contract §16): the tickets the clerk completed and marked no-show while signed in at a desk (changes made by a desk without a clerk, a key or the daily close count for nobody), the service times of those completions (completedAt − servingAt; average and nearest-rank percentiles), the seconds signed in at a desk, and the seconds on break per reason (a break without a reason under "${NO_BREAK_REASON}"). An interval still open counts up to now. One row per clerk with figures or time at a desk that day, by date and username; a clerk who worked in several of the reader's units that day has one row. \`from\` and \`to\` as the other reports (at most ${MAX_REPORT_DAYS} days); \`queueUnitId\` must be one of the reader's units, else 422 VALIDATION_FAILED. ${READERS} A key limited to some locations or services is 403 SCOPE_FORBIDDEN here: the figures are the whole unit's. Limited as the other range reads (${REPORT_RANGE_READS_PER_MINUTE} a minute per credential or person); an answer is kept until a ticket changes, at most a minute.`,
  tags: ['Reports'],
  security: 'operatorOrSession',
  responses: { 200: { description: 'the rows, by date and username', name: 'StaffReportResponse', schema: StaffReportResponse, example: { data: [STAFF_EXAMPLE] } } },
  errors,
  errorExamples: ReportErrorExamples,
})

export const readFeedbackReportDocs = routeDetail({
  operationId: 'readFeedbackReport',
  query: range,
  summary: 'Customers\' ratings per day, service, counter and clerk, and their comments',
  description: `Contract §20: the ratings customers gave completed visits on their phone page (1–5, once per ticket, within 24 hours). \`ratings\`: per business day (the ticket's), location, service, counter and clerk (the username of the clerk who completed the ticket while signed in at the desk, else null): count, sum and average (2 decimals); add rows up with the sums, never by averaging averages. \`comments\`: every rating with a comment, by day and time, the text exactly as the customer wrote it: plain text, which a page must show as text, never as HTML. \`from\` and \`to\` as the other reports (at most ${MAX_REPORT_DAYS} days). ${READERS} A key limited to some locations or services sees their ratings only. ${REPORT_RANGE_READS_PER_MINUTE} reads a minute per credential or person, in a window of their own (not the range reads'); an answer is kept until something is written, at most a minute.`,
  tags: ['Reports'],
  security: 'operatorOrSession',
  responses: {
    200: {
      description: 'the ratings and comments',
      name: 'FeedbackReportResponse',
      schema: FeedbackReportResponse,
      example: {
        data: {
          ratings: [{ date: '2026-11-25', locationId: 'loc_hall', serviceId: 'svc_accounts', counterId: 'cnt_1', clerk: 'alice', count: 4, ratingSum: 17, average: 4.25 }],
          comments: [{ date: '2026-11-25', locationId: 'loc_hall', serviceId: 'svc_accounts', counterId: 'cnt_1', clerk: 'alice', rating: 5, comment: 'Quick and friendly, thank you.', ratedAt: '2026-11-25T10:12:00.000Z' }],
        },
      },
    },
  },
  errors,
  errorExamples: ReportErrorExamples,
})
