/** Time comes in through deps so tests move it instead of sleeping. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

/** A clock a test sets and advances by hand. */
export class ManualClock implements Clock {
  constructor(private ms: number = Date.parse('2026-11-25T09:30:00.000Z')) {}
  now(): number {
    return this.ms
  }
  set(isoOrMs: string | number): void {
    this.ms = typeof isoOrMs === 'number' ? isoOrMs : Date.parse(isoOrMs)
  }
  advance(ms: number): void {
    this.ms += ms
  }
}

/** Contract §2: ISO 8601 UTC with milliseconds. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString()
}
export function isoOrNull(ms: number | null | undefined): string | null {
  return ms == null ? null : new Date(ms).toISOString()
}
