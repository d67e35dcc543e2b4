/*
 * The tickets feature's one door: everything another folder of src/ uses of ticket state is
 * exported here, and nothing else is imported from src/tickets/ (test/tickets/ownership.test.ts
 * fails when a file outside src/tickets/ imports one of its modules directly; the drizzle-kit
 * barrel src/schema.ts alone reads `./tables`, which is why no table object is exported here).
 */

// Wait estimates and the defaults provisioning and the queue's columns use.
export { DEFAULT_SERVICE_SECONDS, DEFAULT_WAIT_TARGET_SECONDS, AVERAGE_WINDOW, estimatedWaitSeconds, averageServiceSeconds, nextServiceAverage } from './wait'

// The ticket as every feature sees it.
export { TICKET_STATUSES, TICKET_SOURCES, ActorJson, PublicQueueTicket, QueueTicket, TrackedQueueTicket, type TicketStatus, type TicketSource } from './model'
export { TicketCodes, type TicketCode } from './errors'
export { publicTicketJson, ticketJson, trackedTicketJson, type TicketRow, type NewTicket, type TrackedTicket } from './store'
export { TRACKING_CODE_RANDOM_BITS, TRACKING_CODE_PATTERN, trackingMinute, newTrackingCode, trackingPath } from './tracking'
export { formatTicketNumber, businessDayAt } from './numbering'

// The owner of ticket state, its transitions and their effects.
export { Tickets, ticketEventJson, type TicketsDeps, type LinePosition, type PlaceInLine, type TicketEventRow } from './service'
export {
  TICKET_ACTIONS, TICKET_EVENT_TYPES, TRANSITIONS, TRANSITION_EFFECTS, OPEN_STATUSES, assertTransition,
  type TicketAction, type TicketEventType, type TicketOutbox, type TicketEventName, type TransitionRule, type TransitionEffect, type TransitionInput, type TicketChanges, type RollupFigure,
} from './transitions'
export { SYSTEM_ACTOR, type TicketChange } from './writer'
export { MORE_TIME_STEPS, MORE_TIME_LIMIT, planMoreTime, type MoreTimePlan } from './more-time'
export { TicketFeedback, type TicketFeedbackRow } from './feedback'
export { DEFAULT_PRIORITY_POLICY, chooseNext, normalCallsAfter, callOrder, callsAhead, type PriorityPolicy, type LinePlace } from './priority'

// Live reads and their change notices.
export { QueueLines, type QueueLine, type LineNowServing } from './lines'
export { type QueueChange, type QueueChangeListener } from './changes'
export {
  RECENT_CALLS, queueDisplayState, waitWhenClosed,
  type QueueDisplayState, type QueueDisplayLocation, type QueueDisplayService, type QueueDisplayCall, type QueueDisplayNowServing, type OpenSignature,
} from './display-state'
export { issuedCounter, storedTicketCount } from './counts'
export { deleteTicketsCreatedBefore, type TicketRetentionBatch } from './retention'

// Report roll-ups (contract §12, per clerk §16) and the head-office feed (§14).
export { Histogram, bucketOf, localHour } from './rollup-encoding'
export { rebuildReportRollups } from './rollup-rebuild'
export {
  RollupReads,
  type DailyRollupFigures, type DailyRollupRow, type CounterRollupFigures, type CounterRollupRow, type StaffRollupRow, type LineDayRollup,
} from './rollup-reads'
export {
  TicketChangeFeed,
  type ChangeBatch, type ReplicatedTicket, type ReplicatedEvent, type HistogramPairs,
  type ReplicatedDailyRollup, type ReplicatedCounterRollup, type ReplicatedStaffRollup, type ReplicationBacklog,
} from './replication-feed'
