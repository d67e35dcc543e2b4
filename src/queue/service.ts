import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import canonicalize from 'canonicalize'
import type { AppDeps } from '../platform/deps'
import type { Credential } from '../platform/credentials'
import { ApiError, pointer, type ErrorDetail } from '../platform/errors'
import { sha256Hex } from '../platform/idempotency'
import { isoTime } from '../platform/clock'
import { counters, counterServices } from '../counters/tables'
import { queueUnits, locations, services, serviceLocations, serviceStats, tickets } from './tables'
import { QueueCodes } from './errors'
import { credentialScope, mayUseLocation, mayUseService } from './access'
import { assertNotEdgeManaged } from './edge'
import { TicketStore, ticketJson, type TicketRow } from './tickets'
import { averageServiceSeconds, estimatedWaitSeconds } from './wait'
import type { IssueTicketRequest, QueueTicket, ServiceEntry, StateEntry, TicketSource } from './model'

export interface QueueUnitRow {
  id: string
  active: boolean
  edgeHolder: string | null
  edgeExpiresAt: number | null
}

export const TICKETS_PATH = '/api/public/v1/queue/tickets'

/** The answer to a ticket issue: the new ticket, or the stored response of an earlier one. */
export interface IssueOutcome {
  status: number
  /** The response body, byte for byte as first sent. */
  body: string
  headers: Record<string, string>
  replayed: boolean
}

/**
 * Contract §3: "same payload" for ticket issue is the same parsed body. The request is
 * normalised (`externalReference` absent ≡ null) and hashed in RFC 8785 canonical form, so
 * field order, whitespace and escapes do not matter; any change of a value does.
 */
export function issuePayloadHash(request: IssueTicketRequest): string {
  const normalised = { locationId: request.locationId, serviceId: request.serviceId, externalReference: request.externalReference ?? null }
  return sha256Hex(canonicalize(normalised)!)
}

/**
 * The Queue feature's logic, free of HTTP: who may see and issue what, ticket issue with
 * idempotency, the services list and the live state. Hot paths run statements prepared once,
 * when the app is built; nothing is cached between requests, so a change made by the CLI
 * (Edge authority, provisioning, keys) is seen by the very next request.
 */
export class QueueService {
  readonly tickets: TicketStore
  private readonly unitStmt
  private readonly locationStmt
  private readonly serviceStmt
  private readonly offeredStmt
  private readonly linesStmt
  private readonly openCountersStmt

  constructor(private readonly deps: Pick<AppDeps, 'db' | 'ids' | 'idempotency'>) {
    const db = deps.db
    this.tickets = new TicketStore(db, deps.ids)
    this.unitStmt = db
      .select({ id: queueUnits.id, active: queueUnits.active, edgeHolder: queueUnits.edgeHolder, edgeExpiresAt: queueUnits.edgeExpiresAt })
      .from(queueUnits)
      .where(eq(queueUnits.id, sql.placeholder('id')))
      .prepare()
    this.locationStmt = db
      .select({ id: locations.id, queueUnitId: locations.queueUnitId, timezone: locations.timezone, active: locations.active })
      .from(locations)
      .where(eq(locations.id, sql.placeholder('id')))
      .prepare()
    this.serviceStmt = db
      .select({ id: services.id, queueUnitId: services.queueUnitId, prefix: services.prefix, active: services.active })
      .from(services)
      .where(eq(services.id, sql.placeholder('id')))
      .prepare()
    this.offeredStmt = db
      .select({ serviceId: serviceLocations.serviceId })
      .from(serviceLocations)
      .where(and(eq(serviceLocations.serviceId, sql.placeholder('serviceId')), eq(serviceLocations.locationId, sql.placeholder('locationId'))))
      .prepare()
    // Every active (service, location) pair of a unit with its live counts: one row per pair,
    // O(services × locations), never a scan of the ticket history.
    this.linesStmt = db
      .select({
        id: services.id,
        name: services.name,
        prefix: services.prefix,
        defaultServiceSeconds: services.defaultServiceSeconds,
        locationId: locations.id,
        waiting: serviceStats.waiting,
        avgServiceSeconds: serviceStats.avgServiceSeconds,
        nowServingNumber: tickets.ticketNumber,
        nowServingCounter: counters.name,
      })
      .from(serviceLocations)
      .innerJoin(services, eq(services.id, serviceLocations.serviceId))
      .innerJoin(locations, eq(locations.id, serviceLocations.locationId))
      .leftJoin(serviceStats, and(eq(serviceStats.serviceId, serviceLocations.serviceId), eq(serviceStats.locationId, serviceLocations.locationId)))
      .leftJoin(tickets, and(eq(tickets.id, serviceStats.nowServingTicketId), inArray(tickets.status, ['CALLED', 'SERVING'])))
      .leftJoin(counters, eq(counters.id, tickets.counterId))
      .where(and(
        eq(services.queueUnitId, sql.placeholder('unit')),
        eq(locations.queueUnitId, sql.placeholder('unit')),
        eq(services.active, true),
        eq(locations.active, true),
      ))
      .orderBy(asc(locations.id), asc(services.id))
      .prepare()
    // Open counters per (service, location): a counter counts for every service it serves.
    this.openCountersStmt = db
      .select({ serviceId: counterServices.serviceId, locationId: counters.locationId, open: sql<number>`count(*)` })
      .from(counters)
      .innerJoin(counterServices, eq(counterServices.counterId, counters.id))
      .where(and(eq(counters.queueUnitId, sql.placeholder('unit')), eq(counters.open, true)))
      .groupBy(counterServices.serviceId, counters.locationId)
      .prepare()
  }

  /** The caller's Queue Unit, read fresh (Edge authority may have changed a moment ago). */
  queueUnit(queueUnitId: string): QueueUnitRow | null {
    return this.unitStmt.get({ id: queueUnitId }) ?? null
  }

  /** 403 QUEUE_UNIT_INACTIVE when the caller's Queue Unit is switched off (or gone). */
  assertQueueUnitActive(caller: Credential): void {
    const unit = this.queueUnit(caller.ownerId)
    if (unit === null || !unit.active) throw queueUnitInactive()
  }

  /**
   * The step "location and service" of ticket issue (contract §3), decided as:
   * 1. the Queue Unit is inactive → 403 QUEUE_UNIT_INACTIVE;
   * 2. facts of the unit → 422 VALIDATION_FAILED listing each bad field: a location or service
   *    that does not exist in the caller's unit or is inactive, a service not offered at the
   *    location;
   * 3. the key's restrictions → 403 LOCATION_FORBIDDEN, then 403 SERVICE_FORBIDDEN, for an
   *    existing, active, offered pair outside the key's lists.
   * So a typo is always a 422 that names the field, and a 403 always means "exists, but not for
   * this key".
   */
  resolveIssueTarget(caller: Credential, unit: QueueUnitRow | null, request: IssueTicketRequest) {
    if (unit === null || !unit.active) throw queueUnitInactive()
    const location = this.locationStmt.get({ id: request.locationId })
    const service = this.serviceStmt.get({ id: request.serviceId })
    const problems: ErrorDetail[] = []
    if (location === undefined || location.queueUnitId !== unit.id) problems.push({ path: pointer('locationId'), message: 'no such location in this Queue Unit' })
    else if (!location.active) problems.push({ path: pointer('locationId'), message: 'location is not active' })
    if (service === undefined || service.queueUnitId !== unit.id) problems.push({ path: pointer('serviceId'), message: 'no such service in this Queue Unit' })
    else if (!service.active) problems.push({ path: pointer('serviceId'), message: 'service is not active' })
    if (problems.length === 0 && this.offeredStmt.get({ serviceId: request.serviceId, locationId: request.locationId }) === undefined) {
      problems.push({ path: pointer('serviceId'), message: 'service is not offered at this location' })
    }
    if (problems.length > 0) throw new ApiError(422, QueueCodes.VALIDATION_FAILED, 'request validation failed', problems)
    if (!mayUseLocation(caller, location!.id)) throw new ApiError(403, QueueCodes.LOCATION_FORBIDDEN, 'this key may not use this location')
    if (!mayUseService(caller, service!.id)) throw new ApiError(403, QueueCodes.SERVICE_FORBIDDEN, 'this key may not use this service')
    return { unit, location: location!, service: service! }
  }

  /**
   * Issues one ticket after the checks that read the database, in the contract's order: Edge
   * authority (409 QUEUE_UNIT_EDGE_MANAGED) → location and service (see `resolveIssueTarget`)
   * → write. Must run inside an immediate transaction; for walk-ins at a counter call it with
   * source `OPERATOR` inside the operator route's own transaction.
   */
  issueTicket(caller: Credential, request: IssueTicketRequest, source: TicketSource, now: number): TicketRow {
    const unit = this.queueUnit(caller.ownerId)
    if (unit !== null) assertNotEdgeManaged(unit, now)
    const target = this.resolveIssueTarget(caller, unit, request)
    return this.tickets.insertTicket({
      queueUnitId: target.unit.id,
      location: { id: target.location.id, timezone: target.location.timezone },
      service: { id: target.service.id, prefix: target.service.prefix },
      source,
      externalReference: request.externalReference ?? null,
      credentialId: caller.id,
    }, now)
  }

  /**
   * Public ticket issue from the idempotency lookup on (contract §3): in one immediate
   * transaction, the stored response of the same key (same payload → replay, other payload →
   * 409 IDEMPOTENCY_KEY_REUSED), else `issueTicket` and the new idempotency record, which
   * commit together. A failure writes nothing, so the same key may be retried.
   */
  issueIdempotent(caller: Credential, idempotencyKey: string, request: IssueTicketRequest, now: number): IssueOutcome {
    const scope = `ticket:${credentialScope(caller)}`
    const requestHash = issuePayloadHash(request)
    return this.deps.db.transaction(() => {
      const stored = this.deps.idempotency.find(scope, idempotencyKey, now)
      if (stored !== null) {
        if (stored.requestHash !== requestHash) {
          throw new ApiError(409, QueueCodes.IDEMPOTENCY_KEY_REUSED, 'this Idempotency-Key was used with a different payload; use a new key for a new ticket')
        }
        return { status: stored.status, body: stored.body, headers: stored.headers, replayed: true }
      }
      const row = this.issueTicket(caller, request, 'API', now)
      const body = JSON.stringify({ data: ticketJson(row) })
      const headers = { location: `${TICKETS_PATH}/${encodeURIComponent(row.id)}` }
      this.deps.idempotency.save(scope, idempotencyKey, { requestHash, status: 201, body, headers }, now)
      return { status: 201, body, headers, replayed: false }
    }, { behavior: 'immediate' })
  }

  /** A ticket the caller may see: its own unit, and its location and service within the key's lists. */
  visibleTicket(caller: Credential, ticketId: string): TicketRow | null {
    const row = this.tickets.byId(ticketId)
    if (row === null || row.queueUnitId !== caller.ownerId) return null
    if (!mayUseLocation(caller, row.locationId) || !mayUseService(caller, row.serviceId)) return null
    return row
  }

  /** 404 TICKET_NOT_FOUND for an unknown ticket and for one the caller may not see alike. */
  readTicket(caller: Credential, ticketId: string): QueueTicket {
    const row = this.visibleTicket(caller, ticketId)
    if (row === null) throw new ApiError(404, QueueCodes.TICKET_NOT_FOUND, 'no such ticket for this key')
    return ticketJson(row)
  }

  /** Active services at active locations, once per (service, location), within the key's lists. */
  private allowedLines(caller: Credential) {
    return this.linesStmt.all({ unit: caller.ownerId }).filter((line) => mayUseLocation(caller, line.locationId) && mayUseService(caller, line.id))
  }

  /** Endpoint 1: the services list with waiting counts and the estimate for a ticket issued now. */
  listServices(caller: Credential): ServiceEntry[] {
    const lines = this.allowedLines(caller)
    if (lines.length === 0) return []
    const open = new Map<string, number>()
    for (const row of this.openCountersStmt.all({ unit: caller.ownerId })) open.set(`${row.serviceId}\u0000${row.locationId}`, row.open)
    return lines.map((line) => {
      const waiting = line.waiting ?? 0
      return {
        id: line.id,
        name: line.name,
        prefix: line.prefix,
        locationId: line.locationId,
        waiting,
        estimatedWaitSeconds: estimatedWaitSeconds(
          waiting,
          open.get(`${line.id}\u0000${line.locationId}`) ?? 0,
          averageServiceSeconds(line.avgServiceSeconds, line.defaultServiceSeconds),
        ),
      }
    })
  }

  /** Endpoint 4: waiting and now serving per allowed (service, location). */
  liveState(caller: Credential, now: number): { generatedAt: string; services: StateEntry[] } {
    return {
      generatedAt: isoTime(now),
      services: this.allowedLines(caller).map((line) => ({
        id: line.id,
        name: line.name,
        locationId: line.locationId,
        waiting: line.waiting ?? 0,
        nowServing: line.nowServingNumber != null && line.nowServingCounter != null
          ? { number: line.nowServingNumber, counterName: line.nowServingCounter }
          : null,
      })),
    }
  }
}

function queueUnitInactive(): ApiError {
  return new ApiError(403, QueueCodes.QUEUE_UNIT_INACTIVE, 'the Queue Unit of this key is not active')
}
