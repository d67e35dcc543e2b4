import { randomToken } from '../platform/ids'
import { ticketJson, type TicketRow } from './store'
import type { QueueTicket } from './model'

/**
 * Contract §10: every ticket gets a tracking code at issue, the capability of its phone page
 * `/t/{code}`. 15 random bytes from Web Crypto in lowercase base32: 120 bits, 24 characters of
 * `a-z2-7`, safe in a URL and in a QR code's alphanumeric-free byte mode alike.
 */
export const TRACKING_CODE_BYTES = 15

/** The shape of a tracking code (also what the phone routes accept before any lookup). */
export const TRACKING_CODE_PATTERN = /^[a-z2-7]{24}$/

export function newTrackingCode(): string {
  return randomToken(TRACKING_CODE_BYTES)
}

/** The phone page of a tracking code: a path only (contract §10); the host is the caller's. */
export function trackingPath(code: string): string {
  return `/t/${code}`
}

/** The ticket JSON the kiosk, the desk walk-in and the operator API answer: QueueTicket + `trackingUrl`. */
export type TrackedTicket = QueueTicket & { trackingUrl: string | null }

export function trackedTicketJson(row: TicketRow): TrackedTicket {
  return { ...ticketJson(row), trackingUrl: row.trackingCode === null ? null : trackingPath(row.trackingCode) }
}
