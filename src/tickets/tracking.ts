import { orderedBase32, randomToken } from '../platform/ids'

/**
 * Contract §10: every ticket gets a tracking code at issue, the capability of its phone page
 * `/t/{code}`: 24 characters of `a-z2-7` (lowercase base32), safe in a URL and in a QR code.
 *
 * - 4 characters of the minute of issue (minutes since 1970 modulo 2^20, about two years, in
 *   an alphabet that sorts like its value), then
 * - 20 characters of Web Crypto randomness: 100 random bits (the contract asks for ≥ 96).
 *
 * Why the minute: `tickets_tracking_code` is a unique index, and fully random codes put every
 * issue on a random leaf page of it: with group commit, one more page written per ticket (the
 * bench's issue measured 15 µs of 520 µs for it). Codes of the same minute sit side by side,
 * so a commit's tickets share a page. The minute says nothing the ticket page does not show.
 */
export const TRACKING_CODE_RANDOM_BITS = 100

/** The shape of a tracking code (also what the phone routes accept before any lookup). */
export const TRACKING_CODE_PATTERN = /^[a-z2-7]{24}$/

const MINUTE_MS = 60_000
/** 4 base32 characters hold 2^20 minutes: the prefix starts again about every two years. */
const MINUTE_DIGITS = 4

/** The 4-character minute part of a code issued at `now`. */
export function trackingMinute(now: number): string {
  return orderedBase32(Math.floor(now / MINUTE_MS), MINUTE_DIGITS)
}

export function newTrackingCode(now: number = Date.now()): string {
  // 13 random bytes are 104 bits in 21 characters; the first 20 carry exactly 100 of them.
  return trackingMinute(now) + randomToken(Math.ceil(TRACKING_CODE_RANDOM_BITS / 8)).slice(0, TRACKING_CODE_RANDOM_BITS / 5)
}

/** The phone page of a tracking code: a path only (contract §10); the host is the caller's. */
export function trackingPath(code: string): string {
  return `/t/${code}`
}
