import { CommonCodes } from '../platform/errors'
import { QueueCodes } from '../queue'
import { DeviceCodes } from '../devices'
import type { ErrorExample } from '../platform/openapi'

/** Every error code the notification routes answer with (contract §25). */
export const NotificationCodes = {
  TICKET_NOT_FOUND: QueueCodes.TICKET_NOT_FOUND,
  RATE_LIMITED: CommonCodes.RATE_LIMITED,
  ORIGIN_FORBIDDEN: DeviceCodes.ORIGIN_FORBIDDEN,
  INVALID_JSON: CommonCodes.INVALID_JSON,
  VALIDATION_FAILED: CommonCodes.VALIDATION_FAILED,
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  NOT_FOUND: CommonCodes.NOT_FOUND,
  /** The workspace has not set up this channel (or web push at all). */
  CHANNEL_NOT_CONFIGURED: 'CHANNEL_NOT_CONFIGURED',
  /** The ticket has ended: nothing more will be sent for it. */
  TICKET_ENDED: 'TICKET_ENDED',
  /** A ticket holds at most this many contacts. */
  TOO_MANY_CONTACTS: 'TOO_MANY_CONTACTS',
} as const

export const NotificationErrorExamples = {
  TICKET_NOT_FOUND: 'no ticket has this code',
  RATE_LIMITED: 'too many changes; retry after 12 s',
  ORIGIN_FORBIDDEN: 'the phone page changes a ticket only from a page of this server (Origin does not match)',
  INVALID_JSON: 'request body is not valid JSON',
  VALIDATION_FAILED: { message: 'invalid contact', details: [{ path: '/to', message: 'not a phone number of GB (or +country code)' }] },
  PAYLOAD_TOO_LARGE: 'request body over 4096 bytes',
  AUTHENTICATION_FAILED: 'the reply is not signed with the inbound secret',
  NOT_FOUND: 'web push is not set up here',
  CHANNEL_NOT_CONFIGURED: 'this branch does not send SMS',
  TICKET_ENDED: 'this ticket has ended: there is nothing more to tell',
  TOO_MANY_CONTACTS: 'a ticket can have at most 3 contacts',
} as const satisfies Record<keyof typeof NotificationCodes, ErrorExample>
