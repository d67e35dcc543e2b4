import canonicalize from 'canonicalize'
import type { QueueDeps } from './deps'
import type { Credential } from '../platform/credentials'
import { actorOf, encodeActor } from '../platform/actor'
import { ApiError, pointer, type ErrorDetail } from '../platform/errors'
import { sha256Hex } from '../platform/idempotency'
import { publicTicketJson, ticketJson, type TicketRow, trackedTicketJson } from '../tickets'
import type { ConfigurationRead, LocationConfiguration, ServiceConfiguration } from '../structure'
import { QueueCodes } from './errors'
import { credentialScope, mayUseLocation, mayUseService } from '../access'
import { assertNotEdgeManaged } from './edge'
import type { IssueTicketRequest, TicketSource } from './model'
import { openStateAt, type WeeklyHours } from '../structure'
import { localDateTime } from '../platform/time'

export interface QueueUnitRow {
  id: string
  active: boolean
  /** Contract §18: names fall back to this language. */
  defaultLanguage: string
  /** Contract §18: the languages the unit's names may be asked in (the default first). */
  languages: string[]
  edgeHolder: string | null
  edgeExpiresAt: number | null
}

export const TICKETS_PATH = '/api/public/v1/queue/tickets'

/**
 * Where an Idempotency-Key of each ticket source lives: public issues and walk-ins at a counter
 * keep separate records, so the same key string on both routes never meets.
 */
const IDEMPOTENCY_SCOPES: Partial<Record<TicketSource, string>> = { API: 'ticket', OPERATOR: 'walkin', KIOSK: 'kiosk', REMOTE: 'join' }

/** The answer to a ticket issue: the new ticket, or the stored response of an earlier one. */
export interface IssueOutcome {
  status: number
  /** The response body, byte for byte as first sent. */
  body: string
  headers: Record<string, string>
  replayed: boolean
}

/**
 * A ticket issue's body: the public one, or a walk-in's, which may add `priority` (contract §8;
 * the public route's schema refuses the field).
 */
export type IssueRequest = IssueTicketRequest & {
  priority?: boolean
  /** Contract §18: the language the ticket is taken in (a kiosk's page language, already one of the unit's `languages`); absent = the unit's default. */
  language?: string
}

/**
 * Contract §3: "same payload" for ticket issue is the same parsed body. The request is
 * normalised (`externalReference` absent ≡ null, `priority` absent ≡ false) and hashed in RFC
 * 8785 canonical form, so field order, whitespace and escapes do not matter; any change of a
 * value does. `priority` enters the hash only when true, so the hash of every body without it
 * is what it was before the field existed (stored records keep matching).
 */
export function issuePayloadHash(request: IssueRequest): string {
  const normalised: Record<string, unknown> = { locationId: request.locationId, serviceId: request.serviceId, externalReference: request.externalReference ?? null }
  if (request.priority === true) normalised.priority = true
  // Like `priority`: only when given, so the hashes of bodies without it stay what they were.
  if (request.language !== undefined) normalised.language = request.language
  return sha256Hex(canonicalize(normalised)!)
}

/**
 * The ticket JSON a source's issuer gets: the public API's has no `priority` (contract §8) and
 * no `trackingUrl` (contract §10); walk-ins and kiosk tickets carry both.
 */
function issuedTicketJson(row: TicketRow, source: TicketSource) {
  return source === 'API' ? publicTicketJson(row) : trackedTicketJson(row)
}

/**
 * The Queue feature's logic, free of HTTP: who may see and issue what, and ticket issue with
 * idempotency. Ticket state itself is `deps.tickets`'; the public reads (services list, live
 * state, ticket read) are answered from memory by `QueueReadModel` (read-model.ts).
 * Hot paths run statements prepared once, on first use (not while the server starts), held by
 * this object (the app builds one); nothing here is cached between requests, so a change made
 * by the CLI (Edge authority, provisioning, keys) is seen by the very next write.
 */
export class QueueService {
  private prepared: Parts | undefined

  constructor(private readonly deps: Pick<QueueDeps, 'db' | 'idempotency' | 'tickets' | 'writes'> & { configuration: ConfigurationRead }) {}

  private get parts(): Parts {
    return (this.prepared ??= prepareParts(this.deps.db))
  }

  /** The caller's Queue Unit, read fresh (Edge authority may have changed a moment ago). */
  queueUnit(queueUnitId: string): QueueUnitRow | null {
    const row = this.parts.unitStmt.get(queueUnitId)
    return row === null ? null : { id: row.id, active: row.active === 1, defaultLanguage: row.defaultLanguage, languages: JSON.parse(row.languages) as string[], edgeHolder: row.edgeHolder, edgeExpiresAt: row.edgeExpiresAt }
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
    const configuration = this.deps.configuration.unit(unit.id)
    const location = configuration?.locations.get(request.locationId)
    const service = configuration?.services.get(request.serviceId)
    const problems: ErrorDetail[] = []
    if (location === undefined) problems.push({ path: pointer('locationId'), message: 'no such location in this Queue Unit' })
    else if (!location.active) problems.push({ path: pointer('locationId'), message: 'location is not active' })
    if (service === undefined) problems.push({ path: pointer('serviceId'), message: 'no such service in this Queue Unit' })
    else if (!service.active) problems.push({ path: pointer('serviceId'), message: 'service is not active' })
    if (problems.length === 0 && !service!.locationIds.includes(request.locationId)) {
      problems.push({ path: pointer('serviceId'), message: 'service is not offered at this location' })
    }
    if (problems.length > 0) throw new ApiError(422, QueueCodes.VALIDATION_FAILED, 'request validation failed', problems)
    if (!mayUseLocation(caller, location!.id)) throw new ApiError(403, QueueCodes.LOCATION_FORBIDDEN, 'this key may not use this location')
    if (!mayUseService(caller, service!.id)) throw new ApiError(403, QueueCodes.SERVICE_FORBIDDEN, 'this key may not use this service')
    return { unit, location: location!, service: service! }
  }

  /** A location of the caller's unit (its time zone and hours), or null. */
  locationOf(queueUnitId: string, locationId: string): LocationConfiguration | null {
    return this.deps.configuration.unit(queueUnitId)?.locations.get(locationId) ?? null
  }

  /** A service of the caller's unit, or null. */
  serviceOf(queueUnitId: string, serviceId: string): ServiceConfiguration | null {
    return this.deps.configuration.unit(queueUnitId)?.services.get(serviceId) ?? null
  }

  /**
   * Issues one ticket after the checks that read the database, in the contract's order: Edge
   * authority (409 QUEUE_UNIT_EDGE_MANAGED) → location and service (see `resolveIssueTarget`)
   * → write (`deps.tickets.issue`: the ticket, its `created` event, the waiting count, the
   * `ticket.created` webhook outbox rows and the unit's `stateRevision`). Must run inside a write
   * of `deps.writes`, which tells the listeners once it committed.
   */
  issueTicket(caller: Credential, request: IssueRequest, source: TicketSource, now: number): TicketRow {
    const unit = this.queueUnit(caller.ownerId)
    if (unit !== null) assertNotEdgeManaged(unit, now)
    const target = this.resolveIssueTarget(caller, unit, request)
    // Contract §18: outside its hours a service takes no ticket from the public API, a kiosk or
    // a phone (remote join); a walk-in at a counter is the staff's decision, and an Edge has decided already.
    if (source === 'API' || source === 'KIOSK' || source === 'REMOTE') assertServiceOpen(target.location, target.service.hours, now)
    return this.deps.tickets.issue({
      queueUnitId: target.unit.id,
      location: { id: target.location.id, timezone: target.location.timezone },
      service: { id: target.service.id, prefix: target.service.prefix },
      source,
      externalReference: request.externalReference ?? null,
      priority: request.priority === true,
      // A ticket taken from a phone (contract §20) has no credential behind it: the customer
      // took it, and a customer is named by their ticket (docs/people.md "Attribution").
      credentialId: source === 'REMOTE' ? null : caller.id,
      actor: source === 'REMOTE' ? (ticketId: string) => encodeActor({ type: 'customer', id: ticketId }) : encodeActor(actorOf(caller)),
      language: request.language ?? null,
    }, now)
  }

  /**
   * Ticket issue from the idempotency lookup on (contract §3): in one immediate transaction,
   * the stored response of the same key (same payload → replay, other payload → 409
   * IDEMPOTENCY_KEY_REUSED), else `issueTicket` and the new idempotency record, which commit
   * together. A failure writes nothing, so the same key may be retried. Public issues (source
   * API) always carry a key; walk-ins at a counter (source OPERATOR) may go without one
   * (`null`: no lookup, no record). Runs inside a write of `deps.writes` (the routes call it in
   * `writes.run`: group commit); listeners hear of a new ticket once it committed.
   */
  issueIdempotent(caller: Credential, idempotencyKey: string | null, request: IssueRequest, now: number, source: TicketSource = 'API'): IssueOutcome {
    const scope = `${IDEMPOTENCY_SCOPES[source] ?? 'ticket'}:${credentialScope(caller)}`
    const requestHash = issuePayloadHash(request)
    return this.deps.writes.now((): IssueOutcome => {
      const stored = idempotencyKey === null ? null : this.deps.idempotency.find(scope, idempotencyKey, now)
      if (stored !== null) {
        if (stored.requestHash !== requestHash) {
          throw new ApiError(409, QueueCodes.IDEMPOTENCY_KEY_REUSED, 'this Idempotency-Key was used with a different payload; use a new key for a new ticket')
        }
        return { status: stored.status, body: stored.body, headers: stored.headers, replayed: true }
      }
      const row = this.issueTicket(caller, request, source, now)
      const body = JSON.stringify({ data: issuedTicketJson(row, source) })
      const headers = { location: `${TICKETS_PATH}/${encodeURIComponent(row.id)}` }
      if (idempotencyKey !== null) this.deps.idempotency.save(scope, idempotencyKey, { requestHash, status: 201, body, headers }, now)
      return { status: 201, body, headers, replayed: false }
    })
  }

  /** A ticket the caller may see: its own unit, and its location and service within the key's lists. */
  visibleTicket(caller: Credential, ticketId: string): TicketRow | null {
    const row = this.deps.tickets.byId(ticketId)
    if (row === null || row.queueUnitId !== caller.ownerId) return null
    if (!mayUseLocation(caller, row.locationId) || !mayUseService(caller, row.serviceId)) return null
    return row
  }
}

function prepareParts(db: QueueDeps['db']) {
  return {
    // Raw (read on every queue request): drizzle's row mapping cost more than the lookup. Read
    // fresh, not from the configuration read: Edge authority is a lease, not configuration.
    unitStmt: db.$client.query<{ id: string; active: number; defaultLanguage: string; languages: string; edgeHolder: string | null; edgeExpiresAt: number | null }, [string]>(
      'SELECT id, active, default_language AS defaultLanguage, languages, edge_holder AS edgeHolder, edge_expires_at AS edgeExpiresAt FROM queue_units WHERE id = ?1',
    ),
  }
}

type Parts = ReturnType<typeof prepareParts>


/**
 * 409 SERVICE_CLOSED (contract §18) when the service takes no tickets at `now`; `details` names
 * the next opening (an ISO instant, or that there is none within the search horizon), the
 * message says it in the location's wall-clock time.
 */
export function assertServiceOpen(location: Pick<LocationConfiguration, 'timezone' | 'hours'>, serviceHours: WeeklyHours | null, now: number): void {
  const state = openStateAt(location.hours, serviceHours, now, location.timezone)
  if (state.open) return
  if (state.opensAt === null) {
    throw new ApiError(409, QueueCodes.SERVICE_CLOSED, 'this service is closed and has no opening in its hours', [{ path: pointer('serviceId'), message: 'no next opening' }])
  }
  const local = localDateTime(state.opensAt, location.timezone)
  throw new ApiError(409, QueueCodes.SERVICE_CLOSED, `this service is closed now; it opens ${local.date} at ${local.time} (${location.timezone})`, [
    { path: pointer('serviceId'), message: `opens at ${new Date(state.opensAt).toISOString()}` },
  ])
}

export function queueUnitInactive(): ApiError {
  return new ApiError(403, QueueCodes.QUEUE_UNIT_INACTIVE, 'the Queue Unit of this key is not active')
}
