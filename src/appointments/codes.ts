import { admitRate, type RateBucket } from '../platform/admission'
import { ApiError } from '../platform/errors'
import type { RateLimiter } from '../platform/rate-limit'
import { AppointmentCodes } from './errors'

/** Contract §27: wrong booking codes on any `/b/{code}` route, per client address a minute. */
export const WRONG_CODES_PER_ADDRESS = 10
/** … and from all addresses together a minute. */
export const WRONG_CODES_OVERALL = 100
/** Addresses remembered as refused at once (each ~100 bytes); past it the oldest is forgotten. */
export const REFUSED_ADDRESSES_MAX = 100_000

const PER_ADDRESS = { name: 'book:wrong-code:address', perAddress: true } as const satisfies RateBucket
const OVERALL = { name: 'book:wrong-code:all' } as const satisfies RateBucket

/** The `details` path that marks a refusal for wrong codes (the pages say it in their own words). */
export const WRONG_CODE_PATH = '/code'

const message = (retry: number) => `too many wrong booking codes; retry after ${retry} s`

function tooManyWrongCodes(retryAfterSeconds: number): ApiError {
  return new ApiError(429, AppointmentCodes.RATE_LIMITED, message(retryAfterSeconds),
    [{ path: WRONG_CODE_PATH, message: `at most ${WRONG_CODES_PER_ADDRESS} wrong booking codes a minute per address and ${WRONG_CODES_OVERALL} overall` }],
    { 'retry-after': String(retryAfterSeconds) })
}

/** Whether `error` is the refusal of `BookingCodes.find` for wrong codes. */
export function isWrongCodeRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.status === 429 && error.details?.[0]?.path === WRONG_CODE_PATH
}

/**
 * The booking code as a capability (contract §27 "Booking codes"): every `/b/{code}` route finds
 * its booking through `find`. A wrong code counts against the caller's address (10 a minute) and
 * against everyone's (100 a minute); beyond either it is 429 `RATE_LIMITED` with `Retry-After`
 * instead of 404. A right code is never counted.
 *
 * A right code past a limit (docs/decisions.md "Booking codes"): the overall limit never stops
 * one, so a guesser elsewhere cannot lock every customer out of their booking. An address past
 * its own limit is refused for every code, right or wrong, until its Retry-After: were its right
 * codes let through, the 429 itself would tell a wrong code from a right one and the limit
 * would not slow a guesser at all (only the page's 600 reads a minute would).
 */
export class BookingCodes<Row> {
  /** Address → until when (ms) it is refused for every code. Insertion order is age. */
  private readonly refused = new Map<string, number>()

  constructor(private readonly limiter: RateLimiter, private readonly lookup: (code: string) => Row | null, private readonly maxRefused = REFUSED_ADDRESSES_MAX) {}

  /** Addresses currently remembered as refused (tests: the bound). */
  get refusedAddresses(): number {
    return this.refused.size
  }

  /** The row `code` names; 404 `APPOINTMENT_NOT_FOUND` for a wrong one, 429 past a limit. */
  find(code: string, address: string, now: number): Row {
    const until = this.refused.get(address)
    if (until !== undefined) {
      if (now < until) throw tooManyWrongCodes(Math.max(1, Math.ceil((until - now) / 1000)))
      this.refused.delete(address)
    }
    const row = this.lookup(code)
    if (row !== null) return row
    try {
      admitRate(this.limiter, PER_ADDRESS, address, WRONG_CODES_PER_ADDRESS, now, message)
    } catch (error) {
      const retry = Number((error as ApiError).headers?.['retry-after'] ?? 60)
      this.remember(address, now + retry * 1000)
      throw tooManyWrongCodes(retry)
    }
    try {
      admitRate(this.limiter, OVERALL, null, WRONG_CODES_OVERALL, now, message)
    } catch (error) {
      throw tooManyWrongCodes(Number((error as ApiError).headers?.['retry-after'] ?? 60))
    }
    throw new ApiError(404, AppointmentCodes.APPOINTMENT_NOT_FOUND, 'no booking with this code')
  }

  private remember(address: string, until: number): void {
    this.refused.delete(address)
    if (this.refused.size >= this.maxRefused) this.refused.delete(this.refused.keys().next().value as string)
    this.refused.set(address, until)
  }
}
