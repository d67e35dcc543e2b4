import type { ManageDeps } from './deps'
import type { Actor } from '../platform/actor'
import type { BackgroundTask } from '../platform/lifecycle'
import type { WaitTargetExceeded } from '../webhooks'
import type { FloorModel, LineHead } from './floor'

/** Who writes `queue.wait_target_exceeded`: no person, the watch below. */
export const WAIT_WATCH_ACTOR: Actor = { type: 'system', id: 'wait-target-watch' }

/** How often the watch looks at the heads of the lines: a crossing is seen within this. */
export const WAIT_WATCH_MS = 1_000

/** One line's longest current wait, for `/metrics`. */
export interface LongestWait {
  queueUnitId: string
  locationId: string
  serviceId: string
  seconds: number
}

const lineKeyOf = (line: LineHead) => `${line.queueUnitId}\u0000${line.locationId}\u0000${line.serviceId}`

/**
 * Contract §22's wait-target alerts. A line's longest current wait only grows with time, and
 * only drops when its longest-waiting ticket leaves the line (a ticket change, which moves the
 * unit's revision): so the watch needs no work per request. Once a second it looks at the heads
 * of every active unit's lines, as the floor model keeps them in memory (`FloorModel.heads`:
 * one head read per line, again only when the unit's revision moved since, at most once a
 * second however many tickets were issued; never the floor's estimates): a line
 * whose head has waited past the service's `waitTargetSeconds` and was not over it at the last
 * look has crossed. Each crossing writes the webhook event once, in its own write, and moves the
 * floor's revision so every open view marks the line; the line may cross again only after a look
 * found it back within its target. Which lines are over is kept in memory: a restart looks again
 * and writes the event for a line that is over its target then (a crossing during downtime is
 * not lost; one seen just before a restart may be written twice).
 */
export class WaitTargetWatch {
  private readonly over = new Set<string>()
  private readonly unitsStmt

  constructor(
    private readonly deps: Pick<ManageDeps, 'db' | 'ids' | 'writes' | 'clock' | 'log' | 'outbox'>,
    private readonly floor: FloorModel,
    private readonly crossed: (queueUnitId: string) => void = () => {},
  ) {
    this.unitsStmt = deps.db.$client.query<{ id: string }, []>('SELECT id FROM queue_units WHERE active = 1 ORDER BY id')
  }

  /** One look at every active unit's lines at `now`; returns the events written (one per crossing). */
  check(now: number = this.deps.clock.now()): WaitTargetExceeded[] {
    const written: WaitTargetExceeded[] = []
    for (const { id } of this.unitsStmt.all()) {
      this.floor.turnDay(id, now)
      const heads = this.floor.heads(id)
      if (heads === null) continue
      let crossedHere = false
      for (const line of heads) {
        const key = lineKeyOf(line)
        const waitedMs = line.head === null ? 0 : now - line.head.waitingSince
        if (line.head === null || waitedMs <= line.waitTargetSeconds * 1000) {
          this.over.delete(key)
          continue
        }
        if (this.over.has(key)) continue
        this.over.add(key)
        const event: WaitTargetExceeded = {
          queueUnitId: line.queueUnitId,
          locationId: line.locationId,
          serviceId: line.serviceId,
          longestWaitSeconds: Math.floor(waitedMs / 1000),
          ticketNumber: line.head.ticketNumber,
          ticketId: line.head.ticketId,
          waitTargetSeconds: line.waitTargetSeconds,
        }
        const outbox = this.deps.outbox
        this.deps.writes.now(() => outbox.enqueueEvent(line.queueUnitId, 'queue.wait_target_exceeded', WAIT_WATCH_ACTOR, event.ticketId, event, now))
        this.deps.log({ level: 'info', msg: 'wait target exceeded', queueUnitId: event.queueUnitId, locationId: event.locationId, serviceId: event.serviceId, longestWaitSeconds: event.longestWaitSeconds })
        written.push(event)
        crossedHere = true
      }
      if (crossedHere) {
        this.floor.noteCrossing(id)
        this.crossed(id)
      }
    }
    return written
  }

  /** Every active line's longest current wait at `now` (0 when nobody waits): the heads in memory, rebuilt only where a unit changed. */
  longestWaits(now: number = this.deps.clock.now()): LongestWait[] {
    const out: LongestWait[] = []
    for (const { id } of this.unitsStmt.all()) {
      for (const line of this.floor.heads(id) ?? []) {
        out.push({
          queueUnitId: line.queueUnitId,
          locationId: line.locationId,
          serviceId: line.serviceId,
          seconds: line.head === null ? 0 : Math.max(0, Math.floor((now - line.head.waitingSince) / 1000)),
        })
      }
    }
    return out
  }

  /** Looks every `WAIT_WATCH_MS` while the server runs. */
  task(): BackgroundTask {
    let timer: ReturnType<typeof setInterval> | undefined
    return {
      start: () => {
        timer = setInterval(() => {
          try {
            this.check()
          } catch (error) {
            this.deps.log({ level: 'error', msg: 'wait-target watch failed', error: String(error) })
          }
        }, WAIT_WATCH_MS)
      },
      beforeStop: () => clearInterval(timer),
    }
  }
}
