/*
 * The queue feature's door: what another folder of src/ may use of it. Nothing else of
 * src/queue/ is imported from outside (test/platform/imports.test.ts).
 */
export { EdgeAuthorityError, MAX_EDGE_TTL_SECONDS, activeEdgeLease, assertNotEdgeManaged, releaseEdgeAuthority, takeEdgeAuthority, type EdgeAuthorityState } from './edge'
export { QueueCodes, QueueErrorExamples } from './errors'
export { IssueTicketRequest, QueueTicket, Scopes, TICKET_EXAMPLE, type Scope } from './model'
export { QueueReadModel } from './read-model'
export { IDEMPOTENCY_KEY_MAX } from './replay'
export { QueueService, queueUnitInactive, type IssueOutcome } from './service'
