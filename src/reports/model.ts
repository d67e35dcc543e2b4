import { Type, type Static } from '@sinclair/typebox'
import { NO_BREAK_REASON } from './csv'
import { Names } from '../counters'

const closed = { additionalProperties: false } as const
const Seconds = Type.Union([Type.Number(), Type.Null()])
const Day = Type.String({ format: 'date', description: "a business day of the location (its time zone), YYYY-MM-DD" })

/** Contract §12 daily row. */
export const DailyReportRow = Type.Object({
  date: Day,
  locationId: Type.String(),
  serviceId: Type.String(),
  issued: Type.Integer({ description: 'tickets issued for this service that day' }),
  served: Type.Integer({ description: 'tickets completed in this service' }),
  noShow: Type.Integer(),
  cancelled: Type.Integer(),
  transferredOut: Type.Integer({ description: 'tickets transferred from this service to another' }),
  waitSeconds: Type.Object({
    avg: Seconds, p50: Seconds, p90: Seconds, max: Seconds,
  }, { ...closed, description: 'first call − createdAt, whole seconds; avg rounded to 0.1; nearest-rank percentiles; null when no ticket was called' }),
  serviceSeconds: Type.Object({
    avg: Seconds, p50: Seconds, p90: Seconds,
  }, { ...closed, description: 'completedAt − servingAt of completions at a counter; null when none' }),
  withinTarget: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description: "share (0–1, 3 decimals) of called tickets whose wait was at most the service's waitTargetSeconds" }),
  issuedByHour: Type.Array(Type.Integer(), { minItems: 24, maxItems: 24, description: 'tickets issued in each local hour 00–23' }),
}, { ...closed, $id: 'DailyReportRow' })
export type DailyReportRow = Static<typeof DailyReportRow>

/** Contract §12 counter row. */
export const CounterReportRow = Type.Object({
  date: Day,
  counterId: Type.String(),
  locationId: Type.String(),
  served: Type.Integer(),
  noShow: Type.Integer(),
  serviceSeconds: Type.Object({ avg: Seconds, p50: Seconds, p90: Seconds }, closed),
  busySeconds: Type.Integer({ description: 'seconds the counter held a ticket: from its call there to the ticket leaving it' }),
}, { ...closed, $id: 'CounterReportRow' })
export type CounterReportRow = Static<typeof CounterReportRow>

/** Contract §16 staff row: one clerk's business day. */
export const StaffReportRow = Type.Object({
  date: Type.String({ format: 'date', description: "the business day (the ticket's, and the interval's at its counter's location), YYYY-MM-DD" }),
  username: Type.String(),
  displayName: Type.String({ description: "the account's display name (the username when the account is gone)" }),
  served: Type.Integer({ description: 'tickets this clerk completed (signed in at a desk)' }),
  noShow: Type.Integer({ description: 'tickets this clerk marked no-show' }),
  serviceSeconds: Type.Object({ avg: Seconds, p50: Seconds, p90: Seconds }, { ...closed, description: 'completedAt − servingAt of the completions, whole seconds; avg rounded to 0.1; nearest-rank percentiles; null when none' }),
  signedInSeconds: Type.Integer({ description: 'seconds signed in at a desk that day (an open sign-in counts up to now)' }),
  breakSeconds: Type.Record(Type.String(), Type.Integer(), { description: `seconds on break that day per reason (a break without a reason under "${NO_BREAK_REASON}"); {} when none` }),
}, { ...closed, $id: 'StaffReportRow' })
export type StaffReportRow = Static<typeof StaffReportRow>

export const DailyReportResponse = Type.Object({ data: Type.Array(DailyReportRow) }, { ...closed, $id: 'DailyReportResponse' })
export const CounterReportResponse = Type.Object({ data: Type.Array(CounterReportRow) }, { ...closed, $id: 'CounterReportResponse' })
export const StaffReportResponse = Type.Object({ data: Type.Array(StaffReportRow) }, { ...closed, $id: 'StaffReportResponse' })
export type StaffReportResponse = Static<typeof StaffReportResponse>

/** Contract §20: the ratings of one day, location, service, counter and clerk. */
export const FeedbackRatingRow = Type.Object({
  date: Type.String({ format: 'date', description: 'the ticket\'s business day, YYYY-MM-DD' }),
  locationId: Type.String(),
  serviceId: Type.String({ description: 'the service the ticket was completed in' }),
  counterId: Type.Union([Type.String(), Type.Null()], { description: 'the counter that completed it' }),
  clerk: Type.Union([Type.String(), Type.Null()], { description: 'the username of the clerk who completed it (signed in at the desk), else null' }),
  count: Type.Integer({ minimum: 1, description: 'ratings' }),
  ratingSum: Type.Integer({ minimum: 1, description: 'their sum: add rows up by service, counter or clerk with it' }),
  average: Type.Number({ minimum: 1, maximum: 5, description: 'ratingSum / count, 2 decimals' }),
}, { ...closed, $id: 'FeedbackRatingRow' })
export type FeedbackRatingRow = Static<typeof FeedbackRatingRow>

/** Contract §20: one comment, plain text exactly as the customer wrote it (show it as text, never as HTML). */
export const FeedbackCommentRow = Type.Object({
  date: Type.String({ format: 'date' }),
  locationId: Type.String(),
  serviceId: Type.String(),
  counterId: Type.Union([Type.String(), Type.Null()]),
  clerk: Type.Union([Type.String(), Type.Null()]),
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  comment: Type.String({ description: 'plain text, at most 500 characters, as given' }),
  ratedAt: Type.String({ format: 'date-time' }),
}, { ...closed, $id: 'FeedbackCommentRow' })
export type FeedbackCommentRow = Static<typeof FeedbackCommentRow>

export const FeedbackReportResponse = Type.Object({
  data: Type.Object({ ratings: Type.Array(FeedbackRatingRow), comments: Type.Array(FeedbackCommentRow) }, closed),
}, { ...closed, $id: 'FeedbackReportResponse' })
export type FeedbackReportData = Static<typeof FeedbackReportResponse>['data']

const Hours = Type.Array(Type.Integer(), { minItems: 24, maxItems: 24 })

/** The /reports page's summary of a range. */
export const ReportSummaryResponse = Type.Object({
  data: Type.Object({
    from: Day,
    to: Day,
    queueUnits: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), names: Names }, closed), {
      description: 'the queue units this reader may read (a key or a device its one, a manager the units it works in, an admin every unit): a page offers them as a choice (`queueUnitId`)',
    }),
    queueUnitId: Type.Union([Type.String(), Type.Null()], { description: 'the one unit read (the `queueUnitId` asked for, or the reader\'s only unit); null when several are read together' }),
    defaultLanguage: Type.String({ description: 'the default language of the queue unit read (contract §18): each `name` is in its unit\'s, and a page falls back to it; `en` when several units are read together' }),
    locations: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), names: Names, timezone: Type.String() }, closed)),
    services: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), names: Names, waitTargetSeconds: Type.Integer() }, closed)),
    counters: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), names: Names, locationId: Type.String() }, closed)),
    lines: Type.Array(Type.Object({
      locationId: Type.String(),
      serviceId: Type.String(),
      issued: Type.Integer(),
      served: Type.Integer(),
      called: Type.Integer({ description: 'tickets called (their waits measured)' }),
      withinTarget: Type.Integer({ description: 'of those, how many waited at most the target' }),
      issuedByHour: Hours,
      servedByHour: Hours,
      waitBins: Type.Array(Type.Integer(), { description: 'called tickets with a wait from 0, 5, 10, 15, 20, 30, 45, 60 minutes (the last open)' }),
    }, closed)),
  }, closed),
}, { ...closed, $id: 'ReportSummaryResponse' })
