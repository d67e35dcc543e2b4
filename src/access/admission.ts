import { admitRate, RateBuckets } from '../platform/admission'
import { ApiError } from '../platform/errors'
import { presentedSecret, type Credential } from '../platform/credentials'
import { actorOf, encodeActor, type Actor } from '../platform/actor'
import type { AccessDeps, AccessPorts } from './deps'
import { AccessCodes } from './codes'
import type { Device, DeviceRole, Session, User } from './principals'
import { assertSameOrigin, assertSessionOrigin, deviceSecretOf, SAFE_METHODS, sessionIdOf } from './headers'
import { credentialScope, DEFAULT_ISSUE_PER_MINUTE, DEFAULT_READ_PER_MINUTE, hasScope, Scopes, type RateBucket, type Scope } from './keys'

const BUCKET_NOUN: Record<RateBucket, string> = { issue: 'ticket issues', read: 'reads', operate: 'operator requests' }

/** Contract §23: range reads (summary, daily, counters, staff) cost a computation each: 30 a minute per credential or person. */
export const REPORT_RANGE_READS_PER_MINUTE = 30

/** What a reader reaches: its units (null: every unit), a key's location and service lists (null: all). */
export interface Reach {
  queueUnitIds: string[] | null
  locations: string[] | null
  services: string[] | null
}

/** A reader of the reports: what it reaches, and what its limits count against. */
export type ReportReader = Reach & { credentialId: string }

/** The signed-in admin or manager of a console request. */
export interface ConsoleCaller {
  user: User
  /** The audit log's actor of the caller's changes. */
  actor: Actor
  /** The queue units the caller may configure; null = every unit (an admin). */
  units: string[] | null
}

/** Who called the operator appointment routes: what they reach, who they are, and where their Idempotency-Keys live. */
export interface AppointmentCaller {
  scope: Reach
  who: { actor: string; credentialId: string | null }
  /** The Idempotency-Key scope: the credential (a key's unit and name, a desk, a user). */
  keyScope: string
}

/** A paired device reading display feeds by its cookie (`displayViewer`). */
export interface DisplayViewer {
  credentialId: string
  name: string
  workspaceId: string
  queueUnitId: string | null
  secret: string
}

const NO_LISTS = { scopes: null, locations: null, services: null, issuePerMinute: null, readPerMinute: null }

/**
 * The one admission (contract §3, §7, §16, §23): every credential a route may take, checked
 * from the headers only and in the contract's order — credential (401) → Origin for a cookie
 * that changes state (403) → scope or role (403) → rate limit (429) — before any body is read.
 * Built once by the composition root; routes declare which of these they admit through the
 * macros of `admissionPlugin` (./plugin.ts), and receive the principal.
 */
export class Admission {
  constructor(private readonly deps: AccessDeps, private readonly ports: AccessPorts) {}

  /** The instant a request is admitted at: the clock's, read once for the checks and handed to the route. */
  now(): number {
    return this.deps.clock.now()
  }

  /**
   * A Queue key in `Authorization: Bearer` (never `x-service-api-key`): credential (401
   * AUTHENTICATION_FAILED) → scope (403 SCOPE_FORBIDDEN) → rate limit (429 RATE_LIMITED with
   * Retry-After). Every request that reaches the rate limit counts, whatever happens after it;
   * a 429 is not counted, nor is a request refused before it (a 401 has no credential to count
   * against, and a 403 scope refusal cannot do anything the window protects).
   */
  queueKey(request: Request, scope: Scope, bucket: RateBucket, now: number): Credential {
    const { deps } = this
    const caller = deps.credentials.authenticate(presentedSecret(request, { allowApiKeyHeader: false }), 'queue', now)
    if (caller === null) {
      throw new ApiError(401, AccessCodes.AUTHENTICATION_FAILED, 'a valid Queue API key is required (Authorization: Bearer lbq_…)', undefined, {
        'www-authenticate': 'Bearer',
      })
    }
    if (!hasScope(caller, scope)) {
      throw new ApiError(403, AccessCodes.SCOPE_FORBIDDEN, `this key lacks the ${scope} scope`)
    }
    const limit = bucket === 'issue'
      ? caller.issuePerMinute ?? DEFAULT_ISSUE_PER_MINUTE
      : caller.readPerMinute ?? DEFAULT_READ_PER_MINUTE
    admitRate(deps.limiter, bucket === 'issue' ? RateBuckets.queueIssue : RateBuckets.queueRead, credentialScope(caller), limit, now,
      (retry) => `over ${limit} ${BUCKET_NOUN[bucket]} per minute for this key; retry after ${retry} s`)
    return caller
  }

  /**
   * The device of the request's cookie, of one of `roles`; 401 otherwise. A state-changing
   * request must also come from this server's origin (403 ORIGIN_FORBIDDEN).
   */
  device(request: Request, roles: readonly DeviceRole[]): Device {
    const device = this.ports.devices.authenticate(this.deps.credentials, deviceSecretOf(request), this.deps.clock.now())
    if (device === null || !roles.includes(device.role)) throw deviceNotPaired()
    if (!SAFE_METHODS.has(request.method)) assertSameOrigin(request, this.deps.publicOrigin)
    return device
  }

  /**
   * The operator API's caller (contract §3, §7): a Queue key in `Authorization: Bearer`, else a
   * paired desk by its cookie. With an Authorization header the cookie is not looked at. A desk
   * passes the same checks as a key, in the same order, with the Origin check right after the
   * credential: credential (401) → Origin (403, state-changing only) → scope → rate limit. A
   * desk's credential carries the clerk signed in at its counter (contract §16); with the unit's
   * `deskSignIn: required` and nobody signed in, its state-changing calls end there with 403
   * CLERK_SIGN_IN_REQUIRED (after the rate limit, so refused calls are bounded too).
   */
  operator(request: Request, scope: Scope, bucket: RateBucket, now: number): Credential {
    const { deps, ports } = this
    const secret = request.headers.has('authorization') ? null : deviceSecretOf(request)
    if (secret === null) return this.queueKey(request, scope, bucket, now)
    const device = ports.devices.authenticate(deps.credentials, secret, now)
    if (device === null || device.role !== 'desk') {
      throw new ApiError(401, AccessCodes.AUTHENTICATION_FAILED, 'this device is not a paired desk (or no longer): pair it again at /pair')
    }
    if (!SAFE_METHODS.has(request.method)) assertSameOrigin(request, deps.publicOrigin)
    // One prepared statement on every desk request (src/people/staff.ts).
    const { required, clerk } = ports.staff.deskClerk(device.queueUnitId!, device.counterId!)
    const caller = deskCredential(device, ports.devices.counterServiceIds(device.counterId!), clerk)
    const limit = bucket === 'issue' ? DEFAULT_ISSUE_PER_MINUTE : DEFAULT_READ_PER_MINUTE
    admitRate(deps.limiter, bucket === 'issue' ? RateBuckets.queueIssue : RateBuckets.queueRead, `${caller.ownerId}/${caller.name}`, limit, now,
      (retry) => `over ${limit} requests per minute for this desk; retry after ${retry} s`)
    if (required && clerk === null && !SAFE_METHODS.has(request.method)) {
      throw new ApiError(403, AccessCodes.CLERK_SIGN_IN_REQUIRED, 'this queue unit requires a clerk signed in at the desk: sign in first')
    }
    return caller
  }

  /**
   * A display feed's reader (contract §6, §7): a display token (`Authorization: Bearer lbd_…` or
   * `?token=`), else, with no token and `request` given, a paired display by its cookie (read as
   * its workspace's credential); 401 otherwise.
   */
  display(token: string | null, request: Request | null): Credential {
    const { deps } = this
    const credential = deps.credentials.authenticate(token, 'display', deps.clock.now())
    if (credential === null) {
      const viewer = token === null && request !== null ? this.displayViewer(request) : null
      if (viewer !== null && viewer.queueUnitId === null) return { ...NO_LISTS, id: viewer.credentialId, kind: 'device', ownerId: viewer.workspaceId, name: viewer.name }
      throw new ApiError(401, AccessCodes.AUTHENTICATION_FAILED, 'a valid display token (lbd_…) or a paired display is required on display routes')
    }
    return credential
  }

  /**
   * A paired device reading display feeds by its cookie (contract §7): a display reads what a
   * display token may (its workspace); a desk only its own queue unit's live state, which is how
   * the desk page hears of changes. Null for anything else. No token is ever read from a cookie.
   */
  displayViewer(request: Request): DisplayViewer | null {
    const secret = deviceSecretOf(request)
    const device = this.ports.devices.authenticate(this.deps.credentials, secret, this.deps.clock.now())
    if (device === null || secret === null) return null
    if (device.role === 'display') return { credentialId: device.credentialId, name: device.name, workspaceId: device.workspaceId, queueUnitId: null, secret }
    // A desk and a kiosk read their own unit's queue topic (their pages re-read their view on each change).
    if (device.role === 'desk' || device.role === 'kiosk') return { credentialId: device.credentialId, name: device.name, workspaceId: device.workspaceId, queueUnitId: device.queueUnitId, secret }
    return null
  }

  /**
   * The signed-in user of the request's session cookie, 401 otherwise; a state-changing request
   * must also carry this server's Origin (403 ORIGIN_FORBIDDEN), checked right after the session.
   */
  async session(request: Request): Promise<Session> {
    const sessionId = sessionIdOf(request)
    const found = await this.ports.people.authenticate(sessionId, this.deps.clock.now())
    if (found === null || sessionId === null) throw notSignedIn()
    if (!SAFE_METHODS.has(request.method)) assertSessionOrigin(request, this.deps.publicOrigin)
    return { ...found, sessionId }
  }

  /**
   * Who may use the admin API (contract §16, §17). The session cookie only: 401 without one
   * (an `Authorization` key or a device cookie is never read here) and 403 ORIGIN_FORBIDDEN for
   * a write from another origin. Then the role: an admin may do everything; a manager the
   * configuration of its own queue units; a clerk nothing (403 ROLE_FORBIDDEN). `admin`: only
   * an administrator (users, keys, webhooks: 403 ROLE_FORBIDDEN for a manager).
   */
  async consoleCaller(request: Request, who: 'console' | 'admin'): Promise<ConsoleCaller> {
    const { user } = await this.session(request)
    if (user.role === 'clerk') throw new ApiError(403, AccessCodes.ROLE_FORBIDDEN, 'a clerk may not use the administration console')
    if (who === 'admin' && user.role !== 'admin') throw new ApiError(403, AccessCodes.ROLE_FORBIDDEN, 'only an administrator may do this')
    return { user, actor: { type: 'user', id: user.username }, units: user.role === 'admin' ? null : user.queueUnits }
  }

  /**
   * The one check of who may read reports by a credential (contract §12, §7): a Queue key in
   * `Authorization: Bearer` with the `reports:read` scope (401 / 403 SCOPE_FORBIDDEN / 429 as
   * every Queue route), seeing its unit within its location and service lists; else a paired
   * `reports` device by its `lobby_device` cookie, seeing its whole unit. With an Authorization
   * header the cookie is not looked at (a bearer key is never read from a cookie). The report
   * routes only read, so a device needs no Origin check.
   */
  private reportsCredential(request: Request, now: number): ReportReader {
    const { deps } = this
    const secret = request.headers.has('authorization') ? null : deviceSecretOf(request)
    if (secret === null) {
      const caller = this.queueKey(request, Scopes.REPORTS_READ, 'read', now)
      return { queueUnitIds: [caller.ownerId], locations: caller.locations, services: caller.services, credentialId: caller.id }
    }
    const device = this.ports.devices.authenticate(deps.credentials, secret, now)
    if (device === null || device.role !== 'reports' || device.queueUnitId === null) {
      throw new ApiError(401, AccessCodes.AUTHENTICATION_FAILED, 'this device is not a paired reports device (or no longer): pair it again at /pair, or send a Queue key with reports:read')
    }
    // The device's own window (a `/` no key name has), at the Queue keys' default read limit.
    admitRate(deps.limiter, RateBuckets.queueRead, `${device.queueUnitId}/device/${device.name}`, DEFAULT_READ_PER_MINUTE, now,
      (retry) => `over ${DEFAULT_READ_PER_MINUTE} reads per minute for this device; retry after ${retry} s`)
    return { queueUnitIds: [device.queueUnitId], locations: null, services: null, credentialId: device.credentialId }
  }

  /**
   * Who may read the reports (contract §12, §16, §24 "Reports for people"), every report route
   * and the /reports page's reads: a Queue key with `reports:read` or a paired `reports` device,
   * each its one unit; or a signed-in manager (the units of its `queueUnits`) or admin (every
   * unit) by the `lobby_session` cookie, limited per person as a credential is (its read
   * window, 600 a minute). A clerk's session is 403 ROLE_FORBIDDEN. The credential comes from
   * the headers only (these are GETs). With an Authorization header the cookies are not looked
   * at. A browser with both cookies is read as the device when that is a paired reports device
   * (the page's credential on a paired PC), else as the session: a manager signed in on a
   * browser paired as a desk still reads reports.
   */
  async reportReader(request: Request, now: number): Promise<ReportReader> {
    const bySession = !request.headers.has('authorization') && sessionIdOf(request) !== null
    if (!bySession || deviceSecretOf(request) !== null) {
      try {
        return this.reportsCredential(request, now)
      } catch (error) {
        // Not a paired reports device, but a session cookie beside it: the session decides.
        if (!(bySession && error instanceof ApiError && error.status === 401)) throw error
      }
    }
    const { user } = await this.session(request)
    if (user.role === 'clerk') throw new ApiError(403, AccessCodes.ROLE_FORBIDDEN, 'a clerk may not read reports: sign in as a manager or an administrator')
    const credentialId = `user/${user.id}`
    admitRate(this.deps.limiter, RateBuckets.queueRead, credentialId, DEFAULT_READ_PER_MINUTE, now,
      (retry) => `over ${DEFAULT_READ_PER_MINUTE} reads per minute for this person; retry after ${retry} s`)
    return { queueUnitIds: user.role === 'admin' ? null : user.queueUnits, locations: null, services: null, credentialId }
  }

  /**
   * Who may read the staff report (contract §16): every report reader, except that a key
   * limited to some locations or services is 403 SCOPE_FORBIDDEN: the clerks' figures are the
   * whole unit's, they cannot be cut to a location or a service.
   */
  async staffReportReader(request: Request, now: number): Promise<ReportReader> {
    const reader = await this.reportReader(request, now)
    if (reader.locations !== null || reader.services !== null) {
      throw new ApiError(403, AccessCodes.SCOPE_FORBIDDEN, 'the staff report covers whole queue units: this key is limited to some locations or services')
    }
    return reader
  }

  /** The range-read limit (contract §23), after the reader's own read limit. */
  rangeRead(credentialId: string, now: number): void {
    admitRate(this.deps.limiter, RateBuckets.reportRange, credentialId, REPORT_RANGE_READS_PER_MINUTE, now,
      (retry) => `over ${REPORT_RANGE_READS_PER_MINUTE} report range reads per minute for this credential; retry after ${retry} s`)
  }

  /**
   * The feedback report's limit: 30 a minute per credential as a range read, in its own window
   * (contract §23 "Expensive reads"): one load of the /reports page makes five range reads, and
   * the ratings (a few rows a day from their own table) need not eat the roll-up reads' budget.
   */
  feedbackRead(credentialId: string, now: number): void {
    admitRate(this.deps.limiter, RateBuckets.reportFeedback, credentialId, REPORT_RANGE_READS_PER_MINUTE, now,
      (retry) => `over ${REPORT_RANGE_READS_PER_MINUTE} feedback report reads per minute for this credential; retry after ${retry} s`)
  }

  /**
   * Contract §21: "queue key scope `appointments:write`, or a desk, manager or admin". With an
   * `Authorization` header or a device cookie: the operator API's caller (a Queue key with
   * `appointments:write`, else 403 SCOPE_FORBIDDEN; a paired desk, limited to its location and its
   * counter's services; 401 / Origin / rate limit as every operator route). Else the
   * `lobby_session` cookie: a manager (its units) or an admin (every unit); a clerk's session is
   * 403 ROLE_FORBIDDEN (a clerk works through the desk). A state-changing request by cookie must
   * carry this server's Origin (403 ORIGIN_FORBIDDEN). The session is found first (it is
   * asynchronous); what is returned is the rest of the checks, run as the route's header checks
   * before its body.
   */
  async appointmentCaller(request: Request, bucket: RateBucket, now: number): Promise<() => AppointmentCaller> {
    const bySession = !request.headers.has('authorization') && deviceSecretOf(request) === null && sessionIdOf(request) !== null
    if (!bySession) {
      return () => {
        const caller = this.operator(request, Scopes.APPOINTMENTS_WRITE, bucket, now)
        return {
          scope: { queueUnitIds: [caller.ownerId], locations: caller.locations, services: caller.services },
          who: { actor: encodeActor(actorOf(caller)), credentialId: caller.id },
          keyScope: credentialScope(caller),
        }
      }
    }
    const { user } = await this.session(request)
    return () => {
      if (user.role === 'clerk') {
        throw new ApiError(403, AccessCodes.ROLE_FORBIDDEN, 'a clerk may not manage appointments from a session: use a paired desk, or sign in as a manager or an administrator')
      }
      admitRate(this.deps.limiter, RateBuckets.queueRead, `user/${user.id}`, DEFAULT_READ_PER_MINUTE, now,
        (retry) => `over ${DEFAULT_READ_PER_MINUTE} requests per minute for this user; retry after ${retry} s`)
      return {
        scope: { queueUnitIds: user.role === 'admin' ? null : user.queueUnits, locations: null, services: null },
        who: { actor: encodeActor({ type: 'user', id: user.username }), credentialId: null },
        keyScope: `user/${user.id}`,
      }
    }
  }
}

/**
 * A desk as the operator API's caller: its counter's queue unit, location and services (as
 * provisioned now), bound to that one counter. `name` carries a `/`, which no key name may,
 * so a desk never shares a rate window or an Idempotency-Key scope with a queue key.
 */
export function deskCredential(device: Device, serviceIds: string[], clerk: Credential['clerk'] = null): Credential {
  return {
    id: device.credentialId,
    kind: 'device',
    ownerId: device.queueUnitId!,
    name: `device/${device.name}`,
    scopes: ['counter:operate', 'services:read', 'tickets:read', 'tickets:write', 'state:read'],
    locations: [device.locationId!],
    services: serviceIds,
    counters: [device.counterId!],
    issuePerMinute: DEFAULT_ISSUE_PER_MINUTE,
    readPerMinute: DEFAULT_READ_PER_MINUTE,
    clerk,
  }
}

export function deviceNotPaired(): ApiError {
  return new ApiError(401, AccessCodes.AUTHENTICATION_FAILED, 'this device is not paired (or no longer): pair it again at /pair')
}

export function notSignedIn(): ApiError {
  return new ApiError(401, AccessCodes.AUTHENTICATION_FAILED, 'not signed in (or the session ended): sign in at /login')
}
