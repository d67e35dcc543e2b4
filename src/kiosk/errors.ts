import { CommonCodes } from '../platform/errors'
import { QueueCodes } from '../queue/errors'

/** Every error code the kiosk routes answer with (contract §9, docs/kiosk.md). Tests import these. */
export const KioskCodes = {
  INVALID_JSON: CommonCodes.INVALID_JSON,
  INVALID_REQUEST: CommonCodes.INVALID_REQUEST,
  VALIDATION_FAILED: CommonCodes.VALIDATION_FAILED,
  PAYLOAD_TOO_LARGE: CommonCodes.PAYLOAD_TOO_LARGE,
  RATE_LIMITED: CommonCodes.RATE_LIMITED,
  AUTHENTICATION_FAILED: QueueCodes.AUTHENTICATION_FAILED,
  ORIGIN_FORBIDDEN: 'ORIGIN_FORBIDDEN',
  LOCATION_FORBIDDEN: QueueCodes.LOCATION_FORBIDDEN,
  SERVICE_FORBIDDEN: QueueCodes.SERVICE_FORBIDDEN,
  QUEUE_UNIT_INACTIVE: QueueCodes.QUEUE_UNIT_INACTIVE,
  QUEUE_UNIT_EDGE_MANAGED: QueueCodes.QUEUE_UNIT_EDGE_MANAGED,
  IDEMPOTENCY_KEY_REUSED: QueueCodes.IDEMPOTENCY_KEY_REUSED,
  TICKET_NOT_FOUND: QueueCodes.TICKET_NOT_FOUND,
} as const
