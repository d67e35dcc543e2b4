/**
 * The phone polls waiting for a change (contract §10, §23), grouped by tracking code and by
 * queue unit, so a change of a unit costs one unit computation and one status per distinct
 * code, however many polls wait; at most `maxPerCode` polls wait per code.
 */

/** A status answer and its version (the poll's `since`). */
export interface PollAnswer<S> {
  status: S
  version: string
}

/** What the waits need to answer: the status of a code now, computed by the caller's rules. */
export interface WaitReader<S, U> {
  /** The unit's shared view, built once per change (the phone service's `unitView`). */
  unit(queueUnitId: string): U
  /** The code's answer now with its unit's view; throws (e.g. 404) when the ticket is gone. */
  answer(code: string, unit: U): PollAnswer<S>
}

interface Waiter<S> {
  since: string
  resolve(answer: PollAnswer<S>): void
  reject(error: unknown): void
  timer: ReturnType<typeof setTimeout> | undefined
}

interface CodeWaits<S> {
  queueUnitId: string
  waiters: Set<Waiter<S>>
}

export interface PhoneWaitsOptions {
  /** How long a poll waits before it is answered with the same status. */
  timeoutMs: number
  /** Polls that may wait on one code at once; the next is answered at once (default 4). */
  maxPerCode?: number
  /** Timers, injected by tests. */
  setTimer?: (callback: () => void, ms: number) => ReturnType<typeof setTimeout>
  clearTimer?: (timer: ReturnType<typeof setTimeout>) => void
}

export class PhoneWaits<S, U> {
  private readonly codes = new Map<string, CodeWaits<S>>()
  private readonly units = new Map<string, Set<string>>()
  private readonly maxPerCode: number
  private readonly setTimer: NonNullable<PhoneWaitsOptions['setTimer']>
  private readonly clearTimer: NonNullable<PhoneWaitsOptions['clearTimer']>
  private stopping = false

  constructor(private readonly reader: WaitReader<S, U>, private readonly options: PhoneWaitsOptions) {
    this.maxPerCode = options.maxPerCode ?? 4
    this.setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms))
    this.clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer))
  }

  /** Polls waiting now, in all. */
  get waiting(): number {
    let n = 0
    for (const entry of this.codes.values()) n += entry.waiters.size
    return n
  }

  /**
   * Waits until the code's answer differs from `current` (whose version is the poll's `since`),
   * or `timeoutMs`, or `signal` aborts (the client left). Answered at once with `current` when
   * the code already has `maxPerCode` polls waiting, or the server is stopping.
   */
  wait(code: string, queueUnitId: string, current: PollAnswer<S>, signal?: AbortSignal): Promise<PollAnswer<S>> {
    let entry = this.codes.get(code)
    if (this.stopping || (entry !== undefined && entry.waiters.size >= this.maxPerCode) || signal?.aborted) return Promise.resolve(current)
    if (entry === undefined) {
      entry = { queueUnitId, waiters: new Set() }
      this.codes.set(code, entry)
      let unit = this.units.get(queueUnitId)
      if (unit === undefined) this.units.set(queueUnitId, (unit = new Set()))
      unit.add(code)
    }
    const codeWaits = entry
    return new Promise<PollAnswer<S>>((resolve, reject) => {
      const waiter: Waiter<S> = { since: current.version, resolve, reject, timer: undefined }
      const abort = () => {
        // The client is gone: nobody reads the answer, so nothing is computed for it.
        this.remove(code, codeWaits, waiter)
        resolve(current)
      }
      waiter.resolve = (answer) => {
        signal?.removeEventListener('abort', abort)
        resolve(answer)
      }
      waiter.reject = (error) => {
        signal?.removeEventListener('abort', abort)
        reject(error)
      }
      waiter.timer = this.setTimer(() => {
        this.remove(code, codeWaits, waiter)
        this.settle(waiter, () => this.reader.answer(code, this.reader.unit(queueUnitId)))
      }, this.options.timeoutMs)
      signal?.addEventListener('abort', abort, { once: true })
      codeWaits.waiters.add(waiter)
    })
  }

  /**
   * A committed change of the unit: its view is built once, each waiting code's answer once,
   * and the polls whose version it no longer is are answered.
   */
  changed(queueUnitId: string): void {
    this.answerUnit(queueUnitId, false)
  }

  /** Shutdown: every waiting poll is answered now with its current status, and new ones at once. */
  answerAll(): void {
    this.stopping = true
    for (const queueUnitId of [...this.units.keys()]) this.answerUnit(queueUnitId, true)
  }

  private answerUnit(queueUnitId: string, all: boolean): void {
    const codes = this.units.get(queueUnitId)
    if (codes === undefined || codes.size === 0) return
    let unit: U | undefined
    for (const code of [...codes]) {
      const entry = this.codes.get(code)
      if (entry === undefined) continue
      let answer: PollAnswer<S> | undefined
      let failure: unknown
      try {
        answer = this.reader.answer(code, (unit ??= this.reader.unit(queueUnitId)))
      } catch (error) {
        failure = error
      }
      for (const waiter of [...entry.waiters]) {
        if (answer !== undefined && !all && answer.version === waiter.since) continue
        this.remove(code, entry, waiter)
        if (answer !== undefined) waiter.resolve(answer)
        else waiter.reject(failure)
      }
    }
  }

  private settle(waiter: Waiter<S>, compute: () => PollAnswer<S>): void {
    try {
      waiter.resolve(compute())
    } catch (error) {
      waiter.reject(error)
    }
  }

  private remove(code: string, entry: CodeWaits<S>, waiter: Waiter<S>): void {
    if (waiter.timer !== undefined) this.clearTimer(waiter.timer)
    entry.waiters.delete(waiter)
    if (entry.waiters.size > 0 || this.codes.get(code) !== entry) return
    this.codes.delete(code)
    const unit = this.units.get(entry.queueUnitId)
    unit?.delete(code)
    if (unit?.size === 0) this.units.delete(entry.queueUnitId)
  }
}
