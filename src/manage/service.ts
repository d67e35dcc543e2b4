import type { ManageDeps } from './deps'
import type { Credential } from '../platform/credentials'
import { ApiError } from '../platform/errors'
import { appendAudit } from '../platform/audit'
import type { BackgroundTask } from '../platform/lifecycle'
import type { User } from '../people'
import type { CounterService } from '../counters'
import type { AppointmentService } from '../appointments'
import { LiveHub } from '../display'
import { FloorModel, type FloorState } from './floor'
import { WaitTargetWatch } from './watch'
import { ManageCodes } from './errors'
import type { CounterChanged, ManagedUnits } from './model'

/** Roles that may watch the floor (contract §16: the live view is a manager's, and an admin may do everything). */
export const FLOOR_ROLES: ReadonlySet<string> = new Set(['admin', 'manager'])

/**
 * A floor change reaches the open views at most this long after its COMMIT: changes of a unit
 * arriving together (a burst of ticket issues) make one snapshot and one message, so the cost of
 * the views does not grow with the rate of changes (contract §22 asks for 1 second).
 */
export const FLOOR_PUBLISH_MS = 150

export function roleForbidden(): ApiError {
  return new ApiError(403, ManageCodes.ROLE_FORBIDDEN, 'the live floor is for managers and administrators')
}

function unitNotFound(queueUnitId: string): ApiError {
  return new ApiError(404, ManageCodes.QUEUE_UNIT_NOT_FOUND, `no queue unit "${queueUnitId.slice(0, 64)}" among yours`)
}

/**
 * The live floor (contract §22), free of HTTP: who may watch which unit, the floor of a unit
 * (FloorModel, once per revision), the views' websocket hub and what feeds it, the wait-target
 * watch, and a manager's open and close of a counter (the counters service's own rules,
 * attributed to the person and audited in the same transaction).
 */
export class ManageService {
  readonly floor: FloorModel
  readonly watch: WaitTargetWatch
  /** The views' websockets: the display hub's machinery (bounds, heartbeats, re-checks), its `queue` topic reading the floor. */
  readonly hub: LiveHub
  private readonly due = new Set<string>()
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(private readonly deps: ManageDeps, private readonly counters: CounterService, appointments: Pick<AppointmentService, 'list'>) {
    this.floor = new FloorModel(deps, appointments, (unit) => this.changed(unit))
    this.hub = new LiveHub({
      log: deps.log,
      maxSocketsPerCredential: deps.limits.socketsPerCredential,
      maxSockets: deps.limits.socketsTotal,
      messageBurst: deps.limits.socketMessageBurst,
      messageRefillMs: deps.limits.socketMessageRefillMs,
    })
    this.hub.register('queue', (id) => {
      const state = this.floor.state(id)
      return state === null ? null : { revision: state.revision, dataJson: state.json }
    })
    this.watch = new WaitTargetWatch(deps, this.floor, (unit) => this.changed(unit))
  }

  /** The person may watch the floor at all (admin or manager); 403 otherwise. */
  assertRole(user: User): void {
    if (!FLOOR_ROLES.has(user.role)) throw roleForbidden()
  }

  mayWatch(user: User, queueUnitId: string): boolean {
    return user.role === 'admin' || (user.role === 'manager' && user.queueUnits.includes(queueUnitId))
  }

  /** The units the person may watch, active ones, by ID. */
  units(user: User): ManagedUnits {
    this.assertRole(user)
    const all = this.floor.activeUnits()
    return {
      username: user.username,
      role: user.role as 'admin' | 'manager',
      data: all.filter((unit) => this.mayWatch(user, unit.id)),
    }
  }

  /** The unit's floor now, as the person may see it: 404 for a unit not theirs (or unknown). */
  floorOf(user: User, queueUnitId: string): FloorState {
    this.assertRole(user)
    const state = this.mayWatch(user, queueUnitId) ? this.floor.state(queueUnitId) : null
    if (state === null) throw unitNotFound(queueUnitId)
    return state
  }

  /** A unit's floor changed (after its COMMIT): the views hear of it within `FLOOR_PUBLISH_MS`, once for a burst. */
  changed(queueUnitId: string): void {
    this.due.add(queueUnitId)
    this.timer ??= setTimeout(() => this.publishDue(), FLOOR_PUBLISH_MS)
  }

  /** Sends every due unit's floor to its views (read and encoded once per unit, by the hub). */
  publishDue(): void {
    this.timer = undefined
    const units = [...this.due]
    this.due.clear()
    for (const unit of units) this.hub.publish('queue', unit, '')
  }

  /**
   * `open` or `close` a counter of the unit, as the desk's buttons do (CounterService: the same
   * checks, the clerk's sign-out and break on a close with a reason, 409 COUNTER_BUSY while it
   * holds a ticket), in one write with its audit entry (`counter.open` / `counter.close`, actor
   * `user:<username>`).
   */
  async setCounter(user: User, queueUnitId: string, counterId: string, action: 'open' | 'close', reason: string | null, now: number): Promise<CounterChanged> {
    this.assertRole(user)
    if (!this.mayWatch(user, queueUnitId) || this.floor.state(queueUnitId) === null) throw unitNotFound(queueUnitId)
    const caller = managerCaller(user, queueUnitId)
    const actor = { type: 'user' as const, id: user.username }
    return this.deps.writes.run(() => {
      const before = this.counters.visibleCounter(caller, counterId)
      if (before === null) throw new ApiError(404, ManageCodes.COUNTER_NOT_FOUND, `no counter "${counterId.slice(0, 64)}" in this queue unit`)
      const clerk = this.deps.staff.deskClerk(queueUnitId, counterId).clerk
      const after = action === 'open'
        ? this.counters.openCounter(caller, counterId, now)
        : this.counters.closeCounter(caller, counterId, now, reason)
      appendAudit(this.deps.db.$client, {
        actor,
        action: `counter.${action}`,
        entity: { type: 'counter', id: counterId },
        before: { open: before.open, clerk: clerk?.username ?? null },
        after: { open: after.open, ...(action === 'close' ? { reason, clerkSignedOut: clerk?.username ?? null } : {}) },
      }, now)
      return { data: { counterId, open: after.open, busy: after.busy, actor } }
    })
  }

  /** The watch's timer and the pending publish, with the server (the hub's own timers and its closing at shutdown: `liveHubTask`, registered beside this). */
  task(): BackgroundTask {
    const watch = this.watch.task()
    return {
      start: () => watch.start?.(),
      beforeStop: () => {
        watch.beforeStop?.()
        clearTimeout(this.timer)
        this.timer = undefined
      },
    }
  }
}

/**
 * A manager's (or admin's) hand on the counters service: the unit's every location, service and
 * counter, as a key of the unit without lists would have. It is never stored or presented; it
 * only lets the counters service apply its own rules. Attribution is the person's (the audit
 * entry), not this object's.
 */
function managerCaller(user: User, queueUnitId: string): Credential {
  return {
    id: `user:${user.username}`,
    kind: 'queue',
    ownerId: queueUnitId,
    name: `user/${user.username}`,
    scopes: null,
    locations: null,
    services: null,
    issuePerMinute: null,
    readPerMinute: null,
    counters: null,
    clerk: null,
  }
}
