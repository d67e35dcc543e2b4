import type { DisplayDeps } from './deps'
import type { BackgroundTask } from '../platform/lifecycle'

/**
 * How often the watch looks: a board learns of an opening or a closing within this (plus the
 * push itself), inside the minute docs/display.md promises.
 */
export const OPENING_WATCH_MS = 15_000

/**
 * Openings and closings reach the boards (contract §18, docs/display.md "Opening hours").
 * `open` and `opensAt` in the queue state change with time, not with a write, and a board holds
 * the state of a revision (the websocket sends nothing new, `If-None-Match` answers 304, a
 * reconnect with `sinceRevision` gets nothing). So the revision itself moves: every
 * `OPENING_WATCH_MS` the watch reads each unit's open state (cheap: each line's state is cached
 * until its next opening or closing) and, where it differs from the last look, bumps the unit's
 * `stateRevision` (`tickets.touch`) in one write; the after-commit listeners push it to every
 * board, the kiosk and the phone pages, as any other change.
 *
 * A process remembers no look from before it started, and a server that was down across an
 * opening would leave boards on their old revision: the first look bumps every unit that has
 * hours at all (those that have none are always open and never change).
 */
export class OpeningWatch {
  private readonly seen = new Map<string, string>()
  private looked = false

  constructor(private readonly deps: Pick<DisplayDeps, 'tickets' | 'writes' | 'clock' | 'log'>) {}

  /** One look; returns the units whose revision it bumped. */
  check(): string[] {
    const looks = this.deps.tickets.openSignatures(this.deps.clock.now())
    const first = !this.looked
    const changed: string[] = []
    for (const look of looks) {
      const before = this.seen.get(look.queueUnitId)
      if (first ? look.timed : before !== undefined && before !== look.signature) changed.push(look.queueUnitId)
    }
    if (changed.length > 0) {
      this.deps.writes.now(() => {
        for (const unit of changed) this.deps.tickets.touch(unit)
      })
      if (!first) this.deps.log({ level: 'info', msg: 'opening hours: a service opened or closed', queueUnits: changed })
    }
    // Remembered only once the bump committed: a failed write is tried again at the next look.
    this.looked = true
    for (const look of looks) this.seen.set(look.queueUnitId, look.signature)
    return changed
  }

  /**
   * The watch while the server runs: a look once the start settled (its revisions bumps wait
   * out the first requests; a board that reconnects before hears them pushed), then every `everyMs`.
   */
  task(everyMs = OPENING_WATCH_MS): BackgroundTask {
    let timer: ReturnType<typeof setInterval> | undefined
    const look = () => {
      try {
        this.check()
      } catch (error) {
        // A busy or failing database now is not the end of the watch: the next look tries again.
        this.deps.log({ level: 'warn', msg: 'opening watch failed', error: String(error) })
      }
    }
    return {
      start: () => {
        timer = setInterval(look, everyMs)
      },
      startSettled: look,
      beforeStop: () => clearInterval(timer),
    }
  }
}
